"""The story of a game in words, newest first, as one viewer may read it.

`tell` is a pure function of events the viewer may already see (games/visibility.py redacts
them), the seats' names and the viewer's seat: it never learns a hidden card, so it cannot tell
one. A hidden card is `None` in the event, and the story says "a card" or "2 cards" for it.
The viewer is "You"; a play and what it did at once (a swap, a turn of direction, a named
colour) are one sentence: "Ana played red 7 and swapped hands with Ben".
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from clocks.fallback import MAX_TURN_MOVES
from engine import events as ev
from games.actors import is_staff_label
from games.placings import placing
from games.seat_facts import FallbackReason
from web import status_words
from web import story_events as log
from web.board import rules_title
from web.cards import card_list, card_name
from web.forfeits import FORFEIT_REASONS, forfeits_end
from web.names import Names

Event = Mapping[str, Any]

# Why cards were drawn, as a phrase after "Ben drew 2 cards".
_DRAW_REASONS = {
    "draw": "",
    "draw2": " (draw two)",
    "wild-draw4": " (wild draw four)",
    "uno": " as the UNO penalty",
    "challenge": " after the challenge",
    "censored": " (nothing was playable)",
    "stack": " from the stack",
    "flush": " when the lane could not play",
}
_PENALTIES = {"false-call": "a false UNO call", "wrong-catch": "a wrong catch"}
_FALLBACK_REASONS = {
    "turn-timeout": "the turn ran out",
    "bot-timeout": "the bot did not answer in time",
    "bot-error": "the bot's call failed",
    "bot-illegal": "the bot's answer was illegal",
}
# The events after which the default bot plays a seat: its moves are its stand-in's.
_STAND_IN = frozenset({ev.SEAT_FORFEITED, ev.SEAT_HANDED_OVER})


@dataclass(frozen=True, slots=True)
class Line:
    """One sentence of the story: the event version it starts at, its text, and its kind
    ("play", "result" for hand and match results, "note" for the rest). For a seated viewer,
    `yours` marks a move of the viewer's own (a play, a draw, a call, a catch, a lane, a
    ruling) and `news` a line that changes what the viewer holds or where they stand (cards
    they drew or were made to draw, a catch of them, a swap or a pass of hands that moved
    theirs, a hand dealt or over): the play page's "just happened" line on a phone
    (web/board_news.py `just_happened`) tells the news since the viewer's last move."""

    version: int
    text: str
    kind: str = "note"
    yours: bool = False
    news: bool = False
    # A card play's who and card, in few words ("Ana red 7", "Ben's lane red 2"), or an UNO
    # call or catch in its own words ("Ana called UNO"): the dock lists every card played, call
    # and catch since the viewer's last move with these (web/board_news.py).
    play: str = ""


