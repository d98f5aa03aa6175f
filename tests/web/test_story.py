"""web/story.py: every event type in words, from the viewer's side, never a hidden card."""

from __future__ import annotations

import pytest

from engine import events as ev
from web.board_news import hand_over, just_happened, news_sentences
from web.forfeits import ruled_by
from web.story import tell

NAMES = ["Ana", "Ben", "Cy"]

# One event of each type, as seat 0 may see it, and its sentence for seat 0 and a spectator.
SAMPLES: dict[str, tuple[dict, str, str]] = {
    ev.MATCH_STARTED: (
        {"seats": 3, "variant": {"rules": "official"}},
        "The match began: 3 seats, Official.",
        "The match began: 3 seats, Official.",
    ),
    ev.HAND_STARTED: (
        {"hand": 2, "seats": 3, "dealer": 1, "first": 2, "hand_size": 7},
        "Hand 2 was dealt, 7 cards each; Ben dealt.",
        "Hand 2 was dealt, 7 cards each; Ben dealt.",
    ),
    ev.CARD_FLIPPED: ({"card": "red-7"}, "Red 7 was turned up.", "Red 7 was turned up."),
    ev.CARD_REINSERTED: (
        {"card": "wild-draw4"},
        "The wild draw four went back into the draw pile.",
        "The wild draw four went back into the draw pile.",
    ),
    ev.PILE_RESHUFFLED: (
        {"order": [None, None]},
        "The discard pile was shuffled into a new draw pile.",
        "The discard pile was shuffled into a new draw pile.",
    ),
    ev.CARDS_DRAWN: (
        {"seat": 1, "cards": [None, None], "reason": "draw2"},
        "Ben drew 2 cards (draw two).",
        "Ben drew 2 cards (draw two).",
    ),
    ev.CARD_PLAYED: (
        {"seat": 0, "card": "wild", "color": "blue", "source": "hand"},
        "You played wild and chose blue.",
        "Ana played wild and chose blue.",
    ),
    ev.COLOR_CHOSEN: ({"seat": 2, "color": "green"}, "Cy chose green.", "Cy chose green."),
    ev.DIRECTION_CHANGED: (
        {"direction": -1},
        "Play now goes counter-clockwise.",
        "Play now goes counter-clockwise.",
    ),
    ev.PROMPTED: ({"to_act": [1], "pending": {"type": "play", "seat": 1}}, "", ""),
    ev.UNO_OWED: (
        {"seat": 0},
        "You owe an UNO call: one card left.",
        "Ana owes an UNO call: one card left.",
    ),
    ev.UNO_CALLED: ({"seat": 1}, "Ben called UNO.", "Ben called UNO."),
    ev.UNO_EXPIRED: (
        {"seats": [0, 2]},
        "Too late to catch you and Cy: the chance has passed.",
        "Too late to catch Ana and Cy: the chance has passed.",
    ),
    ev.UNO_CAUGHT: (
        {"seat": 2, "target": 0},
        "Cy caught you not calling UNO.",
        "Cy caught Ana not calling UNO.",
    ),
    ev.UNO_PENALIZED: (
        {"seat": 1, "reason": "false-call"},
        "Ben took the penalty for a false UNO call.",
        "Ben took the penalty for a false UNO call.",
    ),
    ev.CHALLENGE_RESOLVED: (
        {"seat": 0, "target": 1, "guilty": True, "hand": ["red-1", "blue-2"]},
        "You challenged Ben's wild draw four: guilty; Ben's hand was red 1 and blue 2.",
        "Ana challenged Ben's wild draw four: guilty; Ben's hand was red 1 and blue 2.",
    ),
    ev.LANE_FILLED: (
        {"seat": 1, "cards": [None, None]},
        "Ben committed 2 cards to the lane, face down.",
        "Ben committed 2 cards to the lane, face down.",
    ),
    ev.LANE_FLUSHED: (
        {"seat": 0, "cards": ["red-3"]},
        "Your lane could not play and went back into the hand: red 3.",
        "Ana's lane could not play and went back into the hand: red 3.",
    ),
    ev.HANDS_SWAPPED: (
        {"seat": 1, "target": 2},
        "Ben and Cy swapped hands.",
        "Ben and Cy swapped hands.",
    ),
    ev.HANDS_ROTATED: (
        {"direction": 1},
        "Every hand passed one seat clockwise.",
        "Every hand passed one seat clockwise.",
    ),
    ev.CARD_SUBMITTED: (
        {"seat": 0, "dealer": 2, "card": "wild", "color": "red", "uno": True},
        "You submitted wild (as red) to Cy (the censor), calling UNO.",
        "Ana submitted wild (as red) to Cy (the censor), calling UNO.",
    ),
    ev.SUBMISSION_KEPT: (
        {"seat": 1, "dealer": 2, "card": None},
        "Cy kept Ben's submitted card.",
        "Cy kept Ben's submitted card.",
    ),
    ev.CARD_RETURNED: (
        {"seat": 0, "dealer": 2, "card": "blue-9", "submitted": "red-2"},
        "Cy returned blue 9 to you (the submission was red 2).",
        "Cy returned blue 9 to Ana (the submission was red 2).",
    ),
    ev.TURN_PASSED: (
        {"seat": 2},
        "Cy had nothing to play: the turn passed.",
        "Cy had nothing to play: the turn passed.",
    ),
    ev.HAND_ENDED: (
        {
            "hand": 1,
            "winner": 0,
            "cards_left": [[], ["red-5"], ["wild"]],
            "points": [0, 5, 50],
            "gained": [55, 0, 0],
            "scores": [55, 0, 0],
            "hands_won": [1, 0, 0],
        },
        "Hand 1 is over: you went out and scored 55 points. Scores: You 55, Ben 0, Cy 0.",
        "Hand 1 is over: Ana went out and scored 55 points. Scores: Ana 55, Ben 0, Cy 0.",
    ),
    ev.MATCH_ENDED: (
        {"winner": 0, "places": [1, 2, 3], "scores": [520, 10, 0]},
        "The match is over: you win. Final scores: You 520, Ben 10, Cy 0.",
        "The match is over: Ana wins. Final scores: Ana 520, Ben 10, Cy 0.",
    ),
    ev.SEAT_FORFEITED: (
        {"seat": 1, "reason": "resigned"},
        "Ben resigned: the default bot plays the seat, placed last.",
        "Ben resigned: the default bot plays the seat, placed last.",
    ),
    ev.SEAT_HANDED_OVER: (
        {"seat": 2, "reason": "validation-over"},
        "Cy's seat is played by the default bot from now on.",
        "Cy's seat is played by the default bot from now on.",
    ),
    ev.FALLBACK_PLAYED: (
        {"seat": 0, "reason": "turn-timeout"},
        "The default bot moved for you: the turn ran out.",
        "The default bot moved for Ana: the turn ran out.",
    ),
    ev.VACATION_TAKEN: (
        {"seat": 1, "days": None, "until": None},
        "Ben went on vacation.",
        "Ben went on vacation.",
    ),
    ev.FIXTURE_RETIMED: (
        {"deadline": "2026-12-01T18:00:00+00:00", "note": "snowed in"},
        "The league moved this fixture's deadline to 2026-12-01 18:00 UTC (snowed in).",
        "The league moved this fixture's deadline to 2026-12-01 18:00 UTC (snowed in).",
    ),
    ev.DEADLINE_EXTENDED: (
        {"seat": 0, "deadline": "2026-12-02T09:30:00+00:00", "message": "get well soon"},
        "The staff gave your turn until 2026-12-02 09:30 UTC: “get well soon”.",
        "The staff gave Ana's turn until 2026-12-02 09:30 UTC.",
    ),
    ev.GAME_ABORTED: (
        {"reason": "a duplicated account"},
        "The staff aborted the match: it has no result.",
        "The staff aborted the match: it has no result.",
    ),
}


