"""The bot schemas (api/decision_schemas.py) on the web: each at /api/schemas/<name>.json, and in
the OpenAPI document as components (`BotView`, `BotCommand`, `BotWebhookRequest`, ...) with the
webhook call as an OpenAPI 3.1 `webhooks` entry (SPECTACULAR_SETTINGS' WEBHOOKS and
POSTPROCESSING_HOOKS)."""

from __future__ import annotations

from typing import Any

from django.http import Http404, JsonResponse
from drf_spectacular.utils import OpenApiResponse, OpenApiWebhook, extend_schema
from rest_framework.decorators import api_view, authentication_classes, permission_classes
from rest_framework.request import Request

from api import decision_schemas
from api.errors import error_responses

CACHE_SECONDS = 3600


@extend_schema(
    responses={
        200: OpenApiResponse(
            response={"type": "object"},
            description="A JSON Schema 2020-12 document; `name` is one of "
            + ", ".join(f"`{name}`" for name in decision_schemas.PUBLISHED)
            + ".",
        ),
        **error_responses(404),
    }
)
@api_view(["GET"])
@authentication_classes([])
@permission_classes([])
def schema_document(request: Request, name: str) -> JsonResponse:
    """A bot's payload as a JSON Schema: the decision, the view, a command, the command body,
    the webhook request and answer (docs/bots-api.md, "Schemas")."""
    try:
        document = decision_schemas.document(name)
    except KeyError:
        raise Http404(f"no schema named {name!r}") from None
    response = JsonResponse(document)
    response["Cache-Control"] = f"public, max-age={CACHE_SECONDS}"
    return response


WEBHOOK = OpenApiWebhook(
    name="decision",
    decorator=extend_schema(
        summary="A decision for a webhook bot",
        description="The server POSTs this to the bot's URL, signed with HMAC-SHA256 under the "
        "bot's secret (`X-Uno-Signature: sha256=<hex>`); the bot answers 200 with one command "
        "before `deadline` (docs/bots-api.md). Also at /api/schemas/webhook-request.json and "
        "/api/schemas/webhook-answer.json.",
        request={"application/json": decision_schemas.ref("webhook-request")},
        responses={
            200: OpenApiResponse(
                response=decision_schemas.ref("webhook-answer"),
                description="The bot's command; anything else is a strike.",
            )
        },
    ),
)


def postprocess(result: dict[str, Any], generator: Any, **kwargs: Any) -> dict[str, Any]:
    """drf-spectacular's postprocessing hook: the bot schemas as components."""
    result.setdefault("components", {}).setdefault("schemas", {}).update(
        decision_schemas.components()
    )
    return result
