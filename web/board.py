"""The table as one viewer sees it, ready for the templates: the play page and the replay draw
the same board from an engine view (already redacted for that viewer).

Nothing here decides what a viewer may see: a card the view holds as `None` is drawn face
down, and a hand the view does not hold is only counted.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine import events as ev
from engine.cards import WILD_DRAW4
from games.variant_text import FAMILY_NAMES, lane_words
from web.cards import Face, card_list, card_name, face, sorted_faces
from web.names import Names
from web.sentences import ordinal

View = Mapping[str, Any]
Event = Mapping[str, Any]

_STACK_KINDS = {"draw2": "draw two", "wild-draw4": "wild draw four"}
# What the lane is for, said while the viewer fills it (docs/rules.md, "Turns with a lane").
LANE_PURPOSE = "it plays for you next turn if it fits"


@dataclass
class SeatPanel:
    """One seat at the table. `uno` is "owes" (down to one card, not called: catchable), "one"
    (one card, nothing owed) or ""; `lane` holds None for a card the viewer may not see;
    `revealed` is the whole hand, once the match's log is public."""

    number: int
    name: str
    kind: str
    is_viewer: bool
    cards: int
    lane: list[Face | None]
    acting: bool
    role: str
    uno: str
    score: int
    hands_won: int
    place: int | None
    revealed: list[Face] | None = None
    forfeited: bool = False  # placed last whatever the default bot made of the seat
    catch: Any = None  # the viewer's catch of this seat (controls.Option), when legal

    @property
    def catch_class(self) -> str:
        """A catch of a seat that owes a call stands out; one that does not costs the catcher
        (basic-plus, newno list it all the same)."""
        return "action--catch action--owes" if self.uno == "owes" else "action--catch"


# How seats level on points are placed, by scoring (docs/rules.md, "Placement"): said under a
# finished match's places when it placed level seats apart.
_TIE_RULES = {
    "single-hand": "Seats level on points are placed by the points left in their hands, "
    "fewest first; level on those too, they share the place (“2=”).",
    "winner-takes": "Seats level on points are placed by hands won; level on both, they share "
    "the place (“2=”).",
}


