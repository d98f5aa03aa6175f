"""The API's JSON parser (REST_FRAMEWORK's DEFAULT_PARSER_CLASSES)."""

from __future__ import annotations

import io
import re
from collections.abc import Mapping
from typing import Any

import orjson
from django.conf import settings
from rest_framework import parsers
from rest_framework.exceptions import ParseError

# Levels of arrays and objects a body may nest (the site's one limit, shared with the JSON in
# forms: frontdoor/boundary.py).
from frontdoor.boundary import MAX_DEPTH, check_json, too_deep

__all__ = ["MAX_DEPTH", "JSONParser", "depth"]


class JSONParser(parsers.JSONParser):
    """DRF's JSON parser, refusing a body nested more than MAX_DEPTH levels with 400
    `parse_error`. Python's decoder raises RecursionError (a 500 before this) somewhere past
    about a thousand levels, depending on the stack in use. A string (key or value) holding a
    NUL or a lone surrogate is 400 `invalid-characters` (frontdoor/boundary.py): PostgreSQL cannot
    store the one, no encoder can write the other, not even into an error message."""

    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        body = stream.read()
        data = _fast(body, (parser_context or {}).get("encoding", settings.DEFAULT_CHARSET))
        fast = data is not _SLOW
        if not fast:
            try:
                data = super().parse(io.BytesIO(body), media_type, parser_context)
            except RecursionError:
                raise ParseError(too_deep()) from None
        if depth(data) > MAX_DEPTH:
            raise ParseError(too_deep())
        # A body orjson read holds a NUL or a surrogate in a string only as a `\\u` escape: orjson
        # refuses a raw control character in a string and UTF-8 that encodes a surrogate. Without
        # one, every string is clean, and check_json's walk (its depth is depth()'s) is skipped.
        if not fast or b"\\u" in body:
            check_json(data)
        return data


# What `_fast` leaves to DRF's parser: a body it could not read the same way.
_SLOW: Any = object()
# An integer of 19 digits or more may be past 64 bits, which orjson reads as a float.
_LONG_DIGITS = re.compile(rb"[0-9]{19}")


def _fast(body: bytes, encoding: str) -> Any:
    """`body` read with orjson (a fraction of DRF's json.load through a codecs reader): a UTF-8
    body that orjson reads and that holds no integer orjson would read as a float. Anything else
    (not JSON, too deep, a lone surrogate, NaN, another encoding) is `_SLOW`: DRF's parser reads
    it then, and says what it always said."""
    if encoding.lower().replace("_", "-") not in ("utf-8", "utf8"):
        return _SLOW
    if _LONG_DIGITS.search(body) is not None:
        return _SLOW
    try:
        return orjson.loads(body)
    except orjson.JSONDecodeError:
        return _SLOW


def depth(data: Any) -> int:
    """Levels of lists and dicts in parsed JSON (a scalar: 0), without recursion."""
    deepest = 0
    pending = [(data, 1)]
    while pending:
        item, level = pending.pop()
        if isinstance(item, Mapping):
            children: Any = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        deepest = max(deepest, level)
        if level > MAX_DEPTH:
            break
        pending.extend((child, level + 1) for child in children)
    return deepest
