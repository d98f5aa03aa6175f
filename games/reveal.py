"""When a game's whole log (seed, decks, every hand) is public: its match is over, it reveals
after the match, a ladder rotation of a duplicate-deal set: the whole set is over
(docs/ladders.md), and a game of a deal group (GameSettings.deal_group, a duplicate
tournament round's tables, docs/tournaments.md): no game of the group still plays."""

from __future__ import annotations

from collections.abc import Iterable

from django.db.models import Q

from engine import MATCH_OVER, PLAYING
from engine.events import GAME_ABORTED
from games.game_settings import GameSettings
from games.models import ArchivedStream, Game, GameEvent


def revealed(game: Game, status: str | None = None) -> bool:
    """Whether the game's whole log is public now, or at `status` (a status the caller has just
    decided, newer than the row's): its match is over, it reveals after the match, a ladder
    rotation: its whole set is over, and a game of a deal group: no other game of the group
    plays (one query, only for such games)."""
    if (game.status if status is None else status) != MATCH_OVER:
        return False
    if game.reveal != Game.Reveal.AFTER_MATCH:
        return False
    found = GameSettings.of(game.context)
    if found.deal_group is not None and group_playing(found.deal_group, but=game.pk):
        return False
    if found.ladder_set is None or not found.set_size or found.set_size < 2:
        return True
    return set_over(found.ladder_set, found.set_size)


def group_playing(deal_group: str, *, but: int | None = None) -> bool:
    """Whether a game of the deal group (other than `but`) is not over: its cards are those of
    the group's finished games, so their logs stay hidden until it ends. (`but`: the game
    asked about, whose row may still say playing when its caller has just ended it.)"""
    games = Game.objects.filter(context__deal_group=deal_group).exclude(status=MATCH_OVER)
    if but is not None:
        games = games.exclude(pk=but)
    return games.exists()


def deal_kept(game: Game) -> bool:
    """Whether only the game's own seats may watch it: a game of a deal group while any game of
    the group, itself among them, is not over. What any table shows a spectator in play (the
    discards, a hand's leftover cards) is the deal the other tables are still playing, and a
    spectator may be one of their players (signed in or not). One query, only for such games."""
    found = GameSettings.of(game.context)
    return found.deal_group is not None and group_playing(found.deal_group)


def set_over(ladder_set: int, size: int) -> bool:
    """Every rotation of a duplicate-deal set has ended, or staff aborted one (then no more
    are made). The rotations share one seed: a rotation's cards, shown early, would be the
    next rotation's (docs/ladders.md). One query on the games' `ladder_set` index, and one more
    for a set with rotations missing: whether one of its games ended by an abort (aborted_of)."""
    games = list(
        Game.objects.filter(context__ladder_set=ladder_set).values_list("pk", "status", "version")
    )
    if any(status == PLAYING for _, status, _ in games):
        return False
    if len(games) >= size:
        return True
    return bool(aborted_of([(pk, version) for pk, _, version in games]))


def aborted_of(games: Iterable[tuple[int, int]]) -> set[int]:
    """The games among these (id, version) pairs that a staff abort ended: whose event at that
    version, the last, is game-aborted (an aborted game is over, and nothing is appended to a
    match that is over). One lookup per game by its game and version, so it costs the same
    however long the matches and the log, never a scan of the log's events of that type; an
    archived game by its archived row's types."""
    last_events = Q()
    for pk, version in games:
        last_events |= Q(game_id=pk, version=version)
    if not last_events:
        return set()
    found = set(
        GameEvent.objects.filter(last_events, type=GAME_ABORTED).values_list("game_id", flat=True)
    )
    # An archived game's events are in its archived row, whose `types` names them
    # (docs/event-store.md, "Archived streams"): a game archived between the two queries is
    # seen on one side at least.
    archived = ArchivedStream.objects.filter(
        game_id__in=[pk for pk, _ in games], types__contains=f" {GAME_ABORTED} "
    )
    return found | set(archived.values_list("game_id", flat=True))
