"""The rules part of a form: a family, its options and the precognitive modifier, as the
new-game form (web/new_game.py) and the season form (web/league_forms.py) both ask for them;
templates/play/_variant_fields.html draws it. Also the turn-length field they share.

The options offered are the engine's own (each family's `option_checks`), checked by the
engine's own checks; a blank option is the family's default.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings
from django.forms.boundfield import BoundWidget

from engine.rules import RULESETS
from engine.rules.precognitive import LANE_RULES, SIGHTS
from engine.scoring import SCORINGS
from frontdoor.forms import PlainLabels
from games.variant_text import FAMILY_NAMES, SCORING_NAMES, duration, variant_details

FAMILY_NOTES = {
    "official": "The official sheet: a dealer, wild-draw4 challenges, a catch window for uno.",
    "basic-plus": "No dealer; a turn is one play or one draw; false uno calls and wrong catches "
    "cost the penalty.",
    "newno": "An open start, stacking, 7 swaps and 0 passes hands, jump-ins; the youngest "
    "player settles open choices.",
    "censorship": "The dealer censors every card: the others submit face down, the dealer "
    "approves or substitutes.",
}
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


def turn_choices() -> list[tuple[str, str]]:
    default = f"the site's default ({duration(settings.GAMES_TURN_SECONDS)})"
    return [("", default), *((str(s), duration(s)) for s in TURN_LENGTHS)]


def turn_field(help_text: str) -> forms.TypedChoiceField:
    """The time a person has for a turn: blank is the site's default (GAMES_TURN_SECONDS)."""
    return forms.TypedChoiceField(
        choices=turn_choices,
        coerce=int,
        empty_value=None,
        required=False,
        label="Time for a turn",
        help_text=help_text,
    )


class VariantForm(PlainLabels, forms.Form):
    """A family, its options and the precognitive modifier; `variant_spec()` once valid."""

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
                # The engine names the option by its key ("option 'hand_size' must be…"); the
                # form shows the message by the field's label, so it says the rest alone.
                message = str(error).removeprefix(f"option {name!r} ")
                self.add_error(name, message[:1].upper() + message[1:] + ".")
        if data.get("precognitive") and not ruleset.supports_precognitive:
            bases = " or ".join(self.precognitive_bases)
            self.add_error("precognitive", f"Precognitive plays over {bases} only.")
        return data

    def variant_spec(self) -> dict[str, Any]:
        return variant_spec(self.cleaned_data)


def variant_spec(data: dict[str, Any]) -> dict[str, Any]:
    """The variant spec the services take, from a valid VariantForm's cleaned data: the options
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
