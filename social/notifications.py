"""The notification centre: what happened for a person while they were away, one row per event
(social.models.Notification), read by the bell on every page, the /notifications/ list, the
API, and for turns by the turn emails and the daily digest too (clocks/deadlines.py).

`notify` adds a notice (once per key); `unread_count` is the figure on the bell (one query on
an index of the unread rows); `inbox` is a page of the list, newest first; `mark_read` marks
some or all read; `open_notice` marks one read and says where it links (a local path only);
`game_opened` marks a game's notices read when the person opens that game (clocks/presence.py
does it in the statement that records their presence, web/notices.py calls it for the page).

A turn's notice has the key `turn_key(game, seat)`: one row per seat of a game, unread and
newest again at each turn that starts, the row the bell shows and the digest reads (it leaves out
a waiting turn whose notice is read: seen already). When the match is over (`game_over`) it
becomes the end's notice, unread and newest once more, saying how the person placed
(games/match_end_notice.py): no turn waits there any more. When the turn clock ran out and the
default bot played the turn (`bot_played`, clocks/overdue.py) and the game waits for another
seat, it says so, unread and newest too: no "Your turn" stands while it is someone else's."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db.models import Case, F, Q, Value, When
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme

from social.models import Notification

PAGE_SIZE = 30
PAGE_SIZE_MAX = 100


def notify(
    user: Any, kind: str, text: str, *, url: str = "", key: str, game: int | None = None
) -> bool:
    """Add a notice for `user` (a user, or a user id) unless one with the same `key` is there
    already; True if added. `text` is one line a person reads ("ana opened a table you
    follow"), `url` where it links (a local path, "/games/12/"), `game` the game it is about
    (opening it marks it read)."""
    user_id = user if isinstance(user, int) else getattr(user, "pk", None)
    if not user_id:
        return False
    _, created = Notification.objects.get_or_create(
        user_id=user_id,
        key=key[:120],
        defaults={"kind": kind, "text": text[:300], "url": url[:300], "game_id": game},
    )
    return created


def unread_count(user: Any) -> int:
    """The figure on the bell: one count on the index of unread rows."""
    if not getattr(user, "is_authenticated", False):
        return 0
    return Notification.objects.filter(user_id=user.pk, read_at__isnull=True).count()


def turn_key(game_id: int, seat: int) -> str:
    """The key of a seat's turn notice: one row per seat of a game, made unread and newest
    again at each turn that starts (`turn_started`), so a long game is one line in the list,
    not one per turn. While a turn waits, the row speaks for it (a later turn replaces it)."""
    return f"turn:{game_id}:{seat}"


def renew(
    user_id: int,
    kind: str,
    text: str,
    *,
    url: str,
    key: str,
    at: datetime,
    game: int | None = None,
) -> None:
    """The notice of `key`, made or made unread and newest again at `at` saying `text`: one
    line for a thing that recurs (a game's turns, a thread's replies), not one per time. Its
    `unread_since` is `at` when it was read (or new), else kept: when its unread run began
    (`unread_since`)."""
    Notification.objects.update_or_create(
        user_id=user_id,
        key=key[:120],
        defaults={
            "read_at": None,
            "created_at": at,
            "text": text[:300],
            "unread_since": Case(
                When(read_at__isnull=True, unread_since__isnull=False, then=F("unread_since")),
                When(read_at__isnull=True, then=F("created_at")),
                default=Value(at),
            ),
        },
        create_defaults={
            "kind": kind,
            "text": text[:300],
            "url": url[:300],
            "game_id": game,
            "created_at": at,
            "unread_since": at,
        },
    )


def unread_since(user_id: int, key: str, *, at: datetime) -> datetime:
    """Since when the person has not read the notice of `key`: the start of its unread run (its
    first renewal since they read it), or `at` when it is read or not there: a renewal at `at`
    would start a run. What a recurring line counts from ("lena and sam replied")."""
    found = (
        Notification.objects.filter(user_id=user_id, key=key[:120], read_at__isnull=True)
        .values_list("unread_since", "created_at")
        .first()
    )
    if found is None:
        return at
    return found[0] or found[1]


def turn_started(user_id: int, game_id: int, seat: int, *, at: datetime, text: str) -> None:
    """A turn of the person's seat started: its notice unread and newest, saying `text` (the
    turn email's subject, clocks/deadlines.py `turn_sentence`). clocks/deadlines.py does the
    same in its own statement on PostgreSQL; this is the way on SQLite."""
    renew(
        user_id,
        Notification.Kind.TURN,
        text,
        url=game_url(game_id),
        key=turn_key(game_id, seat),
        at=at,
        game=game_id,
    )


# How a turn notice begins once the default bot played that turn (`bot_played`): the lobby
# reads it to say so on the game's card while it is unread (`bot_played_games`).
BOT_PLAYED = "The default bot played your turn"


def bot_played(user_id: int, game_id: int, seat: int, *, at: datetime, text: str) -> int:
    """The person's turn ran out and the default bot played it (clocks/overdue.py), and the game
    now waits for someone else: the seat's turn notice, which said "Your turn", says `text`
    (BOT_PLAYED ...), unread and newest at `at`, as `game_over` does for an end. The next turn
    of the seat renews it as usual. Returns how many rows changed (0: the seat had none)."""
    return Notification.objects.filter(
        user_id=user_id, key=turn_key(game_id, seat), kind=Notification.Kind.TURN
    ).update(text=text[:300], read_at=None, created_at=at)


def bot_played_games(user_id: int, game_ids: Sequence[int]) -> set[int]:
    """Of `game_ids`, those where the default bot played a turn of the person that they have not
    seen since (its notice unread): one query on the (user, unread) index."""
    if not game_ids:
        return set()
    found = Notification.objects.filter(
        user_id=user_id,
        read_at__isnull=True,
        kind=Notification.Kind.TURN,
        game_id__in=list(game_ids),
        text__startswith=BOT_PLAYED,
    ).values_list("game_id", flat=True)
    return {game_id for game_id in found if game_id is not None}


def untold_ends(game_id: int, seats: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """Of the (user id, seat number) pairs of a game whose match is over, those whose end
    notice (`game_over`) is not there yet: read through the (user, key) index."""
    if not seats:
        return []
    told = set(
        Notification.objects.filter(
            user_id__in={user_id for user_id, _ in seats},
            key__in={turn_key(game_id, number) for _, number in seats},
            kind=Notification.Kind.GAME_OVER,
        ).values_list("user_id", "key")
    )
    return [pair for pair in seats if (pair[0], turn_key(game_id, pair[1])) not in told]


def game_over(game_id: int, ends: Sequence[tuple[int, int, str]], *, at: datetime | None) -> int:
    """The game's match is over (games/match_end_notice.py words it): each of `ends` ((user id,
    seat number, text) triples) is told once, unread and newest at `at` (the end's time), kind
    `game-over`, linking the game, where its end is told. The seat's turn notice, read or not,
    becomes it (no turn waits there any more, and a game stays one line in the list); a seat
    that had none gets it new. A seat told already is left as it is, read or not: returns how
    many were told now."""
    at = at or timezone.now()
    told = 0
    for user_id, seat, text in ends:
        key = turn_key(game_id, seat)
        turned = Notification.objects.filter(
            user_id=user_id, key=key, kind=Notification.Kind.TURN
        ).update(kind=Notification.Kind.GAME_OVER, text=text[:300], read_at=None, created_at=at)
        if not turned:
            notice, turned = Notification.objects.get_or_create(
                user_id=user_id,
                key=key,
                defaults={
                    "kind": Notification.Kind.GAME_OVER,
                    "text": text[:300],
                    "url": game_url(game_id),
                    "game_id": game_id,
                },
            )
            if turned:  # created_at is set on creation: the end's time instead
                Notification.objects.filter(pk=notice.pk).update(created_at=at)
        told += bool(turned)
    return told


def game_url(game_id: int) -> str:
    """The play page of a game (web/urls.py `web:play`), as a notice links to it."""
    return f"/games/{game_id}/"


@dataclass(frozen=True, slots=True)
class Inbox:
    notices: list[Notification]
    unread: int
    # The id of the last notice of this page when older ones follow (the next page's
    # `before`); None on the last page.
    before: int | None


def inbox(user: Any, *, before: int | None = None, size: int | None = None) -> Inbox:
    """A page of the person's notices, newest first (unread and read alike): the `size` after
    notice `before` in that order, a keyset (never an offset, never a count of them all), so a
    page costs the same however many notices the person has had. A turn's notice moves to the
    top at each turn (`turn_started`): a page after it then goes on from where it stands now.
    `size`: PAGE_SIZE when not given. Raises NoticeNotFound when `before` is no notice of the
    person's."""
    size = max(1, min(size or PAGE_SIZE, PAGE_SIZE_MAX))
    mine = Notification.objects.filter(user_id=user.pk)
    if before is not None:
        mark = mine.filter(pk=before).values_list("created_at", flat=True).first()
        if mark is None:
            raise NoticeNotFound(before)
        mine = mine.filter(Q(created_at__lt=mark) | Q(created_at=mark, pk__lt=before))
    found = list(mine.order_by("-created_at", "-pk")[: size + 1])
    notices = found[:size]
    return Inbox(notices, unread_count(user), notices[-1].pk if len(found) > size else None)


class NoticeNotFound(LookupError):
    """A page after a notice that is not the person's (or not at all): the API's 404
    `notice-not-found`, the site's 404."""

    code = "notice-not-found"

    def __init__(self, notice: int) -> None:
        self.message = f"there is no notice {notice} of yours"
        super().__init__(self.message)


def mark_read(user: Any, ids: list[int] | None = None) -> int:
    """Mark the person's notices `ids` read (only theirs; ids of others are left alone), or all
    of them with None; returns how many were unread."""
    unread = Notification.objects.filter(user_id=user.pk, read_at__isnull=True)
    if ids is not None:
        unread = unread.filter(pk__in=ids)
    return unread.update(read_at=timezone.now())


def is_local(url: str) -> bool:
    """A path on this site ("/games/12/"), never another site ("//evil", "https://...",
    "/\\evil"): where a notice may send a person."""
    return (
        url.startswith("/")
        and not url.startswith(("//", "/\\"))
        and url_has_allowed_host_and_scheme(url, allowed_hosts=set(), require_https=False)
    )


def open_notice(user: Any, notice_id: int) -> str | None:
    """Mark one of the person's notices read; returns the local path it links to ("" when it
    links nowhere or elsewhere), None when the person has no such notice."""
    notice = Notification.objects.filter(user_id=user.pk, pk=notice_id).first()
    if notice is None:
        return None
    if notice.read_at is None:
        Notification.objects.filter(pk=notice.pk, read_at__isnull=True).update(
            read_at=timezone.now()
        )
    return notice.url if is_local(notice.url) else ""


def game_opened(user_id: int, game_id: int) -> int:
    """The person opened the game: its notices (their turns there, a rematch, a fixture) are
    read. One indexed update; returns how many were unread."""
    return Notification.objects.filter(
        user_id=user_id, game_id=game_id, read_at__isnull=True
    ).update(read_at=timezone.now())


def mark_key_read(user_id: int, key: str) -> int:
    """The person's notice of `key` read (they acted on it elsewhere: a rematch answered on the
    game's page); how many were unread."""
    return Notification.objects.filter(user_id=user_id, key=key, read_at__isnull=True).update(
        read_at=timezone.now()
    )


def reword_key(user_ids: Sequence[int], key: str, text: str) -> int:
    """The unread notices of `key` of these people say `text` now (what they told is over: a
    rematch offer declined by another), still unread; how many. Read by the (user, key) index."""
    return Notification.objects.filter(
        user_id__in=list(user_ids), key=key, read_at__isnull=True
    ).update(text=text[:300])


def seen_turns(keys: list[tuple[int | None, str]]) -> set[tuple[int | None, str]]:
    """Of (user id, turn key) pairs of waiting turns, those whose notice the person has read
    since the turn started (at the game or under the bell): the digest says nothing more about
    them."""
    if not keys:
        return set()
    read = set(
        Notification.objects.filter(
            user_id__in={user_id for user_id, _ in keys},
            key__in={key for _, key in keys},
            read_at__isnull=False,
        ).values_list("user_id", "key")
    )
    return {pair for pair in keys if pair in read}
