"""Admin pages for leagues.

Competitions may be added and edited here: the rules are the new-game form's fields (a family,
the engine's options checked by the engine's option_checks, precognitive;
frontdoor/variant_form.py), the form builds the variant spec from them, and the model's clean()
checks it and the table size as competition_create does and stores it normalised. A change never
reaches a game already created (its settings were copied into the game's context). Entries are
added only through league.services.competition_join (which checks bots' status; its refusals
are the form's errors) and are otherwise looked at and withdrawn. Seasons, their tables and the
ladders' sets and ratings are written by services and projections: read-only here.
"""

from __future__ import annotations

import json
from typing import Any, TypedDict, TypeVar

from django import forms
from django.contrib import admin
from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.db.models import Count, Model, Q, QuerySet
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django_stubs_ext import WithAnnotations

from engine.rules import RULESETS
from frontdoor.variant_form import (
    OPTION_NAMES,
    VariantForm,
    families_named,
    families_with,
    family_defaults,
)
from games.admin import game_link, inspector_url
from games.models import Game
from games.reveal import set_over
from games.variant_text import FAMILY_NAMES
from league.errors import EntryRefused
from league.models import (
    Bye,
    Club,
    ClubRecord,
    Competition,
    Division,
    DivisionEntry,
    Entry,
    Fixture,
    FixtureSeat,
    LadderMeeting,
    LadderSet,
    Meeting,
    Membership,
    PlayerFamilyRecord,
    Rating,
    RatingChange,
    Season,
    SiteVisit,
    Standing,
)
from league.services import competition_join

VARIANT_FIELDS = ("rules", *OPTION_NAMES, "precognitive", "lane", "sight")


def option_help(name: str) -> str:
    """What a blank option means, family by family: "Blank: the family's default (Official 2…)"."""
    defaults = ", ".join(
        f"{FAMILY_NAMES.get(family, family)} {_word(RULESETS[family].defaults[name])}"
        for family in families_with(name)
    )
    only = "" if len(families_with(name)) == len(RULESETS) else f"{families_named(name)} only. "
    return f"{only}Blank: the family's default ({defaults})."


