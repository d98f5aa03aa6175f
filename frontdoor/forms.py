"""What the site's forms share."""

from __future__ import annotations

from typing import Any, cast

from django import forms


class PlainLabels:
    """Labels without Django's trailing colon: they sit above their fields."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("label_suffix", "")
        super().__init__(*args, **kwargs)

    @property
    def field_errors(self) -> list[tuple[forms.BoundField, str]]:
        """Every field's errors, for the summary above the form (play/_form_errors.html)."""
        form = cast(forms.BaseForm, self)
        return [(field, str(error)) for field in form for error in field.errors]


# A box for another person's username: a name, not a sentence, so a phone's keyboard does not
# capitalise its first letter or correct its spelling, and the browser offers no saved sign-in.
NAME_BOX = {"autocomplete": "off", "autocapitalize": "none", "spellcheck": "false"}
