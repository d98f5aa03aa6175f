"""A club's board: its members read it and post to it (a post, or a reply to one), its admins
post announcements, shown first and marked, each ringing its members' bells (`tell_members`),
and hide posts (chat/moderation.py `hide`, with a reason); a reply rings the bell of its
thread's starter (`tell_starter`). Members only: a club's words are its own (anyone else reads
nothing, not even how many posts there are). A reader never sees the people they mute; a
hidden post reads "hidden by moderators" for everyone but staff and the club's admins."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from chat import moderation, rules
from chat.errors import ChatForbidden, ChatNotFound
from chat.models import ClubPost, Mute
from games.actors import is_person
from league import clubs
from league.models import Club, Membership
from social.models import Notification
from social.notifications import notify, renew

# Posts per board page: the newest threads.
THREADS = 50


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
        tell_members(made)
    elif parent is not None:
        tell_starter(parent, made)
    return made


def tell_starter(thread: ClubPost, reply: ClubPost) -> bool:
    """A reply rings the bell of whoever started its thread: one notice per thread, unread and
    newest again at each reply, naming the last to reply; not for a reply of their own, nor
    when they mute the replier or are no longer an active member. The notice names who, not
    what (as `tell_members`). Returns whether they were told."""
    starter, replier = thread.author_id, reply.author
    if starter == replier.pk or Mute.objects.filter(muter_id=starter, muted=replier).exists():
        return False
    club = thread.club
    if not Membership.objects.filter(
        club=club, user_id=starter, status=Membership.Status.ACTIVE
    ).exists():
        return False
    text = f"{replier.get_username()} replied to your post on the board of {club.name}"
    renew(
        starter,
        Notification.Kind.CLUB,
        text,
        url=f"/clubs/{club.slug}/#board",
        key=f"club-thread:{thread.pk}",
        at=reply.created_at,
    )
    return True


def tell_members(announcement: ClubPost) -> int:
    """An admin's announcement rings the bell of every active member of its club (one notice
    per post, linking to the club page's board), but the poster's and those of members who
    mute them (who never read it). The notice names who posted, not what: a post hidden later
    leaves no words behind under the bell. Returns how many were told."""
    club, author = announcement.club, announcement.author
    muting = Mute.objects.filter(muted_id=author.pk).values_list("muter_id", flat=True)
    members = (
        Membership.objects.filter(club=club, status=Membership.Status.ACTIVE)
        .exclude(user_id=author.pk)
        .exclude(user_id__in=muting)
        .values_list("user_id", flat=True)
    )
    text = f"{author.get_username()} posted an announcement on the board of {club.name}"
    return sum(
        notify(
            user_id,
            Notification.Kind.CLUB,
            text,
            url=f"/clubs/{club.slug}/#board",
            key=f"club-post:{announcement.pk}",
        )
        for user_id in members
    )


def hide(*, club: Club, by: Any, post_id: int, reason: Any) -> ClubPost:
    """An admin of the club (or staff) hides a post of its board, with a reason."""
    found = ClubPost.objects.select_related("club").filter(pk=post_id, club=club).first()
    if found is None:
        raise ChatNotFound(f"there is no post {post_id} on this board")
    hidden = moderation.hide(found, by=by, reason=reason)
    assert isinstance(hidden, ClubPost)
    return hidden
