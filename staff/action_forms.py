"""The staff actions' forms: every one asks for a reason; a seat's and a deadline's ask for which
seat (and how much longer). The services check the same again (staff/actions.py)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django import forms

from staff.actions import MAX_EXTENSION_HOURS, REASON_LENGTH


class ReasonForm(forms.Form):
    reason = forms.CharField(
        max_length=REASON_LENGTH,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text="Why: kept with the action, for the other staff.",
        error_messages={"required": "Give a reason: it is kept with the action."},
    )


class SeatForm(ReasonForm):
    """An action on one seat of a game, among `seats` ((number, label) pairs)."""

    seat = forms.TypedChoiceField(coerce=int)

    field_order = ["seat", "reason"]

    def __init__(self, *args: Any, seats: Iterable[tuple[int, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        choices = [(str(number), label) for number, label in seats]
        seat = self.fields["seat"]
        assert isinstance(seat, forms.TypedChoiceField)
        seat.choices = choices


class ExtendForm(SeatForm):
    hours = forms.IntegerField(
        min_value=1,
        max_value=MAX_EXTENSION_HOURS,
        initial=24,
        help_text=f"Hours added to the running deadline (1 to {MAX_EXTENSION_HOURS}).",
    )

    field_order = ["seat", "hours", "reason"]
