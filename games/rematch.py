"""Rematch: after a match, the same table again.

A person who held a seat in a finished game offers it (`offer`); every other person of the
table accepts or declines (`answer`); bots, built-in or registered, accept at once. When every
person has accepted, the new game starts: the same rules and options, the same seats in the same
order (newno ranks them by age again), the same turn length and grace, a new random seed (so a
practice deal's rematch is a real deal). One offer per game: a decline ends it for good, and a
started rematch links the two games both ways (`Rematch.new_game`).

Only a game made by hand: a league fixture, a ladder game, a bot's validation game and the
demo's games come from their competition or service, which makes their next game itself
(`not-rematchable`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import transaction

from clocks import presence
from engine import MATCH_OVER
from games import lobby
from games.actors import Person
from games.creation import SeatSpec, game_create
from games.errors import Forbidden, GameNotFound, RematchRefused
from games.game_settings import GameSettings
from games.models import Game, Rematch, RematchAnswer, Seat
from games.reveal import aborted_of
from social.models import Notification
from social.notifications import game_url, mark_key_read, notify, reword_key

OPEN = Rematch.Status.OPEN
STARTED = Rematch.Status.STARTED
DECLINED = Rematch.Status.DECLINED


@dataclass(frozen=True, slots=True)
class Offer:
    """A rematch offer as every seat of the game may see it."""

    game: int
    status: str  # "none" (nobody offered yet), "open", "started" or "declined"
    offered_by: str | None
    # Per person of the table, by username: "accepted", "declined" or "waiting".
    answers: dict[str, str]
    new_game: int | None
    # Whether the game can have a rematch at all (over, made by hand, not aborted by the staff).
    possible: bool
    # Whether a staff abort ended it (then it has no rematch: the page says so).
    aborted: bool = False

    def as_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "status": self.status,
            "offered_by": self.offered_by,
            "answers": self.answers,
            "new_game": self.new_game,
            "possible": self.possible,
        }

    def waits_for(self, username: str) -> bool:
        return self.status == OPEN and self.answers.get(username) == "waiting"


def rematchable(game: Game) -> bool:
    """Whether a rematch may be offered once the game is over: a game made by hand."""
    found = GameSettings.of(game.context)
    return not found.kind and found.competition is None and not found.demo


def _aborted(game: Game) -> bool:
    """Whether a staff abort ended the game (its last event): the staff stopped that table for
    a reason (docs/operations.md), so it is not offered again as it was."""
    return game.pk in aborted_of([(game.pk, game.version)])


def state(game_id: int) -> Offer:
    """The game's rematch offer (status "none" when nobody offered one)."""
    game = _game(game_id)
    people = _people(game)
    rematch = Rematch.objects.filter(game=game).select_related("offered_by").first()
    aborted = game.status == MATCH_OVER and _aborted(game)
    possible = game.status == MATCH_OVER and rematchable(game) and not aborted
    if rematch is None:
        return Offer(game.pk, "none", None, {}, None, possible, aborted)
    said = {
        answer.user_id: answer.accepted for answer in RematchAnswer.objects.filter(rematch=rematch)
    }
    answers = {
        name: "waiting" if user_id not in said else "accepted" if said[user_id] else "declined"
        for user_id, name in people.items()
    }
    return Offer(
        game.pk, rematch.status, rematch.offered_by.username, answers, rematch.new_game_id, possible
    )


def offer(*, game_id: int, person: Person) -> Offer:
    """Offer the table again; the offerer accepts it. Starts the new game at once when nobody
    else at the table is a person."""
    with transaction.atomic():
        game = _game(game_id, lock=True)
        _check_seated(game, person)
        if game.status != MATCH_OVER:
            raise RematchRefused("the match is not over yet", code="not-over")
        if not rematchable(game):
            raise RematchRefused(
                "a league fixture, a ladder game or a validation game has no rematch: its "
                "competition makes the next game",
                code="not-rematchable",
            )
        if _aborted(game):
            raise RematchRefused(
                "the staff aborted this game: it has no rematch (start a new game instead)",
                code="aborted",
            )
        if Rematch.objects.filter(game=game).exists():
            raise RematchRefused(
                "a rematch of this game was offered already; answer it instead",
                code="already-offered",
            )
        rematch = Rematch.objects.create(game=game, offered_by=person)
        RematchAnswer.objects.create(rematch=rematch, user=person, accepted=True)
        _start_if_all_accepted(game, rematch, person)
        if rematch.status == OPEN:
            _tell_the_others(
                game,
                person,
                f"{person.username} offers a rematch of game {game.pk}",
                about=game.pk,
                key=_offer_key(game.pk),
            )
    return state(game_id)


