"""The repository: the one way a game is loaded, for every command and every view
(docs/event-store.md, "Loading a game").

`repository.get` answers with the game's row and its seats (one query, games/reads.py), its
variant, and its state at a version with that version, as pyeventsourcing's `Repository.get`
does: from this process's newest state of the game (games/recent.py), else from the newest
snapshot and the events after it (games/snapshots.py), else from the whole log, keeping a
snapshot at each multiple of `snapshots.EVERY` it folds past. A request that already holds the
game's row hands it in (`game=`), so the game and its seats are read once per request.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engine import RulesVersionMismatch, State, Variant
from games import event_reads, reads, recent, snapshots
from games.errors import InvalidGame
from games.models import Game

Event = dict[str, Any]


@dataclass(frozen=True, slots=True)
class Loaded:
    """A game as loaded: its row (with its seats), its variant, and its state after events
    1..version."""

    game: Game
    variant: Variant
    state: State
    version: int


class Repository:
    """Games, loaded from the event store through its caches (the module's docstring)."""

    def game(self, game_id: int, *, names: bool = False) -> Game:
        """The game's row with its seats in one query (with `names`, the seats' people and
        registered bots too); GameNotFound if there is none."""
        return reads.game_for(game_id, names=names)

    def get(
        self,
        game_id: int,
        *,
        until: int | None = None,
        game: Game | None = None,
        names: bool = False,
    ) -> Loaded:
        """The game at version `until` (default: the end of its log). `game` is game_id's row
        as `game` (the method) read it, when the caller has it already (read once)."""
        if game is None or game.pk != game_id:
            game = self.game(game_id, names=names)
        variant, state, version = self.state(game, until=until)
        return Loaded(game, variant, state, version)

    def saved(
        self, game: Game, version: int, variant: Variant, state: State, *, settled: int
    ) -> None:
        """An append of the game's decided events committed `state` at `version`: the next load
        in this process starts there. `settled`: the version the state was decided at, up to
        which its load kept the snapshots."""
        recent.keep(game, version, variant, state, settled=settled)

    def variant(self, game: Game, events: Sequence[Event] | None = None) -> Variant:
        """The variant the game's stream was recorded under (its first event says: `events`,
        the stream from its start, else read); InvalidGame `rules-version` for a stream of
        rules this engine does not play, never a silent re-read."""
        if not events:
            events = event_reads.load(game.pk, until=1)
        try:
            return Variant.from_stream(events[0], game.variant)
        except RulesVersionMismatch as error:
            raise InvalidGame(f"game {game.pk}: {error}", code="rules-version") from error

    def state(self, game: Game, *, until: int | None = None) -> tuple[Variant, State, int]:
        """The game's variant, its state at `until` and the version of that state.

        From the newest snapshot at or below `until` and the events after it, else from the
        whole log. A fold that passes a multiple of `snapshots.EVERY` keeps the state there as
        a new snapshot, so a load folds fewer than EVERY events more than the ones since the
        last load, however long the match. First of all, from this process's own newest state
        of the game, when it is at or below `until` and no snapshot is due since.
        """
        bound = game.version if until is None else until
        kept = recent.get(game, bound)
        if kept is not None and snapshots.due(kept.settled, bound) is None:
            # This process's own newest state of the game, and no snapshot to keep since it.
            if kept.version == bound:
                return kept.variant, kept.state, bound
            since = event_reads.load(game.pk, after=kept.version, until=until)
            folded = kept.variant.replay(since, kept.state)
            at = kept.version + len(since)
            recent.keep(game, at, kept.variant, folded, settled=bound)
            return kept.variant, folded, at
        # Snapshots sit at multiples of EVERY: a shorter log has none to look up.
        found = snapshots.newest(game.pk, until=until) if bound >= snapshots.EVERY else None
        if found is None:
            events = event_reads.load(game.pk, until=until)
            variant = self.variant(game, events)
            base, started, state = 0, events[0], None
        else:
            events = event_reads.load(game.pk, after=found.version, until=until)
            variant = self.variant(game, [found.started])
            base, started, state = found.version, found.started, found.state
        version = base + len(events)
        mark = snapshots.due(base, version)
        if mark is not None:
            folded = variant.replay(events[: mark - base], state)
            snapshots.keep(game.pk, mark, started, folded)
            events, state = events[mark - base :], folded
        if state is None or events:
            state = variant.replay(events, state)
        recent.keep(game, version, variant, state, settled=version)
        return variant, state, version


repository = Repository()