def _word(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def variant_initial(spec: dict[str, Any]) -> dict[str, Any]:
    """A stored (normalised) spec as the form's fields: the options that differ from the
    family's defaults, so a blank one keeps meaning "the default" when the family changes."""
    family = spec.get("rules", "official")
    defaults = RULESETS[family].defaults if family in RULESETS else {}
    initial: dict[str, Any] = {"rules": family}
    for name, value in (spec.get("options") or {}).items():
        if name in OPTION_NAMES and defaults.get(name) != value:
            initial[name] = ("yes" if value else "no") if isinstance(value, bool) else value
    modifier = spec.get("precognitive")
    if modifier is not None:
        initial["precognitive"] = True
        initial["lane"] = str(modifier.get("lane", 1))
        initial["sight"] = modifier.get("sight", "sighted")
    return initial


class CompetitionForm(VariantForm, forms.ModelForm[Competition]):
    """The competition's fields with the rules as VariantForm asks for them (its checks run
    first, each on its field); the spec it builds is the instance's variant, which the model's
    clean() then checks with the engine and normalises."""

    class Meta:
        model = Competition
        # Not `variant`: clean() writes it from the rules fields.
        fields = (
            "name",
            "slug",
            "kind",
            "seats_per_game",
            "turn_seconds",
            "bot_timeout",
            "pull_timeout",
            "grace_seconds",
            "vacation_days",
            "matchmaking",
            "duplicate",
        )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        # The admin's labels end with a colon on every other page (VariantForm drops it).
        kwargs.setdefault("label_suffix", ":")
        super().__init__(*args, **kwargs)
        self.fields["rules"].help_text = "; ".join(
            f"{FAMILY_NAMES.get(name, name)}: {family_defaults(name)}" for name in RULESETS
        )
        for name in OPTION_NAMES:
            self.fields[name].help_text = option_help(name)
        self.fields["lane"].help_text = "Precognitive only."
        self.fields["sight"].help_text = "Precognitive only."
        if self.instance.pk and self.instance.variant:
            self.initial.update(variant_initial(self.instance.variant))

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("rules") and not self._variant_errors():
            self.instance.variant = self.variant_spec()
        return data

    def _variant_errors(self) -> bool:
        return any(self.has_error(name) for name in VARIANT_FIELDS)

    def _update_errors(self, errors: ValidationError) -> None:
        # Competition.clean() names the variant, which is no field here: its errors are the
        # form's own, unless the rules fields already say what is wrong (then it only repeats
        # them: it was given no spec).
        if hasattr(errors, "error_dict") and "variant" in errors.error_dict:
            problems = errors.error_dict.pop("variant")
            if not self._variant_errors():
                errors.error_dict.setdefault(NON_FIELD_ERRORS, []).extend(problems)
        super()._update_errors(errors)  # type: ignore[misc]  # ModelForm's, not in the stubs


class ActiveEntries(TypedDict):
    """What CompetitionAdmin.get_queryset annotates each competition with."""

    active_entries: int


@admin.register(Competition)
class CompetitionAdmin(admin.ModelAdmin[Competition]):
    form = CompetitionForm
    list_display = (
        "name",
        "slug",
        "kind",
        "rules",
        "seats_per_game",
        "matchmaking",
        "active_entries",
        "created_at",
    )
    list_filter = ("kind", "matchmaking")
    search_fields = ("name", "slug")
    prepopulated_fields = {"slug": ("name",)}
    readonly_fields = ("spec", "created_by", "created_at")
    fieldsets = (
        (None, {"fields": ("name", "slug", "kind", "seats_per_game")}),
        (
            "Rules",
            {
                "fields": (*VARIANT_FIELDS, "spec"),
                "description": "Options are checked by the engine; the stored variant is "
                "normalised (every option spelled out).",
            },
        ),
        (
            "What its games get",
            {
                "fields": (
                    "turn_seconds",
                    "bot_timeout",
                    "pull_timeout",
                    "vacation_days",
                    "grace_seconds",
                )
            },
        ),
        ("Ladders", {"fields": ("matchmaking", "duplicate")}),
        ("Made", {"fields": ("created_by", "created_at")}),
    )

    def get_queryset(self, request: HttpRequest) -> QuerySet[Competition]:
        return (
            super()
            .get_queryset(request)
            .annotate(active_entries=Count("entries", filter=Q(entries__active=True)))
        )

    @admin.display(description="rules")
    def rules(self, competition: Competition) -> str:
        return str((competition.variant or {}).get("rules", ""))

    @admin.display(description="stored variant")
    def spec(self, competition: Competition) -> str:
        return json.dumps(competition.variant, sort_keys=True) if competition.variant else "-"

    @admin.display(description="active entries", ordering="active_entries")
    def active_entries(self, competition: WithAnnotations[Competition, ActiveEntries]) -> int:
        return competition.active_entries

    def save_model(self, request: HttpRequest, obj: Competition, form: Any, change: bool) -> None:
        if not change:
            # The admin site lets only signed-in staff this far.
            obj.created_by = request.user  # type: ignore[assignment]
        super().save_model(request, obj, form, change)


# The field a refusal of competition_join is about; the others are the form's own.
REFUSAL_FIELDS = {
    "bot-validating": "bot",
    "bot-suspended": "bot",
    "bot-failed": "bot",
    "birth-date-missing": "user",
}


class EntryAddForm(forms.ModelForm[Entry]):
    """A competition and a person or a bot, entered by competition_join when the form is
    checked (the only place its refusals can still be the form's errors); the admin then saves
    nothing more."""

    class Meta:
        model = Entry
        fields = ("competition", "user", "bot")

    joined = False

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        competition = data.get("competition")
        if competition is None or self.errors:
            return data
        try:
            self.instance = competition_join(
                competition, user=data.get("user"), bot=data.get("bot")
            )
        except EntryRefused as error:
            refusal = ValidationError(f"{error.message} ({error.code})", code=error.code)
            self.add_error(REFUSAL_FIELDS.get(error.code), refusal)
        else:
            self.joined = True
        return data

    def _post_clean(self) -> None:
        # The service has checked the entrant: the model's constraints would only repeat its
        # refusal ("already exists"), or check the row it has just written.
        if self.joined or self.errors:
            return
        super()._post_clean()  # type: ignore[misc]  # ModelForm's, not in the stubs


@admin.action(description="Withdraw the selected entries (their running games play on)")
def withdraw(
    modeladmin: admin.ModelAdmin[Entry], request: HttpRequest, queryset: QuerySet[Entry]
) -> None:
    queryset.update(active=False)


@admin.register(Entry)
class EntryAdmin(admin.ModelAdmin[Entry]):
    list_display = ("competition", "user", "bot", "bot_status", "active", "joined_at")
    list_filter = ("active", "competition__kind", "competition")
    list_select_related = ("competition", "user", "bot")
    search_fields = ("user__username", "bot__name", "competition__name")
    autocomplete_fields = ("competition", "user", "bot")
    actions = [withdraw]

    @admin.display(description="bot status")
    def bot_status(self, entry: Entry) -> str:
        return entry.bot.status if entry.bot else ""

    def get_fields(self, request: HttpRequest, obj: Any = None) -> tuple[str, ...]:
        if obj is None:
            return ("competition", "user", "bot")
        return ("competition", "user", "bot", "bot_status", "joined_at", "active")

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> tuple[str, ...]:
        # An entry changes only by leaving (the action) or joining again (adding it).
        return () if obj is None else self.get_fields(request, obj)

    def get_form(
        self, request: HttpRequest, obj: Any = None, change: bool = False, **kwargs: Any
    ) -> type[forms.ModelForm[Any]]:
        if obj is None:
            kwargs["form"] = EntryAddForm
        return super().get_form(request, obj, change, **kwargs)

    def save_model(self, request: HttpRequest, obj: Entry, form: Any, change: bool) -> None:
        # An added entry was written by competition_join when the form was checked.
        if change:
            super().save_model(request, obj, form, change)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        # What the entrant played hangs from the entry: withdraw it instead.
        return False


# Clubs and seasons are run from the site's pages (league/clubs.py, league/seasons.py check
# who may do what); here staff look at them and fix a club's name or description.
class MembershipInline(admin.TabularInline[Membership, Club]):
    model = Membership
    extra = 0
    fields = ("user", "role", "status", "joined_at")
    readonly_fields = ("user", "joined_at")


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin[Club]):
    list_display = ("name", "slug", "created_at")
    search_fields = ("name", "slug")
    readonly_fields = ("slug", "invite_code", "created_at")
    inlines = [MembershipInline]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False


