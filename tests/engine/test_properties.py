"""Property-based tests: random games of every family (official, basic-plus, precognitive over
both, newno, censorship).

Hypothesis draws a variant spec, a seat count and a seed (and newno seat ages), then drives a game
by drawing every command from the legal ones (a to-act seat's turn, sometimes an out-of-turn uno
call or catch, `next-hand` when a hand is over; newno: jump-ins, and the system `close-window` on
an open choice; censorship: every ruling the dealer may make). After every command it checks:

1. the 108 cards are conserved (hands, lanes, draw and discard piles, the pending censorship
   submission);
2. the full event log replays to the state folded step by step (each command's events folded
   again onto the last replay, the whole log again at every hand's end and at the game's end:
   `check_replay`), and `decide` changed nothing;
3. no view, no viewed event and (newno, censorship) no seat's legal commands show a card the
   viewer may not see, and every view is JSON;
4. a wrong command raises IllegalCommand with its code and changes nothing;
5. (newno, censorship) the legal commands are exactly what docs/rules.md allows: the matching cards,
   draws only where allowed, jump-ins only with the identical card while a window is open, and
   the window closes with the next command.
"""

from __future__ import annotations

import json
import pickle
import random
from collections.abc import Sequence
from typing import Any, TypeVar

import numpy
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import event as note
from hypothesis import note as note_drawn
from hypothesis import strategies as st

from engine import DECK, IllegalCommand, State, Variant

Event = dict[str, Any]
Command = dict[str, Any]
T = TypeVar("T")

SORTED_DECK = sorted(DECK)
DISTINCT_CARDS = sorted(set(DECK))
COLORS = ("red", "yellow", "green", "blue")
OUT_OF_TURN = ("catch", "call-uno")
NEW_FAMILIES = ("newno", "censorship")
CLOSE_WINDOW = {"type": "close-window"}
MAX_COMMANDS = 400
# Games per family: a few in every run, ten times as many with UNO_SLOW_TESTS=1.
EXAMPLES = 5
SLOW_EXAMPLES = 50

# Small hands and low targets so that a bounded game sees several hands and a match end.
OPTIONS: list[dict[str, Any]] = [
    {"hand_size": 1, "scoring": "winner-takes", "target": 40},
    {"hand_size": 2, "scoring": "winner-takes", "target": 80},
    {"hand_size": 2, "scoring": "running-total", "target": 30},
    {"hand_size": 3, "scoring": "running-total", "target": 60},
    {"hand_size": 3, "scoring": "single-hand"},
    {"hand_size": 1},
    {},
    {"hand_size": 15},
]
SIGHTS = ("sighted", "blind", "telepathic")
LANES: list[int | str] = [1, 2, 3, "initial-hand", "half-hand", "fewest-in-any-hand"]


def spec_list(rules: str, precognitive: bool) -> list[dict[str, Any]]:
    specs = []
    for options in OPTIONS:
        if not precognitive:
            specs.append({"rules": rules, "options": options})
            continue
        for sight in SIGHTS:
            for lane in LANES:
                pre = {"lane": lane, "sight": sight}
                specs.append({"rules": rules, "options": options, "precognitive": pre})
    return specs


SPECS = {
    "official": spec_list("official", False),
    "basic-plus": spec_list("basic-plus", False),
    "precognitive-official": spec_list("official", True),
    "precognitive-basic-plus": spec_list("basic-plus", True),
    "newno": [
        *spec_list("newno", False),
        {"rules": "newno", "options": {"hand_size": 2, "uno_penalty": 0, "target": 60}},
        {"rules": "newno", "options": {"hand_size": 4, "uno_penalty": 5, "target": 100}},
    ],
    "censorship": [
        {"rules": "censorship", "options": {**options, "dealer_draws": dealer_draws}}
        for options in OPTIONS
        for dealer_draws in (True, False)
    ],
}


def deep_copy(value: Any) -> Any:
    """An independent copy (pickle is several times faster than copy.deepcopy here)."""
    return pickle.loads(pickle.dumps(value))


class Choices:
    """Hypothesis's choices in one game: which command, seat, wrong command. Each is a
    `choice` of a random drawn from Hypothesis once a game (`st.randoms`, which draws its
    index from Hypothesis's data as `st.sampled_from` does, so the game still shrinks); a
    game makes thousands, and each `data.draw(st.sampled_from(...))` cost about five times as
    much (a new strategy validated and labelled, and the global random's state saved and
    compared around it), a quarter of these tests' time. What was chosen is noted under its
    label for a failing example's report."""

    def __init__(self, data: st.DataObject) -> None:
        self.random = data.draw(st.randoms(use_true_random=False), label="choices")

    def pick(self, items: Sequence[T], label: str) -> T:
        item = self.random.choice(items)
        note_drawn((label, item))  # formatted only for the report of a failing example
        return item


def lane_visible(spec: dict[str, Any], owner: int, viewer: int | None) -> bool:
    """docs/rules.md sight: sighted = the owner sees its lane; blind = nobody; telepathic = all."""
    sight = (spec.get("precognitive") or {}).get("sight", "sighted")
    return sight == "telepathic" or (sight == "sighted" and owner == viewer)


class Redealer(random.Random):
    """The re-deals' randomness (property 3): Python's generator for the few choices, numpy's
    for the shuffles of every hidden card (a uniform shuffle either way; numpy's of a list is
    about 13 times quicker than `random.shuffle`, which was a tenth of these tests' time)."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.generator = numpy.random.default_rng(seed)

    def shuffle(self, x: Any) -> None:  # type: ignore[override]
        self.generator.shuffle(x)


# ------------------------------------------------------------------------------- driving


def family_of(variant: Variant) -> str:
    return variant.spec["rules"]


def draw_command(choices: Choices, variant: Variant, state: State) -> Command:
    """A legal command: `next-hand`, a to-act seat's move, or sometimes an out-of-turn call."""
    if state.status == "hand-over":
        return choices.pick(variant.legal_commands(state, None), "system")
    if family_of(variant) in NEW_FAMILIES:
        return draw_new_family_command(choices, variant, state)
    assert variant.legal_commands(state, None) == []
    out_of_turn: list[Command] = []
    for seat in range(state.seats):
        options = variant.legal_commands(state, seat)
        if seat not in state.to_act:
            # Property: a seat the game is not waiting for has only out-of-turn options.
            assert all(c["type"] in OUT_OF_TURN for c in options), (seat, options)
        out_of_turn += [c for c in options if c["type"] in OUT_OF_TURN]
    # One draw in eight goes out of turn; not the first or last index, which Hypothesis favours.
    if out_of_turn and choices.pick(range(8), "out of turn?") == 3:
        return choices.pick(out_of_turn, "out-of-turn command")
    seat = choices.pick(state.to_act, "acting seat")
    turn = [c for c in variant.legal_commands(state, seat) if c["type"] not in OUT_OF_TURN]
    # Property: a seat the game waits for always has a move; the game never gets stuck.
    assert turn, (seat, state.pending)
    return choices.pick(turn, "command")


