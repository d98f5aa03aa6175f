"""The new-game form (/play/new/): a rule family, its options and the precognitive modifier
(frontdoor/variant_form.py, shared with the season form), the turn length and up to ten seats,
started through tables/invitations.py start_or_invite like the API's games: a game that names
another person does not start, it asks them (an invitation, whose table page the creator is
taken to) and starts when everyone named accepted. A bot's owner may give seats to
their own active registered bots and, taking none themselves, watch a practice match of bots
alone. Nothing here needs JavaScript.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods

from bots.strategies import STRATEGIES, STRATEGY_LINES
from frontdoor.variant_form import VariantForm, turn_field
from games import lobby
from games.errors import GameError
from games.models import Bot
from tables.invitations import start_or_invite
from tables.models import Table
from web.accounts import SignedInRequest
from web.names import seats_counted
from web.once import once

SEAT_ROWS = 10
ME, PERSON, EMPTY = "me", "person", ""
BOT_PREFIX = "bot:"
# A registered bot of the person's own, by id ("mybot:12").
MY_BOT_PREFIX = "mybot:"


def seat_choices(owner: User | None = None) -> list[tuple[str, str]]:
    """Nobody, me, another person, each built-in bot and `owner`'s own active registered bots."""
    mine = (
        Bot.objects.filter(owner=owner, status=Bot.Status.ACTIVE).order_by("name")
        if owner is not None
        else Bot.objects.none()
    )
    return [
        (EMPTY, "nobody"),
        (ME, "me"),
        (PERSON, "another person (username)"),
        *((BOT_PREFIX + name, f"bot: {name}") for name in STRATEGIES),
        *((f"{MY_BOT_PREFIX}{bot.pk}", f"my bot: {bot.name}") for bot in mine),
    ]


@dataclass(frozen=True, slots=True)
class BotLine:
    """A built-in bot as the seats' key says it: "greedy (every family): sheds its highest
    card, keeps black cards for late"."""

    name: str
    made_for: str
    line: str


def bot_lines() -> list[BotLine]:
    """Every built-in bot a seat may take, in the seat menu's order, with its one line."""
    return [BotLine(name, *STRATEGY_LINES[name]) for name in STRATEGIES]


# A new game's first seats: me and three bots, the commonest table.
INITIAL_SEATS = [ME, BOT_PREFIX + "greedy", BOT_PREFIX + "greedy", BOT_PREFIX + "greedy"]


@dataclass(frozen=True, slots=True)
class QuickStart:
    """A game started in one tap from the top of the form: the fields it posts (the form's
    own, so the same checks and the same service start it) and what its button says."""

    label: str
    said: str
    fields: tuple[tuple[str, str], ...]


def _quick(label: str, said: str, bots: int) -> QuickStart:
    seats = [ME, *[BOT_PREFIX + "greedy"] * bots]
    return QuickStart(
        label,
        said,
        (
            ("rules", "official"),
            ("scoring", "single-hand"),
            *((f"seat{number}", kind) for number, kind in enumerate(seats)),
        ),
    )


# A first game should not be a ten-hand match to 500: one hand of the official rules, the
# first to play out their cards wins, against the built-in bots that play a sound game.
QUICK_STARTS = (
    _quick("One hand against three bots", "4 players", 3),
    _quick("One hand against one bot", "2 players", 1),
)


@dataclass(frozen=True, slots=True)
class SeatRow:
    """One row of the seats table, for the template."""

    number: int
    kind: forms.BoundField
    username: forms.BoundField


