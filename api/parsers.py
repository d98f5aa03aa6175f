"""The API's JSON parser (REST_FRAMEWORK's DEFAULT_PARSER_CLASSES)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rest_framework import parsers
from rest_framework.exceptions import ParseError

# Levels of arrays and objects a body may nest. The deepest body the API takes (a bot's
# command) has three; the limit keeps deep bodies away from the recursive code after the parser
# (validation, the engine, repr in messages, JSON columns).
MAX_DEPTH = 32


class JSONParser(parsers.JSONParser):
    """DRF's JSON parser, refusing a body nested more than MAX_DEPTH levels with 400
    `parse_error`. Python's decoder raises RecursionError (a 500 before this) somewhere past
    about a thousand levels, depending on the stack in use."""

    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise ParseError(too_deep()) from None
        if depth(data) > MAX_DEPTH:
            raise ParseError(too_deep())
        return data


def too_deep() -> str:
    return f"JSON parse error - the body nests more than {MAX_DEPTH} levels of arrays and objects"


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
