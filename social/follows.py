"""Follows: a person follows another to watch their games (the player page's button, the
Following list of the notification centre, POST/DELETE /api/players/<username>/follow).

Following is public and one-way, as on Lichess: nobody is asked, nobody is told. One row per
pair; following oneself is refused (`follow-self`), following twice or unfollowing someone not
followed changes nothing."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction

from games.errors import GameError
from games.models import Game
from league.errors import PlayerNotFound
from social.models import Follow

RUNNING_SHOWN = 20


class FollowRefused(GameError):
    """A follow that cannot be: oneself."""

    code = "follow-refused"


@dataclass(frozen=True, slots=True)
class FollowState:
    username: str
    following: bool  # whether the asker follows them
    followers: int
    follows: int

    def as_json(self) -> dict[str, Any]:
        return {
            "username": self.username,
            "following": self.following,
            "followers": self.followers,
            "follows": self.follows,
        }


def person_named(username: str) -> Any:
    """The active person with this username. Raises PlayerNotFound."""
    user = get_user_model().objects.filter(username=username, is_active=True).first()
    if user is None:
        raise PlayerNotFound(f"player {username!r}")
    return user


def follow(follower: Any, followed: Any) -> bool:
    """`follower` follows `followed`; True if they did not already. Raises FollowRefused
    (`follow-self`)."""
    if follower.pk == followed.pk:
        raise FollowRefused("you cannot follow yourself", code="follow-self")
    try:
        with transaction.atomic():
            _, created = Follow.objects.get_or_create(follower=follower, followed=followed)
    except IntegrityError:  # the same follow, at the same moment, from another request
        return False
    return created


def unfollow(follower: Any, followed: Any) -> bool:
    """Stop following; True if they were following."""
    deleted, _ = Follow.objects.filter(follower=follower, followed=followed).delete()
    return bool(deleted)


def is_following(follower: Any, followed: Any) -> bool:
    if not getattr(follower, "is_authenticated", False):
        return False
    return Follow.objects.filter(follower_id=follower.pk, followed_id=followed.pk).exists()


def state(asker: Any, person: Any) -> FollowState:
    """Whether `asker` follows `person`, and the person's counts of followers and follows."""
    return FollowState(
        username=person.get_username(),
        following=is_following(asker, person),
        followers=Follow.objects.filter(followed=person).count(),
        follows=Follow.objects.filter(follower=person).count(),
    )


def followed_by(user: Any) -> list[Any]:
    """The people `user` follows, by username."""
    return [
        follow.followed
        for follow in Follow.objects.filter(follower=user, followed__is_active=True)
        .select_related("followed")
        .order_by("followed__username")
    ]


def follower_ids(user: Any) -> list[int]:
    """The ids of the people who follow `user`: whom to tell, with `notify(..., kind="follow")`,
    when they do something public (open a table)."""
    return list(
        Follow.objects.filter(followed_id=user.pk, follower__is_active=True)
        .order_by("follower_id")
        .values_list("follower_id", flat=True)
    )


def running_games(people: list[Any], *, limit: int = RUNNING_SHOWN) -> dict[int, list[Game]]:
    """Each person's games still being played (by user id, newest activity first, at most
    `limit` each), their seats and seated people and bots loaded: the games to watch."""
    wanted = {person.pk for person in people}
    found: dict[int, list[Game]] = {pk: [] for pk in wanted}
    if not wanted:
        return found
    games = (
        Game.objects.filter(seats__user_id__in=wanted, status=Game.Status.PLAYING)
        .distinct()
        .prefetch_related("seats__user", "seats__registered_bot")
        .order_by("-last_activity", "-pk")[: limit * len(wanted)]
    )
    for game in games:
        for seat in game.seats.all():
            if seat.user_id is not None and seat.user_id in wanted:
                listed = found[seat.user_id]
                if len(listed) < limit and game not in listed:
                    listed.append(game)
    return found
