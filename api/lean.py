"""The API's hottest endpoints dispatched without DRF's per-request machinery, to the same answer.

A DRF view builds, for every request, the view's instance, its parsers, authenticators,
renderers, permissions and negotiator, a `Request` around Django's, and then the response's
headers from the view's class; with the negotiation and the exception handling around it, that
was about a fifth of the Python of a command through the API (docs/performance.md, "API").
`lean(view)` serves a DRF function view (`@api_view`) the same way with what can be made once made
once: the authenticators, permissions, renderer and the `Allow` header, from the view's own class,
so that the view's policies stay where they are declared.

What it does for a request, in DRF's order and with DRF's own code where it has any: the
request wrapped (`LeanRequest`, a DRF `Request`), authenticated by the view's authenticators
(`Request._authenticate`), its permissions and then its throttles checked (new throttles each
request, as DRF makes them), the view's handler called with it; any exception answered as DRF's
`APIView.handle_exception` answers it (api/errors.py's handler, a 401's `WWW-Authenticate` from
the first authenticator, else a 403); the response given the renderer, the media type and the
`Allow` header DRF's `finalize_response` gives it.

Only a request whose negotiation DRF would settle without looking (api/negotiation.py: an Accept
header of JSON or anything, no query string and so no `?format=`), in the view's one method, and
not forced through DRF's test client (`force_authenticate`) takes this way; any other (HEAD,
OPTIONS, another method, another Accept, a query string) goes to the DRF view itself, before
anything was read, counted or written. tests/api/test_lean.py holds the two ways to the same
status, headers and body, errors included.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.http import HttpRequest
from django.http.response import HttpResponseBase
from rest_framework import exceptions, status
from rest_framework.request import Empty, Request
from rest_framework.response import Response

from api.negotiation import PLAIN
from api.renderers import JSONRenderer

MEDIA_TYPE = "application/json"


class LeanRequest(Request):
    """DRF's Request, made without building the view's parsers, authenticators and negotiator
    again: those of `Lean` are passed in, made once. Everything else (the data parsed on first
    use, the user and auth set on Django's request too) is DRF's own code."""

    def __init__(self, request: HttpRequest, lean: Lean, kwargs: dict[str, Any]) -> None:
        self._request = request
        self.parsers = lean.parsers
        self.authenticators = lean.authenticators
        self.negotiator = lean.negotiator
        # DRF's "not read yet" (its Request's own marks), which the stubs do not type.
        self._data = self._files = self._full_data = self._content_type = Empty
        self._stream = Empty  # type: ignore[assignment]
        self.parser_context = {
            "view": lean.instance,
            "args": (),
            "kwargs": kwargs,
            "request": self,
            "encoding": request.encoding or settings.DEFAULT_CHARSET,
        }


class Lean:
    """One DRF function view's policies, made once, and its dispatch (module docstring)."""

    def __init__(self, view: Any) -> None:
        cls = view.cls
        self.view = view
        self.instance = cls(**view.initkwargs)
        methods = [name for name in cls.http_method_names if name != "options"]
        if len(methods) != 1:
            raise ValueError(f"{cls.__name__}: lean() serves a view of one method, not {methods}")
        self.method = methods[0].upper()
        self.handler = getattr(self.instance, methods[0])
        self.parsers = tuple(self.instance.get_parsers())
        self.authenticators = tuple(self.instance.get_authenticators())
        self.permissions = tuple(self.instance.get_permissions())
        self.throttle_classes = tuple(cls.throttle_classes)
        self.negotiator = self.instance.get_content_negotiator()
        renderers = self.instance.get_renderers()
        if len(renderers) != 1 or renderers[0].media_type != MEDIA_TYPE:
            raise ValueError(f"{cls.__name__}: lean() serves a view that renders JSON only")
        self.renderer = renderers[0]
        if not isinstance(self.renderer, JSONRenderer):
            raise ValueError(f"{cls.__name__}: lean() expects api/renderers.py's JSONRenderer")
        # DRF's default_response_headers: one renderer, so no `Vary: Accept`.
        self.allow = ", ".join(self.instance.allowed_methods)

    def takes(self, request: HttpRequest) -> bool:
        """Whether DRF would settle this request's negotiation without looking, for the view's
        method (api/negotiation.py's shortcut), and no test forced its authentication."""
        meta = request.META
        return (
            request.method == self.method
            and meta.get("HTTP_ACCEPT") in PLAIN
            and not meta.get("QUERY_STRING")
            and getattr(request, "_force_auth_user", None) is None
            and getattr(request, "_force_auth_token", None) is None
        )

    def __call__(self, request: HttpRequest, **kwargs: Any) -> HttpResponseBase:
        if not self.takes(request):
            return self.view(request, **kwargs)  # type: ignore[no-any-return]
        lean = LeanRequest(request, self, kwargs)
        # What DRF's negotiation and versioning leave on the request.
        lean.accepted_renderer, lean.accepted_media_type = self.renderer, MEDIA_TYPE
        lean.version = lean.versioning_scheme = None
        try:
            lean._authenticate()  # type: ignore[attr-defined]
            for permission in self.permissions:
                if not permission.has_permission(lean, self.instance):
                    self.instance.permission_denied(
                        lean,
                        message=getattr(permission, "message", None),
                        code=getattr(permission, "code", None),
                    )
            self.check_throttles(lean)
            response = self.handler(lean, **kwargs)
        except Exception as error:  # noqa: BLE001  (DRF's dispatch catches every exception too)
            response = self.handle_exception(error, lean, kwargs)
        if isinstance(response, Response):
            response.accepted_renderer = self.renderer
            response.accepted_media_type = MEDIA_TYPE
            response.renderer_context = {  # type: ignore[attr-defined]
                "view": self.instance,
                "args": (),
                "kwargs": kwargs,
                "request": lean,
            }
        response["Allow"] = self.allow
        return response  # type: ignore[no-any-return]

    def check_throttles(self, request: LeanRequest) -> None:
        """DRF's APIView.check_throttles, with the view's throttles made for this request."""
        durations = []
        for throttle_class in self.throttle_classes:
            throttle = throttle_class()
            if not throttle.allow_request(request, self.instance):
                durations.append(throttle.wait())
        if durations:
            wait = max((duration for duration in durations if duration is not None), default=None)
            raise exceptions.Throttled(wait)

    def handle_exception(
        self, error: Exception, request: LeanRequest, kwargs: dict[str, Any]
    ) -> Response:
        """DRF's APIView.handle_exception."""
        if isinstance(error, exceptions.NotAuthenticated | exceptions.AuthenticationFailed):
            header = self.authenticators[0].authenticate_header(request)
            if header:
                error.auth_header = header  # type: ignore[union-attr]
            else:
                error.status_code = status.HTTP_403_FORBIDDEN
        context = {"view": self.instance, "args": (), "kwargs": kwargs, "request": request}
        response = self.instance.get_exception_handler()(error, context)
        if response is None:
            if settings.DEBUG:
                request.force_plaintext_errors(True)
            raise error
        response.exception = True
        return response  # type: ignore[no-any-return]


def lean(view: Any) -> Callable[..., HttpResponseBase]:
    """`view` (a DRF function view) served by `Lean`, keeping what Django, the CSRF middleware
    and drf-spectacular read from it: its class and arguments (the OpenAPI schema documents the
    endpoint as before), its CSRF exemption (DRF's session authentication checks the token
    itself)."""
    served = Lean(view)

    def dispatch(request: HttpRequest, **kwargs: Any) -> HttpResponseBase:
        return served(request, **kwargs)

    dispatch.__name__ = view.__name__
    dispatch.__doc__ = view.__doc__
    dispatch.__module__ = view.__module__
    dispatch.cls = view.cls  # type: ignore[attr-defined]
    dispatch.initkwargs = view.initkwargs  # type: ignore[attr-defined]
    dispatch.csrf_exempt = True  # type: ignore[attr-defined]
    dispatch.login_required = False  # type: ignore[attr-defined]
    dispatch.lean = served  # type: ignore[attr-defined]
    return dispatch