def draw_new_family_command(choices: Choices, variant: Variant, state: State) -> Command:
    """newno and censorship: a to-act seat's move (its kind of command drawn first, so that a
    ruling is as often `approve` as one of the many `substitute`s), an out-of-turn uno call,
    catch or jump-in, or `close-window` on an open choice (forced when nobody in it can move)."""
    pending = state.pending or {}
    open_choice = "seats" in pending
    # Property: `close-window` is offered exactly while an open choice is waiting.
    assert variant.legal_commands(state, None) == ([CLOSE_WINDOW] if open_choice else [])
    rightful: list[Command] = []  # uno calls, catches of a seat that owes a call
    wrongful: list[Command] = []  # newno: a catch of a seat that owes nothing (it costs cards)
    jump_ins: list[Command] = []
    turns: dict[int, list[Command]] = {}
    for seat in range(state.seats):
        options = variant.legal_commands(state, seat)
        for c in options:
            if c["type"] == "call-uno" or (c["type"] == "catch" and c["target"] in state.uncalled):
                rightful.append(c)
            elif c["type"] == "catch":
                wrongful.append(c)
        if seat in state.to_act:
            turns[seat] = [c for c in options if c["type"] not in OUT_OF_TURN]
        else:
            # Property: a seat the game is not waiting for has only out-of-turn options
            # (check_jump_ins checks that its plays are jump-ins with the identical card).
            assert all(c["type"] in (*OUT_OF_TURN, "play") for c in options), (seat, options)
            jump_ins += [c for c in options if c["type"] == "play"]
    movers = [seat for seat in state.to_act if turns[seat]]
    if not open_choice:
        # Property: a seat the game waits for always has a move; the game never gets stuck.
        assert movers == list(state.to_act), (state.to_act, pending)
    choice = choices.pick(range(24), "kind of move")
    if jump_ins and choice % 3 == 1:
        return unnamed(choices, choices.pick(jump_ins, "jump-in"))
    if rightful and choice in (5, 14, 23):
        return choices.pick(rightful, "uno call or catch")
    if wrongful and choice == 8:
        return choices.pick(wrongful, "wrong catch")
    if open_choice and (not movers or choice in (2, 11, 20)):
        return CLOSE_WINDOW
    seat = choices.pick(movers, "acting seat")
    kinds = sorted({c["type"] for c in turns[seat]})
    kind = choices.pick(kinds, "kind of command")
    command = choices.pick([c for c in turns[seat] if c["type"] == kind], "command")
    return unnamed(choices, command)


def unnamed(choices: Choices, command: Command) -> Command:
    """newno: sometimes a black card or a 7 played without its colour or target (legal, though
    `legal_commands` lists each play with them), so that `choose-color`, `swap` and the jump-in
    windows on wilds and 7s are played too."""
    if command["type"] != "play" or not ("color" in command or "target" in command):
        return command
    if choices.pick(range(3), "name it later?") != 1:
        return command
    return {k: v for k, v in command.items() if k not in ("color", "target")}


def play(data: st.DataObject, spec: dict[str, Any], seats: int, seed: int) -> None:
    variant = Variant.from_spec(spec)
    family = family_of(variant)
    ages = None
    if family == "newno":
        ages = data.draw(st.none() | st.lists(st.integers(0, 3), min_size=seats, max_size=seats))
    log = variant.start(seats, seed=seed, ages=ages)
    state = variant.replay(log)
    opening = opens_hand(state, False)
    # One re-deal generator a game (property 3), seeded by Hypothesis.
    rng = Redealer(data.draw(st.integers(0, 2**32 - 1), label="re-deal seed"))
    choices = Choices(data)
    # Property 2: `replayed` is the log folded again, each command's events onto the last fold
    # (a fresh list, so `replay` cannot hand over `decide`'s own fold); see `check_replay`.
    replayed = variant.replay(list(log))
    assert replayed == state, "replaying the log differs from the step-by-step fold"
    shown = deep_copy(state)
    check_state(variant, spec, state, new=log, rng=rng)
    assert state == shown, "viewing the state changed it"
    hands = 0
    for _ in range(MAX_COMMANDS):
        if state.status == "match-over":
            assert variant.legal_commands(state, None) == []
            assert all(variant.legal_commands(state, s) == [] for s in range(seats))
            break
        # States are values: a process hands one state to many requests (games/recent.py).
        # `before` is an independent copy of `state` (the one the views were checked against).
        before = shown
        check_illegal(choices, variant, state, before)
        command = draw_command(choices, variant, state)
        assert state == before, "listing or refusing commands changed the state"
        new = variant.decide(state, command)
        assert state == before, f"decide changed its input state on {command}"
        folded = variant.replay(new, state)
        assert state == before, "replay changed the state it folded onto"
        log += new
        if family == "newno":
            check_newno_step(before, command, new, folded, opening)
            opening = opens_hand(folded, opening)
        state = folded
        ended = sum(e["type"] == "hand-ended" for e in new)
        hands += ended
        replayed = check_replay(variant, state, replayed, log, new, whole=bool(ended))
        shown = deep_copy(state)
        check_state(variant, spec, state, new=new, rng=rng)
        assert state == shown, "viewing the state changed it"
    # The log is stored as JSON: it must survive the round trip and replay to the same state.
    assert variant.replay(json.loads(json.dumps(log))) == state
    note(f"hands ended: {min(hands, 3)}{'+' if hands > 3 else ''}")
    note(f"final status: {state.status}")