class _Teller(Names):
    # This hand's censor (censorship's dealer), once an event names it.
    censor: int | None = None
    # The version of the event being told.
    version: int = 0
    # Who forfeits a seat by a ruling in this game (`ruled_by`).
    ruled_by: str = "the league's ruling"

    def __init__(self, names: Sequence[str], viewer: int | None) -> None:
        super().__init__(names, viewer)
        # Seat -> the version of its first seat-forfeited event, and of the first event after
        # which the default bot plays it (a forfeit or a hand-over): `facts` of `tell`.
        self.forfeits: dict[int, int] = {}
        self.stand_ins: dict[int, int] = {}
        # The versions of the forfeits the staff ruled (their actor, "staff:3"): theirs.
        self.by_staff: set[int] = set()
        # Seats the default bot moves for once (a fallback-played event: a turn timed out, a
        # bot failed), with the decisions it still makes for them: a bot's failed decision is
        # one, a timed-out turn the whole turn (clocks/fallback.py), until another seat moves.
        self.moved_for: dict[int, int] = {}

    def follow(self, event: Event) -> None:
        """Who moves the seats from the event on: a fallback-played event's seat is moved by
        the default bot (its moves follow it in the same append) for its decisions, each ended
        by the prompt that asks the next one, and never past another seat's move."""
        kind = event["type"]
        if kind == ev.FALLBACK_PLAYED:
            timed_out = event.get("reason") == FallbackReason.TURN_TIMEOUT
            self.moved_for[int(event["seat"])] = MAX_TURN_MOVES if timed_out else 1
        elif kind == ev.PROMPTED:
            self.moved_for = {seat: n - 1 for seat, n in self.moved_for.items() if n > 1}
        elif kind in log.MOVES or (kind == ev.CARDS_DRAWN and event.get("reason") == "draw"):
            mover = event.get("seat")
            self.moved_for = {seat: n for seat, n in self.moved_for.items() if seat == mover}

    def learn(self, item: Mapping[str, Any]) -> None:
        """A seat-forfeited or seat-handed-over event (with its version), in any order."""
        event, version = item["event"], item["version"]
        if event["type"] == ev.SEAT_FORFEITED:
            self.forfeits[event["seat"]] = min(version, self.forfeits.get(event["seat"], version))
            if is_staff_label(str(item.get("actor") or "")):
                self.by_staff.add(version)
        if event["type"] in _STAND_IN:
            seat = event["seat"]
            self.stand_ins[seat] = min(version, self.stand_ins.get(seat, version))

    def standing_in(self, seat: int | None) -> bool:
        """Whether the default bot plays the seat at the event being told."""
        if seat is None:
            return False
        return seat in self.moved_for or self.stand_ins.get(seat, self.version) < self.version

    def mover(self, seat: int) -> str:
        """Who made a seat's move: the seat ("You", "Ana"), or, when the default bot moves for
        it (for good, or for a turn that timed out), its stand-in ("Your stand-in", "Ana's
        stand-in")."""
        return f"{self.whose(seat)} stand-in" if self.standing_in(seat) else self.who(seat)

    def cards(self, cards: Sequence[str | None]) -> str:
        """The cards if the viewer sees them all, else how many."""
        if cards and all(card is not None for card in cards):
            return card_list([card for card in cards if card is not None])
        return "a card" if len(cards) == 1 else f"{len(cards)} cards"

    def scores(self, scores: Sequence[int]) -> str:
        return ", ".join(f"{self.who(seat)} {score}" for seat, score in enumerate(scores))

    # ------------------------------------------------------------------------ sentences

    def match_started(self, e: Event) -> str:
        spec = e.get("variant")
        rules = f", {rules_title(spec)}" if spec else ""
        return f"The match began: {e['seats']} seats{rules}"

    def hand_started(self, e: Event) -> str:
        self.censor = e.get("dealer")
        text = f"Hand {e['hand']} was dealt, {e['hand_size']} cards each"
        if e.get("dealer") is not None:
            text += f"; {self.who(e['dealer'], start=False)} dealt"
        if e.get("cards") and self.viewer is not None:
            text += f"; your cards: {card_list(e['cards'])}"
        return text

    def card_flipped(self, e: Event) -> str:
        return f"{card_name(e['card']).capitalize()} was turned up"

    def card_reinserted(self, e: Event) -> str:
        return f"The {card_name(e['card'])} went back into the draw pile"

    def pile_reshuffled(self, e: Event) -> str:
        return "The discard pile was shuffled into a new draw pile"

    def cards_drawn(self, e: Event) -> str:
        reason = _DRAW_REASONS.get(e.get("reason") or "", "")
        # A chosen draw is a move (the stand-in's, once it plays the seat); a forced one is not.
        seat = self.mover(e["seat"]) if e.get("reason") == "draw" else self.who(e["seat"])
        if not e["cards"]:
            return f"{seat} could draw no card: none was left"
        return f"{seat} drew {self.cards(e['cards'])}{reason}"

    def card_played(self, e: Event) -> str:
        seat, card = e["seat"], card_name(e["card"])
        if e.get("source") == "lane":
            text = f"{self.whose(seat)} lane played {card}"
        elif e.get("source") == "submission":
            censor = "You" if self.censor == self.viewer else censor_of(self)
            text = f"{censor} approved {self.whose(seat, start=False)} {card}"
        elif e.get("for") is not None:
            text = f"{self.mover(seat)} played {card} for {self.who(e['for'], start=False)}"
        elif e.get("jump"):
            text = f"{self.mover(seat)} jumped in with {card}"
        else:
            text = f"{self.mover(seat)} played {card}"
        if e.get("color") and e["card"] in ("wild", "wild-draw4"):
            text += f" and chose {e['color']}"
        return text

    def card_short(self, e: Event) -> str:
        """The play in few words: who played and the card ("Ana red 7", "Ben's lane red 2")."""
        seat, card = e["seat"], card_name(e["card"])
        who = f"{self.whose(seat)} lane" if e.get("source") == "lane" else self.mover(seat)
        return f"{who} {card}"

    def color_chosen(self, e: Event) -> str:
        return f"{self.mover(e['seat'])} chose {e['color']}"

    def direction_changed(self, e: Event) -> str:
        return f"Play now goes {_direction(e['direction'])}"

    def uno_owed(self, e: Event) -> str:
        if self.standing_in(e["seat"]):
            return f"{self.mover(e['seat'])} owes an UNO call: one card left"
        return f"{self.verb(e['seat'], 'owes', 'owe')} an UNO call: one card left"

    def uno_called(self, e: Event) -> str:
        return f"{self.mover(e['seat'])} called UNO"

    def uno_expired(self, e: Event) -> str:
        return f"Too late to catch {self.seats(e['seats'], start=False)}: the chance has passed"

    def uno_caught(self, e: Event) -> str:
        target = self.who(e["target"], start=False)
        return f"{self.mover(e['seat'])} caught {target} not calling UNO"

    def uno_penalized(self, e: Event) -> str:
        why = _PENALTIES.get(e.get("reason") or "", "a wrong call")
        return f"{self.mover(e['seat'])} took the penalty for {why}"

    def challenge_resolved(self, e: Event) -> str:
        verdict = "guilty" if e["guilty"] else "honest"
        offender = self.whose(e["target"], start=False)
        text = f"{self.mover(e['seat'])} challenged {offender} wild draw four: {verdict}"
        hand = e.get("hand") or []
        if hand and all(card is not None for card in hand):
            text += f"; {self.whose(e['target'], start=False)} hand was {card_list(hand)}"
        return text

    def lane_filled(self, e: Event) -> str:
        cards = e["cards"]
        shown = all(card is not None for card in cards)
        where = "to the lane" if shown else "to the lane, face down"
        return f"{self.mover(e['seat'])} committed {self.cards(cards)} {where}"

    def lane_flushed(self, e: Event) -> str:
        return (
            f"{self.whose(e['seat'])} lane could not play and went back into the hand: "
            f"{self.cards(e['cards'])}"
        )

    def hands_swapped(self, e: Event) -> str:
        return f"{self.who(e['seat'])} and {self.who(e['target'], start=False)} swapped hands"

    def hands_rotated(self, e: Event) -> str:
        return f"Every hand passed one seat {_direction(e['direction'])}"

    def card_submitted(self, e: Event) -> str:
        seat = e["seat"]
        self.censor = e["dealer"]
        dealer = "you, the censor" if self.censor == self.viewer else censor_of(self, start=False)
        if e.get("card") is None:
            text = f"{self.mover(seat)} submitted a card face down to {dealer}"
        else:
            card = card_name(e["card"])
            if e.get("color"):
                card += f" (as {e['color']})"
            text = f"{self.mover(seat)} submitted {card} to {dealer}"
        if e.get("uno"):
            text += ", calling UNO"
        return text

    def submission_kept(self, e: Event) -> str:
        card = "submitted card" if e.get("card") is None else card_name(e["card"])
        return f"{self.who(e['dealer'])} kept {self.whose(e['seat'], start=False)} {card}"

    def card_returned(self, e: Event) -> str:
        card = "a card" if e.get("card") is None else card_name(e["card"])
        text = f"{self.who(e['dealer'])} returned {card} to {self.who(e['seat'], start=False)}"
        if e.get("submitted") is not None:
            text += f" (the submission was {card_name(e['submitted'])})"
        return text

    def turn_passed(self, e: Event) -> str:
        return f"{self.mover(e['seat'])} had nothing to play: the turn passed"

    def hand_ended(self, e: Event) -> str:
        winner = e["winner"]
        text = f"Hand {e['hand']} is over: {self.who(winner, start=False)} went out"
        if e["gained"][winner]:
            text += f" and scored {e['gained'][winner]} points"
        return f"{text}. Scores: {self.scores(e['scores'])}"

    def match_ended(self, e: Event) -> str:
        # The places as the service records them: the forfeited seats last (one rule for every
        # page, games/match_outcomes.py `placing`).
        forfeited = sorted(seat for seat, at in self.forfeits.items() if at < self.version)
        placed = placing(e["places"], e["winner"], forfeited)
        if placed.winner is not None:
            result = self.verb(placed.winner, "wins", "win", start=False)
        else:
            firsts = [seat for seat, place in enumerate(placed.places) if place == 1]
            result = f"{self.seats(firsts, start=False)} share first place"
        if forfeited:
            result += f"; {self.seats(forfeited, start=False)} forfeited, placed last"
        return f"The match is over: {result}. Final scores: {self.scores(e['scores'])}"

    def forfeit(self, e: Event) -> str:
        why = FORFEIT_REASONS.get(e.get("reason") or "", "forfeited")
        if e.get("reason") == "awarded" and self.version in self.by_staff:
            # In any game; their reason stays in their audit alone (staff/actions.py).
            why = "was forfeited by the staff"
        elif e.get("reason") == "awarded":
            # Who rules depends on the game (`ruled_by`); a note is the ruling's public word.
            why = f"was forfeited by {self.ruled_by}"
            why += f" ({e['note']})" if e.get("note") else ""
        if e["seat"] == self.viewer and why.startswith("was "):
            why = "were " + why.removeprefix("was ")  # "You were forfeited", not "You was"
        return f"{self.who(e['seat'])} {why}"

    def seat_forfeited(self, e: Event) -> str:
        return f"{self.forfeit(e)}: the default bot plays the seat, placed last"

    def forfeit_ended(self, e: Event, ended: Event | None) -> str:
        # A forfeit the match ends with (games/seat_facts.py `with_match_end`): `ended` is the
        # match-ended right after it, None for one of several forfeits before that one.
        winner = None if ended is None else ended["winner"]
        if winner is None:
            return f"{self.forfeit(e)}{', placed last' if ended is None else ': the match is over'}"
        return f"{self.forfeit(e)}: {self.verb(winner, 'wins', 'win', start=False)} the match"

    def seat_handed_over(self, e: Event) -> str:
        return f"{self.whose(e['seat'])} seat is played by the default bot from now on"

    def fallback_played(self, e: Event) -> str:
        text = f"The default bot moved for {self.who(e['seat'], start=False)}"
        if why := _FALLBACK_REASONS.get(e.get("reason") or ""):
            text += f": {why}"
        return text

    def fixture_retimed(self, e: Event) -> str:
        text = f"The league moved this fixture's deadline to {e['deadline'][:16].replace('T', ' ')}"
        return f"{text} UTC ({e['note']})" if e.get("note") else f"{text} UTC"

    def deadline_extended(self, e: Event) -> str:
        whose = self.whose(e["seat"], start=False)
        text = f"The staff gave {whose} turn until {e['deadline'][:16].replace('T', ' ')} UTC"
        # The staff's message is the seat's own business (the engine's view gives others None;
        # told only to the seat whatever the events say). An older event's `note` was the
        # staff's reason, typed for the other staff: it is told to nobody.
        mine = self.viewer == e["seat"]
        return f"{text}: “{e['message']}”" if mine and e.get("message") else text

    def game_aborted(self, e: Event) -> str:
        return "The staff aborted the match: it has no result"

    def vacation_taken(self, e: Event) -> str:
        text = f"{self.who(e['seat'])} went on vacation"
        if e.get("days"):
            text += f" for {e['days']} day{'s' if e['days'] != 1 else ''}"
        return text

    # ------------------------------------------------------------------------- clauses

    def clause(self, e: Event) -> str:
        """What a play did at once, as a clause after "Ana played red 7 and …"."""
        kind = e["type"]
        if kind == ev.HANDS_SWAPPED:
            return f"swapped hands with {self.who(e['target'], start=False)}"
        if kind == ev.HANDS_ROTATED:
            return f"every hand passed one seat {_direction(e['direction'])}"
        return f"play now goes {_direction(e['direction'])}"


