"""When a game's whole log (seed, decks, every hand) is public: its match is over, it reveals
after the match, and, a ladder rotation of a duplicate-deal set, the whole set is over
(docs/ladders.md)."""

from __future__ import annotations

from engine import MATCH_OVER, PLAYING
from engine.events import GAME_ABORTED
from games.game_settings import GameSettings
from games.models import ArchivedStream, Game, GameEvent


def revealed(game: Game, status: str | None = None) -> bool:
    """Whether the game's whole log is public now, or at `status` (a status the caller has just
    decided, newer than the row's): its match is over, it reveals after the match, and, a
    ladder rotation, its whole set is over."""
    if (game.status if status is None else status) != MATCH_OVER:
        return False
    if game.reveal != Game.Reveal.AFTER_MATCH:
        return False
    found = GameSettings.of(game.context)
    if found.ladder_set is None or not found.set_size or found.set_size < 2:
        return True
    return set_over(found.ladder_set, found.set_size)


def set_over(ladder_set: int, size: int) -> bool:
    """Every rotation of a duplicate-deal set has ended, or staff aborted one (then no more
    are made). The rotations share one seed: a rotation's cards, shown early, would be the
    next rotation's (docs/ladders.md)."""
    games = Game.objects.filter(context__ladder_set=ladder_set)
    if games.filter(status=PLAYING).exists():
        return False
    ended = games.count()
    # Live rows first, then archived streams' types (docs/event-store.md, "Archived streams"):
    # a game archived between the two queries is seen on one side at least.
    aborted = (
        GameEvent.objects.filter(game__in=games, type=GAME_ABORTED).exists()
        or ArchivedStream.objects.filter(
            game__in=games, types__contains=f" {GAME_ABORTED} "
        ).exists()
    )
    return ended >= size or aborted