# ---------------------------------------------------------------------------- properties


def check_replay(
    variant: Variant,
    state: State,
    replayed: State,
    log: list[Event],
    new: list[Event],
    whole: bool,
) -> State:
    """Property 2: the event log replays to the state folded step by step.

    Each command's events are folded again onto the previous replay (not onto the step-by-step
    state, whose fold `replay` may take over from `decide`): O(1) a command, where folding the
    whole log again after every command cost O(n) (O(n^2) a game). Both folds are the same
    `apply` of the same events, one event at a time; the replay from the start differs only in
    carrying one state through where this one forks a state per command, and `State.fork`
    copies every field (engine/state.py). The whole log is still replayed from the first event
    after every hand's end (`whole`), and from its JSON at the game's end (`play`)."""
    replayed = variant.replay(list(new), replayed)
    assert replayed == state, "replaying the log differs from the step-by-step fold"
    if whole:
        assert variant.replay(log) == state, "replaying the log differs from the step-by-step fold"
    return replayed


def check_state(
    variant: Variant,
    spec: dict[str, Any],
    state: State,
    new: list[Event],
    rng: Redealer,
) -> None:
    check_cards(state)
    family = family_of(variant)
    if family == "newno" and state.status == "playing":
        check_newno_options(variant, state)
        check_jump_ins(variant, state)
    elif family == "censorship" and state.status == "playing":
        check_censorship_options(variant, state)
    viewers = [None, *range(state.seats)]
    # Every view and viewed event is JSON: checked in one round trip of them all, which is
    # exact (a list survives it exactly when each of its items does) and saves a call a view.
    shown = [check_view(variant, spec, state, viewer, rng) for viewer in viewers]
    for event in new:
        stored = deep_copy(event)
        shown += [check_event_view(variant, spec, event, viewer) for viewer in viewers]
        assert event == stored, "view_event changed the stored event"
    json_round_trip(shown)


def check_cards(state: State) -> None:
    """Property 1: every one of the 108 cards is somewhere, exactly once."""
    cards = [c for hand in state.hands for c in hand]
    cards += [c for lane in state.lanes for c in lane]
    cards += state.draw + state.discard
    submission = state.extra.get("submission")
    if submission is not None:
        # censorship: the submitted card is with the dealer, in neither hand.
        cards.append(submission["card"])
    assert sorted(cards) == SORTED_DECK
    pending = state.pending or {}
    if pending.get("type") in ("drawn", "resubmit"):
        # A drawn card the seat may still play (or submit again) is in its hand.
        assert pending["card"] in state.hands[pending["seat"]]
    # censorship: a submission is pending exactly while the dealer rules on it.
    assert (submission is not None) == (pending.get("type") == "ruling")


def json_round_trip(value: Any) -> None:
    assert json.loads(json.dumps(value)) == value


def check_view(
    variant: Variant, spec: dict[str, Any], state: State, viewer: int | None, rng: Redealer
) -> dict[str, Any]:
    """Property 3 (views): the view shows the viewer's hand and nothing hidden. Returns the
    view, for `check_state` to check that it is JSON."""
    view = variant.view(state, viewer)
    if viewer is None:
        assert "hand" not in view
    else:
        assert view["hand"] == state.hands[viewer]
    assert view["hand_sizes"] == [
        len(state.hands[s]) + len(state.lanes[s]) for s in range(state.seats)
    ]
    for owner, lane in enumerate(state.lanes):
        shown = lane if lane_visible(spec, owner, viewer) else [None] * len(lane)
        assert view["lane"][owner] == shown, (owner, viewer)
    pending = state.pending or {}
    if pending.get("type") in ("drawn", "resubmit"):
        expected = pending["card"] if pending["seat"] == viewer else None
        assert view["pending"]["card"] == expected
    assert view["draw_pile"] == len(state.draw)
    if state.status != "match-over":
        assert view["winner"] is None
    if spec["rules"] == "censorship":
        # The submitted card (and its colour) is seen by the submitter and the dealer alone.
        submission = state.extra.get("submission")
        if submission is None:
            assert view["submission"] is None
        else:
            seen = viewer in (submission["seat"], state.dealer)
            assert view["submission"] == {
                "seat": submission["seat"],
                "card": submission["card"] if seen else None,
                "color": submission["color"] if seen else None,
            }
    # Re-deal everything the viewer may not see: the view must not change.
    other = redeal(spec, state, viewer, rng)
    assert variant.view(other, viewer) == view
    if spec["rules"] in NEW_FAMILIES and viewer is not None:
        # Nor may the seat's legal commands tell it more than its view.
        if not rules_on_a_hidden_hand(state, viewer):
            legal = variant.legal_commands(state, viewer)
            assert variant.legal_commands(other, viewer) == legal, viewer
    return view


def rules_on_a_hidden_hand(state: State, viewer: int) -> bool:
    """censorship: the dealer ruling on a submitted wild-draw4, whose legality depends on whether
    the submitter holds the current colour (docs/rules.md "censorship"). The engine judges it, so
    the presence of `approve` tells the dealer that much about the submitter's hand."""
    submission = state.extra.get("submission")
    return submission is not None and viewer == state.dealer and submission["card"] == "wild-draw4"