def told(events: list[dict], viewer: int | None) -> list[str]:
    items = [{"version": n, "event": event} for n, event in enumerate(events, start=1)]
    return [line.text for line in tell(items, NAMES, viewer)]


def test_every_event_type_has_a_sample():
    assert set(SAMPLES) == set(ev.EVOLVE)


@pytest.mark.parametrize("kind", sorted(SAMPLES))
def test_each_event_in_words_for_a_seat_and_a_spectator(kind):
    fields, for_seat, for_spectator = SAMPLES[kind]
    event = {"type": kind, **fields}

    assert told([event], 0) == ([for_seat] if for_seat else [])
    assert told([event], None) == ([for_spectator] if for_spectator else [])


def test_an_older_extensions_staff_note_is_told_to_nobody():
    """Before the staff's note and their message to the player were apart, the event's `note`
    was the staff's reason, typed for the other staff: the seat is told only the deadline."""
    event = {"type": ev.DEADLINE_EXTENDED, "seat": 0, "deadline": "2026-12-02T09:30:00+00:00"}

    assert told([{**event, "note": "internal: a multi-account"}], 0) == [
        "The staff gave your turn until 2026-12-02 09:30 UTC."
    ]


def test_the_match_names_its_variant():
    started = {
        "type": ev.MATCH_STARTED,
        "seats": 4,
        "variant": {"rules": "basic-plus", "precognitive": {"lane": 2, "sight": "blind"}},
    }

    assert told([started], None) == [
        "The match began: 4 seats, Precognitive (a lane of 2 cards, face down to all) over "
        "basic-plus."
    ]


