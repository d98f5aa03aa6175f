"""An arena entrant's pause (tournaments/services.py `tournament_pause`, `tournament_resume`)
with every refusal typed and nothing changed by it; a knockout seeded by rating (a person's in
the pool of the tournament's family, a bot's on a ladder of that pool, a newcomer's for the
others) or drawn (`seed_by`)."""

from __future__ import annotations

import pytest
from django.utils import timezone

from league.models import Rating
from league.services import competition_join
from ratings.models import PersonRating
from tests.games.factories import make_user
from tests.league.factories import make_bot, make_competition
from tests.tournaments.factories import make_tournament
from tournaments import scheduling
from tournaments.errors import NotOrganiser, TournamentEntryRefused, TournamentRefused
from tournaments.models import Entry, Tournament
from tournaments.services import (
    tournament_enter,
    tournament_pause,
    tournament_resume,
    tournament_start,
    tournament_withdraw,
)

pytestmark = pytest.mark.django_db


def refused(call, *args, **kwargs) -> str:
    with pytest.raises((TournamentEntryRefused, NotOrganiser)) as error:
        call(*args, **kwargs)
    return error.value.code


def test_pausing_refuses_in_codes_and_changes_nothing_when_refused():
    ana, bea = make_user(), make_user()
    swiss = make_tournament(ana)
    tournament_enter(swiss, actor=ana, user=ana)
    assert refused(tournament_pause, swiss, actor=ana, user=ana) == "not-an-arena"

    arena = make_tournament(ana, format="arena", table_size=2)
    assert refused(tournament_pause, arena, actor=ana, user=ana) == "not-entered"
    tournament_enter(arena, actor=ana, user=ana)
    assert refused(tournament_resume, arena, actor=ana, user=ana) == "not-paused"
    assert refused(tournament_pause, arena, actor=bea, user=ana) == "not-organiser"
    assert not Entry.objects.get(tournament=arena, user=ana).paused

    # Paused before the start: the arena's first tables leave ana out.
    assert tournament_pause(arena, actor=ana, user=ana).paused
    assert refused(tournament_pause, arena, actor=ana, user=ana) == "already-paused"
    # Withdrawing and entering again starts afresh, unpaused.
    tournament_withdraw(arena, actor=ana, user=ana)
    assert not tournament_enter(arena, actor=ana, user=ana).paused
    tournament_pause(arena, actor=ana, user=ana)
    for _ in range(2):
        tournament_enter(arena, actor=ana, bot=make_bot())
    tournament_start(arena, actor=ana)
    (table,) = arena.round_set.get().tables.all()
    assert Entry.objects.get(tournament=arena, user=ana).pk not in table.entries

    resumed = tournament_resume(arena, actor=ana, user=ana)
    assert not resumed.paused and resumed.resumed_at is not None
    arena.status = Tournament.Status.FINISHED
    arena.save()
    assert refused(tournament_pause, arena, actor=ana, user=ana) == "tournament-finished"


def test_a_knockout_seeds_by_rating_in_its_familys_pool_or_by_draw():
    organiser = make_user()
    strong, middling, other_pool = make_user(), make_user(), make_user()
    now = timezone.now()
    for person, family, mu in (
        (strong, "official", 30.0),
        (middling, "official", 20.0),
        # A rating in another pool says nothing here: a newcomer's (0).
        (other_pool, "newno", 40.0),
    ):
        PersonRating.objects.create(
            user=person, family=family, mu=mu, sigma=3.0, games=20, rated_at=now
        )
    ladder = make_competition(variant={"rules": "official", "options": {"target": 50}})
    rated_bot, unrated_bot = make_bot(), make_bot()
    Rating.objects.create(
        competition=ladder,
        entry=competition_join(ladder, bot=rated_bot),
        mu=25.0,
        sigma=2.0,
        games=30,
        last_played=now,
        rated_at=now,
    )

    def cup(seed_by: str) -> Tournament:
        made = make_tournament(organiser, format="knockout", table_size=2, seed_by=seed_by)
        for person in (other_pool, middling, strong):
            tournament_enter(made, actor=person, user=person)
        for bot in (unrated_bot, rated_bot):
            tournament_enter(made, actor=organiser, bot=bot)
        tournament_start(made, actor=organiser)
        made.refresh_from_db()
        return made

    by_rating = cup("rating")
    entry = {(e.user_id or e.bot_id): e.pk for e in Entry.objects.filter(tournament=by_rating)}
    # strong 21, the ladder bot 19, middling 11, then the two newcomers (0) in the seed's draw.
    assert by_rating.seeding[:3] == [entry[strong.pk], entry[rated_bot.pk], entry[middling.pk]]
    assert set(by_rating.seeding[3:]) == {entry[other_pool.pk], entry[unrated_bot.pk]}
    # Five at tables of two: the three best seeds have the byes.
    assert by_rating.round_set.get().byes == by_rating.seeding[:3]

    drawn = cup("draw")
    ids = list(Entry.objects.filter(tournament=drawn).order_by("pk").values_list("pk", flat=True))
    standings = [scheduling.Standing(entrant=pk, points=0.0) for pk in ids]
    assert drawn.seeding == scheduling.knockout_seeds(standings, drawn.seed, drawn=True)

    with pytest.raises(TournamentRefused) as bad:
        make_tournament(organiser, format="knockout", seed_by="height")
    assert bad.value.code == "invalid-tournament"