def redeal(spec: dict[str, Any], state: State, viewer: int | None, rng: Redealer) -> State:
    """A copy of `state` whose cards hidden from `viewer` are shuffled among their places.

    The copy is the engine's deep copy (`State.copy`, a fraction of pickle's cost): were it to
    share a list with `state`, the re-deal would change `state`, which `play` checks it never
    does after the views."""
    other = state.copy()
    places: list[list[str]] = []
    for seat in range(state.seats):
        if seat != viewer:
            places.append(other.hands[seat])
        if not lane_visible(spec, seat, viewer):
            places.append(other.lanes[seat])
    places.append(other.draw)
    submission = other.extra.get("submission")
    submitted: list[str] = []
    if submission is not None and viewer not in (submission["seat"], other.dealer):
        # censorship: a submission the viewer may not see is one more hidden card.
        submitted.append(submission["card"])
        places.append(submitted)
    cards = [card for place in places for card in place]
    rng.shuffle(cards)
    start = 0
    for place in places:
        end = start + len(place)
        place[:] = cards[start:end]
        start = end
    if submitted:
        color = rng.choice(COLORS) if submitted[0].startswith("wild") else None
        other.extra["submission"] = {**submission, "card": submitted[0], "color": color}
    pending = other.pending or {}
    if pending.get("type") in ("drawn", "resubmit") and pending["seat"] != viewer:
        other.pending = {**pending, "card": rng.choice(DISTINCT_CARDS)}
    if other.challenge is not None:
        offender, before, hand = other.challenge
        other.challenge = (offender, before, tuple(rng.choices(DECK, k=len(hand))))
    other.seed = "a different seed"
    return other


def check_event_view(
    variant: Variant, spec: dict[str, Any], event: Event, viewer: int | None
) -> Event:
    """Property 3 (events): a viewed event hides exactly what its viewer may not see. Returns
    the viewed event, for `check_state` to check that it is JSON."""
    seen = variant.view_event(event, viewer)
    kind = event["type"]

    def same_except(*keys: str) -> None:
        assert {k: v for k, v in seen.items() if k not in keys} == {
            k: v for k, v in event.items() if k not in keys
        }

    def hidden(cards: list[Any]) -> list[None]:
        return [None] * len(cards)

    if kind == "match-started":
        assert "seed" not in seen
        same_except("seed")
    elif kind == "hand-started":
        assert "deck" not in seen
        if viewer is None:
            assert "cards" not in seen
        else:
            n, seats, first, deck = (
                event["hand_size"],
                event["seats"],
                event["first"],
                event["deck"],
            )
            dealt = [deck[i] for i in range(n * seats) if (first + i) % seats == viewer]
            assert seen["cards"] == dealt
        same_except("deck", "cards")
    elif kind == "cards-drawn":
        if viewer == event["seat"]:
            assert seen == event
        else:
            assert seen["cards"] == hidden(event["cards"])
            same_except("cards")
    elif kind == "card-reinserted":
        assert "position" not in seen
        same_except("position")
    elif kind == "pile-reshuffled":
        assert seen["order"] == hidden(event["order"])
        same_except("order")
    elif kind == "prompted":
        pending = event["pending"]
        if pending["type"] in ("drawn", "resubmit") and pending["seat"] != viewer:
            assert seen["pending"] == {**pending, "card": None}
            same_except("pending")
        else:
            assert seen == event
    elif kind == "challenge-resolved":
        if viewer in (event["seat"], event["target"]):
            assert seen == event
        else:
            assert seen["hand"] == hidden(event["hand"])
            same_except("hand")
    elif kind == "lane-filled":
        if lane_visible(spec, event["seat"], viewer):
            assert seen == event
        else:
            assert seen["cards"] == hidden(event["cards"])
            same_except("cards")
    elif kind in ("card-submitted", "submission-kept", "card-returned"):
        # censorship: the submitted and the returned card are seen by the submitter and the
        # dealer alone.
        if viewer in (event["seat"], event["dealer"]):
            assert seen == event
        else:
            secret = [k for k in ("card", "color", "submitted") if k in event]
            assert all(seen[k] is None for k in secret), seen
            same_except(*secret)
    elif kind in ("hands-swapped", "hands-rotated", "turn-passed"):
        # Public facts that name seats and a direction, never the cards that moved.
        fields = {
            "hands-swapped": {"type", "seat", "target"},
            "hands-rotated": {"type", "direction"},
            "turn-passed": {"type", "seat"},
        }[kind]
        assert set(event) == fields, event
        assert seen == event
    elif kind == "lane-flushed":
        # The flushed cards return to the owner's hand; others see them only when telepathic.
        if viewer == event["seat"] or lane_visible(spec, event["seat"], viewer):
            assert seen == event
        else:
            assert seen["cards"] == hidden(event["cards"])
            same_except("cards")
    else:
        # Public facts: plays, colours, directions, uno, hand and match results.
        assert seen == event, kind
    return seen


# ------------------------------------------------------------- newno and censorship rules


def color_of(card: str) -> str | None:
    return None if card.startswith("wild") else card.split("-", 1)[0]


def rank_of(card: str) -> str:
    return card if card.startswith("wild") else card.split("-", 1)[1]


def twin(card: str) -> str:
    """A card like `card` but not identical: the same rank in another colour, the other black."""
    if card.startswith("wild"):
        return "wild" if card == "wild-draw4" else "wild-draw4"
    color, rank = card.split("-", 1)
    return f"{COLORS[(COLORS.index(color) + 1) % 4]}-{rank}"


def newno_playable(state: State, card: str) -> bool:
    """docs/rules.md newno: what may be played now (a stack, the first play's leeway, a match)."""
    pending = state.pending or {}
    if pending.get("type") == "stack":
        # +2 only on +2, +4 only on +4.
        return rank_of(card) == pending["kind"]
    top, color = state.top, state.color
    assert top is not None
    if pending.get("leeway"):
        if color_of(card) is None or color_of(top) is None:
            return True  # Black cards always; anything on a flipped wild or wild-draw4.
        if rank_of(top) == "draw2":
            return color_of(card) == color and rank_of(card) != "draw2"
        if rank_of(top) in ("skip", "reverse"):
            return color_of(card) == color
    return matches(card, top, color)


def turn_of(variant: Variant, state: State, seat: int) -> list[Command]:
    return [c for c in variant.legal_commands(state, seat) if c["type"] not in OUT_OF_TURN]


