"""Property-based tests: random games of official, basic-plus and precognitive over both.

Hypothesis draws a variant spec, a seat count and a seed, then drives a game by drawing every
command from the legal ones (a to-act seat's turn, sometimes an out-of-turn uno call or catch,
`next-hand` when a hand is over). After every command it checks:

1. the 108 cards are conserved (hands, lanes, draw and discard piles);
2. the full event log replays to the state folded step by step, and `decide` changed nothing;
3. no view and no viewed event shows a card its viewer may not see, and every view is JSON;
4. a wrong command raises IllegalCommand with its code and changes nothing.
"""

from __future__ import annotations

import json
import pickle
import random
from typing import Any

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import event as note
from hypothesis import strategies as st

from games.engine import DECK, IllegalCommand, State, Variant

Event = dict[str, Any]
Command = dict[str, Any]

SORTED_DECK = sorted(DECK)
DISTINCT_CARDS = sorted(set(DECK))
OUT_OF_TURN = ("catch", "call-uno")
MAX_COMMANDS = 400
EXAMPLES = 15

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
}


def deep_copy(value: Any) -> Any:
    """An independent copy (pickle is several times faster than copy.deepcopy here)."""
    return pickle.loads(pickle.dumps(value))


def lane_visible(spec: dict[str, Any], owner: int, viewer: int | None) -> bool:
    """RULES.md sight: sighted = the owner sees its lane; blind = nobody; telepathic = everyone."""
    sight = (spec.get("precognitive") or {}).get("sight", "sighted")
    return sight == "telepathic" or (sight == "sighted" and owner == viewer)


# ------------------------------------------------------------------------------- driving


def draw_command(data: st.DataObject, variant: Variant, state: State) -> Command:
    """A legal command: `next-hand`, a to-act seat's move, or sometimes an out-of-turn call."""
    if state.status == "hand-over":
        return data.draw(st.sampled_from(variant.legal_commands(state, None)), label="system")
    assert variant.legal_commands(state, None) == []
    out_of_turn: list[Command] = []
    for seat in range(state.seats):
        options = variant.legal_commands(state, seat)
        if seat not in state.to_act:
            # Property: a seat the game is not waiting for has only out-of-turn options.
            assert all(c["type"] in OUT_OF_TURN for c in options), (seat, options)
        out_of_turn += [c for c in options if c["type"] in OUT_OF_TURN]
    # One draw in eight goes out of turn; not the first or last index, which Hypothesis favours.
    if out_of_turn and data.draw(st.sampled_from(range(8)), label="out of turn?") == 3:
        return data.draw(st.sampled_from(out_of_turn), label="out-of-turn command")
    seat = data.draw(st.sampled_from(state.to_act), label="acting seat")
    turn = [c for c in variant.legal_commands(state, seat) if c["type"] not in OUT_OF_TURN]
    # Property: a seat the game waits for always has a move; the game never gets stuck.
    assert turn, (seat, state.pending)
    return data.draw(st.sampled_from(turn), label="command")


def play(data: st.DataObject, spec: dict[str, Any], seats: int, seed: int) -> None:
    variant = Variant.from_spec(spec)
    log = variant.start(seats, seed=seed)
    state = variant.replay(log)
    check_state(variant, spec, state, log, log, data)
    hands = 0
    for _ in range(MAX_COMMANDS):
        if state.status == "match-over":
            assert variant.legal_commands(state, None) == []
            assert all(variant.legal_commands(state, s) == [] for s in range(seats))
            break
        check_illegal(data, variant, state)
        command = draw_command(data, variant, state)
        before = deep_copy(state)
        new = variant.decide(state, command)
        assert state == before, f"decide changed its input state on {command}"
        folded = variant.replay(new, state)
        assert state == before, "replay changed the state it folded onto"
        log += new
        state = folded
        hands += sum(e["type"] == "hand-ended" for e in new)
        check_state(variant, spec, state, log, new, data)
    # The log is stored as JSON: it must survive the round trip and replay to the same state.
    assert variant.replay(json.loads(json.dumps(log))) == state
    note(f"hands ended: {min(hands, 3)}{'+' if hands > 3 else ''}")
    note(f"final status: {state.status}")


# ---------------------------------------------------------------------------- properties


def check_state(
    variant: Variant,
    spec: dict[str, Any],
    state: State,
    log: list[Event],
    new: list[Event],
    data: st.DataObject,
) -> None:
    check_cards(state)
    assert variant.replay(log) == state, "replaying the log differs from the step-by-step fold"
    rng = random.Random(data.draw(st.integers(0, 2**32 - 1), label="re-deal seed"))
    for viewer in [None, *range(state.seats)]:
        check_view(variant, spec, state, viewer, rng)
    for event in new:
        stored = deep_copy(event)
        for viewer in [None, *range(state.seats)]:
            check_event_view(variant, spec, event, viewer)
        assert event == stored, "view_event changed the stored event"


def check_cards(state: State) -> None:
    """Property 1: every one of the 108 cards is somewhere, exactly once."""
    cards = [c for hand in state.hands for c in hand]
    cards += [c for lane in state.lanes for c in lane]
    cards += state.draw + state.discard
    assert sorted(cards) == SORTED_DECK
    pending = state.pending or {}
    if pending.get("type") == "drawn":
        # A drawn card the seat may still play is in its hand.
        assert pending["card"] in state.hands[pending["seat"]]