def censor_of(teller: _Teller, *, start: bool = True) -> str:
    """The censor by its seat, "greedy (the censor)" (a built-in bot is called "censor")."""
    return status_words.censor(teller, teller.censor, start=start)


def _direction(direction: int) -> str:
    return "clockwise" if direction == 1 else "counter-clockwise"


_SENTENCES: dict[str, Callable[[_Teller, Event], str] | None] = {
    ev.MATCH_STARTED: _Teller.match_started,
    ev.HAND_STARTED: _Teller.hand_started,
    ev.CARD_FLIPPED: _Teller.card_flipped,
    ev.CARD_REINSERTED: _Teller.card_reinserted,
    ev.PILE_RESHUFFLED: _Teller.pile_reshuffled,
    ev.CARDS_DRAWN: _Teller.cards_drawn,
    ev.CARD_PLAYED: _Teller.card_played,
    ev.COLOR_CHOSEN: _Teller.color_chosen,
    ev.DIRECTION_CHANGED: _Teller.direction_changed,
    # What the game waits for is on the board; the story tells what happened.
    ev.PROMPTED: None,
    ev.UNO_OWED: _Teller.uno_owed,
    ev.UNO_CALLED: _Teller.uno_called,
    ev.UNO_EXPIRED: _Teller.uno_expired,
    ev.UNO_CAUGHT: _Teller.uno_caught,
    ev.UNO_PENALIZED: _Teller.uno_penalized,
    ev.CHALLENGE_RESOLVED: _Teller.challenge_resolved,
    ev.LANE_FILLED: _Teller.lane_filled,
    ev.LANE_FLUSHED: _Teller.lane_flushed,
    ev.HANDS_SWAPPED: _Teller.hands_swapped,
    ev.HANDS_ROTATED: _Teller.hands_rotated,
    ev.CARD_SUBMITTED: _Teller.card_submitted,
    ev.SUBMISSION_KEPT: _Teller.submission_kept,
    ev.CARD_RETURNED: _Teller.card_returned,
    ev.TURN_PASSED: _Teller.turn_passed,
    ev.HAND_ENDED: _Teller.hand_ended,
    ev.MATCH_ENDED: _Teller.match_ended,
    ev.SEAT_FORFEITED: _Teller.seat_forfeited,
    ev.SEAT_HANDED_OVER: _Teller.seat_handed_over,
    ev.FALLBACK_PLAYED: _Teller.fallback_played,
    ev.VACATION_TAKEN: _Teller.vacation_taken,
    ev.FIXTURE_RETIMED: _Teller.fixture_retimed,
    ev.DEADLINE_EXTENDED: _Teller.deadline_extended,
    ev.GAME_ABORTED: _Teller.game_aborted,
}
_KINDS = {ev.CARD_PLAYED: "play", ev.HAND_ENDED: "result", ev.MATCH_ENDED: "result"}
# The moments the dock's "Since your move" lists beside the cards played, in the story's words:
# an UNO call left out of it made a person's catch look possible when it was not.
_LISTED = frozenset({ev.UNO_CALLED, ev.UNO_CAUGHT})


