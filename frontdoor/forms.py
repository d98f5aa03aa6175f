"""What the site's forms share."""

from __future__ import annotations

from typing import Any


class PlainLabels:
    """Labels without Django's trailing colon: they sit above their fields."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("label_suffix", "")
        super().__init__(*args, **kwargs)


# A box for another person's username: a name, not a sentence, so a phone's keyboard does not
# capitalise its first letter or correct its spelling, and the browser offers no saved sign-in.
NAME_BOX = {"autocomplete": "off", "autocapitalize": "none", "spellcheck": "false"}
