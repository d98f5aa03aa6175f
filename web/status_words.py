"""What the status box says of a board, for one viewer: what the game waits for (`waiting`),
a ruling's or a flushed lane's note, a jump-in open, the bots' grace, a finished match's
result. web/board.py draws the board with these words; the story (web/story.py) names the
censor as they do. Words only, from an engine view already redacted for its viewer."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine import events as ev
from engine.cards import WILD_DRAW4
from web.cards import card_list, card_name, face
from web.names import Names

View = Mapping[str, Any]
Event = Mapping[str, Any]

_STACK_KINDS = {"draw2": "draw two", "wild-draw4": "wild draw four"}
# What the lane is for, said while the viewer fills it (docs/rules.md, "Turns with a lane").
LANE_PURPOSE = "it plays for you next turn if it fits"


def chance(pending: Mapping[str, Any], my_turn: bool) -> str:
    """What the bots' grace waits for, when it waits for the viewer: "Anyone may move first" only
    while newno's open start is open (nobody has played); on the viewer's turn after it, the open
    choice they may answer (the second play, a stack both neighbours may answer) or their move;
    otherwise a chance out of turn (a jump-in, an uno to call or to catch)."""
    if not my_turn:
        return "You may move out of turn"
    kind, seats = pending.get("type"), pending.get("seats")
    if kind == "first-play" and seats:
        return "Anyone may move first"
    if kind == "second-play" and seats:
        return "You may make the second play"
    if kind == "stack" and seats:
        return "You may answer the stack"
    return "You may move first"


def waiting(view: View, who: Names, legal: Sequence[Mapping[str, Any]] | None = None) -> str:
    """What the game waits for, in words: "Your turn: play a card or draw" (with the viewer's
    `legal` commands, only what they may do: newno lets only a seat that cannot play draw)."""
    pending = view.get("pending") or {}
    kind = pending.get("type")
    if view["status"] == "match-over":
        return "The match is over"
    if kind is None:
        return ""
    seat = pending.get("seat", -1)
    mine = seat == who.viewer
    if kind == "play":
        if not mine:
            return f"{who.whose(seat)} turn"
        kinds = {c["type"] for c in legal or () if c.get("seat") == seat}
        if legal is not None and "play" in kinds and "draw" not in kinds:
            return "Your turn: play a card"
        if legal is not None and "draw" in kinds and "play" not in kinds:
            return "Your turn: no card can be played, draw one"
        return "Your turn: play a card or draw"
    if kind == "drawn":
        # Censorship's drawn card is the censor's, who must play it (docs/rules.md).
        if view["rules"] == "censorship":
            if mine and pending.get("card"):
                return f"You drew {card_name(pending['card'])}: as the censor you must play it"
            return f"{censor(who, seat)} drew a card that can be played and must play it"
        if mine and pending.get("card"):
            return f"You drew {card_name(pending['card'])}: play it or keep it"
        return f"{who.who(seat)} drew a card that can be played: play it or keep it"
    if kind == "color":
        return f"{who.who(seat)} must choose a colour" if not mine else "Choose a colour"
    if kind == "challenge":
        offender = who.whose(pending["offender"], start=False)
        return f"{who.who(seat)} may challenge {offender} wild draw four, or accept it"
    if kind == "precommit":
        count = pending["count"]
        cards = "a card" if count == 1 else f"{count} cards"
        if mine:
            # What the lane is for, in a clause (docs/rules.md, "Turns with a lane"): the status
            # keeps two lines in precognitive, as in newno (`status_lines`).
            return f"You must fill the lane with {cards}: {LANE_PURPOSE}"
        return f"{who.who(seat)} must fill the lane with {cards}"
    if kind == "next-hand":
        return "The hand is over; the next one is being dealt"
    return _newno_or_censorship(pending, who, legal, view.get("dealer"))


def censor(who: Names, seat: int | None, *, start: bool = True) -> str:
    """This hand's censor by its seat, the role beside it, so that neither is taken for the
    other (a built-in bot is called "censor"): "you, the censor," or "greedy (the censor)"."""
    if seat is None:
        return "The censor" if start else "the censor"
    if seat == who.viewer:
        return f"{who.who(seat, start=start)}, the censor,"
    return f"{who.who(seat, start=start)} (the censor)"


def _mine(legal: Sequence[Mapping[str, Any]] | None, seat: int | None) -> set[str] | None:
    """The kinds of `seat`'s legal commands, or None when they are not known (a replay)."""
    if legal is None or seat is None:
        return None
    return {str(command["type"]) for command in legal if command.get("seat") == seat}


def _newno_or_censorship(
    pending: Mapping[str, Any],
    who: Names,
    legal: Sequence[Mapping[str, Any]] | None = None,
    dealer: int | None = None,
) -> str:
    kind, seat, seats = pending["type"], pending.get("seat"), pending.get("seats")
    anyone = who.seats(seats, start=False, conj="or") if seats else ""
    if kind == "first-play":
        if seats:
            return "Open start: anyone may make the first play"
        return f"{who.who(seat)} must make the first play (or draw)"
    if kind == "second-play":
        by = f"{anyone} may" if seats else f"{who.who(seat)} must"
        return f"Second play: {by} play next, which sets the direction"
    if kind == "stack":
        what = _STACK_KINDS.get(pending["kind"], pending["kind"])
        total = pending["total"]
        kinds = _mine(legal, who.viewer)
        if kinds is not None and who.viewer in (seats or [seat]) and "play" not in kinds:
            # The words follow the viewer's legal commands: no card to stack, only the accept.
            return f"Stack of {total}: you have no {what} to add, so take the cards"
        by = anyone if seats else who.who(seat, start=False)
        return f"Stack of {total}: {by} may stack a {what} or take the cards"
    if kind == "swap":
        return f"{who.who(seat)} must choose whom to swap hands with"
    if kind == "submit":
        to = "you, the censor" if dealer == who.viewer else censor(who, dealer, start=False)
        return f"{who.who(seat)} must submit a card to {to}"
    if kind == "resubmit":
        return f"{who.who(seat)} may submit the drawn card again, or pass"
    if kind == "ruling":
        submitter = who.whose(pending["submitter"], start=False)
        if seat == who.viewer:
            return f"You, the censor, rule on {submitter} card"
        return f"{censor(who, seat)} rules on {submitter} card"
    return f"Waiting for {who.seats(seats or [seat], start=False)}"