def tell(
    events: Sequence[Mapping[str, Any]],
    names: Sequence[str],
    viewer: int | None,
    facts: Sequence[Mapping[str, Any]] = (),
    ruled_by: str = "the league's ruling",
) -> list[Line]:
    """The story of `events` (`[{"version": v, "event": {...}}, ...]`, oldest first, as the
    viewer may see them), newest first. `names[seat]` names each seat; `viewer` (a seat, or
    None for a spectator) is told as "You". `facts`: the game's seat-forfeited and
    seat-handed-over events (public, with their versions, games/seat_facts.py
    `stand_in_facts`), those before `events` among them: after one, the seat's moves are its
    stand-in's ("Your stand-in played red 7"), never "You played", and the match's end places
    a forfeited seat last; a forfeit by the staff (its actor "staff:3") is theirs in any game.
    `ruled_by`: who forfeits a seat by any other ruling here (web/forfeits.py `ruled_by`)."""
    teller = _Teller(names, viewer)
    teller.ruled_by = ruled_by
    for fact in facts:
        teller.learn(fact)

    def flags(event: Event) -> tuple[bool, bool]:
        """`yours` and `news` of the event's line: a stand-in's move for the viewer's seat is
        not theirs, and it is news to them."""
        yours = log.yours(event, viewer)
        if yours and teller.standing_in(viewer):
            return False, True
        return yours, not yours and log.news(event, viewer)

    lines: list[Line] = []
    played: Event | None = None  # the play the last line tells, while clauses may follow it
    setting: Event | None = None  # a direction the play to come sets (newno's second play)
    for index, item in enumerate(events):
        event = item["event"]
        kind = event["type"]
        teller.version = item["version"]
        teller.follow(event)
        if kind == ev.PROMPTED:
            continue
        if kind in _STAND_IN:
            teller.learn(item)
        if log.sets_direction(events, index):
            setting = event
            continue
        if setting is not None and kind == ev.CARD_PLAYED:
            way = _direction(setting["direction"])
            text = f"{teller.card_played(event)} and set play going {way}"
            yours, news = flags(event)
            short = teller.card_short(event)
            lines.append(Line(item["version"], text, "play", yours, news, short))
            played, setting = event, None
            continue
        if played is not None and kind in log.CONSEQUENCES and log.by_player(event, played):
            last = lines[-1]
            text = f"{last.text} and {teller.clause(event)}"
            seat = played["seat"]
            if len(names) == 2 and kind == ev.DIRECTION_CHANGED and log.again(events, index, seat):
                # Two seats: a reverse that gives the turn back works as a skip (official).
                again = teller.verb(seat, "plays", "play", start=False)
                text += f": with two players, {again} again"
            news = last.news or (not last.yours and log.news(event, viewer))
            lines[-1] = replace(last, text=text, news=news)
            continue
        sentence = _SENTENCES.get(kind)
        played = event if kind == ev.CARD_PLAYED else None
        if sentence is None:
            continue
        text, (yours, news) = sentence(teller, event), flags(event)
        if kind == ev.SEAT_FORFEITED and (ending := forfeits_end(events, index)):
            text = teller.forfeit_ended(event, ending[0])
        short = teller.card_short(event) if kind == ev.CARD_PLAYED else ""
        short = text if kind in _LISTED else short
        lines.append(Line(item["version"], text, _KINDS.get(kind, "note"), yours, news, short))
    return [replace(line, text=f"{line.text}.") for line in reversed(lines)]


def tail(
    events: Sequence[Mapping[str, Any]],
    names: Sequence[str],
    viewer: int | None,
    *,
    start: int,
    count: int,
    facts: Sequence[Mapping[str, Any]] = (),
    ruled_by: str = "the league's ruling",
) -> list[Line] | None:
    """The newest `count` lines of the whole log's story (`tell`), from the log's events since
    version `start` (`events`: oldest first; earlier ones among them are ignored), or None when
    those tell fewer: read more of the log then.

    A window that does not start at the log's beginning may open on what a play before it did
    (a reverse's new direction, a swap), which the whole story tells as a clause of that play's
    line: those events, and the prompts among them, are left out, and from the next event on
    every line is the one the whole story tells."""
    window = [item for item in events if item["version"] >= start]
    if start > 1:
        skip = 0
        while (
            skip < len(window)
            and window[skip]["event"]["type"] in log.OPENING
            and not log.sets_direction(window, skip)
        ):
            skip += 1
        window = window[skip:]
    lines = tell(window, names, viewer, facts, ruled_by)
    if start > 1 and len(lines) < count:
        return None
    return lines[:count]
