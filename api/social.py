"""The notification centre and follows through the API (session or personal token):
GET /api/notifications (the unread count and a page of notices, newest first), POST
/api/notifications/read (some or all read), and GET/POST/DELETE /api/players/<username>/follow.
social/notifications.py and social/follows.py do the work; docs/api.md lists the errors."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import exceptions, serializers
from rest_framework.decorators import api_view, authentication_classes
from rest_framework.request import Request
from rest_framework.response import Response

from api.auth import PEOPLE, person
from api.errors import ErrorOutput, error_responses
from api.pages import next_link
from social import follows, notifications
from social.models import Notification


class NoticeOutput(serializers.ModelSerializer[Notification]):
    read = serializers.SerializerMethodField(help_text="Whether the notice was read.")
    game = serializers.IntegerField(
        source="game_id", allow_null=True, help_text="The game it is about, if any."
    )

    class Meta:
        model = Notification
        fields = ["id", "kind", "text", "url", "game", "created_at", "read", "read_at"]
        read_only_fields = fields
        extra_kwargs = {"url": {"help_text": "Where it links: a path on this site, or empty."}}

    def get_read(self, notice: Notification) -> bool:
        return notice.read_at is not None


class InboxOutput(serializers.Serializer[dict[str, Any]]):
    unread = serializers.IntegerField(help_text="The figure on the bell.")
    next = serializers.IntegerField(
        allow_null=True,
        help_text="The `before` of the next (older) page; null on the last page. The `Link` "
        "header's `rel=\"next\"` is that page's URL.",
    )
    results = NoticeOutput(many=True, help_text="This page's notices, newest first.")


class InboxInput(serializers.Serializer[dict[str, Any]]):
    before = serializers.IntegerField(
        min_value=1,
        required=False,
        help_text="The page after this notice (the `next` of the page before).",
    )
    size = serializers.IntegerField(
        min_value=1,
        max_value=notifications.PAGE_SIZE_MAX,
        default=notifications.PAGE_SIZE,
        help_text=f"Notices in a page, 1 to {notifications.PAGE_SIZE_MAX}.",
    )


class ReadInput(serializers.Serializer[dict[str, Any]]):
    ids = serializers.ListField(
        child=serializers.IntegerField(min_value=1),
        required=False,
        max_length=notifications.PAGE_SIZE_MAX,
        help_text="The notices to mark read (ids of other people's notices change nothing).",
    )
    all = serializers.BooleanField(required=False, help_text="true: mark every notice read.")

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if ("ids" in attrs) == bool(attrs.get("all")):
            raise serializers.ValidationError("give either `ids` or `all: true`")
        return attrs


class ReadOutput(serializers.Serializer[dict[str, Any]]):
    marked = serializers.IntegerField(help_text="How many were unread and are read now.")
    unread = serializers.IntegerField(help_text="The figure on the bell now.")


class FollowOutput(serializers.Serializer[follows.FollowState]):
    username = serializers.CharField()
    following = serializers.BooleanField(help_text="Whether you follow them.")
    followers = serializers.IntegerField(help_text="How many people follow them.")
    follows = serializers.IntegerField(help_text="How many people they follow.")


@extend_schema(
    parameters=[InboxInput],
    # 400 `invalid`: a `before` or `size` not a whole number in range; 404 `notice-not-found`:
    # a `before` that is no notice of yours.
    responses={200: InboxOutput, **error_responses(400, 403, 404)},
)
@api_view(["GET"])
@authentication_classes(PEOPLE)
def inbox(request: Request) -> Response:
    """Your notices, newest first, a page at a time (`size`; the next page with `before`, the
    `next` of this one, also the `Link` header's `rel="next"`), and how many are unread: your
    turns, rematches offered, seasons started and fixtures opened, and what other parts of the
    site tell you."""
    asked = InboxInput(data=request.query_params)
    asked.is_valid(raise_exception=True)
    try:
        found = notifications.inbox(
            person(request),
            before=asked.validated_data.get("before"),
            size=asked.validated_data["size"],
        )
    except notifications.NoticeNotFound as error:
        raise exceptions.NotFound(error.message, code=error.code) from error
    body = {"unread": found.unread, "next": found.before, "results": found.notices}
    return next_link(request, Response(InboxOutput(body).data), found.before)


@extend_schema(request=ReadInput, responses={200: ReadOutput, **error_responses(400, 403)})
@api_view(["POST"])
@authentication_classes(PEOPLE)
def read(request: Request) -> Response:
    """Mark notices read: `{"ids": [...]}` those, `{"all": true}` every one."""
    data = ReadInput(data=request.data)
    data.is_valid(raise_exception=True)
    user = person(request)
    marked = notifications.mark_read(user, data.validated_data.get("ids"))
    return Response(ReadOutput({"marked": marked, "unread": notifications.unread_count(user)}).data)


FOLLOW_REFUSED = OpenApiResponse(
    ErrorOutput, description="`follow-self`: you cannot follow yourself."
)


@extend_schema(
    methods=["GET"], request=None, responses={200: FollowOutput, **error_responses(403, 404)}
)
@extend_schema(
    methods=["POST"],
    request=None,
    responses={
        200: FollowOutput,
        201: FollowOutput,
        400: FOLLOW_REFUSED,
        **error_responses(403, 404),
    },
)
@extend_schema(
    methods=["DELETE"], request=None, responses={200: FollowOutput, **error_responses(403, 404)}
)
@api_view(["GET", "POST", "DELETE"])
@authentication_classes(PEOPLE)
def follow(request: Request, username: str) -> Response:
    """GET: whether you follow the person, and their counts. POST: follow them (201; 200 if
    you did already). DELETE: stop following them (200 whether or not you did)."""
    user = person(request)
    followed = follows.person_named(username)
    status = 200
    if request.method == "POST":
        status = 201 if follows.follow(user, followed) else 200
    elif request.method == "DELETE":
        follows.unfollow(user, followed)
    return Response(FollowOutput(follows.state(user, followed)).data, status=status)
