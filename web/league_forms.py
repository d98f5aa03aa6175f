"""The forms of the club and season pages: a new club, a new season (the rules through
VariantForm, the season's settings, up to DIVISION_ROWS divisions), an entrant (a member, a
bot) and the season after a closed one.

They check the shape of what is typed; the league services check the rest (a table size the
rules refuse, placement points that grow, a taken address), and their messages are shown above
the form (web/clubs.py, web/season_page.py).
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import Any

from django import forms
from django.conf import settings
from django.utils import timezone
from django.utils.text import slugify

from bots.strategies import STRATEGIES
from engine.rules import RULESETS
from frontdoor.forms import NAME_BOX, PlainLabels
from frontdoor.variant_form import OPTION_NAMES, VariantForm, family_defaults, turn_field
from games.models import Bot
from games.variant_text import duration, variant_details
from league.models import Season
from league.scheduling import default_points
from league.seasons import DivisionSpec
from web.account_forms import DatePicker

DIVISION_ROWS = 4
# The default placement points by table size, as the form says them: "1, 0 at 2 players; …".
DEFAULT_POINTS = (
    "; ".join(
        f"{', '.join(map(str, default_points(seats)))} at {seats} players" for seats in (2, 3, 4, 5)
    )
    + "; and so on"
)
SEASON_ADDRESS = "the season's page is at /seasons/…/ with it"
TABLE_SIZES = range(2, 11)
# /clubs/new/ is the new-club form, so no club may be called that.
RESERVED_SLUGS = {"new"}
# The longest address (a club's, a season's, a tournament's slug field).
ADDRESS_LENGTH = 64


def address_field(where: str) -> forms.SlugField:
    return forms.SlugField(
        max_length=ADDRESS_LENGTH,
        required=False,
        label="Address",
        help_text=f"Letters, digits and hyphens: {where}. Blank: made from the name.",
        # In the field's own words (Django's says "Enter a valid 'slug'").
        error_messages={
            "invalid": "An address takes only letters, digits and hyphens, with no spaces "
            "(e.g. winter-cup)."
        },
    )


def address_from(name: str, limit: int = ADDRESS_LENGTH) -> str:
    """The address made from a name: its letters and digits, words joined by hyphens, cut
    after the last whole word within `limit` (a single word longer than that, at `limit`)."""
    slug = slugify(name)
    if len(slug) <= limit:
        return slug
    head, hyphen, _ = slug[: limit + 1].rpartition("-")
    return head.rstrip("-") if hyphen and head.strip("-") else slug[:limit]


def slug_for(data: dict[str, Any], form: forms.Form) -> str:
    """The address typed, else one made from the name; a name with nothing to make one from
    (no letter or digit: emoji, punctuation) is refused at the name."""
    slug: str = data.get("slug") or address_from(data.get("name") or "")
    if not slug and "name" in data:
        form.add_error(
            "name",
            "This name has no letter or digit to make the page's address from: "
            "add one, or type an address under Address.",
        )
    return slug


class ClubForm(PlainLabels, forms.Form):
    name = forms.CharField(max_length=100)
    slug = address_field("the club's page is at /clubs/…/ with it")
    description = forms.CharField(
        required=False, widget=forms.Textarea(attrs={"rows": 3}), label="About the club"
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        data["slug"] = slug_for(data, self)
        if data["slug"] in RESERVED_SLUGS:
            self.add_error("slug", f"The address {data['slug']!r} is reserved; choose another.")
        return data


@dataclass(frozen=True, slots=True)
class DivisionRow:
    """One row of the divisions table, for the template."""

    tier: int
    name: forms.BoundField
    promote: forms.BoundField
    relegate: forms.BoundField


# What a season's settings may be (league/seasons.py check_settings), said at their fields in
# the engine's words for the rules' options ("Must be a whole number from 1 to 15, not 0.").
MAX_ROUND_DAYS = 365
MAX_ROUNDS = 200
# The most a small count column holds (a PositiveSmallIntegerField: vacation days, promoted and
# relegated counts); past it, said at the field in the site's words, not left to the model.
MAX_SMALL = 32767
WHOLE = "Must be a whole number."
WHOLE_ONLY = {"invalid": WHOLE}


def within(value: int, low: int, high: int | None = None) -> int:
    """`value`, or a ValidationError in the site's words when it is outside low..high."""
    if high is None and value < low:
        raise forms.ValidationError(f"Must be a whole number of at least {low}, not {value}.")
    if high is not None and not low <= value <= high:
        raise forms.ValidationError(f"Must be a whole number from {low} to {high}, not {value}.")
    return value


