"""The API's JSON renderer (REST_FRAMEWORK's DEFAULT_RENDERER_CLASSES): DRF's output, written by
orjson.

DRF's renderer writes with json.dumps and its encoder, a fraction of a command's Python through
the API (docs/performance.md, "API"); orjson writes the same JSON text for what the API sends
(dicts, lists, strings, numbers, booleans, null), compact and in UTF-8 as DRF's settings ask, and
hands every other value (dates and times, decimals, lazy strings, sets, querysets, dataclasses)
to DRF's own encoder, as json.dumps does. What orjson will not write (an integer past 64 bits, a
lone surrogate, a key that is no string or number) and an indented answer (`; indent=` in
Accept) go through DRF's renderer as they are, errors included. U+2028 and U+2029 are escaped
as DRF escapes them. Floats may be spelled differently (1e-05 as 0.00001) for the same number;
a NaN or an infinity is null where DRF's strict JSON raised (the API sends neither).
"""

from __future__ import annotations

from typing import Any

import orjson
from rest_framework import renderers
from rest_framework.utils import encoders

_OPTIONS = (
    orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_DATACLASS | orjson.OPT_NON_STR_KEYS
)
_DEFAULT = encoders.JSONEncoder().default


class JSONRenderer(renderers.JSONRenderer):
    def render(
        self,
        data: Any,
        accepted_media_type: str | None = None,
        renderer_context: Any = None,
    ) -> bytes:
        if data is None or self.ensure_ascii or not self.compact:
            return self._drf(data, accepted_media_type, renderer_context)
        if self.get_indent(accepted_media_type or "", renderer_context or {}) is not None:
            return self._drf(data, accepted_media_type, renderer_context)
        try:
            text = orjson.dumps(data, default=_DEFAULT, option=_OPTIONS)
        except orjson.JSONEncodeError:
            return self._drf(data, accepted_media_type, renderer_context)
        if b"\xe2\x80\xa8" in text or b"\xe2\x80\xa9" in text:
            text = text.replace(b"\xe2\x80\xa8", b"\\u2028").replace(b"\xe2\x80\xa9", b"\\u2029")
        return text

    def _drf(self, data: Any, accepted_media_type: str | None, renderer_context: Any) -> bytes:
        return bytes(super().render(data, accepted_media_type, renderer_context))
