"""What the site's forms share."""

from __future__ import annotations

from typing import Any


class PlainLabels:
    """Labels without Django's trailing colon: they sit above their fields."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("label_suffix", "")
        super().__init__(*args, **kwargs)