def check_newno_options(variant: Variant, state: State) -> None:
    """Property 5 (newno): a waited-for seat's options are exactly what docs/rules.md allows."""
    pending = state.pending or {}
    kind = pending["type"]
    for seat in state.to_act:
        options = turn_of(variant, state, seat)
        kinds = {c["type"] for c in options}
        plays = {c["card"] for c in options if c["type"] == "play"}
        if kind in ("first-play", "second-play", "stack", "play"):
            assert plays == {c for c in state.hands[seat] if newno_playable(state, c)}, seat
            if kind == "stack" or "seats" in pending:
                may_draw = False  # Stack or accept; nobody draws while a choice is open.
            elif kind == "first-play":
                may_draw = True  # The youngest seat at the open start, even holding a match.
            else:
                may_draw = not plays  # Only a seat that cannot play draws.
            assert ("draw" in kinds) == may_draw, (seat, pending, kinds)
            assert ("accept" in kinds) == (kind == "stack")
            assert kinds <= {"play", "draw", "accept"}
        elif kind == "drawn":
            assert kinds == {"play", "pass"} and plays == {pending["card"]}
        elif kind == "color":
            assert kinds == {"choose-color"}
        elif kind == "swap":
            assert kinds == {"swap"}
            assert all(seat not in (c["target"], c.get("other")) for c in options)
        else:
            raise AssertionError(f"unknown newno pending {pending}")
        for c in options:
            if c["type"] == "play" and rank_of(c["card"]) == "7" and state.cards_held(seat) > 1:
                # A 7 always swaps: it is listed once per other seat.
                assert c.get("target") not in (None, seat), c


def check_jump_ins(variant: Variant, state: State) -> None:
    """Property 5 (newno): out of turn, a seat may play only the identical card while a window
    is open: not the seat that opened it, not a seat the skips passed over (with a skip)."""
    pending = state.pending or {}
    window = pending.get("jump")
    if window is not None:
        assert window["card"] == state.top
        # The engine's documented decision: no jump-in before the direction is set.
        assert "seats" not in pending
    for seat in range(state.seats):
        if seat in state.to_act:
            continue
        plays = [c for c in variant.legal_commands(state, seat) if c["type"] == "play"]
        if window is None:
            assert plays == [], (seat, plays)
            continue
        card = window["card"]
        eligible = (
            seat != window["by"]
            and card in state.hands[seat]
            and not (rank_of(card) == "skip" and seat in window.get("skipped", ()))
        )
        assert all(c["card"] == card for c in plays), (seat, window, plays)
        assert bool(plays) == eligible, (seat, window, plays)


def opens_hand(state: State, opening: bool) -> bool:
    """Whether a play now is the first play of the hand: at the open start, or of the card the
    youngest seat drew there (a `drawn` decision keeps what its draw was)."""
    kind = (state.pending or {}).get("type")
    return opening if kind == "drawn" else kind == "first-play"


def check_newno_step(
    before: State, command: Command, new: list[Event], after: State, opening: bool
) -> None:
    """Property 5 (newno): a jump-in window is opened by a play and closed by the next command;
    `close-window` hands the open choice to the youngest seat in it. `opening`: whether a play
    in `before` is the first play of the hand (which opens no window: no direction yet)."""
    played = [e for e in new if e["type"] == "card-played"]
    window = (after.pending or {}).get("jump")
    if command["type"] == "play":
        seat, card = command["seat"], command["card"]
        assert [(e["seat"], e["card"]) for e in played] == [(seat, card)]
        # A play out of turn is a jump-in, and recorded as one.
        assert played[0].get("jump", False) == (seat not in before.to_act)
        named = (color_of(card) is None and command.get("color") is not None) or (
            rank_of(card) == "7" and command.get("target") is not None
        )
        if named or opening or after.status != "playing":
            # Naming the colour or target closes the window at once; the first play opens none.
            assert window is None, (command, window)
        else:
            assert window is not None and (window["card"], window["by"]) == (card, seat)
    else:
        # Any other command closes an open window and opens none.
        assert window is None, (command, window)
    if command == CLOSE_WINDOW:
        ages = before.extra.get("ages") or [0] * before.seats
        choice = before.pending or {}
        youngest = min(choice["seats"], key=lambda s: (ages[s], s))
        forced = {k: v for k, v in choice.items() if k != "seats"}
        assert after.pending == {**forced, "seat": youngest, "forced": True}
        assert after.to_act == (youngest,)


def legal_for(state: State, holder: int, card: str) -> bool:
    """docs/rules.md censorship: a match; a wild-draw4 only for a holder without the colour."""
    if not matches(card, state.top, state.color):
        return False
    return card != "wild-draw4" or all(color_of(c) != state.color for c in state.hands[holder])


def check_censorship_options(variant: Variant, state: State) -> None:
    """Property 5 (censorship): a waited-for seat's options are exactly what the rules allow."""
    pending = state.pending or {}
    kind, dealer = pending["type"], state.dealer
    for seat in state.to_act:
        options = turn_of(variant, state, seat)
        kinds = {c["type"] for c in options}
        cards = {c["card"] for c in options if "card" in c}
        hand = state.hands[seat]
        own = {c for c in hand if legal_for(state, seat, c)}
        if kind == "submit":
            # Any card, legal or not; a black one with its colour; uno with the second-to-last.
            assert seat != dealer and kinds == {"submit"} and cards == set(hand)
            for c in options:
                assert (c.get("color") in COLORS) == (color_of(c["card"]) is None), c
            unos = {c["uno"] for c in options}
            assert unos == ({False, True} if state.cards_held(seat) == 2 else {False})
        elif kind == "resubmit":
            assert seat != dealer and kinds == {"submit", "pass"}
            assert cards == {pending["card"]} and legal_for(state, seat, pending["card"])
        elif kind == "ruling":
            submission = state.extra["submission"]
            assert seat == dealer and pending["submitter"] == submission["seat"]
            legal = legal_for(state, submission["seat"], submission["card"])
            assert ("approve" in kinds) == legal
            assert {c["card"] for c in options if c["type"] == "substitute"} == own
            if legal or own:
                assert kinds <= {"approve", "substitute"}
            else:
                assert kinds == {"return"} and cards == {*hand, submission["card"]}
        elif kind == "play":
            assert seat == dealer
            assert {c["card"] for c in options if c["type"] == "play"} == own
            assert ("draw" in kinds) == (not own)
            if not variant.spec["options"]["dealer_draws"]:
                # A dealer that may not draw is never asked to play without a matching card.
                assert own
        elif kind == "drawn":
            assert seat == dealer and kinds == {"play"} and cards == {pending["card"]}
        elif kind == "color":
            assert kinds == {"choose-color"}
        else:
            raise AssertionError(f"unknown censorship pending {pending}")


