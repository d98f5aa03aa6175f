"""A club's board: its members read it and post to it (a post, or a reply to one), its admins
post announcements, shown first and marked, each ringing its members' bells (`tell_members`),
and hide posts (chat/moderation.py `hide`, with a reason); a member's new post rings the bells
of its admins (`tell_admins`), a reply the bell of its thread's starter, naming everyone who
replied since they last read it (`tell_starter`), and "@name" in any of them the bell of each
member so named (`tell_mentioned`). Members only: a club's words are its own (anyone else reads
nothing, not even how many posts there are). A reader never sees the people they mute; a
hidden post reads "hidden by moderators" for everyone but staff and the club's admins."""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Any

from django.db.models.functions import Lower

from chat import moderation, rules
from chat.errors import ChatForbidden, ChatNotFound
from chat.models import ClubPost, Mute
from games.actors import is_person
from league import clubs
from league.models import Club, Membership
from social import notifications
from social.models import Notification
from social.notifications import notify

# Posts per board page: the newest threads.
THREADS = 50
# The most people one post names with "@" whose bells ring (the first so named): a post is no
# way to ring every member's bell (that is an announcement, for admins).
MENTIONS = 3
# "@omar", "@Tobi_R": a name as sign-up gives it (letters, digits, _ . + -), after no letter or
# digit (so "ada@example.com" names nobody); a full stop ending it ends the sentence.
MENTION = re.compile(r"(?<![\w@])@([\w.+-]+)")


@dataclass(slots=True)
class Shown:
    """A post as a reader sees it, with its replies."""

    post: ClubPost
    author: str
    text: str | None
    mine: bool
    replies: list[Shown] = field(default_factory=list)

    @property
    def hidden(self) -> bool:
        return self.post.hidden


def _member(club: Club, user: Any) -> None:
    if not is_person(user):
        raise ChatForbidden("sign in to read the club's board", code="not-signed-in")
    if not moderation.may_read_board(club, user):
        raise ChatForbidden(f"the board of {club.name} is for its members", code="not-a-member")


def read(club: Club, viewer: Any) -> list[Shown]:
    """The newest THREADS threads (announcements first), each with its replies oldest first.
    ChatForbidden `not-signed-in`, `not-a-member`."""
    _member(club, viewer)
    muted = rules.muted_by(viewer)
    moderator = moderation.is_club_admin(club, viewer)
    posts = (
        ClubPost.objects.filter(club=club, reply_to__isnull=True)
        .exclude(author_id__in=muted)
        .select_related("author")
        .order_by("-is_announcement", "-created_at", "-pk")[:THREADS]
    )
    threads = {post.pk: _shown(post, viewer, moderator) for post in posts}
    replies = (
        ClubPost.objects.filter(reply_to_id__in=list(threads))
        .exclude(author_id__in=muted)
        .select_related("author")
        .order_by("created_at", "pk")
    )
    for reply in replies:
        assert reply.reply_to_id is not None
        threads[reply.reply_to_id].replies.append(_shown(reply, viewer, moderator))
    return list(threads.values())


def _shown(post: ClubPost, viewer: Any, moderator: bool) -> Shown:
    text = post.text if moderator else rules.shown_text(post, viewer)
    mine = is_person(viewer) and post.author_id == viewer.pk
    return Shown(post, post.author.get_username(), text, mine)


def post(
    *,
    club: Club,
    author: Any,
    text: Any,
    announcement: bool = False,
    reply_to: int | None = None,
) -> ClubPost:
    """A member's post or reply; an announcement only from an admin (never a reply).
    ChatForbidden `not-signed-in`, `not-a-member`, `not-club-admin`; ChatNotFound for a reply
    to no post of this club; ChatInvalid, ChatRestricted, ChatRateLimited (chat/rules.py)."""
    rules.check_speaker(author)
    _member(club, author)
    if announcement and not clubs.is_admin(club, author):
        raise ChatForbidden(
            f"only an admin of {club.name} posts announcements", code="not-club-admin"
        )
    parent = None
    if reply_to is not None:
        parent = ClubPost.objects.filter(pk=reply_to, club=club).first()
        if parent is None:
            raise ChatNotFound(f"there is no post {reply_to} on this board")
        # One level of replies: a reply to a reply joins its thread.
        parent = parent.reply_to or parent
        announcement = False
    text = rules.clean_text(text)
    made = ClubPost.objects.create(
        club=club, author=author, text=text, is_announcement=announcement, reply_to=parent
    )
    if made.is_announcement:
        told = tell_members(made)
    elif parent is not None:
        told = {parent.author_id} if tell_starter(parent, made) else set()
    else:
        told = tell_admins(made)
    tell_mentioned(made, but=told)
    return made


def _active(club: Club) -> Any:
    return Membership.objects.filter(club=club, status=Membership.Status.ACTIVE)


def _muting(author: Any) -> Any:
    return Mute.objects.filter(muted_id=author.pk).values_list("muter_id", flat=True)


def _board(club: Club) -> str:
    return f"/clubs/{club.slug}/#board"


def mentioned(text: str) -> list[str]:
    """The names a text calls with "@", in order, each once whatever its case, at most
    MENTIONS: "@omar and @Lena, @omar." -> ["omar", "Lena"]."""
    names: dict[str, str] = {}
    for found in MENTION.finditer(text):
        name = found.group(1).rstrip(".")
        if name and name.casefold() not in names:
            names[name.casefold()] = name
    return list(names.values())[:MENTIONS]