def test_the_newest_line_comes_first():
    lines = told(
        [{"type": ev.UNO_CALLED, "seat": 1}, {"type": ev.COLOR_CHOSEN, "seat": 2, "color": "red"}],
        0,
    )

    assert lines == ["Cy chose red.", "Ben called UNO."]


def test_a_play_and_its_swap_are_one_sentence():
    lines = told(
        [
            {"type": ev.CARD_PLAYED, "seat": 0, "card": "red-7", "color": None, "source": "hand"},
            {"type": ev.PROMPTED, "to_act": [0], "pending": {"type": "swap", "seat": 0}},
            {"type": ev.HANDS_SWAPPED, "seat": 0, "target": 1},
        ],
        None,
    )

    assert lines == ["Ana played red 7 and swapped hands with Ben."]


def test_a_reverse_says_where_play_goes_now():
    lines = told(
        [
            {"type": ev.CARD_PLAYED, "seat": 1, "card": "red-reverse", "source": "hand"},
            {"type": ev.DIRECTION_CHANGED, "direction": -1},
        ],
        1,
    )

    assert lines == ["You played red reverse and play now goes counter-clockwise."]


def test_a_reverse_between_two_players_says_who_plays_again():
    reverse = [
        {"type": ev.CARD_PLAYED, "seat": 1, "card": "red-reverse", "source": "hand"},
        {"type": ev.DIRECTION_CHANGED, "direction": -1},
    ]
    again = {"type": ev.PROMPTED, "to_act": [1], "pending": {"type": "play", "seat": 1}}
    other = {"type": ev.PROMPTED, "to_act": [0], "pending": {"type": "play", "seat": 0}}
    items = [{"version": v, "event": e} for v, e in enumerate([*reverse, again], start=1)]

    assert [line.text for line in tell(items, ["Ana", "Ben"], 0)] == [
        "Ben played red reverse and play now goes counter-clockwise: with two players, Ben "
        "plays again."
    ]
    assert [line.text for line in tell(items, ["Ana", "Ben"], 1)] == [
        "You played red reverse and play now goes counter-clockwise: with two players, you "
        "play again."
    ]
    # A family where a reverse between two only turns the direction: the other seat is next.
    items[-1] = {"version": 3, "event": other}
    assert [line.text for line in tell(items, ["Ana", "Ben"], 0)] == [
        "Ben played red reverse and play now goes counter-clockwise."
    ]