# ------------------------------------------------------------------------ wrong commands


def wrong_commands(variant: Variant, state: State) -> list[tuple[str, Command]]:
    """Commands that break the rules now, each with the code it must be refused with."""
    family = family_of(variant)
    if family == "newno":
        return wrong_newno(state)
    if family == "censorship":
        return wrong_censorship(state)
    wrong: list[tuple[str, Command]] = []
    basic_plus = variant.spec["rules"] == "basic-plus"
    if state.status == "hand-over":
        seat = 0
        hand = state.hands[seat]
        if hand:
            wrong.append(
                ("hand-over", {"type": "play", "seat": seat, "card": hand[0], "uno": False})
            )
        wrong.append(("hand-over", {"type": "draw", "seat": seat}))
        return wrong
    wrong.append(("hand-not-over", {"type": "next-hand"}))
    pending = state.pending or {}
    kind = pending.get("type")
    for seat in range(state.seats):
        if seat not in state.to_act:
            # Another seat's turn.
            wrong.append(("not-your-turn", {"type": "draw", "seat": seat}))
            hand = state.hands[seat]
            if hand:
                play = {"type": "play", "seat": seat, "card": hand[0], "uno": False}
                wrong.append(("not-your-turn", play))
            continue
        hand = state.hands[seat]
        missing = [c for c in DISTINCT_CARDS if c not in hand]
        if missing:
            # A card not held.
            code = {"play": "card-not-in-hand", "drawn": "must-play-drawn-card"}.get(
                kind, "unexpected-command"
            )
            play = {"type": "play", "seat": seat, "card": missing[len(hand) % len(missing)]}
            wrong.append((code, {**play, "uno": False}))
        if kind == "play":
            top, color = state.top, state.color
            for card in dict.fromkeys(hand):
                if not matches(card, top, color):
                    # A card that does not match.
                    wrong.append(
                        ("card-does-not-match", {"type": "play", "seat": seat, "card": card})
                    )
                elif "-" in card and not card.startswith("wild"):
                    # A colour named for a card that is not black.
                    command = {"type": "play", "seat": seat, "card": card, "color": "red"}
                    wrong.append(("color-not-needed", command))
                    if not basic_plus and state.cards_held(seat) > 2:
                        command = {"type": "play", "seat": seat, "card": card, "uno": True}
                        wrong.append(("uno-not-due", command))
            wrong.append(("unexpected-command", {"type": "pass", "seat": seat}))
        if kind != "color":
            wrong.append(
                ("unexpected-command", {"type": "choose-color", "seat": seat, "color": "red"})
            )
        if kind == "precommit":
            cards = hand[: pending["count"] + 1]
            if len(cards) != pending["count"]:
                wrong.append(("bad-precommit", {"type": "precommit", "seat": seat, "cards": cards}))
        if kind not in ("challenge",):
            wrong.append(("unexpected-command", {"type": "challenge", "seat": seat}))
    if not basic_plus:
        for seat in range(state.seats):
            for target in range(state.seats):
                if target != seat and target not in state.uncalled:
                    wrong.append(
                        ("not-catchable", {"type": "catch", "seat": seat, "target": target})
                    )
                    break
            if seat not in state.uncalled:
                wrong.append(("uno-not-owed", {"type": "call-uno", "seat": seat}))
    wrong.append(("bad-target", {"type": "catch", "seat": 0, "target": 0}))
    return wrong


def play_command(seat: int, card: str, **fields: Any) -> Command:
    return {"type": "play", "seat": seat, "card": card, "uno": False, **fields}


def missing_card(hand: list[str]) -> str | None:
    missing = [c for c in DISTINCT_CARDS if c not in hand]
    return missing[len(hand) % len(missing)] if missing else None


def wrong_newno(state: State) -> list[tuple[str, Command]]:
    """newno: commands that break the rules now, each with its code."""
    wrong: list[tuple[str, Command]] = []
    pending = state.pending or {}
    kind = pending.get("type")
    # (Hypothesis draws the first entries most often: the seat-by-seat ones come first.)
    tail: list[tuple[str, Command]] = []
    if "seats" not in pending:
        tail.append(("no-open-window", CLOSE_WINDOW))
    if state.status == "hand-over":
        if state.hands[0]:
            wrong.append(("hand-over", play_command(0, state.hands[0][0])))
        wrong.append(("hand-over", {"type": "draw", "seat": 0}))
        return wrong + tail
    tail.append(("hand-not-over", {"type": "next-hand"}))
    tail.append(("bad-target", {"type": "catch", "seat": 0, "target": 0}))
    # No wild-draw4 challenge and no submissions in newno.
    tail.append(("unknown-command", {"type": "challenge", "seat": 0}))
    tail.append(("unknown-command", {"type": "submit", "seat": 0, "card": "red-1"}))
    window = pending.get("jump")
    for seat in range(state.seats):
        hand = state.hands[seat]
        other = (seat + 1) % state.seats
        if seat not in state.uncalled:
            tail.append(("uno-not-owed", {"type": "call-uno", "seat": seat}))
        if seat not in state.to_act:
            wrong.append(("not-your-turn", {"type": "draw", "seat": seat}))
            if window is None:
                if hand:
                    wrong.append(("not-your-turn", play_command(seat, hand[0])))
                continue
            # A jump-in with a card that is not identical to the top card.
            card = window["card"]
            wrong.append(("cannot-jump-in", play_command(seat, twin(card))))
            unlike = [c for c in hand if c != card]
            if unlike:
                wrong.append(("cannot-jump-in", play_command(seat, unlike[0])))
            if card in hand and seat == window["by"]:
                # Not on its own card.
                wrong.append(("cannot-jump-in", play_command(seat, card)))
            if card in hand and rank_of(card) == "skip" and seat in window.get("skipped", ()):
                # Not with a skip, for a seat the earlier skips passed over.
                wrong.append(("cannot-jump-in", play_command(seat, card)))
            continue
        missing = missing_card(hand)
        playing = kind in ("first-play", "second-play", "stack", "play")
        if missing is not None:
            code = "card-not-in-hand" if playing else "unexpected-command"
            if kind == "drawn":
                code = "must-play-drawn-card"
            wrong.append((code, play_command(seat, missing)))
        if playing:
            playable = [c for c in dict.fromkeys(hand) if newno_playable(state, c)]
            for card in dict.fromkeys(hand):
                if card not in playable:
                    wrong.append(("card-does-not-match", play_command(seat, card)))
                    continue
                if color_of(card) is not None:
                    wrong.append(("color-not-needed", play_command(seat, card, color="red")))
                if state.cards_held(seat) > 2:
                    wrong.append(("uno-not-due", play_command(seat, card, uno=True)))
                if rank_of(card) != "7":
                    wrong.append(("bad-target", play_command(seat, card, target=other)))
                elif state.cards_held(seat) > 1:
                    wrong.append(("bad-target", play_command(seat, card, target=seat)))
            if kind == "stack":
                wrong.append(("unexpected-command", {"type": "draw", "seat": seat}))
            elif "seats" in pending or (kind != "first-play" and playable):
                # Nobody draws while a choice is open; nobody holding a playable card draws
                # (except the youngest seat at the open start).
                wrong.append(("cannot-draw", {"type": "draw", "seat": seat}))
        else:
            wrong.append(("unexpected-command", {"type": "draw", "seat": seat}))
        if kind == "drawn":
            unlike = [c for c in hand if c != pending["card"]]
            if unlike:
                wrong.append(("must-play-drawn-card", play_command(seat, unlike[0])))
        else:
            wrong.append(("unexpected-command", {"type": "pass", "seat": seat}))
        if kind != "stack":
            wrong.append(("unexpected-command", {"type": "accept", "seat": seat}))
        if kind != "color":
            command = {"type": "choose-color", "seat": seat, "color": "red"}
            wrong.append(("unexpected-command", command))
        if kind != "swap":
            wrong.append(("unexpected-command", {"type": "swap", "seat": seat, "target": other}))
        else:
            wrong.append(("bad-target", {"type": "swap", "seat": seat, "target": seat}))
            if "jumper_of" not in pending:
                # Only a 7 jumper may swap two other seats.
                command = {"type": "swap", "seat": seat, "target": other, "other": seat}
                wrong.append(("bad-target", command))
    return wrong + tail


