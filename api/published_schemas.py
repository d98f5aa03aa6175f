"""The bot schemas (api/decision_schemas.py) on the web: each at /api/schemas/<name>.json, and in
the OpenAPI document as components (`BotView`, `BotCommand`, `BotWebhookRequest`, ...) with the
webhook call as an OpenAPI 3.1 `webhooks` entry (SPECTACULAR_SETTINGS' WEBHOOKS and
POSTPROCESSING_HOOKS)."""

from __future__ import annotations

from typing import Any, ClassVar

from django.http import Http404, JsonResponse
from drf_spectacular.utils import OpenApiResponse, OpenApiWebhook, extend_schema
from drf_spectacular.views import SpectacularAPIView
from rest_framework.decorators import api_view, authentication_classes, permission_classes
from rest_framework.request import Request
from rest_framework.response import Response

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


class OpenApiDocumentView(SpectacularAPIView):
    """The OpenAPI document at /api/schema/, built once a process: it is a function of the code
    alone (public, no versions, no servers taken from the request), and building it walks every
    view and serializer, about 1.5 s of CPU a request."""

    built: ClassVar[dict[str, Any]] = {}

    def _get_schema_response(self, request: Request) -> Response:
        if "document" not in self.built:
            generator = self.generator_class(urlconf=self.urlconf, patterns=self.patterns)
            document = generator.get_schema(request=request, public=True)  # type: ignore[no-untyped-call]
            self.built["document"] = document
        name = self._get_filename(request, None)  # type: ignore[no-untyped-call]
        return Response(
            data=self.built["document"],
            headers={"Content-Disposition": f'inline; filename="{name}"'},
        )
