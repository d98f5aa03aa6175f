"""The forms of a person's account pages: sign-up, settings, vacation days."""

from __future__ import annotations

import datetime
from typing import Any

from django import forms
from django.conf import settings
from django.contrib.auth.forms import UserCreationForm, UsernameField
from django.contrib.auth.models import User
from django.utils import timezone

from accounts.usernames import NEW_USERNAME_MAX, check_username
from frontdoor.forms import PlainLabels
from games.models import NotificationPreference

# Nobody alive was born before this; a date before it is a typing slip.
EARLIEST_BIRTH = datetime.date(1900, 1, 1)


class DatePicker(forms.DateInput):
    """The browser's date picker; it sends and shows ISO dates."""

    input_type = "date"

    def __init__(self) -> None:
        super().__init__(format="%Y-%m-%d")


def birth_date_field(*, required: bool = True) -> forms.DateField:
    # In a player's words (docs/rules.md, "The Youngest Rule"): what it is for, and that the
    # date itself is never shown (a NEWNO game records only who is younger than whom).
    why = (
        "Used only in NEWNO games, where a choice several players may make goes to the youngest "
        "when nobody takes it. Other players never see it: a game keeps only who is younger."
    )
    return forms.DateField(
        required=required,
        widget=DatePicker(),
        # Asked at sign-up, said so before the browser's own "please fill out this field".
        help_text=f"Required. {why}" if required else why,
    )


def check_birth_date(born: datetime.date) -> datetime.date:
    if born > timezone.localdate():
        raise forms.ValidationError("A birth date cannot be in the future.")
    if born < EARLIEST_BIRTH:
        raise forms.ValidationError(f"A birth date cannot be before {EARLIEST_BIRTH:%Y}.")
    return born


class SignUpForm(PlainLabels, UserCreationForm[User]):
    """Username, email, password twice (the site's password validators) and a birth date.

    Only checks: accounts.services.sign_up creates the person, so the form is never saved.
    """

    email = forms.EmailField(help_text="For password resets and turn notices.")
    birth_date = birth_date_field()

    class Meta:
        model = User
        fields = ("username", "email")
        field_classes = {"username": UsernameField}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # A new name is short enough to sit in a seat's box and a status line on a phone
        # (NEW_USERNAME_MAX); the browser's box stops there too. Older, longer names stay.
        field = self.fields["username"]
        field.widget.attrs["maxlength"] = str(NEW_USERNAME_MAX)
        field.help_text = (
            f"Up to {NEW_USERNAME_MAX} characters: letters, digits and @ . + - _ only."
        )

    def clean_username(self) -> str:
        # Django's: taken, whatever the case; then a name that reads the same as a taken one.
        typed = str(self.cleaned_data.get("username") or "")
        if len(typed) > NEW_USERNAME_MAX:
            raise forms.ValidationError(
                f"A username has at most {NEW_USERNAME_MAX} characters ({len(typed)} given).",
                code="max_length",
            )
        username: str = super().clean_username()
        if username:  # None: Django's check has put its error on the field
            check_username(username)
        return username

    def clean_birth_date(self) -> datetime.date:
        return check_birth_date(self.cleaned_data["birth_date"])


class SettingsForm(PlainLabels, forms.Form):
    """What a person may change on the profile page: their birth date, turn emails and whether
    the open database shows their username."""

    # Not required: people made before sign-up asked for it may have none, and may keep none
    # (a newno game then refuses to seat them).
    birth_date = birth_date_field(required=False)
    turn_emails = forms.ChoiceField(
        choices=NotificationPreference.TurnEmails.choices,
        widget=forms.RadioSelect,
        label="When it is my turn, send",
        help_text="A challenge or an invitation to you is emailed too, once, and what waits "
        "under your bell while you are away, at most every "
        f"{round(settings.SOCIAL_SUMMARY_EVERY_SECONDS / 3600)} hours, unless you choose no email.",
    )
    export_name = forms.BooleanField(
        required=False,
        label="Show my username in the open database",
        help_text="Finished games are published each month for study and bot training. "
        "Untick this and your seats there carry only a label such as “seat 2”, and the "
        "People page lists you only to someone who types your whole username.",
    )

    def clean_birth_date(self) -> datetime.date | None:
        born = self.cleaned_data["birth_date"]
        return None if born is None else check_birth_date(born)


class VacationForm(forms.Form):
    days = forms.IntegerField(min_value=1, initial=1, label="Days")