@dataclass
class HandResult:
    """The last hand's result: who went out, each seat's cards left, points and gain."""

    hand: int
    winner: str
    rows: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class Table:
    rules: str
    rules_section: str  # the id of the family's section in the rules guide (/guides/rules/)
    hand_number: int
    top: Face | None
    color: str | None
    direction: str
    draw_pile: int
    discard_pile: int
    seats: list[SeatPanel]
    status: str
    waiting: str
    jump: str
    # Censorship: the pile has a place for the card submitted to the censor, empty or not.
    censorship: bool
    submission: Face | None
    submission_from: str
    # The colour a submitted black card names, when the viewer may see the card ("" if none).
    submission_color: str
    my_turn: bool
    over: bool
    result: str
    # The grace line's opening words, what the bots wait for when they wait for the viewer
    # (templates/games/_game.html): the open start's first play, an open answer the viewer may
    # make on their turn, or a chance out of turn.
    chance: str = ""
    # Why the viewer's choices are what they are, when the status line alone would mislead (a
    # censor who cannot approve, a lane that was flushed): a line of its own in the status box.
    note: str = ""
    # The lines the status box keeps, on a desktop, for the lines that may come and go in it
    # while the match plays (its room, templates/games/_game.html and static/cards.css), so
    # the board under the box stays put as they do: a note's, newno's jump-in line's and the
    # bots' grace's, each where the viewer's situation can bring it (`_room`); 0 for none.
    room: int = 0
    # The lines the status line keeps, empty or not (templates/games/_game.html), for the
    # longest of the family's prompts at 360 px.
    status_lines: int = 1
    # The jump-in line in the few words a phone's dock says it in, after its "just happened"
    # line (templates/games/_game.html): "Anyone else with red 8 may jump in now."; "" when
    # no jump-in is open.
    jump_news: str = ""
    # The match's scoring (docs/rules.md, "Scoring"): how level seats were placed (`placings`).
    scoring: str = "winner-takes"
    # Precognitive: every seat's panel keeps a line for its lane, filled or not (on a desktop's
    # list of seats, static/seats.css), so a lane that is filled or flushed moves no seat.
    lanes: bool = False

    @property
    def placings(self) -> list[tuple[str, SeatPanel, str]]:
        """A finished match's seats by their places, the first first, as the service records
        them: the place's word ("1st"; "2=" for a place seats share, as the season tables
        write it), the seat, and, where seats level on points were placed apart by the rules'
        tie-break (docs/rules.md, "Placement"), its hands won ("1 hand won") where that is the
        tie-break; [] without places (a match the staff aborted)."""
        placed = sorted((seat for seat in self.seats if seat.place), key=lambda s: s.place or 0)
        rows: list[tuple[str, SeatPanel, str]] = []
        for seat in placed:
            level = [o for o in placed if o.score == seat.score and not o.forfeited]
            level = [] if seat.forfeited else level
            shared = sum(o.place == seat.place for o in placed) > 1
            word = f"{seat.place}=" if shared else ordinal(seat.place or 0)
            broken = any(o.place != seat.place for o in level)
            won = f"{seat.hands_won} hand{'' if seat.hands_won == 1 else 's'} won"
            rows.append((word, seat, won if broken and self.scoring != "single-hand" else ""))
        return rows

    @property
    def tie_rule(self) -> str:
        """The rule's sentence, said under the places, when it placed seats level on points
        apart (`placings`); "" when it did not."""
        placed = [seat for seat in self.seats if seat.place and not seat.forfeited]
        broken = any(a.score == b.score and a.place != b.place for a in placed for b in placed)
        return _TIE_RULES.get(self.scoring, _TIE_RULES["winner-takes"]) if broken else ""

    @property
    def my_lane(self) -> int:
        """The cards in the viewer's own precognitive lane: its seat counts them with the hand
        (they are still held), the hand's heading shows the hand alone and says so."""
        return sum(len(seat.lane) for seat in self.seats if seat.is_viewer)

    @property
    def owed_catches(self) -> list[SeatPanel]:
        """The seats the viewer may catch for a missed UNO (the catch succeeds): their Catch
        buttons stand among the moves, by the hand (on a phone the seats sit under the pinned
        dock, where a chance that lasts a moment would pass unseen)."""
        return [seat for seat in self.seats if seat.catch is not None and seat.uno == "owes"]

    @property
    def asked_catches(self) -> list[SeatPanel]:
        """The seats whose catch would cost the viewer (basic-plus and newno list a catch of
        every seat): each a question on its seat; on a phone, where the seats sit under the
        pinned dock, the dock asks them all in one question instead, with a false UNO call
        (templates/games/_asked_catches.html)."""
        return [seat for seat in self.seats if seat.catch is not None and seat.uno != "owes"]

    @property
    def docked_catches(self) -> list[SeatPanel]:
        """Of `asked_catches`, those a phone's dock asks: of seats holding one card (that called
        UNO). A catch of a seat with more cards only costs the viewer (newno lists one of every
        seat): the dock does not ask it (a desktop's seats still do)."""
        return [seat for seat in self.asked_catches if seat.uno]