def json_round_trip(value: Any) -> None:
    assert json.loads(json.dumps(value)) == value


def check_view(
    variant: Variant, spec: dict[str, Any], state: State, viewer: int | None, rng: random.Random
) -> None:
    """Property 3 (views): the view shows the viewer's hand and nothing hidden."""
    view = variant.view(state, viewer)
    json_round_trip(view)
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
    if pending.get("type") == "drawn":
        expected = pending["card"] if pending["seat"] == viewer else None
        assert view["pending"]["card"] == expected
    assert view["draw_pile"] == len(state.draw)
    if state.status != "match-over":
        assert view["winner"] is None
    # Re-deal everything the viewer may not see: the view must not change.
    assert variant.view(redeal(spec, state, viewer, rng), viewer) == view


def redeal(spec: dict[str, Any], state: State, viewer: int | None, rng: random.Random) -> State:
    """A copy of `state` whose cards hidden from `viewer` are shuffled among their places."""
    other = deep_copy(state)
    slots: list[tuple[list[str], int]] = []
    for seat in range(state.seats):
        if seat != viewer:
            slots += [(other.hands[seat], i) for i in range(len(other.hands[seat]))]
        if not lane_visible(spec, seat, viewer):
            slots += [(other.lanes[seat], i) for i in range(len(other.lanes[seat]))]
    slots += [(other.draw, i) for i in range(len(other.draw))]
    cards = [place[i] for place, i in slots]
    rng.shuffle(cards)
    for (place, i), card in zip(slots, cards, strict=True):
        place[i] = card
    pending = other.pending or {}
    if pending.get("type") == "drawn" and pending["seat"] != viewer:
        other.pending = {**pending, "card": rng.choice(DISTINCT_CARDS)}
    if other.challenge is not None:
        offender, before, hand = other.challenge
        other.challenge = (offender, before, tuple(rng.sample(DECK, len(hand))))
    other.seed = "a different seed"
    return other


def check_event_view(
    variant: Variant, spec: dict[str, Any], event: Event, viewer: int | None
) -> None:
    """Property 3 (events): a viewed event hides exactly what its viewer may not see."""
    seen = variant.view_event(event, viewer)
    json_round_trip(seen)
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
        if pending["type"] == "drawn" and pending["seat"] != viewer:
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


# ------------------------------------------------------------------------ wrong commands


def wrong_commands(variant: Variant, state: State) -> list[tuple[str, Command]]:
    """Commands that break the rules now, each with the code it must be refused with."""
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


def matches(card: str, top: str | None, color: str | None) -> bool:
    """RULES.md: the current colour, the same rank as the top card, or black."""
    if card.startswith("wild") or top is None:
        return True
    card_color, card_rank = card.split("-", 1)
    top_rank = top if top.startswith("wild") else top.split("-", 1)[1]
    return card_color == color or card_rank == top_rank


def check_illegal(data: st.DataObject, variant: Variant, state: State) -> None:
    """Property 4: a wrong command raises IllegalCommand with its code and changes nothing."""
    code, command = data.draw(
        st.sampled_from(wrong_commands(variant, state)), label="wrong command"
    )
    seat = command.get("seat")
    legal = variant.legal_commands(state, seat)
    assert command not in legal, f"{command} is listed as legal"
    before = deep_copy(state)
    try:
        variant.decide(state, command)
    except IllegalCommand as error:
        assert error.code == code, (command, error.code, error.message)
        assert error.message
    else:
        raise AssertionError(f"{command} was accepted; expected {code}")
    assert state == before, f"the refused {command} changed the state"


# --------------------------------------------------------------------------------- tests

SETTINGS = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
SEATS = st.integers(2, 6) | st.sampled_from([7, 10])


def fits(spec: dict[str, Any], seats: int) -> bool:
    return seats * spec["options"].get("hand_size", 7) + 1 <= len(DECK)


@SETTINGS
@given(st.sampled_from(SPECS["official"]), SEATS, st.integers(0, 2**32), st.data())
def test_official_games_keep_every_property(spec, seats, seed, data):
    """Random official games conserve cards, replay exactly, leak nothing, refuse wrong moves."""
    assume(fits(spec, seats))
    play(data, spec, seats, seed)


@SETTINGS
@given(st.sampled_from(SPECS["basic-plus"]), SEATS, st.integers(0, 2**32), st.data())
def test_basic_plus_games_keep_every_property(spec, seats, seed, data):
    """Random basic-plus games conserve cards, replay exactly, leak nothing, refuse wrong moves."""
    assume(fits(spec, seats))
    play(data, spec, seats, seed)


@SETTINGS
@given(st.sampled_from(SPECS["precognitive-official"]), SEATS, st.integers(0, 2**32), st.data())
def test_precognitive_official_games_keep_every_property(spec, seats, seed, data):
    """Random precognitive games over official, every sight and lane, keep every property."""
    assume(fits(spec, seats))
    play(data, spec, seats, seed)


@SETTINGS
@given(st.sampled_from(SPECS["precognitive-basic-plus"]), SEATS, st.integers(0, 2**32), st.data())
def test_precognitive_basic_plus_games_keep_every_property(spec, seats, seed, data):
    """Random precognitive games over basic-plus, every sight and lane, keep every property."""
    assume(fits(spec, seats))
    play(data, spec, seats, seed)
