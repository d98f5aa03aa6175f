"""The site's input boundary: what every page and endpoint refuses before a view, a form or the
database reads it, with 400 and a stable code (docs/api.md and docs/web.md, "Bad input").

- `InputBoundaryMiddleware` (settings.MIDDLEWARE, before the session is read) refuses a NUL
  character (PostgreSQL cannot store one: a database error, not a refusal) or a lone surrogate
  (no encoder can write one out) anywhere in the path, the query string, a form field, a cookie
  or a header: 400 `invalid-characters`.
- `loads` parses JSON the way the API's parser does (`api/parsers.py`): at most `MAX_DEPTH`
  levels of arrays and objects (400 `parse_error`; Python's decoder raises RecursionError
  somewhere past a thousand), and no NUL or lone surrogate in any string, key or value (400
  `invalid-characters`). The play page's command form reads its JSON with it.
- `integer` reads an integer from a query string or a form (a seat, an id, an event number):
  ASCII digits only, at most `MAX_DIGITS` of them (`str.isdigit()` accepts "²", which `int()`
  refuses; `int()` accepts " 7", "+7" and "٧"): else 400 `invalid-number`.
- `printable` makes text safe to echo into an error message: lone surrogates become U+FFFD.

`BadInput` is Django's BadRequest with a code and a message: under /api/ the API's exception
handler (api/errors.py) and the site's handler400 (api/views.py) answer `{"code", "message"}`;
elsewhere handler400 renders the 400 page (templates/bad_request.html) with both.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from typing import Any

from django.conf import settings
from django.core.exceptions import BadRequest
from django.http import Http404, HttpRequest, HttpResponse, QueryDict
from django.urls import get_resolver

INVALID_CHARACTERS = "invalid-characters"
INVALID_NUMBER = "invalid-number"
TOO_LONG = "too-long"
# The API's code for a body that does not parse (DRF's ParseError), kept for JSON in forms too.
PARSE_ERROR = "parse_error"

# Levels of arrays and objects a JSON document may nest. The deepest the site takes (a bot's
# command) has three; the limit keeps deep documents away from the recursive code after the
# parser (validation, the engine, repr in messages, JSON columns).
MAX_DEPTH = 32
# Digits of an integer in a query string or a form: every id, seat and version fits in 18
# (PostgreSQL's bigint holds 18 digits whatever they are).
MAX_DIGITS = 18

# A NUL, or a surrogate code point: a str holds one only unpaired (a decoder joins a pair into
# one character), from JSON's "\ud800" or Python code.
_BAD = re.compile("[\x00\ud800-\udfff]")
_SURROGATE = re.compile("[\ud800-\udfff]")
_DIGITS = re.compile(rf"[0-9]{{1,{MAX_DIGITS}}}")


class BadInput(BadRequest):
    """A request refused at the boundary: 400 with a stable `code` and a `message` for people."""

    def __init__(self, message: str, *, code: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def has_bad_characters(text: str) -> bool:
    """Whether `text` holds a NUL character or a lone surrogate."""
    return _BAD.search(text) is not None


def printable(text: str) -> str:
    """`text` with each lone surrogate replaced by U+FFFD, so that it can be encoded."""
    return _SURROGATE.sub("\ufffd", text)


def bad_characters(where: str) -> BadInput:
    return BadInput(
        f"{where} holds a NUL character or a lone surrogate, which no text here may hold",
        code=INVALID_CHARACTERS,
    )


def too_deep() -> str:
    return f"JSON parse error - the body nests more than {MAX_DEPTH} levels of arrays and objects"


def check_json(data: Any, *, where: str = "the body") -> None:
    """Refuse parsed JSON deeper than MAX_DEPTH (`parse_error`) or holding a NUL or a lone
    surrogate in any string (`invalid-characters`), without recursion."""
    pending: list[tuple[Any, int, str]] = [(data, 0, "")]
    while pending:
        item, level, path = pending.pop()
        if isinstance(item, str):
            if has_bad_characters(item):
                raise bad_characters(f"a string in {where}" + (f" (at {path})" if path else ""))
            continue
        if isinstance(item, Mapping):
            children = list(item.items())
        elif isinstance(item, list):
            children = list(enumerate(item))
        else:
            continue
        if level + 1 > MAX_DEPTH:
            raise BadInput(too_deep(), code=PARSE_ERROR)
        for key, child in children:
            if isinstance(key, str) and has_bad_characters(key):
                raise bad_characters(f"a key in {where}")
            label = printable(str(key))[:40]
            pending.append((child, level + 1, f"{path}.{label}" if path else label))


def _not_json(constant: str) -> Any:
    raise ValueError(f"{constant} is not JSON")


def loads(text: str | bytes, *, where: str = "the body") -> Any:
    """JSON as the API's parser takes it (strict, as DRF's STRICT_JSON: NaN, Infinity and
    -Infinity are not JSON). Raises ValueError when `text` is not JSON at all, and BadInput when
    it is too deep or holds a NUL or a lone surrogate."""
    try:
        data = json.loads(text, parse_constant=_not_json)
    except RecursionError:
        raise BadInput(too_deep(), code=PARSE_ERROR) from None
    check_json(data, where=where)
    return data


def integer(
    data: QueryDict | Mapping[str, Any], name: str, default: int | None = None
) -> int | None:
    """The integer `data[name]` (a query string's or a form's), or `default` when it is absent
    or blank; anything but 1 to MAX_DIGITS ASCII digits is BadInput `invalid-number`."""
    value = data.get(name, "")
    if value is None or value == "":
        return default
    if not isinstance(value, str) or not _DIGITS.fullmatch(value):
        raise BadInput(
            f"{name} must be a whole number of at most {MAX_DIGITS} digits 0-9",
            code=INVALID_NUMBER,
        )
    return int(value)


def text(data: QueryDict | Mapping[str, Any], name: str, max_length: int) -> str:
    """The text `data[name]` (a query string's or a form's), stripped, "" when absent; longer
    than `max_length` characters is BadInput `too-long` (a search no name could match, which
    would still cost the database a scan)."""
    value = str(data.get(name, "") or "").strip()
    if len(value) > max_length:
        raise BadInput(f"{name} has at most {max_length} characters", code=TOO_LONG)
    return value


# Form bodies the middleware reads (any other body, JSON for one, is its parser's to check).
FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")


def refused_part(request: HttpRequest) -> str | None:
    """The first part of the request that holds a NUL or a lone surrogate, in words."""
    if has_bad_characters(request.path_info):
        return "the path"
    meta = request.META
    # The headers' values searched as one text, one search a request rather than one a header: a
    # value holds a NUL or a surrogate exactly when the text joined from them does (a str never
    # pairs two surrogates into one character).
    headers = "\n".join(
        value for key, value in meta.items() if key.startswith("HTTP_") and isinstance(value, str)
    )
    if has_bad_characters(headers):
        return "a header"
    # Cookies are unquoted when parsed ("\000" is a NUL), so the header check does not cover them.
    # No Cookie header, no cookies: Django's parse of it is not made for nothing.
    if meta.get("HTTP_COOKIE"):
        for key, value in request.COOKIES.items():
            if has_bad_characters(key) or has_bad_characters(value):
                return "a cookie"
    # An empty query string is an empty QueryDict.
    if meta.get("QUERY_STRING") and _any_bad(request.GET):
        return "the query string"
    if request.content_type in FORM_TYPES and _any_bad(request.POST):
        return "a form field"
    return None


def _any_bad(data: QueryDict) -> bool:
    return any(
        has_bad_characters(key) or any(has_bad_characters(value) for value in values)
        for key, values in data.lists()
    )


class InputBoundaryMiddleware:
    """Refuses a request that holds a NUL character or a lone surrogate anywhere a view, a form
    or the session could read it: BadInput `invalid-characters`, which the site's handler400
    answers (JSON under /api/, the 400 page elsewhere)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        part = refused_part(request)
        if part is not None:
            return refusal(request, bad_characters(part[0].upper() + part[1:]))
        response = self.get_response(request)
        if response.status_code == 404 and settings.DEBUG and request.path.startswith("/api/"):
            return api_not_found(request, response)
        return response

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        """A BadInput a view raised: the site's answer to it, as below."""
        return refusal(request, exception) if isinstance(exception, BadInput) else None