_M = TypeVar("_M", bound=Model)


class ReadOnlyAdmin(admin.ModelAdmin[_M]):
    """Rows a service or a projection writes: shown, never added, changed or deleted here."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Membership)
class MembershipAdmin(ReadOnlyAdmin[Membership]):
    list_display = ("club", "user", "role", "status", "joined_at")
    list_filter = ("role", "status", "club")
    list_select_related = ("club", "user")
    search_fields = ("club__name", "user__username")


@admin.register(Season)
class SeasonAdmin(ReadOnlyAdmin[Season]):
    list_display = ("competition", "club", "status", "start_date", "rounds", "round_days")
    list_filter = ("status", "club")
    list_select_related = ("competition", "club")
    search_fields = ("competition__name", "competition__slug", "club__name")


@admin.register(Division)
class DivisionAdmin(ReadOnlyAdmin[Division]):
    list_display = ("name", "season", "tier", "promote", "relegate")
    list_filter = ("season",)
    list_select_related = ("season__competition", "season__club")


@admin.register(ClubRecord)
class ClubRecordAdmin(ReadOnlyAdmin[ClubRecord]):
    """A club's all-time table, season by closed season (league/seasons.py `season_close`)."""

    list_display = ("club", "user", "bot", "seasons", "played", "wins", "league_points", "titles")
    list_filter = ("club",)
    list_select_related = ("club", "user", "bot")


@admin.register(SiteVisit)
class SiteVisitAdmin(ReadOnlyAdmin[SiteVisit]):
    list_display = ("seen_at",)


@admin.register(DivisionEntry)
class DivisionEntryAdmin(ReadOnlyAdmin[DivisionEntry]):
    list_display = ("entry", "division")
    list_filter = ("division__season",)
    list_select_related = ("division__season__competition", "entry__user", "entry__bot")


class FixtureSeatInline(admin.TabularInline[FixtureSeat, Fixture]):
    model = FixtureSeat
    fields = ("number", "entry")
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Fixture)
class FixtureAdmin(ReadOnlyAdmin[Fixture]):
    list_display = ("division", "round", "table", "opens_at", "deadline", "game_link")
    list_filter = ("division__season",)
    list_select_related = ("division__season__competition",)
    inlines = [FixtureSeatInline]

    @admin.display(description="game", ordering="game")
    def game_link(self, fixture: Fixture) -> str:
        return game_link(fixture.game_id)


