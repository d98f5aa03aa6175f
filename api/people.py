"""The people's API (session auth): resign a game, take vacation days, choose how turn notices
arrive. games/services.py and games/deadlines.py do the work; docs/api.md lists the errors."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.authentication import SessionAuthentication
from rest_framework.decorators import api_view, authentication_classes
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api.bots import error_response
from games import deadlines, services
from games.errors import GameError
from games.models import NotificationPreference, Seat


class ResignOutput(serializers.Serializer):
    game = serializers.IntegerField()
    seats = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="The seats resigned: the default bot plays them, and they are placed last.",
    )


class VacationInput(serializers.Serializer):
    days = serializers.IntegerField(help_text="Whole days, at least 1, within the game's budget.")


class VacationOutput(serializers.ModelSerializer):
    game = serializers.IntegerField(source="game_id")
    seat = serializers.IntegerField(source="number")
    days_used = serializers.IntegerField(source="vacation_days_used")
    days_left = serializers.SerializerMethodField(help_text="Of the game's vacation_days budget.")

    class Meta:
        model = Seat
        fields = ["game", "seat", "deadline_at", "vacation_until", "days_used", "days_left"]
        read_only_fields = fields

    def get_days_left(self, seat: Seat) -> int:
        return deadlines.vacation_budget(seat.game.context) - seat.vacation_days_used


class NotificationSettings(serializers.ModelSerializer):
    class Meta:
        model = NotificationPreference
        fields = ["turn_emails"]
        extra_kwargs = {"turn_emails": {"required": True}}


@extend_schema(request=None, responses={200: ResignOutput})
@api_view(["POST"])
@authentication_classes([SessionAuthentication])
def resign(request: Request, game_id: int) -> Response:
    """Resign every seat you hold in a playing game."""
    try:
        seats = services.game_resign(game_id=game_id, actor=request.user)
    except GameError as error:
        return error_response(error)
    return Response({"game": game_id, "seats": seats})


@extend_schema(request=VacationInput, responses={200: VacationOutput})
@api_view(["POST"])
@authentication_classes([SessionAuthentication])
def vacation(request: Request, game_id: int) -> Response:
    """Pause your clock in a game for some days: a running deadline moves that much later."""
    data = VacationInput(data=request.data)
    data.is_valid(raise_exception=True)
    try:
        seat = deadlines.seat_vacation(
            game_id=game_id, actor=request.user, days=data.validated_data["days"]
        )
    except GameError as error:
        return error_response(error)
    return Response(VacationOutput(seat).data)


class Notifications(APIView):
    authentication_classes = [SessionAuthentication]

    @extend_schema(responses={200: NotificationSettings})
    def get(self, request: Request) -> Response:
        """How you hear that it is your turn (each: an email per turn, the default)."""
        preference = NotificationPreference.objects.filter(user=request.user).first()
        return Response(NotificationSettings(preference or NotificationPreference()).data)

    @extend_schema(request=NotificationSettings, responses={200: NotificationSettings})
    def put(self, request: Request) -> Response:
        """Choose an email per turn (each), one daily digest (digest), or none."""
        data = NotificationSettings(data=request.data)
        data.is_valid(raise_exception=True)
        preference, _ = NotificationPreference.objects.update_or_create(
            user=request.user, defaults=data.validated_data
        )
        return Response(NotificationSettings(preference).data)
