"""The new-game form (/play/new/): a rule family, its options, the precognitive modifier, the
turn length and up to ten seats, started through games.lobby.game_start like the API's games.

The options offered are the engine's own (each family's `option_checks`), checked by the
engine's own checks; a blank option is the family's default. Nothing here needs JavaScript.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django import forms
from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.forms.boundfield import BoundWidget
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from games import lobby
from games.bots import STRATEGIES
from games.engine.rules import RULESETS
from games.engine.rules.precognitive import LANE_RULES, SIGHTS
from games.engine.scoring import SCORINGS
from games.errors import InvalidGame

from .account_forms import PlainLabels
from .accounts import SignedInRequest
from .variant_text import FAMILY_NAMES, SCORING_NAMES, duration, variant_details

FAMILY_NOTES = {
    "official": "The official sheet: a dealer, wild-draw4 challenges, a catch window for uno.",
    "basic-plus": "No dealer; a turn is one play or one draw; false uno calls and wrong catches "
    "cost the penalty.",
    "newno": "An open start, stacking, 7 swaps and 0 passes hands, jump-ins; the youngest "
    "player settles open choices.",
    "censorship": "The dealer censors every card: the others submit face down, the dealer "
    "approves or substitutes.",
}
SEAT_ROWS = 10
ME, PERSON, EMPTY = "me", "person", ""
BOT_PREFIX = "bot:"
LANES = ["1", "2", "3", "4", "5", *LANE_RULES]
LANE_NAMES = {"1": "1 (single-commit)", "2": "2 (two-commit)"}
SIGHT_NAMES = {
    "sighted": "sighted (you see your lane)",
    "blind": "blind (nobody sees a lane)",
    "telepathic": "telepathic (lanes face up)",
}
OPTION_NAMES = ("hand_size", "scoring", "target", "uno_penalty", "dealer_draws")
TURN_LENGTHS = [300, 3600, 6 * 3600, 12 * 3600, 86400, 2 * 86400, 3 * 86400, 7 * 86400]


def family_choices() -> list[tuple[str, str]]:
    return [(name, FAMILY_NAMES.get(name, name)) for name in RULESETS]


def families_with(option: str) -> list[str]:
    return [name for name, rules in RULESETS.items() if option in rules.option_checks]


def families_named(option: str) -> str:
    """The families that have `option`, in words: "Censorship", "Official and NEWNO"."""
    return " and ".join(FAMILY_NAMES.get(name, name) for name in families_with(option))


def family_defaults(name: str) -> str:
    """A family's default options in words: "single hand · 7 cards · uno penalty 3"."""
    return variant_details({"rules": name, "options": RULESETS[name].defaults})


def seat_choices() -> list[tuple[str, str]]:
    return [
        (EMPTY, "nobody"),
        (ME, "me"),
        (PERSON, "another person (username)"),
        *((BOT_PREFIX + name, f"bot: {name}") for name in STRATEGIES),
    ]


def turn_choices() -> list[tuple[str, str]]:
    default = f"the site's default ({duration(settings.GAMES_TURN_SECONDS)})"
    return [("", default), *((str(s), duration(s)) for s in TURN_LENGTHS)]


# A new game's first seats: me and three bots, the commonest table.
INITIAL_SEATS = [ME, BOT_PREFIX + "greedy", BOT_PREFIX + "greedy", BOT_PREFIX + "greedy"]


@dataclass(frozen=True, slots=True)
class SeatRow:
    """One row of the seats table, for the template."""

    number: int
    kind: forms.BoundField
    username: forms.BoundField