def answer(*, game_id: int, person: Person, accept: bool) -> Offer:
    """Accept or decline the open offer. The last person to accept starts the new game; one
    decline ends the offer."""
    with transaction.atomic():
        game = _game(game_id, lock=True)
        _check_seated(game, person)
        rematch = Rematch.objects.filter(game=game).first()
        if rematch is None:
            raise RematchRefused("nobody has offered a rematch of this game", code="no-offer")
        if rematch.status != OPEN:
            raise RematchRefused(f"the rematch was {rematch.status} already", code="offer-closed")
        if RematchAnswer.objects.filter(rematch=rematch, user=person).exists():
            raise RematchRefused("you answered this offer already", code="already-answered")
        RematchAnswer.objects.create(rematch=rematch, user=person, accepted=accept)
        # Answered: the offer's notice is not news to them any more (they may answer on the
        # page they had open when the offer came, which did not mark it read).
        mark_key_read(person.pk, _offer_key(game.pk))
        if not accept:
            rematch.status = DECLINED
            rematch.save(update_fields=["status"])
            # Those who had not answered: their notice says the offer is over, not that it waits.
            reword_key(
                list(_people(game)),
                _offer_key(game.pk),
                f"{rematch.offered_by.username} offered a rematch of game {game.pk}: "
                f"{person.username} declined it",
            )
        else:
            _start_if_all_accepted(game, rematch, person)
    return state(game_id)


def open_offers_for(person: Person) -> list[Offer]:
    """The open offers that wait for the person's answer (the lobby lists them)."""
    waiting = (
        Rematch.objects.filter(status=OPEN, game__seats__user=person)
        .exclude(answers__user=person)
        .values_list("game_id", flat=True)
        .distinct()
    )
    return [state(game_id) for game_id in sorted(waiting)]


def _start_if_all_accepted(game: Game, rematch: Rematch, person: Person) -> None:
    accepted = set(
        RematchAnswer.objects.filter(rematch=rematch, accepted=True).values_list(
            "user_id", flat=True
        )
    )
    if not set(_people(game)) <= accepted:
        return
    seats = [
        SeatSpec(user=seat.user, bot=seat.bot if seat.registered_bot is None else "",
                          registered=seat.registered_bot)
        for seat in sorted(game.seats.all(), key=lambda seat: seat.number)
    ]  # fmt: skip
    if game.variant.get("rules") == "newno":
        seats = lobby.ranked_by_age(seats)
    old = GameSettings.of(game.context)
    new = game_create(
        variant_spec=game.variant,
        seats=seats,
        settings=GameSettings(turn_seconds=old.turn_seconds, grace_seconds=old.grace_seconds),
        actor=person,
    )
    # The one who started it is at the new table now (clocks/presence.py), before its first
    # append commits: the newno open start waits for them.
    presence.seen(person.pk, new.pk)
    rematch.status = STARTED
    rematch.new_game = new
    rematch.save(update_fields=["status", "new_game"])
    _tell_the_others(
        game,
        person,
        f"The rematch of game {game.pk} started: game {new.pk}",
        about=new.pk,
        key=f"rematch-started:{new.pk}",
    )


def _offer_key(game_id: int) -> str:
    """The key of an offer's notice to the others of the table."""
    return f"rematch:{game_id}"


def _game(game_id: int, *, lock: bool = False) -> Game:
    games = Game.objects.select_for_update() if lock else Game.objects
    game = games.filter(pk=game_id).first()
    if game is None:
        raise GameNotFound(game_id)
    return game


def _people(game: Game) -> dict[int, str]:
    """The people seated at the game, by user id: their usernames."""
    return dict(
        Seat.objects.filter(game=game, user__isnull=False)
        .order_by("number")
        .values_list("user_id", "user__username")
    )


def _check_seated(game: Game, person: Person) -> None:
    if not Seat.objects.filter(game=game, user=person).exists():
        raise Forbidden("you hold no seat in this game", code="not-a-player")


def _tell_the_others(game: Game, person: Person, text: str, *, about: int, key: str) -> None:
    """A rematch notice under the bell of every other person of the table
    (social/notifications.py), linking to game `about`."""
    for user_id in _people(game):
        if user_id != person.pk:
            notify(
                user_id,
                Notification.Kind.REMATCH,
                text,
                url=game_url(about),
                key=key,
                game=about,
            )