def table(
    view: View,
    names: Sequence[str],
    kinds: Sequence[str],
    *,
    you: int | None,
    spec: Mapping[str, Any],
    legal: Sequence[Mapping[str, Any]] | None = None,
    bots: bool = False,
) -> Table:
    """The board of `view` (an engine view, maybe with the revealed `hands`) of a game of the
    variant `spec`, seats named by `names` and `kinds` ("person" or "bot"); `you` is the seat
    called "you" (the person's own seat, which a replay's view need not be); `legal`, the
    viewer's legal commands when the board is theirs to play (the status line says which);
    `bots`, whether a bot moves a seat in-process (the bots may wait for "you": a grace)."""
    viewer = view["seat"]
    who = Names(names, you)
    pending = view.get("pending") or {}
    submission = view.get("submission") or {}
    over = view["status"] == "match-over"
    two_lines = view["rules"] == "newno" or bool(spec.get("precognitive"))
    return Table(
        rules=rules_title(spec),
        rules_section=rules_section(spec),
        scoring=str((spec.get("options") or {}).get("scoring") or "winner-takes"),
        hand_number=view["hand_number"],
        top=face(view["top"]) if view.get("top") else None,
        color=view.get("color"),
        direction=view["direction"],
        draw_pile=view["draw_pile"],
        discard_pile=view["discard_pile"],
        seats=[_panel(view, seat, names, kinds, you) for seat in _seat_order(view)],
        status=view["status"],
        waiting=waiting(view, who, legal),
        jump=_jump(pending, who),
        jump_news=_jump_news(pending),
        censorship=view["rules"] == "censorship",
        submission=face(submission["card"]) if submission.get("card") else None,
        submission_from=who.who(submission["seat"], start=False) if submission else "",
        submission_color=submission.get("color") or "",
        my_turn=you is not None and you == viewer and viewer in view["to_act"],
        over=over,
        result=_result(view, who) if over else "",
        chance=_chance(pending, you is not None and you == viewer and viewer in view["to_act"]),
        note=_ruling_note(view, who, legal),
        room=0 if over else _room(view, spec, you, bots),
        # newno's stack and second-play prompts take two lines at 360 px, its turn's one, and
        # so does precognitive's lane to fill (LANE_PURPOSE): the status line keeps two there,
        # so the board under it keeps its place as they come.
        status_lines=2 if two_lines and not over else 1,
        lanes=bool(spec.get("precognitive")) and not over,
    )


def _chance(pending: Mapping[str, Any], my_turn: bool) -> str:
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


def rules_title(spec: Mapping[str, Any]) -> str:
    """The variant in words: "Official", "Precognitive (a lane of 2 cards, face down to all)
    over official"."""
    rules = str(spec.get("rules", ""))
    title = FAMILY_NAMES.get(rules) or rules
    precognitive = spec.get("precognitive")
    if not precognitive:
        return title
    return f"Precognitive ({lane_words(precognitive)}) over {title.lower()}"


def rules_section(spec: Mapping[str, Any]) -> str:
    """The heading id of the variant's section in docs/rules.md: its family's, or the
    precognitive modifier's (which links to its base family's)."""
    if spec.get("precognitive"):
        return "the-precognitive-modifier"
    return str(spec.get("rules", ""))


def _seat_order(view: View) -> list[int]:
    """Seats from the viewer's, clockwise (a spectator: from seat 0)."""
    start = view["seat"] or 0
    return [(start + i) % view["seats"] for i in range(view["seats"])]


def _panel(
    view: View, seat: int, names: Sequence[str], kinds: Sequence[str], you: int | None
) -> SeatPanel:
    cards = view["hand_sizes"][seat]
    revealed = view.get("hands")
    places = view.get("places")
    return SeatPanel(
        number=seat,
        name=names[seat],
        kind=kinds[seat],
        is_viewer=seat == you,
        cards=cards,
        lane=[None if card is None else face(card) for card in view["lane"][seat]],
        acting=seat in view["to_act"],
        role=_role(view, seat),
        uno=("owes" if seat in view["uncalled"] else "one") if cards == 1 else "",
        score=view["scores"][seat],
        hands_won=view["hands_won"][seat],
        place=places[seat] if places else None,
        # The viewer's own hand is shown as its hand; the others' once the log is public.
        revealed=(
            sorted_faces(revealed[seat])
            if revealed is not None and not (seat == view["seat"] and "hand" in view)
            else None
        ),
    )


# The lines the room keeps on a desktop, measured in the status box at 1280 px: the longer note
# on a censor's ruling ("No card can be played on ...") takes four with names of ordinary length;
# the note on a flushed lane, four for a lane of one or two cards and one more for every three
# cards more, with the longest card names (at most six: a longer lane's note wraps further);
# newno's jump-in line and the grace line (its countdown running), two each.
CENSOR_NOTE_LINES = 4
FLUSH_NOTE_LINES = 6
JUMP_LINES = 2
GRACE_LINES = 2


