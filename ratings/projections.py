"""The `person-ratings` projection: every finished rated game, in global order (the order the
matches ended), into its people's PersonRating and PersonRatingChange rows.

A rated game is one whose settings say so (GameSettings.rated, written once when the game is
made); a practice deal never is. Only the people are rated, each in the game's pool
(ratings/pools.py): the bots' seats are left out and the people placed among themselves
(forfeited seats last, games.match_outcomes.match_outcome), then one Plackett-Luce update of the
ladders' model (league/ratings.py), after the decay for each person's time away. A game with
fewer than two people, or a person in two seats, rates nobody.

It reads the game's own stream, its settings, variant and seats (rows that never change once
the game exists) and the time of the match-ended event, so `projections rebuild
person-ratings` reproduces every figure exactly.
"""

from __future__ import annotations

from collections import Counter

from engine.events import MATCH_ENDED
from games.event_records import Record
from games.game_settings import GameSettings
from games.match_outcomes import match_outcome
from games.models import Game, Seat
from games.projections import Projection, insert_rows, register
from league import ratings
from ratings.models import PersonRating, PersonRatingChange
from ratings.pools import people_places, pool_of


@register
class PersonRatings(Projection):
    name = "person-ratings"
    tables = (PersonRating, PersonRatingChange)

    def begin(self, records: list[Record]) -> None:
        rows = Game.objects.filter(pk__in={r.game_id for r in records}).values_list(
            "pk", "context", "variant"
        )
        self.pools: dict[int, str] = {}
        for game, context, variant in rows:
            found = GameSettings.of(context)
            if found.rated and found.seed_chosen_by is None:
                self.pools[game] = pool_of(variant)
        # Each rated game's people: seat number -> user id (bots' seats are not here).
        self.people: dict[int, dict[int, int]] = {game: {} for game in self.pools}
        for game, number, user in Seat.objects.filter(
            game_id__in=list(self.pools), user__isnull=False
        ).values_list("game_id", "number", "user_id"):
            self.people[game][number] = user
        users = {user for seats in self.people.values() for user in seats.values()}
        self.ratings = {
            (row.user_id, row.family): row
            for row in PersonRating.objects.filter(
                user_id__in=users, family__in=set(self.pools.values())
            )
        }
        self.changes: list[PersonRatingChange] = []
        self.touched: set[tuple[int, str]] = set()

    def match_ended(self, record: Record) -> None:
        pool = self.pools.get(record.game_id)
        if pool is None:
            return
        people = self.people[record.game_id]
        if len(people) < 2 or max(Counter(people.values()).values()) > 1:
            return
        seats = sorted(people)
        places = people_places(match_outcome(record).places, seats)
        rows = [self._rating(people[seat], pool, record) for seat in seats]
        rated = ratings.rate_set(
            [ratings.Skill(row.mu, row.sigma) for row in rows],
            [row.rated_at for row in rows],
            [[place] for place in places],
            record.recorded_at,
        )
        shares = ratings.win_shares(places)
        for row, before, after, place, share in zip(
            rows, rated.before, rated.after, places, shares, strict=True
        ):
            row.mu, row.sigma = after.mu, after.sigma
            row.games += 1
            row.wins += share
            row.rated_at = record.recorded_at
            self.changes.append(
                PersonRatingChange(
                    user_id=row.user_id,
                    family=pool,
                    game_id=record.game_id,
                    position=record.position,
                    recorded_at=record.recorded_at,
                    mu_before=before.mu,
                    sigma_before=before.sigma,
                    mu=after.mu,
                    sigma=after.sigma,
                    place=place,
                    people=len(seats),
                )
            )

    handlers = {MATCH_ENDED: match_ended}

    def _rating(self, user: int, pool: str, record: Record) -> PersonRating:
        key = (user, pool)
        row = self.ratings.get(key)
        if row is None:
            # A newcomer: openskill's default skill, and no time away to decay.
            row = PersonRating(
                user_id=user,
                family=pool,
                mu=ratings.MU,
                sigma=ratings.SIGMA,
                rated_at=record.recorded_at,
            )
            self.ratings[key] = row
        self.touched.add(key)
        return row

    def finish(self) -> None:
        rows = [row for key, row in self.ratings.items() if key in self.touched]
        PersonRating.objects.bulk_update(
            [row for row in rows if row.pk is not None],
            ["mu", "sigma", "games", "wins", "rated_at"],
        )
        PersonRating.objects.bulk_create([row for row in rows if row.pk is None])
        insert_rows(PersonRatingChange, self.changes)