def wrong_censorship(state: State) -> list[tuple[str, Command]]:
    """censorship: commands that break the rules now, each with its code."""
    wrong: list[tuple[str, Command]] = []
    pending = state.pending or {}
    kind, dealer = pending.get("type"), state.dealer
    # No open choices, challenges, stacks or swaps in censorship.
    tail: list[tuple[str, Command]] = [
        ("unknown-command", CLOSE_WINDOW),
        ("unknown-command", {"type": "challenge", "seat": 0}),
        ("unknown-command", {"type": "accept", "seat": 0}),
        ("unknown-command", {"type": "swap", "seat": 0, "target": 1}),
    ]
    if state.status == "hand-over":
        wrong.append(("hand-over", {"type": "submit", "seat": 0, "card": "red-1"}))
        wrong.append(("hand-over", {"type": "draw", "seat": dealer}))
        return wrong + tail
    tail.append(("hand-not-over", {"type": "next-hand"}))
    tail.append(("bad-target", {"type": "catch", "seat": 0, "target": 0}))
    submission = state.extra.get("submission")
    for seat in range(state.seats):
        hand = state.hands[seat]
        acting = seat in state.to_act
        missing = missing_card(hand)
        if seat not in state.uncalled:
            tail.append(("uno-not-owed", {"type": "call-uno", "seat": seat}))
        target = (seat + 1) % state.seats
        if target not in state.uncalled:
            tail.append(("not-catchable", {"type": "catch", "seat": seat, "target": target}))
        if seat != dealer:
            # A standard seat never plays or draws: it submits, in turn or not.
            wrong.append(("must-submit", play_command(seat, hand[0] if hand else "red-1")))
            wrong.append(("must-submit", {"type": "draw", "seat": seat}))
            ruling = "unexpected-command" if acting else "not-your-turn"
            wrong.append((ruling, {"type": "approve", "seat": seat}))
            wrong.append((ruling, {"type": "return", "seat": seat, "card": "red-1"}))
            if not acting and hand:
                wrong.append(("not-your-turn", submit_command(seat, hand[0])))
        else:
            if not acting:
                wrong.append(("not-your-turn", {"type": "draw", "seat": seat}))
                if hand:
                    wrong.append(("not-your-turn", play_command(seat, hand[0])))
                wrong.append(("not-your-turn", submit_command(seat, "red-1")))
                wrong.append(("not-your-turn", {"type": "approve", "seat": seat}))
            else:
                wrong.append(("unexpected-command", submit_command(seat, "red-1")))
        if not acting:
            continue
        if kind in ("submit", "resubmit"):
            if missing is not None:
                code = "card-not-in-hand" if kind == "submit" else "must-play-drawn-card"
                wrong.append((code, submit_command(seat, missing)))
            for card in dict.fromkeys(hand if kind == "submit" else [pending["card"]]):
                if color_of(card) is None:
                    # A black card is submitted with its colour named, no other card.
                    wrong.append(("bad-color", {"type": "submit", "seat": seat, "card": card}))
                else:
                    wrong.append(("bad-color", submit_command(seat, card, color="red")))
                if state.cards_held(seat) > 2:
                    wrong.append(("uno-not-due", submit_command(seat, card, uno=True)))
            if kind == "resubmit":
                unlike = [c for c in hand if c != pending["card"]]
                if unlike:
                    wrong.append(("must-play-drawn-card", submit_command(seat, unlike[0])))
            else:
                wrong.append(("unexpected-command", {"type": "pass", "seat": seat}))
        elif kind == "ruling":
            assert submission is not None
            legal = legal_for(state, submission["seat"], submission["card"])
            own = [c for c in dict.fromkeys(hand) if legal_for(state, seat, c)]
            if not legal:
                wrong.append(("illegal-submission", {"type": "approve", "seat": seat}))
            if legal or own:
                card = submission["card"]
                wrong.append(("must-play", {"type": "return", "seat": seat, "card": card}))
            elif missing is not None and missing != submission["card"]:
                wrong.append(
                    ("card-not-in-hand", {"type": "return", "seat": seat, "card": missing})
                )
            if missing is not None:
                command = {"type": "substitute", "seat": seat, "card": missing}
                if color_of(missing) is None:
                    command["color"] = "red"
                wrong.append(("card-not-in-hand", command))
            for card in dict.fromkeys(hand):
                command = {"type": "substitute", "seat": seat, "card": card}
                if card not in own:
                    if color_of(card) is None:
                        command["color"] = "red"
                    wrong.append(("card-does-not-match", command))
                elif color_of(card) is None:
                    wrong.append(("bad-color", command))
                else:
                    wrong.append(("bad-color", {**command, "color": "red"}))
            wrong.append(("unexpected-command", {"type": "draw", "seat": seat}))
            wrong.append(("unexpected-command", {"type": "pass", "seat": seat}))
        elif kind == "play":
            own = [c for c in dict.fromkeys(hand) if legal_for(state, seat, c)]
            if own:
                # The dealer draws only when it has no legal card.
                wrong.append(("must-play", {"type": "draw", "seat": seat}))
            for card in dict.fromkeys(hand):
                if card not in own:
                    # A wild-draw4 while holding the current colour is one of these.
                    wrong.append(("card-does-not-match", play_command(seat, card)))
                elif color_of(card) is not None:
                    wrong.append(("color-not-needed", play_command(seat, card, color="red")))
            if missing is not None:
                wrong.append(("card-not-in-hand", play_command(seat, missing)))
            wrong.append(("unexpected-command", {"type": "pass", "seat": seat}))
            wrong.append(("unexpected-command", {"type": "approve", "seat": seat}))
        elif kind == "drawn":
            # The dealer must play a playable drawn card.
            wrong.append(("must-play-drawn-card", {"type": "pass", "seat": seat}))
            unlike = [c for c in hand if c != pending["card"]]
            if unlike:
                wrong.append(("must-play-drawn-card", play_command(seat, unlike[0])))
        elif kind == "color":
            wrong.append(("unexpected-command", {"type": "pass", "seat": seat}))
    return wrong + tail


