"""The notice every person seated in a match gets under the bell when it ends, however it ends
(played out, forfeits that left one seat playing, the staff's abort): unread, stamped with the
end's time, saying it is over and how they placed ("You won game 12 against maya", "Game 12 is
over: you placed 2nd"), by the one rule of places (games/placings.py `placing`: the forfeited
seats share the last place). Once per seat: it is the seat's turn notice turned into the end
(social/notifications.py `game_over`), so a game is one line in the list, and a dispatch that
finds the match over again (an append after the end) tells nobody twice. The dispatcher
(games/dispatch.py) calls `tell_ended` when it finds the match over."""

from __future__ import annotations

from collections.abc import Sequence

from engine.events import GAME_ABORTED, MATCH_ENDED, SEAT_FORFEITED
from games import event_reads, reads
from games.lobby import SeatInfo, opponents, seat_listing
from games.placings import Placing, ordinal, placing, won_by_forfeit
from social import notifications

_ENDS = {MATCH_ENDED, GAME_ABORTED, SEAT_FORFEITED}


def tell_ended(game_id: int, seats: Sequence[tuple[int, int]]) -> int:
    """Tell the people of `seats` ((user id, seat number) pairs) who were not told yet that the
    game's match is over and how they placed; returns how many were told now."""
    untold = notifications.untold_ends(game_id, seats)
    if not untold:
        return 0
    game = reads.game_for(game_id, names=True)
    result, forfeited = _result(game_id)
    listed = seat_listing(game)
    forfeit = result is not None and won_by_forfeit(result.winner, forfeited, len(listed))
    ends = [
        (user_id, seat, end_text(game_id, seat, result, listed, by_forfeit=forfeit))
        for user_id, seat in untold
    ]
    return notifications.game_over(game_id, ends, at=game.last_activity)


def _result(game_id: int) -> tuple[Placing | None, set[int]]:
    """The match's places as the service records them, None when the staff aborted it (no
    places), from its end; and the seats forfeited before it."""
    events = event_reads.load(game_id, types=_ENDS)
    at = next(
        (i for i in range(len(events) - 1, -1, -1) if events[i]["type"] != SEAT_FORFEITED), None
    )
    if at is None or events[at]["type"] == GAME_ABORTED:
        return None, set()
    forfeited = {e["seat"] for e in events[:at] if e["type"] == SEAT_FORFEITED}
    return placing(events[at]["places"], events[at]["winner"], forfeited), forfeited


def end_text(
    game_id: int,
    seat: int,
    result: Placing | None,
    seats: Sequence[SeatInfo],
    *,
    by_forfeit: bool = False,
) -> str:
    """ "You won game 12 against maya", "Game 12 is over: you placed 2nd", "Game 12 is over:
    you shared 1st place", "Game 12 is over: the staff aborted it, with no result"; a match won
    by forfeit (every other seat forfeited: games/placings.py `won_by_forfeit`) says so, "You
    won game 12 against maya by forfeit", "Game 12 is over: ana won by forfeit, you placed
    2nd"."""
    if result is None:
        return f"Game {game_id} is over: the staff aborted it, with no result"
    if result.winner == seat:
        forfeit = " by forfeit" if by_forfeit else ""
        return f"You won game {game_id} against {opponents(seats, seat)}{forfeit}"
    place = result.places[seat]
    if by_forfeit and result.winner is not None:
        winner = next((info.name for info in seats if info.seat == result.winner), "")
        return f"Game {game_id} is over: {winner} won by forfeit, you placed {ordinal(place)}"
    if place == 1:
        return f"Game {game_id} is over: you shared 1st place"
    return f"Game {game_id} is over: you placed {ordinal(place)}"
