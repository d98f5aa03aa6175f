"""The notice a person gets under the bell (social/notifications.py) when their seat is forfeited
by someone or something else than themselves: a league's ruling, the staff, a tournament's round
deadline, the turn clock. Resigning is their own doing and tells nobody.

The words say which game, who or what forfeited the seat, in words a player reads (never a
staff member's reason, which stays in the staff's audit row: staff/actions.py), and what happens
now: the default bot plays the seat out as their stand-in and it is placed last
(games/match_outcomes.py `placing`), or, when the forfeit left one seat playing, the match
ended with it (games/seat_facts.py `with_match_end`). Written in the transaction that writes
the seat-forfeited event, once per seat and game (its key).
"""

from __future__ import annotations

from games.game_settings import GameSettings
from games.models import Game, Seat
from social.models import Notification
from social.notifications import game_url, notify

# What happens to a forfeited seat, as the notice ends: the match plays on, or it ended.
THEN = "The default bot plays the seat out as your stand-in, and it is placed last."
THEN_ENDED = "The match ended with it, and your seat is placed last."


def forfeit_text(game_id: int, by: str, note: str = "", *, ended: bool = False) -> str:
    """ "Your seat in game 12 was forfeited by the league's ruling: “no show”. The default bot
    plays the seat out as your stand-in, and it is placed last." """
    said = f": “{note}”" if note else ""
    by = f" by {by}" if by else ""
    return f"Your seat in game {game_id} was forfeited{by}{said}. {THEN_ENDED if ended else THEN}"


def tell_forfeited(game: Game, seat: int, *, by: str, note: str = "", ended: bool = False) -> bool:
    """Tell the person at `seat` of `game` (nobody for a bot's seat) that it was forfeited `by`
    ("the league's ruling", "the staff", ...), with `note` when it is public (a league ruling's
    note, shown on its fixture too), and that the match `ended` with it when it did; True when
    a notice was added."""
    user_id = Seat.objects.filter(game=game, number=seat).values_list("user_id", flat=True).first()
    if user_id is None:
        return False
    found = GameSettings.of(game.context)
    kind = Notification.Kind.OTHER
    if found.fixture is not None:
        kind = Notification.Kind.SEASON
    elif found.tournament is not None:
        kind = Notification.Kind.TOURNAMENT
    return notify(
        user_id,
        kind,
        forfeit_text(game.pk, by, note, ended=ended),
        url=game_url(game.pk),
        key=f"forfeit:{game.pk}:{seat}",
        game=game.pk,
    )
