"""`Variant`: the engine's public surface (docs/engine.md "Decide and evolve")."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from engine.cards import Card
from engine.commands import Command, free_commands
from engine.events import MATCH_STARTED, Event
from engine.rules import Precognitive, Ruleset, find_ruleset
from engine.rules.decision import Decision
from engine.rules.listing import quick_listing
from engine.rules.quick import Decided, quick_decide, quick_replay
from engine.state import Seat, State
from engine.view import event_view, state_view

SPEC_KEYS = frozenset({"rules", "options", "precognitive"})

# The version of the rules this engine plays, written into every match-started event. A change
# that would decide an old game's commands differently bumps it; a stream recorded under another
# version is refused (`from_stream`), never silently re-read under new rules. Streams written
# before the version was recorded carry none and are version 1.
RULES_VERSION = 1


class RulesVersionMismatch(ValueError):
    """A stream recorded under rules this engine does not play."""


class Variant:
    """A rule family with its options: starts games, decides commands, folds and shows events."""

    def __init__(self, ruleset: Ruleset) -> None:
        self.ruleset = ruleset
        # [(state, events, how many, folded state)] of the last decision; see `replay`.
        self._memo: list[Decided | None] = [None]
        # The ruleset's own methods, bound once: one call less per legal_commands and decide.
        self.legal_commands = ruleset.legal_commands  # type: ignore[method-assign]
        self._decision: Callable[[State, Command], Decision] = ruleset.decision
        # A plain family decides its usual commands in one step each (rules/quick.py), the
        # same events and state as its `decision`.
        quick = quick_decide(ruleset, self._memo)
        if quick is not None:
            self.decide = quick  # type: ignore[method-assign, assignment]
        # A family that lists the base's way answers its usual turn in one step
        # (rules/listing.py), the same listing as its `legal_commands`.
        listing = quick_listing(ruleset, Ruleset)
        if listing is not None:
            self.legal_commands = listing  # type: ignore[method-assign, assignment]
        # The training environment lists the usual turn's actions from the same cards
        # (listing.listed_cards) while `legal_commands` is still this listing.
        self.quick_listing = listing
        # `replay` below, compiled with the quick steps: the same fold, the same memo.
        self.replay = quick_replay(self._memo)  # type: ignore[method-assign, assignment]

    @classmethod
    def from_spec(cls, spec: Mapping[str, Any]) -> Variant:
        """Build a variant from `{"rules": …, "options": {…}, "precognitive": {…}}`.

        Raises ValueError with a readable message for an unknown ruleset, option or value.
        """
        if not isinstance(spec, Mapping):
            raise ValueError("a variant spec is an object with a 'rules' name")
        if unknown := spec.keys() - SPEC_KEYS:
            raise ValueError(f"unknown variant field(s): {', '.join(sorted(map(str, unknown)))}")
        precognitive = spec.get("precognitive")
        modified = precognitive is not None and precognitive is not False
        # docs/rules.md: the modifier is over `official` by default.
        base = find_ruleset(spec.get("rules", "official" if modified else None))
        options = spec.get("options") or {}
        if not isinstance(options, Mapping):
            raise ValueError("options must be an object")
        if modified:
            return cls(Precognitive.over(base, precognitive)(options))
        return cls(base(options))

    @classmethod
    def from_stream(
        cls, started: Mapping[str, Any], spec: Mapping[str, Any] | None = None
    ) -> Variant:
        """The variant a stream was recorded under, from its match-started event: the stream
        describes itself, so a log exported alone replays to the same result. `spec` serves the
        streams written before match-started carried one. Raises RulesVersionMismatch for a
        stream of other rules, ValueError for a stream that names no variant."""
        if started.get("type") != MATCH_STARTED:
            raise ValueError("a stream begins with match-started")
        version = started.get("rules_version", 1)
        if version != RULES_VERSION:
            raise RulesVersionMismatch(
                f"the stream was recorded under rules version {version}; "
                f"this engine plays version {RULES_VERSION}"
            )
        recorded = started.get("variant", spec)
        if recorded is None:
            raise ValueError("the stream names no variant")
        return cls.from_spec(recorded)

    @property
    def spec(self) -> dict[str, Any]:
        """The normalised spec, every option spelled out."""
        spec: dict[str, Any] = {"rules": self.ruleset.name, "options": dict(self.ruleset.options)}
        if isinstance(self.ruleset, Precognitive):
            spec["precognitive"] = dict(self.ruleset.precognitive)
        return spec

    def start(
        self,
        seats: int,
        *,
        seed: int | str | None = None,
        deck: list[Card] | None = None,
        dealer: Seat | None = None,
        first: Seat | None = None,
        ages: list[int] | None = None,
    ) -> list[Event]:
        """The events that start a match: a random deal from `seed`, or a stacked `deck`. The
        first, match-started, names the variant and the rules version (`from_stream`)."""
        decision = self.ruleset.start_decision(
            seats=seats, seed=seed, deck=deck, dealer=dealer, first=first, ages=ages
        )
        events = decision.events
        events[0]["variant"] = self.spec  # which the fold does not read
        events[0]["rules_version"] = RULES_VERSION
        # The state these events fold into, for `replay(events)` (as after `decide`).
        self._memo[0] = (None, events, len(events), decision.state)
        return events

    def replay(self, events: Iterable[Event], state: State | None = None) -> State:
        """Fold `events` onto `state` (or from the start); `state` itself is not changed.

        Each variant has its own, `quick_replay` over its memo (bound in `__init__`): when
        `decide` (or `start`) already folded exactly these events into a private copy of exactly
        this state, that copy is handed over (once) instead of folding them a second time, which
        halves the cost of the usual decide-then-replay step."""
        return quick_replay(self._memo)(events, state)

    def decide(self, state: State, command: Command) -> list[Event]:
        """The events `command` produces; raises IllegalCommand and changes nothing if illegal."""
        decision = self._decision(state, command)
        events = decision.events
        self._memo[0] = (state, events, len(events), decision.state)
        return events

    def legal_commands(self, state: State, seat: Seat | None) -> list[Command]:
        """Every command `seat` may send now (seat=None: the system commands)."""
        return self.ruleset.legal_commands(state, seat)

    def free_commands(self, state: State, seat: Seat) -> list[Command]:
        """The legal commands of `seat` that cost it nothing (engine.commands.costs_nothing):
        all of them but a basic-plus or newno `call-uno` or `catch` over a seat owing no call."""
        return free_commands(self.legal_commands(state, seat), state.uncalled)

    def view(self, state: State, seat: Seat | None) -> dict[str, Any]:
        """What `seat` may see (seat=None: a spectator); JSON-able."""
        return state_view(self.ruleset, state, seat)

    def view_event(self, event: Event, seat: Seat | None) -> Event:
        """An event as `seat` may see it."""
        return event_view(self.ruleset, event, seat)