def test_my_draw_names_the_card_and_anothers_only_counts():
    mine = {"type": ev.CARDS_DRAWN, "seat": 0, "cards": ["red-7"], "reason": "draw"}
    theirs = {"type": ev.CARDS_DRAWN, "seat": 1, "cards": [None], "reason": "draw"}

    assert told([mine], 0) == ["You drew red 7."]
    assert told([theirs], 0) == ["Ben drew a card."]


def test_a_face_down_submission_and_return_name_no_card():
    submitted = {"type": ev.CARD_SUBMITTED, "seat": 0, "dealer": 2, "card": None, "color": None}
    returned = {"type": ev.CARD_RETURNED, "seat": 0, "dealer": 2, "card": None, "submitted": None}

    assert told([submitted, returned], 1) == [
        "Cy returned a card to Ana.",
        "Ana submitted a card face down to Cy (the censor).",
    ]


def test_a_lane_play_a_jump_in_and_an_approved_submission():
    lane = {"type": ev.CARD_PLAYED, "seat": 1, "card": "red-2", "source": "lane"}
    jump = {"type": ev.CARD_PLAYED, "seat": 2, "card": "red-2", "source": "hand", "jump": True}
    approved = {"type": ev.CARD_PLAYED, "seat": 0, "card": "red-3", "source": "submission"}

    assert told([lane, jump, approved], 0) == [
        "The censor approved your red 3.",
        "Cy jumped in with red 2.",
        "Ben's lane played red 2.",
    ]


def test_my_dealt_cards_are_listed_for_me_only():
    dealt = {
        "type": ev.HAND_STARTED,
        "hand": 1,
        "seats": 3,
        "dealer": 0,
        "first": 1,
        "hand_size": 2,
        "cards": ["red-1", "wild"],
    }

    assert told([dealt], 2) == [
        "Hand 1 was dealt, 2 cards each; Ana dealt; your cards: red 1 and wild."
    ]


def test_a_shared_first_place():
    ended = {"type": ev.MATCH_ENDED, "winner": None, "places": [1, 1, 3], "scores": [5, 5, 9]}

    assert told([ended], None)[0].startswith("The match is over: Ana and Ben share first place")


def just(events: list[dict], viewer: int | None) -> str:
    items = [{"version": n, "event": event} for n, event in enumerate(events, start=1)]
    return just_happened(tell(items, NAMES, viewer), viewer)


def test_what_just_reached_my_hand_since_my_last_move_in_order():
    """The phone's "just happened" line: the story's own sentences since the viewer's last
    move, in the order they happened, what reached the viewer's hand kept first."""
    played = {"type": ev.CARD_PLAYED, "seat": 0, "card": "red-3", "source": "hand"}
    caught = [
        {"type": ev.UNO_CAUGHT, "seat": 1, "target": 0},
        {"type": ev.CARDS_DRAWN, "seat": 0, "cards": ["green-1", "green-2"], "reason": "uno"},
        {"type": ev.CARDS_DRAWN, "seat": 2, "cards": [None], "reason": "draw"},
    ]
    assert just([played, *caught], 0) == (
        "Ben caught you not calling UNO. You drew green 1 and green 2 as the UNO penalty. "
        "Cy drew a card."
    )
    # Ben's point of view: his own catch is his move; since it, the others' moves (these
    # events are not filtered for him, as the page's are: it would read "2 cards").
    assert just([played, *caught], 1) == (
        "Ana drew green 1 and green 2 as the UNO penalty. Cy drew a card."
    )
    # A spectator has no dock.
    assert just([played, *caught], None) == ""
    # A move of mine after it: the line starts again.
    assert just([*caught, played], 0) == ""


