"""The staff actions' forms: every one asks for a note for the staff (the audit row's reason, never
shown to a player); a seat's and a deadline's ask for which seat (and how much longer); the two
whose player is told something (a deadline's seat, a suspended bot's owner) ask for an optional
message to them, apart. The services check the same again (staff/actions.py)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django import forms

from staff.actions import MAX_EXTENSION_HOURS, REASON_LENGTH


class ReasonForm(forms.Form):
    # Posted as `reason` (the audit row's field); for the staff alone.
    reason = forms.CharField(
        label="Note for the staff",
        max_length=REASON_LENGTH,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text="Why: kept in the audit log with the action, for the other staff. "
        "Never shown to a player.",
        error_messages={"required": "Give a reason: it is kept with the action."},
    )


def message_field(label: str, help_text: str) -> forms.CharField:
    """The optional words for the player the action touches, shown to them as written."""
    return forms.CharField(
        label=label,
        required=False,
        max_length=REASON_LENGTH,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text=help_text,
    )


class SuspendForm(ReasonForm):
    message = message_field(
        "Message to its owner (optional)",
        "Shown to the bot's owner, as written, as the suspension's reason. "
        "Left empty, they read only that the staff suspended it.",
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
    message = message_field(
        "Message to the player (optional)",
        "Shown to that seat alone, in their game, as written. "
        "Left empty, they read only the new deadline.",
    )

    field_order = ["seat", "hours", "reason", "message"]