class NewGameForm(PlainLabels, forms.Form):
    rules = forms.ChoiceField(
        choices=family_choices, initial="official", widget=forms.RadioSelect, label="Rules"
    )
    # One field per engine option, named as the option (OPTION_NAMES; a test checks that every
    # family's option_checks is here). Bounds are left to the engine's own checks (`clean`), so
    # the form never disagrees with them.
    hand_size = forms.IntegerField(required=False, label="Cards dealt")
    scoring = forms.ChoiceField(
        required=False,
        choices=[("", "the family's default"), *((s, SCORING_NAMES[s]) for s in SCORINGS)],
    )
    target = forms.IntegerField(required=False, label="Target score")
    uno_penalty = forms.IntegerField(required=False, label="Uno penalty (cards)")
    dealer_draws = forms.TypedChoiceField(
        required=False,
        label="Dealer draws",
        choices=[
            ("", "the default (yes)"),
            ("yes", "yes: a dealer with no matching card draws one"),
            ("no", "no: its turn passes by itself"),
        ],
        coerce=lambda value: value == "yes",
        empty_value=None,
    )
    precognitive = forms.BooleanField(
        required=False,
        label="Play precognitive",
        help_text="Each player commits cards face down in a lane, played at the start of their "
        "next turns.",
    )
    lane = forms.ChoiceField(
        choices=[(lane, LANE_NAMES.get(lane, lane)) for lane in LANES],
        required=False,
        initial="1",
        label="Lane size",
    )
    sight = forms.ChoiceField(
        choices=[(sight, SIGHT_NAMES.get(sight, sight)) for sight in SIGHTS],
        required=False,
        initial="sighted",
        label="Sight",
    )
    turn_seconds = forms.TypedChoiceField(
        choices=turn_choices,
        coerce=int,
        empty_value=None,
        required=False,
        label="Time for a turn",
        help_text="Past it, the default bot plays your turn.",
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for number in range(SEAT_ROWS):
            self.fields[f"seat{number}"] = forms.ChoiceField(
                choices=seat_choices,
                required=False,
                label=f"Seat {number + 1}",
                initial=INITIAL_SEATS[number] if number < len(INITIAL_SEATS) else EMPTY,
            )
            self.fields[f"seat{number}_user"] = forms.CharField(
                required=False, max_length=150, label=f"Seat {number + 1} username"
            )

    @property
    def common_options(self) -> list[forms.BoundField]:
        """The options every family has, in OPTION_NAMES' order."""
        return [self[name] for name in OPTION_NAMES if len(families_with(name)) == len(RULESETS)]

    @property
    def family_options(self) -> list[tuple[forms.BoundField, str]]:
        """The options only some families have, each with the names of those families."""
        return [
            (self[name], families_named(name))
            for name in OPTION_NAMES
            if len(families_with(name)) < len(RULESETS)
        ]

    @property
    def precognitive_bases(self) -> list[str]:
        return [FAMILY_NAMES[n] for n, rules in RULESETS.items() if rules.supports_precognitive]

    @property
    def families(self) -> list[tuple[BoundWidget, str, str]]:
        """The family radio buttons, each with its note and its defaults."""
        rules: forms.BoundField = self["rules"]
        return [
            (radio, FAMILY_NOTES.get(radio.data["value"], ""), family_defaults(radio.data["value"]))
            for radio in rules
        ]

    @property
    def seat_rows(self) -> list[SeatRow]:
        return [SeatRow(n, self[f"seat{n}"], self[f"seat{n}_user"]) for n in range(SEAT_ROWS)]

    @property
    def field_errors(self) -> list[tuple[forms.BoundField, str]]:
        """Every field's errors, for the summary above the form."""
        return [(field, str(error)) for field in self for error in field.errors]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        family = data.get("rules")
        if family is None:
            return data
        ruleset = RULESETS[family]
        for name in OPTION_NAMES:
            value = data.get(name)
            if value is None or value == "":
                continue
            check = ruleset.option_checks.get(name)
            if check is None:
                self.add_error(name, f"Only {families_named(name)} has this option.")
                continue
            try:
                check(name, value)
            except ValueError as error:
                self.add_error(name, str(error))
        if data.get("precognitive") and not ruleset.supports_precognitive:
            bases = " or ".join(self.precognitive_bases)
            self.add_error("precognitive", f"Precognitive plays over {bases} only.")
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


def variant_spec(data: dict[str, Any]) -> dict[str, Any]:
    """The variant spec game_start takes, from a valid NewGameForm's cleaned data: the options
    given (a blank one is the family's default) and the precognitive modifier if chosen."""
    options = {
        name: data[name]
        for name in OPTION_NAMES
        if data.get(name) is not None and data.get(name) != ""
    }
    spec: dict[str, Any] = {"rules": data["rules"], "options": options}
    if data.get("precognitive"):
        modifier: dict[str, Any] = {}
        if lane := data.get("lane"):
            modifier["lane"] = int(lane) if lane.isdigit() else lane
        if sight := data.get("sight"):
            modifier["sight"] = sight
        spec["precognitive"] = modifier
    return spec


def seat_specs(data: dict[str, Any]) -> list[dict[str, str]]:
    """game_start's seats from the rows filled in, in order (empty rows are left out)."""
    seats = []
    for number in range(SEAT_ROWS):
        kind = data.get(f"seat{number}", EMPTY)
        if kind == ME:
            seats.append({"user": lobby.ME})
        elif kind == PERSON:
            seats.append({"user": data[f"seat{number}_user"].strip()})
        elif kind.startswith(BOT_PREFIX):
            seats.append({"bot": kind.removeprefix(BOT_PREFIX)})
    return seats


@login_required
@require_http_methods(["GET", "POST"])
def new_game(request: SignedInRequest) -> HttpResponse:
    """Offer every family and option; start the game and go to its page."""
    form = NewGameForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            game = lobby.game_start(
                creator=request.user,
                variant_spec=variant_spec(form.cleaned_data),
                seats=seat_specs(form.cleaned_data),
                turn_seconds=form.cleaned_data["turn_seconds"],
            )
        except InvalidGame as error:
            form.add_error(None, error.message)
        else:
            return redirect(f"/games/{game.pk}/")
    return render(request, "play/new_game.html", {"form": form})