@admin.register(FixtureSeat)
class FixtureSeatAdmin(ReadOnlyAdmin[FixtureSeat]):
    list_display = ("fixture", "number", "entry")
    list_filter = ("fixture__division__season",)
    list_select_related = ("fixture__division__season__competition", "entry__user", "entry__bot")


@admin.register(Bye)
class ByeAdmin(ReadOnlyAdmin[Bye]):
    list_display = ("entry", "division", "round")
    list_filter = ("division__season",)
    list_select_related = ("division__season__competition", "entry__user", "entry__bot")


@admin.register(Standing)
class StandingAdmin(ReadOnlyAdmin[Standing]):
    list_display = ("division", "entry", "played", "wins", "league_points", "forfeits")
    list_filter = ("division__season",)
    list_select_related = ("division__season__competition", "entry__user", "entry__bot")


@admin.register(PlayerFamilyRecord)
class PlayerFamilyRecordAdmin(ReadOnlyAdmin[PlayerFamilyRecord]):
    list_display = ("user", "family", "matches", "wins", "hands", "points")
    list_filter = ("family",)
    list_select_related = ("user",)
    search_fields = ("user__username",)


@admin.register(Meeting)
class MeetingAdmin(ReadOnlyAdmin[Meeting]):
    list_display = ("division", "entry", "other", "ahead")
    list_filter = ("division__season",)
    list_select_related = (
        "division__season__competition",
        "entry__user",
        "entry__bot",
        "other__user",
        "other__bot",
    )


# Ladders: a set is written once when its table is drawn, the rest are the ladder-ratings
# projection's read models (rebuilt from the log).


def game_links(game_ids: list[int]) -> str:
    if not game_ids:
        return "-"
    return format_html_join(
        ", ", '<a href="{}">game {}</a>', ((inspector_url(pk), pk) for pk in game_ids)
    )


@admin.register(LadderSet)
class LadderSetAdmin(ReadOnlyAdmin[LadderSet]):
    list_display = ("pk", "competition", "entries", "size", "made", "created_at")
    list_filter = ("competition",)
    list_select_related = ("competition",)
    fields = ("competition", "entries", "shown_seed", "size", "made", "games", "created_at")
    readonly_fields = fields

    @admin.display(description="seed")
    def shown_seed(self, ladder_set: LadderSet) -> str:
        # Every rotation of the set is dealt from this seed: shown before the set is over, it
        # would give the cards of the rotations still to play (docs/ladders.md).
        if set_over(ladder_set.pk, ladder_set.size):
            return ladder_set.seed
        return "(hidden until every game of the set is over)"

    @admin.display(description="games")
    def games(self, ladder_set: LadderSet) -> str:
        game_ids = Game.objects.filter(context__ladder_set=ladder_set.pk).order_by("pk")
        return game_links(list(game_ids.values_list("pk", flat=True)))


@admin.register(Rating)
class RatingAdmin(ReadOnlyAdmin[Rating]):
    list_display = ("entry", "competition", "mu", "sigma", "events", "games", "wins", "rated_at")
    list_filter = ("competition",)
    list_select_related = ("competition", "entry__user", "entry__bot")
    search_fields = ("entry__user__username", "entry__bot__name")


@admin.register(RatingChange)
class RatingChangeAdmin(ReadOnlyAdmin[RatingChange]):
    list_display = ("entry", "competition", "set_link", "place", "mu_before", "mu", "game_list")
    list_filter = ("competition",)
    list_select_related = ("competition", "entry__user", "entry__bot")
    search_fields = ("entry__user__username", "entry__bot__name")

    @admin.display(description="set", ordering="ladder_set")
    def set_link(self, change: RatingChange) -> str:
        url = reverse("admin:league_ladderset_change", args=[change.ladder_set_id])
        return format_html('<a href="{}">set {}</a>', url, change.ladder_set_id)

    @admin.display(description="games")
    def game_list(self, change: RatingChange) -> str:
        return game_links([int(pk) for pk in change.games])


@admin.register(LadderMeeting)
class LadderMeetingAdmin(ReadOnlyAdmin[LadderMeeting]):
    list_display = ("competition", "entry", "other", "games", "ahead")
    list_filter = ("competition",)
    list_select_related = (
        "competition",
        "entry__user",
        "entry__bot",
        "other__user",
        "other__bot",
    )
