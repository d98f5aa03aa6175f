"""The table as one viewer sees it, ready for the templates: the play page and the replay draw
the same board from an engine view (already redacted for that viewer).

Nothing here decides what a viewer may see: a card the view holds as `None` is drawn face
down, and a hand the view does not hold is only counted.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from games.placings import won_by_forfeit
from games.variant_text import FAMILY_NAMES, lane_words
from web import status_words
from web.cards import Face, face, sorted_faces
from web.names import Names
from web.sentences import ordinal

View = Mapping[str, Any]
Event = Mapping[str, Any]


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
        waiting=status_words.waiting(view, who, legal),
        jump=status_words.jump(pending, who),
        jump_news=status_words.jump_news(pending),
        censorship=view["rules"] == "censorship",
        submission=face(submission["card"]) if submission.get("card") else None,
        submission_from=who.who(submission["seat"], start=False) if submission else "",
        submission_color=submission.get("color") or "",
        my_turn=you is not None and you == viewer and viewer in view["to_act"],
        over=over,
        result=status_words.result(view, who) if over else "",
        chance=status_words.chance(
            pending, you is not None and you == viewer and viewer in view["to_act"]
        ),
        note=status_words.ruling_note(view, who, legal),
        room=0 if over else _room(view, spec, you, bots),
        # newno's stack and second-play prompts take two lines at 360 px, its turn's one, and
        # so does precognitive's lane to fill (status_words.LANE_PURPOSE): the status line
        # keeps two there, so the board under it keeps its place as they come.
        status_lines=2 if two_lines and not over else 1,
        lanes=bool(spec.get("precognitive")) and not over,
    )


def forfeit_result(table: Table, winner: int | None) -> str:
    """The match's result, with "by forfeit" when it was won so (every other seat forfeited:
    games/placings.py `won_by_forfeit`), once the panels say which seats were forfeited: "ana
    wins the match by forfeit" where a forfeit read as a win at the table."""
    forfeited = [panel.number for panel in table.seats if panel.forfeited]
    if table.over and won_by_forfeit(winner, forfeited, len(table.seats)):
        return f"{table.result} by forfeit"
    return table.result


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