def test_the_docks_line_starts_with_my_last_move_and_the_line_before_it():
    """The dock's line is never empty while the match plays: the line before the viewer's last
    move, that move, then the news since; a spectator has none."""
    played = {"type": ev.CARD_PLAYED, "seat": 0, "card": "red-3", "source": "hand"}
    drawn = {"type": ev.CARDS_DRAWN, "seat": 1, "cards": [None], "reason": "draw"}
    items = [{"version": n, "event": event} for n, event in enumerate([drawn, played], start=1)]
    assert news_sentences(tell(items, NAMES, 0), 0) == ["Ben drew a card.", "You played red 3."]
    items.append({"version": 3, "event": {**drawn, "seat": 2}})
    assert news_sentences(tell(items, NAMES, 0), 0) == [
        "Ben drew a card.",
        "You played red 3.",
        "Cy drew a card.",
    ]
    assert news_sentences(tell(items, NAMES, None), None) == []


def test_a_swap_of_my_hand_and_a_new_deal_are_news():
    swapped = [
        {"type": ev.CARD_PLAYED, "seat": 2, "card": "red-7", "source": "hand"},
        {"type": ev.HANDS_SWAPPED, "seat": 2, "target": 0},
    ]
    assert just(swapped, 0) == "Cy played red 7 and swapped hands with you."
    assert just(swapped, 1) == "Cy played red 7 and swapped hands with Ana."
    # My own 7: my move, not news.
    mine = [{**swapped[0], "seat": 0}, {**swapped[1], "seat": 0, "target": 2}]
    assert just(mine, 0) == ""
    dealt = {"type": ev.HAND_STARTED, "hand": 2, "seats": 3, "dealer": 1, "hand_size": 7}
    assert just([*mine, dealt], 0) == "Hand 2 was dealt, 7 cards each; Ben dealt."


def test_a_seat_forfeited_by_a_ruling_is_told_to_itself_in_the_second_person():
    event = {"type": ev.SEAT_FORFEITED, "seat": 0, "reason": "awarded"}

    assert told([event], 0) == [
        "You were forfeited by the league's ruling: the default bot plays the seat, placed last."
    ]
    assert told([event], 1) == [
        "Ana was forfeited by the league's ruling: the default bot plays the seat, placed last."
    ]


def play(seat: int, card: str) -> dict:
    return {"type": ev.CARD_PLAYED, "seat": seat, "card": card}


def test_the_default_bots_moves_for_a_seat_are_its_stand_ins_never_yours():
    forfeit = {"type": ev.SEAT_FORFEITED, "seat": 0, "reason": "awarded"}
    events = [play(0, "red-7"), forfeit, play(1, "red-3"), play(0, "red-5")]

    assert told(events, 0)[0] == "Your stand-in played red 5."
    assert told(events, 0)[-1] == "You played red 7."
    assert told(events, None)[0] == "Ana's stand-in played red 5."
    # Not the viewer's move: the phone's line tells it as news since their last own move.
    lines = tell([{"version": n, "event": e} for n, e in enumerate(events, start=1)], NAMES, 0)
    assert [line.yours for line in lines] == [False, False, False, True]
    assert lines[0].news
    # A story window that starts after the forfeit is told the same from the game's facts.
    window = [{"version": 9, "event": play(0, "red-5")}]
    facts = [{"version": 2, "event": forfeit}]
    assert [line.text for line in tell(window, NAMES, 0, facts)] == ["Your stand-in played red 5."]
    assert [line.text for line in tell(window, NAMES, 0)] == ["You played red 5."]


def test_a_timed_out_turn_is_played_by_the_stand_in_until_another_seat_moves():
    fallback = {"type": ev.FALLBACK_PLAYED, "seat": 0, "reason": "turn-timeout"}
    events = [fallback, play(0, "red-7"), play(1, "red-3"), play(0, "red-5")]

    assert told(events, 0) == [
        "You played red 5.",
        "Ben played red 3.",
        "Your stand-in played red 7.",
        "The default bot moved for you: the turn ran out.",
    ]


def prompted(seat: int) -> dict:
    return {"type": ev.PROMPTED, "to_act": [seat], "pending": {"kind": "turn"}}