def _top_words(view: View) -> str:
    """The card to match in words: "blue 8", or "wild (green)" for a black card."""
    top = view.get("top")
    if not top:
        return "the pile"
    color = view.get("color")
    if face(top).color == "black" and color:
        return f"{card_name(top)} ({color})"
    return card_name(top)


def ruling_note(view: View, who: Names, legal: Sequence[Mapping[str, Any]] | None) -> str:
    """The censor's ruling when approving is not among its commands (docs/rules.md,
    "censorship"): a submission that is not legal can only be replaced; with no legal card at
    all, the censor takes it and gives a card back."""
    pending = view.get("pending") or {}
    if pending.get("type") != "ruling" or pending.get("seat") != who.viewer:
        return ""
    kinds = _mine(legal, who.viewer)
    if kinds is None or "approve" in kinds:
        return ""
    submitter = pending["submitter"]
    card = (view.get("submission") or {}).get("card")
    submitted = f"{who.whose(submitter)} {card_name(card) if card else 'card'}"
    top = _top_words(view)
    name = who.who(submitter, start=False)
    # A wild draw four goes on any card, but counts as legal only while its holder has nothing
    # in the current colour: that is why it is refused, and the refusal itself tells the censor
    # as much (approving is not offered), so saying it shows nothing more.
    colour = view.get("color") or (face(view["top"]).color if view.get("top") else None)
    held = card == WILD_DRAW4 and colour
    if "substitute" in kinds:
        why = (
            f"cannot be played while {name} holds a {colour} card"
            if held
            else f"cannot be played on {top}"
        )
        return (
            f"{submitted} {why}, so you cannot approve it: it can only be replaced by one of "
            "your outlined cards."
        )
    if "return" in kinds:
        theirs = f"{who.whose(submitter, start=False)} {card_name(card) if card else 'card'}"
        if held:
            theirs += f" ({name} holds a {colour} card)"
        return (
            f"No card can be played on {top}: neither {theirs} nor any of yours. You take "
            f"the submitted card and give {name} back a card of your choice (the submitted "
            f"card itself is allowed); {name} then draws a card."
        )
    return ""


def lane_flushed(events: Sequence[Event], view: View, who: Names) -> str:
    """Why the viewer must fill the lane again right after filling it (docs/rules.md, "The
    precognitive modifier"): its front card could not be played, so the whole lane went back
    into the hand and a card was drawn, and that was the turn. From `events` (`[{"version",
    "event"}]`, as the viewer sees them: the owner sees a flushed lane and the card drawn);
    "" unless the viewer's precommit is pending after a flush."""
    seat = who.viewer
    pending = view.get("pending") or {}
    if seat is None or pending.get("type") != "precommit" or pending.get("seat") != seat:
        return ""
    drawn: list[str | None] | None = None
    for item in reversed(events):
        event = item["event"]
        kind = event["type"]
        if kind == ev.HAND_STARTED:
            return ""
        if event.get("seat") != seat:
            continue
        if kind == ev.CARDS_DRAWN and event.get("reason") == "flush" and drawn is None:
            drawn = list(event["cards"])
        elif kind == ev.LANE_FLUSHED:
            return _flushed_words(list(event["cards"]), drawn, view)
        elif kind in (ev.LANE_FILLED, ev.CARD_PLAYED):
            return ""
    return ""


def _flushed_words(cards: list[str | None], drawn: list[str | None] | None, view: View) -> str:
    front = cards[0] if cards else None
    lane = "your lane's card" if len(cards) == 1 else f"your lane's {len(cards)} cards"
    if cards and all(card is not None for card in cards):
        lane += f" ({card_list([card for card in cards if card is not None])})"
    front_words = f"its front card, {card_name(front)}," if front else "its front card"
    text = (
        f"Your lane could not play: {front_words} cannot go on {_top_words(view)}. "
        f"So {lane} went back into your hand"
    )
    if drawn and all(card is not None for card in drawn):
        text += f" and you drew {card_list([card for card in drawn if card is not None])}"
    elif drawn:
        text += " and you drew a card"
    return f"{text}: that was your turn."


def jump(pending: Mapping[str, Any], who: Names) -> str:
    window = pending.get("jump")
    if not window:
        return ""
    return (
        f"Jump-in open: anyone else holding {card_name(window['card'])} may play it now, "
        "out of turn"
    )


def jump_news(pending: Mapping[str, Any]) -> str:
    """The jump-in line as a phone's dock says it, short enough for one of its lines."""
    window = pending.get("jump")
    if not window:
        return ""
    return f"Anyone else with {card_name(window['card'])} may jump in now."


def result(view: View, who: Names) -> str:
    winner = view.get("winner")
    if winner is not None:
        return f"{who.verb(winner, 'wins', 'win')} the match"
    if view.get("places") is None:
        # Over without places: only a staff's game-aborted event ends a match so.
        return "The match was aborted by the staff, with no result"
    places = view.get("places") or []
    firsts = [seat for seat, place in enumerate(places) if place == 1]
    return f"{who.seats(firsts)} share first place"
