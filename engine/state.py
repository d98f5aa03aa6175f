"""The game state: the fold of a game's events.

A `State` is a value. The engine never changes a state it has handed out: `Variant.replay` and
`decide` fold new events into a `fork` of it, a new state that shares every list and dict with
the old one. The fold (events.py) never changes a list or dict in place: it puts a changed
copy in the state it folds into (a hand of seven cards, not the whole state), so sharing is
safe and a step costs what it changes. Callers may keep and compare every state they saw.
`copy` is a deep copy, for a caller that wants to change a state's lists itself.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import MISSING, dataclass, field, fields
from typing import Any, Final

from engine.cards import Card, Color

Seat = int
Pending = dict[str, Any]

PLAYING: Final = "playing"
HAND_OVER: Final = "hand-over"
MATCH_OVER: Final = "match-over"


@dataclass(slots=True)
class State:
    seats: int
    seed: str
    hand_number: int = 0
    # The seat that dealt the hand (None in basic-plus, which has no dealer); `first` is
    # basic-plus's first seat.
    dealer: Seat | None = 0
    first: Seat = 0
    hands: list[list[Card]] = field(default_factory=list)
    # Precognitive lanes, front card first; always present, empty without the modifier.
    lanes: list[list[Card]] = field(default_factory=list)
    # The draw pile keeps its top card LAST so that a draw is a list.pop().
    draw: list[Card] = field(default_factory=list)
    # The discard pile keeps its top card last as well.
    discard: list[Card] = field(default_factory=list)
    color: Color | None = None
    direction: int = 1
    # What the game waits for; never mutated in place, replaced by a new dict.
    pending: Pending | None = None
    to_act: tuple[Seat, ...] = ()
    # Seats that owe an uno call and may be caught.
    uncalled: frozenset[Seat] = frozenset()
    # basic-plus: seats that have called since they went down to one card.
    called: frozenset[Seat] = frozenset()
    # The last wild-draw4: (offender, colour before it, the offender's regular hand after it).
    challenge: tuple[Seat, Color | None, tuple[Card, ...]] | None = None
    scores: list[int] = field(default_factory=list)
    hands_won: list[int] = field(default_factory=list)
    status: str = PLAYING
    winner: Seat | None = None
    places: list[int] | None = None
    # The match was ended by a game-aborted event: over (MATCH_OVER) with no winner and no places.
    aborted: bool = False
    # Counts shuffles inside a hand so that each draws a fresh, reproducible order.
    shuffles: int = 0
    # Ruleset-specific facts (newno ages, censorship rulings); values are never mutated in place.
    extra: dict[str, Any] = field(default_factory=dict)

    def __new__(cls, *args: Any, **kwargs: Any) -> State:
        # A bare instance (its fields are set by __init__, or by fork and copy): in the compiled
        # engine a direct call of the class's own allocation, not a lookup of object.__new__.
        return object.__new__(cls)

    # fork and copy are generated from the fields below (`copier_source`), one statement per
    # field, so that a new field is copied by both without being named twice. The pure engine
    # execs them below; the compiled engine's build writes the same statements in place of the
    # two `raise` lines (tools/build_engine.py, docs/architecture.md "The compiled engine").
    def fork(self) -> State:
        """A new state sharing every list and dict with this one, for the fold to change."""
        raise NotImplementedError  # generated: fork

    def copy(self) -> State:
        """A deep copy: its lists and dicts are its own, free to change in place."""
        raise NotImplementedError  # generated: copy

    def cards_held(self, seat: Seat) -> int:
        """Every card a seat holds, its precognitive lane included (what uno and winning count)."""
        return len(self.hands[seat]) + len(self.lanes[seat])

    @property
    def top(self) -> Card | None:
        return self.discard[-1] if self.discard else None

    def next_seat(self, seat: Seat, steps: int = 1) -> Seat:
        return (seat + self.direction * steps) % self.seats


def _field_values(deep: bool) -> list[str]:
    """Each field's value in a copy of `self`, in field order. `deep`: each list and dict field
    gets a copy of its own (a list of lists, lists of its own), from the field's annotation."""
    values = []
    for f in fields(State):
        value = f"self.{f.name}"
        kind = str(f.type)
        if deep and kind.startswith("list[list["):
            value = f"[item[:] for item in {value}]"
        elif deep and kind.startswith("list[") and kind.endswith("| None"):
            value = f"None if {value} is None else {value}[:]"
        elif deep and kind.startswith("list["):
            value = f"{value}[:]"
        elif deep and kind.startswith("dict["):
            value = f"dict({value})"
        values.append(value)
    return values


def copier_source(deep: bool, native: bool = False) -> str:
    """The body of `State.fork` (deep=False) or `State.copy` (deep=True), generated from the
    dataclass's fields (as dataclasses generates `__init__`): a bare instance and every field's
    assignment spelled out, which costs less than a loop over names, `dataclasses.replace` or
    the dataclass's `__init__` (this runs once per decide and per replay). `native`: the
    statements the compiled engine's build writes into the class, where a bare instance is
    made by `State.__new__`."""
    new = "State.__new__(State)" if native else "_new(State)"
    stores = [
        f"new.{f.name} = {value}"
        for f, value in zip(fields(State), _field_values(deep), strict=True)
    ]
    return "\n".join([f"new = {new}", *stores, "return new"])


def _copier(name: str, deep: bool) -> Any:
    """`State.fork` or `State.copy` for the pure engine: `copier_source` as a function."""
    body = copier_source(deep).replace("\n", "\n    ")
    namespace: dict[str, Any] = {"_new": object.__new__, "State": State}
    exec(f"def {name}(self):\n    {body}", namespace)
    function = namespace[name]
    function.__qualname__ = f"State.{name}"
    function.__doc__ = getattr(State, name).__doc__
    return function


# The compiled engine's build removes these two lines (its class has the statements in place).
State.fork = _copier("fork", deep=False)  # type: ignore[method-assign]
State.copy = _copier("copy", deep=True)  # type: ignore[method-assign]


def new_state(seats: int, seed: str) -> State:
    """`State(seats=seats, seed=seed)`, made as `fork` makes a state (the dataclass's `__init__`
    costs about five forks): a fork of a blank state, with a new value from each field's
    default factory (a list or dict of its own)."""
    new = _BLANK.fork()
    new.seats = seats
    new.seed = seed
    for name, factory in _FACTORIES:
        setattr(new, name, factory())
    return new


_BLANK: Final = State(seats=0, seed="")
_FACTORIES: Final[list[tuple[str, Callable[[], Any]]]] = [
    (f.name, f.default_factory) for f in fields(State) if f.default_factory is not MISSING
]