def _room(view: View, spec: Mapping[str, Any], you: int | None, bots: bool) -> int:
    """The lines the status box keeps for the lines that may come: a ruling's note for this
    hand's censor (with any submission); a flushed lane's note while the seat's owner is asked
    to fill their lane (the only time it comes, with the form to fill it); where a bot moves a
    seat, the grace line for a seated viewer (the bots wait for "you" when you get an
    out-of-turn chance: an uno to call or to catch, a jump-in, newno's open start); and in newno
    a jump-in line (most plays open one), on top of the grace's, as the two come together. A
    note and the grace line share their room: the two at once (a catch open as the note comes)
    is rare, and then the board moves by what the grace line adds."""
    pending = view.get("pending") or {}
    note = 0
    if _censor(view, you):
        note = CENSOR_NOTE_LINES
    elif you is not None and pending.get("type") == "precommit" and pending.get("seat") == you:
        note = _flush_lines(spec)
    grace = GRACE_LINES if bots and you is not None else 0
    jump = JUMP_LINES if view["rules"] == "newno" else 0
    return max(note, grace) + jump


def _flush_lines(spec: Mapping[str, Any]) -> int:
    """The lines a flushed lane's note takes at 1280 px, for the longest lane of `spec` (a lane
    sized by the hand: the hand dealt)."""
    lane = (spec.get("precognitive") or {}).get("lane", 1)
    cards = lane if isinstance(lane, int) else int((spec.get("options") or {}).get("hand_size", 7))
    return min(4 + cards // 3, FLUSH_NOTE_LINES)


def _censor(view: View, you: int | None) -> bool:
    """The seat called "you" is this hand's censor (censorship's dealer)."""
    return view["rules"] == "censorship" and you is not None and view.get("dealer") == you


def _role(view: View, seat: int) -> str:
    if view.get("dealer") != seat:
        return ""
    return "censor" if view["rules"] == "censorship" else "dealer"


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


def _ruling_note(view: View, who: Names, legal: Sequence[Mapping[str, Any]] | None) -> str:
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


def _jump(pending: Mapping[str, Any], who: Names) -> str:
    window = pending.get("jump")
    if not window:
        return ""
    return (
        f"Jump-in open: anyone else holding {card_name(window['card'])} may play it now, "
        "out of turn"
    )


def _jump_news(pending: Mapping[str, Any]) -> str:
    """The jump-in line as a phone's dock says it, short enough for one of its lines."""
    window = pending.get("jump")
    if not window:
        return ""
    return f"Anyone else with {card_name(window['card'])} may jump in now."


def _result(view: View, who: Names) -> str:
    winner = view.get("winner")
    if winner is not None:
        return f"{who.verb(winner, 'wins', 'win')} the match"
    if view.get("places") is None:
        # Over without places: only a staff's game-aborted event ends a match so.
        return "The match was aborted by the staff, with no result"
    places = view.get("places") or []
    firsts = [seat for seat, place in enumerate(places) if place == 1]
    return f"{who.seats(firsts)} share first place"


def hand_result(events: Sequence[Event], names: Sequence[str], viewer: int | None) -> HandResult:
    """The last hand-ended event of `events` (`[{"version", "event"}]`) for the score panel;
    hand-ended is public (every hand's cards are shown when a hand ends)."""
    ended = next(
        (item["event"] for item in reversed(events) if item["event"]["type"] == "hand-ended"),
        None,
    )
    if ended is None:
        return HandResult(hand=0, winner="")
    who = Names(names, viewer)
    rows = [
        {
            "name": who.who(seat),
            "cards": sorted_faces(cards),
            "points": ended["points"][seat],
            "gained": ended["gained"][seat],
            "score": ended["scores"][seat],
            "winner": seat == ended["winner"],
        }
        for seat, cards in enumerate(ended["cards_left"])
    ]
    return HandResult(hand=ended["hand"], winner=who.who(ended["winner"]), rows=rows)