def api_not_found(request: HttpRequest, response: HttpResponse) -> HttpResponse:
    """An unknown path under /api/ with DEBUG on (`make run`): the API's JSON 404, as without
    DEBUG (the site's handler404), where Django answers with its HTML debug page. A bot author
    rehearsing against a local site meets the error its code will parse. An endpoint's own 404
    (JSON already) is left as it is."""
    if not response.get("Content-Type", "").startswith("text/html"):
        return response
    # Any: django-stubs types an error handler as taking the request alone.
    handler: Any = get_resolver(getattr(request, "urlconf", None)).resolve_error_handler(404)
    answer: HttpResponse = handler(request, Http404())
    return answer


def refusal(request: HttpRequest, exception: BadInput) -> HttpResponse:
    """The site's handler400's answer to `exception` (JSON under /api/, the 400 page elsewhere),
    with DEBUG on as off: Django answers an exception under DEBUG with its debug page and logs
    its traceback, which is for the server's faults; a refusal is the client's, and its page is
    the one a person is meant to read. Django logs the 400 itself, one line."""
    # Any: django-stubs types an error handler as taking the request alone.
    handler: Any = get_resolver(getattr(request, "urlconf", None)).resolve_error_handler(400)
    response: HttpResponse = handler(request, exception)
    return response