def submit_command(seat: int, card: str, **fields: Any) -> Command:
    command: Command = {"type": "submit", "seat": seat, "card": card, "uno": False, **fields}
    if color_of(card) is None and "color" not in command:
        command["color"] = "red"
    return command


def matches(card: str, top: str | None, color: str | None) -> bool:
    """docs/rules.md: the current colour, the same rank as the top card, or black."""
    if card.startswith("wild") or top is None:
        return True
    card_color, card_rank = card.split("-", 1)
    top_rank = top if top.startswith("wild") else top.split("-", 1)[1]
    return card_color == color or card_rank == top_rank


def check_illegal(choices: Choices, variant: Variant, state: State, before: State) -> None:
    """Property 4: a wrong command raises IllegalCommand with its code and changes nothing
    (`before`: an independent copy of `state`)."""
    code, command = choices.pick(wrong_commands(variant, state), "wrong command")
    seat = command.get("seat")
    legal = variant.legal_commands(state, seat)
    assert command not in legal, f"{command} is listed as legal"
    try:
        variant.decide(state, command)
    except IllegalCommand as error:
        assert error.code == code, (command, error.code, error.message)
        assert error.message
    else:
        raise AssertionError(f"{command} was accepted; expected {code}")
    assert state == before, f"the refused {command} changed the state"


# --------------------------------------------------------------------------------- tests


def check_every_property(
    specs: list[dict[str, Any]], seats: st.SearchStrategy[int], examples: int
) -> None:
    """Hypothesis draws `examples` games (a spec, a seat count, a seed) and plays each, checking
    every property after every command."""

    @settings(
        max_examples=examples,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(st.sampled_from(specs), seats, st.integers(0, 2**32), st.data())
    def run(spec: dict[str, Any], seats: int, seed: int, data: st.DataObject) -> None:
        assume(fits(spec, seats))
        play(data, spec, seats, seed)

    run()


# EXAMPLES games of each family in every run; SLOW_EXAMPLES with UNO_SLOW_TESTS=1.
BY_EXAMPLES = pytest.mark.parametrize(
    "examples", [EXAMPLES, pytest.param(SLOW_EXAMPLES, marks=pytest.mark.slow)]
)
SEATS = st.integers(2, 6) | st.sampled_from([7, 10])


def fits(spec: dict[str, Any], seats: int) -> bool:
    return seats * spec["options"].get("hand_size", 7) + 1 <= len(DECK)


@BY_EXAMPLES
def test_official_games_keep_every_property(examples):
    """Random official games conserve cards, replay exactly, leak nothing, refuse wrong moves."""
    check_every_property(SPECS["official"], SEATS, examples)


@BY_EXAMPLES
def test_basic_plus_games_keep_every_property(examples):
    """Random basic-plus games conserve cards, replay exactly, leak nothing, refuse wrong moves."""
    check_every_property(SPECS["basic-plus"], SEATS, examples)


@BY_EXAMPLES
def test_precognitive_official_games_keep_every_property(examples):
    """Random precognitive games over official, every sight and lane, keep every property."""
    check_every_property(SPECS["precognitive-official"], SEATS, examples)


@BY_EXAMPLES
def test_precognitive_basic_plus_games_keep_every_property(examples):
    """Random precognitive games over basic-plus, every sight and lane, keep every property."""
    check_every_property(SPECS["precognitive-basic-plus"], SEATS, examples)


NEW_SEATS = {
    "newno": st.integers(2, 6) | st.sampled_from([7, 10]),
    "censorship": st.integers(3, 6) | st.sampled_from([7, 10]),
}


@BY_EXAMPLES
def test_newno_games_keep_every_property(examples):
    """Random newno games (with ages, close-window, jump-ins and catches) keep every property."""
    check_every_property(SPECS["newno"], NEW_SEATS["newno"], examples)


@BY_EXAMPLES
def test_censorship_games_keep_every_property(examples):
    """Random censorship games (every ruling, dealer_draws either way) keep every property."""
    check_every_property(SPECS["censorship"], NEW_SEATS["censorship"], examples)
