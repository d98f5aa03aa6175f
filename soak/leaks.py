"""Hidden information under fire: every payload the soak's clients were served, checked against
the full state at its version, folded again from the log.

The rules checked are written here from docs/rules.md ("Hidden information" and the events
table), not taken from games/engine/view.py: a redaction bug there must fail here. Views of a
finished match are skipped (its reveal setting may show every hand), their events are not.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Any

from games import store
from games.engine import DECK
from games.engine.events import apply, initial_state
from games.engine.state import State
from games.models import Game, GameEvent
from soak.clients import Feed, Payload

CARDS = set(DECK)
CARD_WORD = re.compile(r"[a-z]+(?:-[a-z0-9]+)+")
# Keys a view may have before the match is over: none holds another seat's cards by itself.
VIEW_KEYS = {
    "rules", "seat", "seats", "hand", "hand_sizes", "lane", "top", "color", "direction",
    "to_act", "pending", "uncalled", "draw_pile", "discard_pile", "hand_number", "dealer",
    "scores", "hands_won", "last_hand", "status", "winner", "places", "submission",
    # A bot's view (pull decisions, webhook bodies) repeats its decision's version and commands.
    "version", "legal",
}  # fmt: skip
PRIVATE_TO_SEAT = {
    "fallback-played": ("reason",),
    "vacation-taken": ("days", "until"),
    "deadline-extended": ("note",),
}


def cards_in(value: Any) -> list[str]:
    """Every card code anywhere in a JSON value."""
    if isinstance(value, str):
        return [value] if value in CARDS else []
    if isinstance(value, dict):
        return [card for item in value.values() for card in cards_in(item)]
    if isinstance(value, list):
        return [card for item in value for card in cards_in(item)]
    return []


def lane_visible(sight: str | None, owner: int, viewer: int | None) -> bool:
    """docs/rules.md: sighted, the owner only; blind, nobody; telepathic, everybody. Without
    precognitive there are no lanes (the owner's own empty list is all there is)."""
    if sight is None:
        return owner == viewer
    return sight == "telepathic" or (sight == "sighted" and owner == viewer)


@dataclass
class Leaks:
    checked: Counter[str] = field(default_factory=Counter)
    failures: list[str] = field(default_factory=list)

    def fail(self, where: str, what: str) -> None:
        self.failures.append(f"{where}: {what}")


def check_all(payloads: list[Payload], feeds: list[Feed], emails: list[str]) -> Leaks:
    leaks = Leaks()
    by_game: dict[int, list[Payload | Feed]] = defaultdict(list)
    for item in [*payloads, *feeds]:
        by_game[item.game].append(item)
    for game_id, items in sorted(by_game.items()):
        check_game(leaks, game_id, items)
    for text in emails:
        leaks.checked["email"] += 1
        found = [word for word in CARD_WORD.findall(text) if word in CARDS]
        if found:
            leaks.fail("email", f"names cards {found}")
    return leaks


def check_game(leaks: Leaks, game_id: int, items: list[Payload | Feed]) -> None:
    game = Game.objects.get(pk=game_id)
    precognitive = game.variant.get("precognitive")
    sight = precognitive.get("sight", "sighted") if precognitive else None
    log = store.load(game_id)
    # When the match ended, if it did and its log is then shown whole (the reveal setting).
    ended = (
        GameEvent.objects.filter(game_id=game_id, type__in=("match-ended", "game-aborted"))
        .values_list("recorded_at", flat=True)
        .first()
    )
    revealed_at = ended.timestamp() if ended and game.reveal == Game.Reveal.AFTER_MATCH else None
    # What each item needs: a payload, the state at its version; a feed's event, the raw event
    # and the state right after it.
    wanted: dict[int, list[tuple[Payload | Feed, Any]]] = defaultdict(list)
    for item in items:
        if isinstance(item, Payload):
            wanted[item.version].append((item, None))
        else:
            for version, event in item.events:
                wanted[version].append((item, event))
    state: State | None = None
    folded = 0
    for version in sorted(wanted):
        where = f"game {game_id} v{version}"
        if version < 1 or version > len(log):
            for item, _ in wanted[version]:
                leaks.fail(f"{where} {item.source}", f"a version past the log's {len(log)}")
            continue
        if state is None:
            state, folded = initial_state(log[0]), 1
        for event in log[folded:version]:
            apply(state, event)
        folded = version
        for item, served in wanted[version]:
            if isinstance(item, Payload):
                leaks.checked[item.source] += 1
                check_view(leaks, f"{where} {item.source} seat {item.seat}", item, state, sight)
            elif revealed_at is not None and item.at >= revealed_at:
                # Answered after the match ended: the whole log is public then (docs/api.md).
                leaks.checked[item.source + "-event-after-the-end"] += 1
            else:
                leaks.checked[item.source + "-event"] += 1
                expected = expected_event(log[version - 1], item.seat, sight, state)
                if served != expected:
                    leaks.fail(
                        f"{where} {item.source} seat {item.seat}",
                        f"served {served!r}, the rules allow {expected!r}",
                    )


def check_view(leaks: Leaks, where: str, item: Payload, state: State, sight: str | None) -> None:
    view, seat = item.view, item.seat
    if state.status != "playing":
        return  # the match is over: its reveal setting decides what is public
    extra = set(view) - VIEW_KEYS
    if extra:
        leaks.fail(where, f"keys no viewer may see before the end: {sorted(extra)}")
    if seat is None:
        if "hand" in view or item.legal:
            leaks.fail(where, "a spectator was given a hand or commands")
    elif view.get("hand") != list(state.hands[seat]):
        leaks.fail(where, "the hand is not the seat's own")
    if view.get("draw_pile") != len(state.draw):
        leaks.fail(where, f"draw_pile is {view.get('draw_pile')!r}, not its size")
    for owner, lane in enumerate(view.get("lane", [])):
        real = list(state.lanes[owner])
        allowed = real if lane_visible(sight, owner, seat) else [None] * len(real)
        if lane != allowed:
            leaks.fail(where, f"lane {owner} shown as {lane!r}")
    pending = view.get("pending") or {}
    if pending.get("type") in ("drawn", "resubmit") and pending.get("seat") != seat:
        if pending.get("card") is not None:
            leaks.fail(where, "another seat's drawn card")
    submission = view.get("submission") or {}
    involved = seat is not None and seat in (submission.get("seat"), state.dealer)
    if submission and not involved and (submission.get("card") or submission.get("color")):
        leaks.fail(where, "a censorship submission to a third seat")
    # Every card named anywhere must be one the viewer may know of: its own hand and pending
    # card, the lanes it may see, the played (face-up) pile, the last hand's cards left (made
    # public by its scoring) and a submission it is party to.
    known: set[str] = set(state.discard)
    if state.top:
        known.add(state.top)
    last = state.extra.get("last_hand") or {}
    known.update(cards_in(last.get("cards_left")))
    for owner in range(state.seats):
        if lane_visible(sight, owner, seat):
            known.update(state.lanes[owner])
    own_hand: set[str] = set()
    if seat is not None:
        own_hand = set(state.hands[seat])
        known |= own_hand
        if (state.pending or {}).get("seat") == seat:
            known.update(cards_in(state.pending))
        if involved:
            known.update(cards_in(submission))
    for card in cards_in(view):
        if card not in known:
            leaks.fail(where, f"card {card} is nowhere the viewer may look")
    own_lane = set(state.lanes[seat]) if seat is not None else set()
    for card in cards_in(item.legal):
        if card not in own_hand | own_lane | known:
            leaks.fail(where, f"a legal command names {card}")


def expected_event(raw: dict[str, Any], viewer: int | None, sight: str | None, after: State) -> Any:
    """The event as docs/rules.md's events table says `viewer` sees it."""
    kind = raw["type"]
    event = dict(raw)
    hidden = None
    if kind == "match-started":
        event.pop("seed", None)
    elif kind == "hand-started":
        event.pop("deck", None)
        if viewer is not None:
            # The viewer's own dealt cards: its hand right after the deal, in deal order.
            event["cards"] = list(after.hands[viewer])
    elif kind == "cards-drawn" and raw["seat"] != viewer:
        hidden = "cards"
    elif kind == "card-reinserted":
        event.pop("position", None)
    elif kind == "pile-reshuffled":
        hidden = "order"
    elif kind == "prompted":
        pending = raw.get("pending")
        if pending and pending.get("type") in ("drawn", "resubmit") and pending["seat"] != viewer:
            event["pending"] = {**pending, "card": None}
    elif kind == "challenge-resolved" and viewer not in (raw["seat"], raw["target"]):
        hidden = "hand"
    elif kind in ("card-submitted", "submission-kept", "card-returned") and viewer not in (
        raw["seat"],
        raw["dealer"],
    ):
        event.update({key: None for key in ("card", "color", "submitted") if key in raw})
    elif kind == "lane-filled" and not lane_visible(sight, raw["seat"], viewer):
        hidden = "cards"
    elif (
        kind == "lane-flushed"
        and viewer != raw["seat"]
        and not lane_visible(sight, raw["seat"], viewer)
    ):
        hidden = "cards"
    elif kind in PRIVATE_TO_SEAT and viewer != raw["seat"]:
        event.update({key: None for key in PRIVATE_TO_SEAT[kind]})
    if hidden is not None:
        event[hidden] = [None] * len(raw[hidden])
    return event
