"""The people's API (session auth): resign a game, take vacation days, choose how turn notices
arrive. games/seat_facts.py and games/deadlines.py do the work; docs/api.md lists the errors."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.authentication import SessionAuthentication
from rest_framework.decorators import api_view, authentication_classes
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api.errors import error_responses
from games import deadlines, seat_facts
from games.models import NotificationPreference


class ResignOutput(serializers.Serializer):
    game = serializers.IntegerField()
    seats = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="The seats resigned: the default bot plays them, and they are placed last.",
    )


class VacationInput(serializers.Serializer):
    days = serializers.IntegerField(help_text="Whole days, at least 1, within the game's budget.")


class VacationOutput(serializers.Serializer):
    game = serializers.IntegerField(source="game_id")
    seat = serializers.IntegerField()
    deadline_at = serializers.DateTimeField(allow_null=True)
    vacation_until = serializers.DateTimeField()
    days_used = serializers.IntegerField()
    days_left = serializers.IntegerField(help_text="Of the game's vacation_days budget.")


class NotificationSettings(serializers.ModelSerializer):
    class Meta:
        model = NotificationPreference
        fields = ["turn_emails"]
        extra_kwargs = {"turn_emails": {"required": True}}


@extend_schema(request=None, responses={200: ResignOutput, **error_responses(400, 403, 404)})
@api_view(["POST"])
@authentication_classes([SessionAuthentication])
def resign(request: Request, game_id: int) -> Response:
    """Resign every seat you hold in a playing game."""
    seats = seat_facts.game_resign(game_id=game_id, actor=request.user)
    return Response({"game": game_id, "seats": seats})


@extend_schema(
    request=VacationInput, responses={200: VacationOutput, **error_responses(400, 403, 404)}
)
@api_view(["POST"])
@authentication_classes([SessionAuthentication])
def vacation(request: Request, game_id: int) -> Response:
    """Pause your clock in a game for some days: a running deadline moves that much later."""
    data = VacationInput(data=request.data)
    data.is_valid(raise_exception=True)
    vacation = deadlines.seat_vacation(
        game_id=game_id, actor=request.user, days=data.validated_data["days"]
    )
    return Response(VacationOutput(vacation).data)


class Notifications(APIView):
    authentication_classes = [SessionAuthentication]

    @extend_schema(responses={200: NotificationSettings, **error_responses(403)})
    def get(self, request: Request) -> Response:
        """How you hear that it is your turn (each: an email per turn, the default)."""
        preference = NotificationPreference.objects.filter(user=request.user).first()
        return Response(NotificationSettings(preference or NotificationPreference()).data)

    @extend_schema(
        request=NotificationSettings,
        responses={200: NotificationSettings, **error_responses(400, 403)},
    )
    def put(self, request: Request) -> Response:
        """Choose an email per turn (each), one daily digest (digest), or none."""
        data = NotificationSettings(data=request.data)
        data.is_valid(raise_exception=True)
        preference, _ = NotificationPreference.objects.update_or_create(
            user=request.user, defaults=data.validated_data
        )
        return Response(NotificationSettings(preference).data)
