"""A game's chat: the seats' channel, which everyone who may view the game reads (games are
public to spectators, games/visibility.py) and only the people seated there write to, and the
spectators' channel, which the people watching write to and which the seats do not read while
the match plays (no help from outside); once the match is over both channels are open to every
viewer, and the replay shows each message after the event it was said at (`version`).

The server adds nothing to a message: its text is the author's own (chat/rules.py), so it never
carries a seat's hidden cards but what that seat's person typed. A reader never sees the people
they mute; a hidden message reads "hidden by moderators" for everyone but staff.

A seat's message rings the bell (social.notifications) of the other seated people who are not
at the table now (clocks/presence.py) and do not mute its author, once per absence: the key names
the game and the moment the person was last seen there.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Max, OuterRef, Q, Subquery

from chat import rules
from chat.errors import ChatForbidden, ChatInvalid
from chat.models import Message, Mute
from clocks import presence
from games.actors import is_person
from games.errors import GameNotFound
from games.models import Game, Presence
from social.notifications import notify

SEATS = Message.Channel.SEATS
SPECTATORS = Message.Channel.SPECTATORS
# Messages per read (a long conversation pages on with ?after=).
PAGE = 200


@dataclass(frozen=True, slots=True)
class Place:
    """Where a viewer stands in a game's chat."""

    game_id: int
    seated: bool
    over: bool

    @property
    def channels(self) -> list[str]:
        """The channels the viewer reads."""
        if self.seated and not self.over:
            return [SEATS]
        return [SEATS, SPECTATORS]

    @property
    def writes(self) -> str | None:
        """The channel the viewer writes to (None: a visitor, who only reads)."""
        return SEATS if self.seated else SPECTATORS


def newest_said() -> Subquery:
    """The `seq` of a game's newest message (either channel, 0 rows: None), as a subquery of the
    game's row on the (game, seq) index: the play page's board poll reads it in the statement
    that reads the game's version, so a closed chat learns that something was said without a
    poll of its own (web/play.py live_board)."""
    return Subquery(Message.objects.filter(game=OuterRef("pk")).order_by("-seq").values("seq")[:1])


def place(game_id: int, viewer: Any) -> Place:
    """The viewer's place in the game's chat; GameNotFound for no such game."""
    game = Game.objects.filter(pk=game_id).only("pk", "status", "version").first()
    if game is None:
        raise GameNotFound(game_id)
    seated = is_person(viewer) and game.seats.filter(user_id=viewer.pk).exists()
    return Place(game.pk, seated, game.status == Game.Status.MATCH_OVER)


def post(*, game_id: int, author: Any, text: Any, channel: str | None = None) -> Message:
    """Say `text` in the game's `channel` (default: the author's own, seats for the seated,
    spectators for the rest). Refusals: ChatForbidden `not-signed-in`, `not-seated` (a
    spectator writes to the seats), `seated` (a seat writes to the spectators); ChatInvalid
    `bad-channel`, `empty-message`, `message-too-long`; ChatRestricted; ChatRateLimited."""
    if channel is not None and channel not in Message.Channel.values:
        raise ChatInvalid(f"no channel {channel!r}: seats or spectators", code="bad-channel")
    rules.check_speaker(author)
    where = place(game_id, author)
    channel = channel or where.writes or SPECTATORS
    if channel == SEATS and not where.seated:
        raise ChatForbidden(
            "only the people seated in this game write to its seats' channel", code="not-seated"
        )
    if channel == SPECTATORS and where.seated:
        raise ChatForbidden(
            "you play in this game: the spectators' channel is for the people watching",
            code="seated",
        )
    text = rules.clean_text(text)
    message = _append(where.game_id, author, channel, text)
    if channel == SEATS:
        transaction.on_commit(lambda: _ring(message))
    return message