def test_a_bots_failed_decision_is_its_stand_ins_and_its_own_next_one_is_its_own():
    """The default bot makes a failed bot's one decision (clocks/fallback.py): a draw; the bot
    then plays the card it drew itself, after the prompt that asks it."""
    fallback = {"type": ev.FALLBACK_PLAYED, "seat": 0, "reason": "bot-timeout"}
    drawn = {"type": ev.CARDS_DRAWN, "seat": 0, "cards": [None], "reason": "draw"}
    events = [prompted(0), fallback, drawn, prompted(0), play(0, "red-5"), prompted(1)]

    assert told(events, None)[:2] == ["Ana played red 5.", "Ana's stand-in drew a card."]


def test_a_timed_out_turn_is_the_stand_ins_for_the_whole_turn_across_its_prompts():
    fallback = {"type": ev.FALLBACK_PLAYED, "seat": 0, "reason": "turn-timeout"}
    drawn = {"type": ev.CARDS_DRAWN, "seat": 0, "cards": ["red-5"], "reason": "draw"}
    events = [fallback, drawn, prompted(0), play(0, "red-5"), prompted(1), play(1, "red-3")]

    assert told(events, 0)[:3] == [
        "Ben played red 3.",
        "Your stand-in played red 5.",
        "Your stand-in drew red 5.",
    ]


def test_the_match_end_places_the_forfeited_seats_last_whatever_the_rules_say():
    forfeit = {"type": ev.SEAT_FORFEITED, "seat": 0, "reason": "timed-out"}
    ended = {"type": ev.MATCH_ENDED, "winner": 0, "places": [1, 2, 3], "scores": [520, 10, 0]}

    assert told([forfeit, ended], 1)[0] == (
        "The match is over: you win; Ana forfeited, placed last. "
        "Final scores: Ana 520, You 10, Cy 0."
    )


def test_who_forfeits_by_a_ruling_depends_on_the_game():
    event = {"type": ev.SEAT_FORFEITED, "seat": 0, "reason": "awarded"}
    items = [{"version": 1, "event": {**event, "note": "the round deadline passed"}}]

    assert [line.text for line in tell(items, NAMES, 1, ruled_by="the tournament")] == [
        "Ana was forfeited by the tournament (the round deadline passed): the default bot plays "
        "the seat, placed last."
    ]
    assert ruled_by({"fixture": 3}) == "the league's ruling"
    assert ruled_by({"tournament": 2}) == "the tournament"
    assert ruled_by({}) == "the staff"


def test_a_hand_that_ended_since_my_move_is_said_after_the_next_deal():
    """The dock says the hand's end last, until the viewer moves again: the next deal's lines,
    newer, had pushed it out of the dock's two lines."""
    played = {"type": ev.CARD_PLAYED, "seat": 0, "card": "red-3", "source": "hand"}
    ended = {
        "type": ev.HAND_ENDED,
        "hand": 1,
        "winner": 1,
        "cards_left": [["red-5"], [], ["wild"]],
        "points": [5, 0, 50],
        "gained": [0, 55, 0],
        "scores": [0, 55, 0],
        "hands_won": [0, 1, 0],
    }
    dealt = {"type": ev.HAND_STARTED, "hand": 2, "seats": 3, "dealer": 1, "hand_size": 7}
    drawn = {"type": ev.CARDS_DRAWN, "seat": 2, "cards": [None], "reason": "draw"}
    events = [played, {**played, "seat": 1}, ended, dealt, drawn]
    items = [{"version": n, "event": event} for n, event in enumerate(events, start=1)]
    lines = tell(items, NAMES, 0)
    over = "Hand 1 is over: Ben went out and scored 55 points. Scores: You 0, Ben 55, Cy 0."
    assert hand_over(lines, 0) == over
    assert over not in news_sentences(lines, 0)
    assert news_sentences(lines, 0)[-2:] == [
        "Hand 2 was dealt, 7 cards each; Ben dealt.",
        "Cy drew a card.",
    ]
    # Told to no spectator (who has no dock), and gone once the viewer moves again.
    assert hand_over(lines, None) == ""
    items.append({"version": 6, "event": {**played, "card": "red-4"}})
    assert hand_over(tell(items, NAMES, 0), 0) == ""


