"""The `iso` template filter, a builtin of every template (config/settings.py's TEMPLATES):
a moment as `<time datetime>` takes it, to the second. Django's `|date:'c'` keeps microseconds,
six digits of fraction, which HTML's date and time strings do not allow (at most three)."""

from __future__ import annotations

import datetime

from django import template
from django.utils import timezone

register = template.Library()


@register.filter
def iso(value: datetime.date | datetime.datetime | None) -> str:
    """`2025-11-28T15:52:07+00:00`: ISO 8601 in the current time zone, whole seconds; a date
    as `2025-11-28`; nothing for None."""
    if value is None or value == "":
        return ""
    if isinstance(value, datetime.datetime):
        if timezone.is_aware(value):
            value = timezone.localtime(value)
        return value.isoformat(timespec="seconds")
    return value.isoformat()
