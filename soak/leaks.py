"""Hidden information under fire: every payload the soak's clients were served, checked against
the full state at its version, folded again from the log.

The rules checked are written here from docs/rules.md ("Hidden information" and the events
table), not taken from engine/view.py: a redaction bug there must fail here. Views of a
finished match are skipped (its reveal setting may show every hand), their events are not.
Play pages (soak/pages.py) are checked the same way: the board against the state at its version,
each line of the story against its event as the viewer may see it, and the dock's "just
happened" line, which repeats the story's newest lines, against the story.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Any

from engine import DECK
from engine.events import apply, initial_state
from engine.state import State
from games import event_reads
from games.models import Game, GameEvent
from soak.clients import Feed, Payload
from soak.pages import Page, cards_in_words

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


Item = Payload | Feed | Page


def check_all(
    payloads: list[Payload], feeds: list[Feed], pages: list[Page], emails: list[str]
) -> Leaks:
    leaks = Leaks()
    by_game: dict[int, list[Item]] = defaultdict(list)
    every: list[Item] = [*payloads, *feeds, *pages]
    for item in every:
        by_game[item.game].append(item)
    for game_id, items in sorted(by_game.items()):
        check_game(leaks, game_id, items)
    for text in emails:
        # A turn email names no card at all: not as a code, not in words.
        leaks.checked["email"] += 1
        found = [word for word in CARD_WORD.findall(text) if word in CARDS]
        found += cards_in_words(text)
        if found:
            leaks.fail("email", f"names cards {found}: {text[:300]!r}")
    return leaks


def check_game(leaks: Leaks, game_id: int, items: list[Item]) -> None:
    game = Game.objects.get(pk=game_id)
    precognitive = game.variant.get("precognitive")
    sight = precognitive.get("sight", "sighted") if precognitive else None
    log = event_reads.load(game_id)
    # When the match ended, if it did and its log is then shown whole (the reveal setting).
    ended = (
        GameEvent.objects.filter(game_id=game_id, type__in=("match-ended", "game-aborted"))
        .values_list("recorded_at", flat=True)
        .first()
    )
    revealed_at = ended.timestamp() if ended and game.reveal == Game.Reveal.AFTER_MATCH else None
    # What each item needs: a payload, the state at its version; a feed's event, the raw event
    # and the state right after it.
    # A page: its board at its version, and each story line at the line's version.
    wanted: dict[int, list[tuple[Item, Any]]] = defaultdict(list)
    for item in items:
        if isinstance(item, Payload):
            wanted[item.version].append((item, None))
        elif isinstance(item, Feed):
            for version, event in item.events:
                wanted[version].append((item, event))
        elif item.version is None:
            leaks.fail(f"game {game_id} {item.source} seat {item.seat}", "a page with no board")
        elif revealed_at is not None and item.at >= revealed_at:
            leaks.checked[item.source + "-after-the-end"] += 1
        else:
            leaks.checked[item.source] += 1
            check_last_hand(leaks, f"game {game_id} {item.source}", item, log)
            wanted[item.version].append((item, None))
            for version, cards in item.story:
                wanted[version].append((item, cards))
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
            if isinstance(item, Page):
                at = f"{where} {item.source} seat {item.seat}"
                if served is None:
                    check_board(leaks, at, item, state, sight)
                else:
                    check_story_line(leaks, at, item.seat, served, log[version - 1], state, sight)
            elif isinstance(item, Payload):
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
        real: list[str | None] = list(state.lanes[owner])
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
    known = known_to(state, seat, sight, submission if involved else None)
    own_hand: set[str] = set(state.hands[seat]) if seat is not None else set()
    for card in cards_in(view):
        if card not in known:
            leaks.fail(where, f"card {card} is nowhere the viewer may look")
    own_lane = set(state.lanes[seat]) if seat is not None else set()
    for card in cards_in(item.legal):
        if card not in own_hand | own_lane | known:
            leaks.fail(where, f"a legal command names {card}")


def known_to(
    state: State, seat: int | None, sight: str | None, submission: dict[str, Any] | None
) -> set[str]:
    """Every card `seat` may know of in `state`: its own hand and pending card, the lanes it may
    see, the played (face-up) pile, the last hand's cards left (made public by its scoring) and
    a censorship `submission` it is party to."""
    known: set[str] = set(state.discard)
    if state.top:
        known.add(state.top)
    last = state.extra.get("last_hand") or {}
    known.update(cards_in(last.get("cards_left")))
    for owner in range(state.seats):
        if lane_visible(sight, owner, seat):
            known.update(state.lanes[owner])
    if seat is not None:
        known.update(state.hands[seat])
        if (state.pending or {}).get("seat") == seat:
            known.update(cards_in(state.pending))
        if submission:
            known.update(cards_in(submission))
    return known


def check_board(leaks: Leaks, where: str, page: Page, state: State, sight: str | None) -> None:
    """A play page's board at its version: the hand area shows the viewer's hand, one face per
    card, and nothing else on the board names a card the viewer may not know of."""
    if state.status != "playing":
        return  # over: its reveal setting decides
    seat = page.seat
    hand = sorted(state.hands[seat]) if seat is not None else []
    if sorted(page.hand) != hand:
        leaks.fail(where, f"the hand area shows {sorted(page.hand)}, the seat holds {hand}")
    submission = state.extra.get("submission")
    involved = seat is not None and submission and seat in (submission["seat"], state.dealer)
    known = known_to(state, seat, sight, submission if involved else None)
    if seat is not None:
        known.update(state.lanes[seat])  # its commands name its own lane's cards, blind or not
    unknown = sorted(set(page.board) - known)
    if unknown:
        leaks.fail(where, f"the board names {unknown}, which the viewer may not see")
    # The dock's "just happened" line repeats the story's newest lines, which are checked each at
    # its own version (a card played then reshuffled is no longer on the board's pile): it may
    # name nothing the story does not.
    told = {card for _, cards in page.story for card in cards}
    untold = sorted(set(page.news) - told)
    if untold:
        leaks.fail(where, f"the dock's line names {untold}, which the story does not")


def check_story_line(
    leaks: Leaks,
    where: str,
    seat: int | None,
    cards: list[str],
    raw: dict[str, Any],
    after: State,
    sight: str | None,
) -> None:
    """A story line names only cards its event shows this viewer (docs/rules.md's table), or
    the face-up pile ("challenged Ann's wild draw four" names the card on it)."""
    allowed = set(cards_in(expected_event(raw, seat, sight, after))) | set(after.discard)
    if after.top:
        allowed.add(after.top)
    unknown = sorted(set(cards) - allowed)
    if unknown:
        leaks.fail(f"{where} story", f"a {raw['type']} line names {unknown}")


def check_last_hand(leaks: Leaks, where: str, page: Page, log: list[dict[str, Any]]) -> None:
    """The last hand's result shows that hand's cards left (hand-ended is public), no other."""
    if page.last_hand is None:
        return
    number, faces = page.last_hand
    ended = [e for e in log if e["type"] == "hand-ended" and e["hand"] == number]
    left = sorted(cards_in(ended[0]["cards_left"])) if ended else None
    if sorted(faces) != left:
        leaks.fail(f"{where} seat {page.seat}", f"hand {number}'s result shows {sorted(faces)}")


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
