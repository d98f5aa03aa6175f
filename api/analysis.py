"""A finished game's analysis through the API: GET /api/games/<id>/analysis reads it (status,
progress, and once done every decision's value, the hands' reports and the seats' summaries),
POST asks for one (docs/api.md "Analysis"; docs/analysis.md explains the figures).

Both answer only to a viewer who may see the game's whole log: a match still in play is 403
`game-in-play` (nothing is said of its analysis, whether one exists), a game of a deal group
whose other tables still play 403 `deal-in-play`, a game that never reveals 403 `not-revealed`."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny, BasePermission, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from analysis import reads, tasks
from api.auth import PEOPLE, person, require_scope
from api.errors import ErrorOutput, error_responses


class ProgressShape(serializers.Serializer[dict[str, Any]]):
    done = serializers.IntegerField(help_text="Decisions evaluated so far.")
    total = serializers.IntegerField(help_text="Decisions to evaluate (0 until counted).")


class AnalysisOutput(serializers.Serializer[dict[str, Any]]):
    game = serializers.IntegerField()
    status = serializers.ChoiceField(choices=["queued", "running", "done", "failed"])
    progress = ProgressShape()
    seed = serializers.IntegerField(
        help_text="The playouts' seed: the same seed, the same figures."
    )
    playouts = serializers.IntegerField(help_text="Playouts per option of each decision.")
    report_version = serializers.IntegerField(help_text="The shape of `analysis` (0 until done).")
    requested_at = serializers.DateTimeField()
    started_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)
    cpu_seconds = serializers.FloatField(help_text="CPU the run took.")
    reason = serializers.CharField(allow_null=True, help_text="Why a failed run failed.")
    analysis = serializers.DictField(
        allow_null=True,
        help_text="Once done: `hands` (each seat's points, deal_luck, draw_luck, decision_cost, "
        "and `chances`: [version, [each seat's chance to win the hand]]), `decisions` (version, "
        "hand, seat, chosen and best option with value and win_chance, cost, every option), "
        "`summaries` (per seat: score, decisions, decision_cost, mean_cost, luck); values are "
        "in a hand's points (docs/analysis.md).",
    )


REFUSED = OpenApiResponse(
    ErrorOutput, description="`analysis-exists`: one is queued, running or done."
)
HIDDEN = OpenApiResponse(ErrorOutput, description="`game-in-play`, `deal-in-play`, `not-revealed`.")
MISSING = OpenApiResponse(ErrorOutput, description="`game-not-found`, `no-analysis` (GET).")


class GameAnalysis(APIView):
    """Anyone may read an analysis the game's log allows; a signed-in person asks for one."""

    authentication_classes = PEOPLE

    def get_permissions(self) -> list[BasePermission]:
        if self.request.method == "POST":
            return [IsAuthenticated()]
        return [AllowAny()]

    @extend_schema(responses={200: AnalysisOutput, 403: HIDDEN, 404: MISSING})
    def get(self, request: Request, game_id: int) -> Response:
        """The game's analysis: its status and progress, and once done its figures."""
        _, row = reads.visible_row(game_id)
        return Response(AnalysisOutput(reads.body(row)).data)

    @extend_schema(
        request=None,
        responses={
            202: AnalysisOutput,
            **error_responses(401),
            403: HIDDEN,
            404: MISSING,
            409: REFUSED,
        },
    )
    def post(self, request: Request, game_id: int) -> Response:
        """Ask for the analysis of a finished game (any game, bots' included, whose whole log
        you may see); 202 with it queued. A failed one is queued again."""
        require_scope(request, "play")
        row = tasks.request(game_id, user_id=person(request).pk)
        return Response(AnalysisOutput(reads.body(row)).data, status=status.HTTP_202_ACCEPTED)