def _append(game_id: int, author: Any, channel: str, text: str) -> Message:
    """The message with the game's next sequence number (a race for one retries)."""
    for _ in range(5):
        version = Game.objects.values_list("version", flat=True).get(pk=game_id)
        last = Message.objects.filter(game_id=game_id).aggregate(last=Max("seq"))["last"] or 0
        try:
            with transaction.atomic():
                return Message.objects.create(
                    game_id=game_id,
                    seq=last + 1,
                    channel=channel,
                    author=author,
                    text=text,
                    version=version,
                )
        except IntegrityError:
            continue
    raise ChatInvalid("too many messages at once: say it again", code="busy")


def _ring(message: Message) -> None:
    """The bell of each other seated person away from the table, once per absence."""
    game_id = message.game_id
    present = presence.at_table(game_id)
    seen = dict(
        Presence.objects.filter(game_id=game_id).values_list("user_id", "seen_at"),
    )
    seated = (
        Game.objects.get(pk=game_id)
        .seats.filter(user__isnull=False)
        .exclude(user_id=message.author_id)
        .select_related("user")
    )
    author = message.author.get_username()
    # Whoever mutes the author hears nothing of them, not even the bell.
    muting = set(Mute.objects.filter(muted_id=message.author_id).values_list("muter_id", flat=True))
    for seat in seated:
        if seat.user_id is None or seat.user is None:
            continue
        if seat.user_id in present or seat.user_id in muting:
            continue
        last = seen.get(seat.user_id)
        absence = int(last.timestamp()) if last is not None else 0
        notify(
            seat.user,
            "chat",
            f"{author} wrote at game {game_id}",
            url=f"/games/{game_id}/",
            key=f"chat:{game_id}:{absence}",
        )


def read(*, game_id: int, viewer: Any, after: int = 0) -> tuple[Place, list[dict[str, Any]]]:
    """The messages after `after` (a sequence number) the viewer may read, oldest first, at
    most PAGE: the channels of their place, less the people they mute."""
    if after < 0:
        raise ChatInvalid("after is a message number, 0 or more", code="bad-after")
    where = place(game_id, viewer)
    rows = (
        Message.objects.filter(game_id=game_id, seq__gt=after, channel__in=where.channels)
        .exclude(author_id__in=rules.muted_by(viewer))
        .select_related("author")
        .order_by("seq")[:PAGE]
    )
    return where, [as_json(row, viewer) for row in rows]


def latest(
    *,
    game_id: int,
    viewer: Any,
    count: int = 50,
    where: Place | None = None,
    muted: set[int] | None = None,
) -> tuple[Place, list[dict[str, Any]]]:
    """The newest `count` messages the viewer may read, oldest first (the play page's panel).
    `where` and `muted` (the ids the viewer mutes), when the caller knows them already."""
    if where is None:
        where = place(game_id, viewer)
    if muted is None:
        muted = rules.muted_by(viewer)
    rows = (
        Message.objects.filter(game_id=game_id, channel__in=where.channels)
        .exclude(author_id__in=muted)
        .select_related("author")
        .order_by("-seq")[:count]
    )
    return where, [as_json(row, viewer) for row in reversed(rows)]


def said_until(*, game_id: int, viewer: Any, version: int) -> list[dict[str, Any]]:
    """A finished game's messages said at or before `version` (the replay's board), both
    channels, less the people the viewer mutes."""
    rows = (
        Message.objects.filter(game_id=game_id, version__lte=version)
        .filter(Q(channel=SEATS) | Q(game__status=Game.Status.MATCH_OVER))
        .exclude(author_id__in=rules.muted_by(viewer))
        .select_related("author")
        .order_by("seq")
    )
    return [as_json(row, viewer) for row in rows]


def as_json(message: Message, viewer: Any) -> dict[str, Any]:
    """A message as a reader sees it: a hidden one without its text (but for staff)."""
    return {
        "id": message.pk,
        "seq": message.seq,
        "channel": message.channel,
        "author": message.author.get_username(),
        "text": rules.shown_text(message, viewer),
        "hidden": message.hidden,
        "version": message.version,
        "created_at": message.created_at,
        "mine": is_person(viewer) and message.author_id == viewer.pk,
    }