def test_the_dock_names_every_card_played_since_my_move():
    """Cards others played since the viewer's move (the skips that skipped them, the draw two
    they drew for) are all in the dock's two lines shown, in few words, oldest first."""
    mine = {"type": ev.CARD_PLAYED, "seat": 0, "card": "yellow-7", "source": "hand"}
    skips = [
        {"type": ev.CARD_PLAYED, "seat": 1, "card": "yellow-skip", "source": "hand"},
        {"type": ev.CARD_PLAYED, "seat": 2, "card": "yellow-skip", "source": "hand"},
        {"type": ev.CARD_PLAYED, "seat": 1, "card": "yellow-6", "source": "hand"},
    ]
    items = [{"version": n, "event": e} for n, e in enumerate([mine, *skips], start=1)]
    assert news_sentences(tell(items, NAMES, 0), 0)[-2:] == [
        "You played yellow 7.",
        "Since your move: Ben yellow skip, Cy yellow skip, Ben yellow 6.",
    ]
    drew = {"type": ev.CARDS_DRAWN, "seat": 0, "cards": ["red-9", "yellow-0"], "reason": "draw2"}
    events = [mine, {**skips[0], "card": "yellow-draw2"}, drew, {**skips[1], "card": "green-3"}]
    items = [{"version": n, "event": e} for n, e in enumerate(events, start=1)]
    assert news_sentences(tell(items, NAMES, 0), 0)[-2:] == [
        "You drew red 9 and yellow 0 (draw two).",
        "Since your move: Ben yellow draw two, Cy green 3.",
    ]
    # More than four: the newest four, after how many more there were.
    many = [{**skips[n % 2], "card": f"yellow-{n}"} for n in range(6)]
    items = [{"version": n, "event": e} for n, e in enumerate([mine, *many], start=1)]
    assert news_sentences(tell(items, NAMES, 0), 0)[-1] == (
        "Since your move: 2 more, then Ben yellow 2, Cy yellow 3, Ben yellow 4, Cy yellow 5."
    )
    # One play since: its whole sentence, as before.
    items = [{"version": n, "event": e} for n, e in enumerate([mine, skips[0]], start=1)]
    assert news_sentences(tell(items, NAMES, 0), 0)[-1] == "Ben played yellow skip."


def test_the_docks_list_since_my_move_has_the_uno_calls_and_catches():
    """An UNO call (or a catch) since the viewer's move is in the dock's "Since your move" list
    with the cards: the list said "Cy yellow 0" and left out "Cy called UNO", and the person
    tried a catch that could not work."""
    mine = {"type": ev.CARD_PLAYED, "seat": 0, "card": "yellow-7", "source": "hand"}
    skip = {"type": ev.CARD_PLAYED, "seat": 1, "card": "yellow-skip", "source": "hand"}
    zero = {"type": ev.CARD_PLAYED, "seat": 2, "card": "yellow-0", "source": "hand"}
    called = {"type": ev.UNO_CALLED, "seat": 2}
    items = [{"version": n, "event": e} for n, e in enumerate([mine, skip, zero, called], 1)]
    assert news_sentences(tell(items, NAMES, 0), 0)[-1] == (
        "Since your move: Ben yellow skip, Cy yellow 0, Cy called UNO."
    )
    caught = {"type": ev.UNO_CAUGHT, "seat": 1, "target": 2}
    events = [mine, skip, zero, caught]
    items = [{"version": n, "event": e} for n, e in enumerate(events, start=1)]
    assert news_sentences(tell(items, NAMES, 0), 0)[-1] == (
        "Since your move: Ben yellow skip, Cy yellow 0, Ben caught Cy not calling UNO."
    )