class SeasonForm(VariantForm):
    """A season's settings, new or a draft's edited: its rules (VariantForm), its settings and
    its divisions (tier 1 first, `rows` of them: DIVISION_ROWS, or a draft's own count when it
    has more). Every field that has a default says it (a blank one takes it; the others start
    at it)."""

    name = forms.CharField(max_length=100, label="Season name")
    slug = address_field(SEASON_ADDRESS)
    seats_per_game = forms.TypedChoiceField(
        choices=[(n, str(n)) for n in TABLE_SIZES],
        coerce=int,
        initial=4,
        label="Players at a table",
        help_text="Default: 4.",
    )
    placement_points = forms.CharField(
        required=False,
        label="Placement points",
        help_text="League points for 1st, 2nd, … place at a table, separated by commas. Blank: "
        f"halving down to 1, then 0 for last: {DEFAULT_POINTS}.",
    )
    start_date = forms.DateField(widget=DatePicker(), required=False, label="First round opens on")
    round_days = forms.IntegerField(
        initial=7,
        required=False,
        error_messages={"invalid": WHOLE},
        label="Days for each round",
        help_text="Default: 7. A round's fixtures have this long to finish.",
    )
    rounds = forms.IntegerField(
        required=False,
        error_messages={"invalid": WHOLE},
        label="Rounds",
        help_text="Blank: enough for every pair of a division to meet (at tables of two, one "
        "fewer than its entrants, or as many when they are odd).",
    )
    turn_seconds = turn_field("Past it, the default bot plays the turn.")
    vacation_days = forms.IntegerField(
        initial=0,
        required=False,
        error_messages={"invalid": WHOLE},
        label="Vacation days",
        help_text="Default: 0. Days each player may pause their clock in each fixture game.",
    )

    def __init__(self, *args: Any, rows: int = DIVISION_ROWS, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.rows = max(rows, DIVISION_ROWS)
        today = timezone.localdate()
        self.fields["start_date"].initial = today
        self.fields["start_date"].help_text = (
            f"Default: today ({today:%a %-d %b %Y}). Started after it, the first round opens "
            "the day the season starts."
        )
        for tier in range(1, self.rows + 1):
            self.fields[f"division{tier}_name"] = forms.CharField(
                required=False,
                max_length=64,
                label=f"Division {tier} name",
                initial="Division 1" if tier == 1 else "",
            )
            self.fields[f"division{tier}_promote"] = forms.IntegerField(
                required=False, label=f"Division {tier}: promoted", error_messages=WHOLE_ONLY
            )
            self.fields[f"division{tier}_relegate"] = forms.IntegerField(
                required=False, label=f"Division {tier}: relegated", error_messages=WHOLE_ONLY
            )

    @property
    def division_rows(self) -> list[DivisionRow]:
        return [
            DivisionRow(
                tier,
                self[f"division{tier}_name"],
                self[f"division{tier}_promote"],
                self[f"division{tier}_relegate"],
            )
            for tier in range(1, self.rows + 1)
        ]

    def clean_start_date(self) -> datetime.date:
        return self.cleaned_data["start_date"] or timezone.localdate()

    def clean_round_days(self) -> int:
        days = self.cleaned_data["round_days"]
        return 7 if days is None else within(days, 1, MAX_ROUND_DAYS)

    def clean_rounds(self) -> int | None:
        rounds = self.cleaned_data["rounds"]
        return None if rounds is None else within(rounds, 1, MAX_ROUNDS)

    def clean_vacation_days(self) -> int:
        days = self.cleaned_data["vacation_days"]
        return 0 if days is None else within(days, 0, MAX_SMALL)

    def clean_placement_points(self) -> list[int] | None:
        text = self.cleaned_data["placement_points"].strip()
        if not text:
            return None
        try:
            return [int(part) for part in text.replace(" ", "").split(",")]
        except ValueError:
            raise forms.ValidationError(
                "Give whole numbers separated by commas, e.g. 4, 2, 1, 0."
            ) from None

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        data["slug"] = slug_for(data, self)
        self._check_points(data)
        divisions = []
        for tier in range(1, self.rows + 1):
            name = data.get(f"division{tier}_name", "").strip()
            promote = self._count(data, f"division{tier}_promote")
            relegate = self._count(data, f"division{tier}_relegate")
            if name:
                divisions.append((tier, DivisionSpec(name, promote, relegate)))
            elif promote or relegate:
                self.add_error(f"division{tier}_name", "Name the division, or leave its row empty.")
        if not divisions:
            self.add_error("division1_name", "A season needs at least one division.")
        else:
            # The top division promotes nobody, the bottom one relegates nobody: said where
            # the count was given, not dropped without a word.
            top, bottom = divisions[0], divisions[-1]
            if top[1].promote:
                self.add_error(
                    f"division{top[0]}_promote",
                    "The top division promotes nobody: leave it blank or 0.",
                )
            if bottom[1].relegate:
                self.add_error(
                    f"division{bottom[0]}_relegate",
                    "The bottom division relegates nobody: leave it blank or 0.",
                )
        data["divisions"] = [spec for _, spec in divisions]
        return data

    def _count(self, data: dict[str, Any], field: str) -> int:
        """A promoted or relegated count: blank is 0; below 0 is said at its field."""
        count = data.get(field) or 0
        if not 0 <= count <= MAX_SMALL:
            self.add_error(field, f"Must be a whole number from 0 to {MAX_SMALL}, not {count}.")
            return 0
        return int(count)

    def _check_points(self, data: dict[str, Any]) -> None:
        """The placement points league/seasons.py check_settings takes, said at their field."""
        points, seats = data.get("placement_points"), data.get("seats_per_game")
        if not points or seats is None:
            return
        if len(points) != seats or min(points) < 0:
            self.add_error(
                "placement_points", f"Give {seats} whole numbers of 0 or more, one per place."
            )
        elif any(later > earlier for earlier, later in zip(points, points[1:], strict=False)):
            self.add_error("placement_points", "A worse place never earns more points.")

    def season_fields(self) -> dict[str, Any]:
        """season_create's keywords (besides club and admin), once valid."""
        data = self.cleaned_data
        return {
            "name": data["name"],
            "slug": data["slug"],
            "variant": self.variant_spec(),
            "start_date": data["start_date"],
            "seats_per_game": data["seats_per_game"],
            "placement_points": data["placement_points"],
            "round_days": data["round_days"],
            "rounds": data["rounds"],
            "turn_seconds": data["turn_seconds"],
            "vacation_days": data["vacation_days"],
            "divisions": data["divisions"],
        }


def defaults_taken(form: SeasonForm) -> list[str]:
    """The defaults a valid season form's blank fields took, in words for the message after it
    is saved ("placement points 4 / 2 / 1 / 0"): nothing is taken without being said."""
    data = form.cleaned_data
    taken = []
    if not form.data.get("slug"):
        taken.append(f"the address /seasons/{data['slug']}/, made from the name")
    blank = [
        name
        for name in OPTION_NAMES
        if name in RULESETS[data["rules"]].option_checks and data.get(name) in (None, "")
    ]
    chosen = form.variant_spec()["options"]
    if blank and not chosen:
        taken.append(
            f"the rules' options as the family's defaults ({family_defaults(data['rules'])})"
        )
    elif blank:
        # Some chosen: say the rules as they stand, not the defaults the chosen ones replaced.
        options = {**RULESETS[data["rules"]].defaults, **chosen}
        rules = variant_details({"rules": data["rules"], "options": options})
        taken.append(f"the family's defaults for the rules' other options (so {rules})")
    if data["placement_points"] is None:
        points = " / ".join(map(str, default_points(data["seats_per_game"])))
        taken.append(f"placement points {points}")
    if not form.data.get("start_date"):
        taken.append(f"the first round on {data['start_date']:%a %-d %b %Y}, today")
    if form.data.get("round_days") in (None, ""):
        taken.append("7 days a round")
    if data["rounds"] is None:
        taken.append("enough rounds for every pair of a division to meet")
    if data["turn_seconds"] is None:
        taken.append(f"the site's time for a turn ({duration(settings.GAMES_TURN_SECONDS)})")
    if form.data.get("vacation_days") in (None, ""):
        taken.append("no vacation days")
    return taken


class NextSeasonForm(PlainLabels, forms.Form):
    """The season after a closed one: the same rules and settings, a name and a start."""

    name = forms.CharField(max_length=100, label="Season name")
    slug = address_field(SEASON_ADDRESS)
    start_date = forms.DateField(widget=DatePicker(), label="First round opens on")

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        data["slug"] = slug_for(data, self)
        return data


def tier_choices(season: Season) -> list[tuple[str, str]]:
    divisions = list(season.divisions.order_by("tier"))
    lowest = [("", f"{divisions[-1].name} (the lowest)")] if divisions else []
    return lowest + [(str(d.tier), d.name) for d in divisions[:-1]]


class EntrantForm(PlainLabels, forms.Form):
    """The division an entrant goes into (blank: the lowest)."""

    tier = forms.TypedChoiceField(
        required=False, coerce=int, empty_value=None, label="Division", choices=[]
    )

    def __init__(self, *args: Any, season: Season, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        tier: Any = self.fields["tier"]
        tier.choices = tier_choices(season)
        self.season = season


class MemberEntryForm(EntrantForm):
    username = forms.CharField(
        max_length=150,
        label="Member's username",
        widget=forms.TextInput(attrs={"list": "members-to-enter", **NAME_BOX}),
    )


class BotEntryForm(EntrantForm):
    """One of the organiser's registered bots by name, or a new built-in bot: a name and one of
    the built-in strategies (a strategy's own name alone will do: "greedy")."""

    bot_name = forms.CharField(
        max_length=64,
        label="Bot's name",
        widget=forms.TextInput(attrs={"list": "bot-names", "autocomplete": "off"}),
    )
    strategy = forms.ChoiceField(
        required=False,
        label="Plays",
        choices=[
            ("", "as registered (one of my bots)"),
            *((name, f"built in: {name}") for name in STRATEGIES),
        ],
    )

    def __init__(self, *args: Any, owner: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.owner = owner

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        name = data.get("bot_name", "").strip()
        if not name:
            return data
        strategy = data.get("strategy") or ""
        # One owner's bots' names differ in more than case (bots/registry.py): "greedy" is
        # their bot "Greedy", not a new one the registry would refuse (name-taken). The exact
        # name first, for two bots registered before that rule.
        same = list(Bot.objects.filter(owner=self.owner, name__iexact=name))
        bot = next((b for b in same if b.name == name), same[0] if same else None)
        data["bot"], data["register"] = bot, ""
        if bot is not None:
            if strategy and (bot.kind != Bot.Kind.BUILTIN or bot.strategy != strategy):
                plays = bot.strategy if bot.kind == Bot.Kind.BUILTIN else f"as a {bot.kind} bot"
                self.add_error(
                    "bot_name",
                    f"Your bot {bot.name} plays {plays}: leave “Plays” as registered to enter it, "
                    "or give a new name.",
                )
        elif strategy or name in STRATEGIES:
            data["register"] = strategy or name
        else:
            self.add_error(
                "bot_name",
                f"You have no bot called {name!r}: choose a built-in strategy to make one.",
            )
        return data


def bot_suggestions(owner: Any) -> list[str]:
    """Names for the bot field's list: the owner's bots (not the retired ones, which enter
    nothing), then the strategies not taken, in any case."""
    mine = list(
        Bot.objects.filter(owner=owner)
        .exclude(status=Bot.Status.RETIRED)
        .order_by("name")
        .values_list("name", flat=True)
    )
    taken = {name.casefold() for name in mine}
    return mine + [name for name in STRATEGIES if name.casefold() not in taken]


def next_start(season: Season) -> datetime.date:
    """A next season's suggested start: the day after the old one closed, or today."""
    closed = season.closed_at
    today = timezone.localdate()
    return max(today, closed.date() + datetime.timedelta(days=1)) if closed else today