class NewGameForm(VariantForm):
    """The rules (VariantForm), the clock and the seats."""

    turn_seconds = turn_field("Past it, the default bot plays your turn.")

    def __init__(self, *args: Any, owner: User | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        choices = seat_choices(owner)
        self.has_bots = any(value.startswith(MY_BOT_PREFIX) for value, _ in choices)
        for number in range(SEAT_ROWS):
            self.fields[f"seat{number}"] = forms.ChoiceField(
                choices=choices,
                required=False,
                label=f"Seat {number + 1}",
                initial=INITIAL_SEATS[number] if number < len(INITIAL_SEATS) else EMPTY,
            )
            self.fields[f"seat{number}_user"] = forms.CharField(
                required=False, max_length=150, label=f"Seat {number + 1} username"
            )

    @property
    def seat_rows(self) -> list[SeatRow]:
        return [SeatRow(n, self[f"seat{n}"], self[f"seat{n}_user"]) for n in range(SEAT_ROWS)]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        people = {}
        for number in range(SEAT_ROWS):
            kind = data.get(f"seat{number}", EMPTY)
            username = data.get(f"seat{number}_user", "").strip()
            if kind == PERSON and not username:
                self.add_error(f"seat{number}_user", "Whose seat is it? Give their username.")
            elif username and kind != PERSON:
                self.add_error(
                    f"seat{number}", "Choose “another person” for a seat with a username."
                )
            elif kind == PERSON:
                people[number] = username
        # game_start checks the names too, but numbers seats from 0 among the rows filled in;
        # here the error sits next to the row it is about.
        known = set(
            User.objects.filter(username__in=people.values(), is_active=True).values_list(
                "username", flat=True
            )
        )
        for number, username in people.items():
            if username not in known:
                self.add_error(f"seat{number}_user", f"Nobody is called {username!r}.")
        return data


def seat_specs(data: dict[str, Any]) -> list[dict[str, str | int]]:
    """game_start's seats from the rows filled in, in order (empty rows are left out)."""
    return [spec for _, spec in _filled(data)]


def _filled(data: dict[str, Any]) -> list[tuple[int, dict[str, str | int]]]:
    """The rows filled in, each with its number and game_start's seat."""
    seats: list[tuple[int, dict[str, str | int]]] = []
    for number in range(SEAT_ROWS):
        kind = data.get(f"seat{number}", EMPTY)
        if kind == ME:
            seats.append((number, {"user": lobby.ME}))
        elif kind == PERSON:
            seats.append((number, {"user": data[f"seat{number}_user"].strip()}))
        elif kind.startswith(BOT_PREFIX):
            seats.append((number, {"bot": kind.removeprefix(BOT_PREFIX)}))
        elif kind.startswith(MY_BOT_PREFIX):
            seats.append((number, {"bot_id": int(kind.removeprefix(MY_BOT_PREFIX))}))
    return seats


def asked(table: Table) -> str:
    """What the creator of an invitation is told: "Mira_K is asked; the game starts when they
    accept." """
    names = sorted(table.invited.values_list("username", flat=True))
    who = ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else names[0]
    return (
        f"{who} {'are' if len(names) > 1 else 'is'} asked; the game starts when "
        f"{'everyone accepts' if len(names) > 1 else 'they accept'} "
        "(you are told if anyone declines)."
    )


def _in_rows(message: str, data: dict[str, Any]) -> str:
    """game_start's refusal with each seat it names ("seat 1: bob has given no birth date",
    0-based among the rows filled in) said as the form's row label ("Seat 2", counted from 1)."""
    rows = [number for number, _ in _filled(data)]
    return seats_counted(message, lambda seat: rows[seat] if seat < len(rows) else None)


@login_required
@require_http_methods(["GET", "POST"])
@once
def new_game(request: SignedInRequest) -> HttpResponse:
    """Offer every family and option; start the game and go to its page, or, when it names
    other people, ask them and go to the invitation's page."""
    form = NewGameForm(request.POST or None, owner=request.user)
    if request.method == "POST" and form.is_valid():
        try:
            made = start_or_invite(
                creator=request.user,
                variant_spec=form.variant_spec(),
                seats=seat_specs(form.cleaned_data),
                turn_seconds=form.cleaned_data["turn_seconds"],
            )
        # InvalidGame, and for a practice match Forbidden `not-your-bot` (a bot given away
        # meanwhile) and GameRefused `too-many-practice-matches`; for an invitation NotYours
        # `blocked` and TableRefused `too-many-tables`.
        except GameError as error:
            form.add_error(None, _in_rows(error.message, form.cleaned_data))
        else:
            if isinstance(made, Table):
                messages.success(request, asked(made))
                return redirect(reverse("web:table", args=[made.pk]))
            return redirect(f"/games/{made.pk}/")
    return render(
        request,
        "play/new_game.html",
        {"form": form, "quick_starts": QUICK_STARTS, "bot_lines": bot_lines()},
    )