def tell_mentioned(made: ClubPost, *, but: Collection[int] = ()) -> set[int]:
    """Each active member of the club named "@name" in the post (any case; at most MENTIONS
    names a post) is told once per post: "lena mentioned you on the board of X"; never its
    author, nor who mutes them, nor anyone the post told already (`but`: its thread's starter,
    the admins, every member for an announcement), nor anyone outside the club. Returns whom."""
    names = [name.casefold() for name in mentioned(made.text)]
    if not names:
        return set()
    club, author = made.club, made.author
    people = set(
        _active(club)
        .annotate(name=Lower("user__username"))
        .filter(name__in=[name.lower() for name in names])
        .exclude(user_id=author.pk)
        .exclude(user_id__in=_muting(author))
        .exclude(user_id__in=list(but))
        .values_list("user_id", flat=True)
    )
    text = f"{author.get_username()} mentioned you on the board of {club.name}"
    for user_id in people:
        notify(
            user_id,
            Notification.Kind.CLUB,
            text,
            url=_board(club),
            key=f"club-mention:{made.pk}",
        )
    return people


def tell_admins(made: ClubPost) -> set[int]:
    """A member's new post (not a reply, not an announcement) rings the bell of each active
    admin of the club, once per post: "ben posted on the board of X" (a question asked there is
    seen); not the poster's, nor an admin's who mutes them. Returns whom."""
    club, author = made.club, made.author
    admins = set(
        _active(club)
        .filter(role=Membership.Role.ADMIN)
        .exclude(user_id=author.pk)
        .exclude(user_id__in=_muting(author))
        .values_list("user_id", flat=True)
    )
    text = f"{author.get_username()} posted on the board of {club.name}"
    for user_id in admins:
        notify(user_id, Notification.Kind.CLUB, text, url=_board(club), key=f"club-post:{made.pk}")
    return admins


def who(names: list[str]) -> str:
    """People named in a line: "lena", "lena and sam", "lena, sam and omar", "lena, sam and 2
    others"."""
    if len(names) <= 1:
        return "".join(names)
    if len(names) <= 3:
        return f"{', '.join(names[:-1])} and {names[-1]}"
    more = len(names) - 2
    return f"{names[0]}, {names[1]} and {more} others"


def tell_starter(thread: ClubPost, reply: ClubPost) -> bool:
    """A reply rings the bell of whoever started its thread: one notice per thread, unread and
    newest again at each reply, naming everyone who replied since they last read it, in the
    order they first replied ("lena and sam replied to your post", "lena, sam and 2 others
    replied…"); not for a reply of their own, nor when they mute the replier or are no longer an
    active member (the people they mute are never named). The notice names who, not what (as
    `tell_members`). Returns whether they were told."""
    starter, replier = thread.author_id, reply.author
    if starter == replier.pk or Mute.objects.filter(muter_id=starter, muted=replier).exists():
        return False
    club = thread.club
    if not _active(club).filter(user_id=starter).exists():
        return False
    key = f"club-thread:{thread.pk}"
    since = notifications.unread_since(starter, key, at=reply.created_at)
    muted = Mute.objects.filter(muter_id=starter).values_list("muted_id", flat=True)
    names: list[str] = []
    for name in (
        ClubPost.objects.filter(reply_to=thread, created_at__gte=since)
        .exclude(author_id=starter)
        .exclude(author_id__in=muted)
        .order_by("created_at", "pk")
        .values_list("author__username", flat=True)
    ):
        if name not in names:
            names.append(name)
    if replier.get_username() not in names:  # (a clock that went back: still named)
        names.append(replier.get_username())
    text = f"{who(names)} replied to your post on the board of {club.name}"
    notifications.renew(
        starter,
        Notification.Kind.CLUB,
        text,
        url=_board(club),
        key=key,
        at=reply.created_at,
    )
    return True


def tell_members(announcement: ClubPost) -> set[int]:
    """An admin's announcement rings the bell of every active member of its club (one notice
    per post, linking to the club page's board), but the poster's and those of members who
    mute them (who never read it). The notice names who posted, not what: a post hidden later
    leaves no words behind under the bell. Returns whom it told."""
    club, author = announcement.club, announcement.author
    members = (
        _active(club)
        .exclude(user_id=author.pk)
        .exclude(user_id__in=_muting(author))
        .values_list("user_id", flat=True)
    )
    text = f"{author.get_username()} posted an announcement on the board of {club.name}"
    return {
        user_id
        for user_id in members
        if notify(
            user_id,
            Notification.Kind.CLUB,
            text,
            url=_board(club),
            key=f"club-post:{announcement.pk}",
        )
    }


def hide(*, club: Club, by: Any, post_id: int, reason: Any) -> ClubPost:
    """An admin of the club (or staff) hides a post of its board, with a reason."""
    found = ClubPost.objects.select_related("club").filter(pk=post_id, club=club).first()
    if found is None:
        raise ChatNotFound(f"there is no post {post_id} on this board")
    hidden = moderation.hide(found, by=by, reason=reason)
    assert isinstance(hidden, ClubPost)
    return hidden
