"""The API's JSON parser (REST_FRAMEWORK's DEFAULT_PARSER_CLASSES)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

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
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise ParseError(too_deep()) from None
        if depth(data) > MAX_DEPTH:
            raise ParseError(too_deep())
        check_json(data)
        return data


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
