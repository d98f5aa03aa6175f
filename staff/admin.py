"""Admin pages of the staff console's: the audit trail, read-only for everyone, superusers
included (an audit entry is written with the change it records and never edited;
staff/models.py; a game's entry links to the game's inspector), and registered bots, whose
status moves only by the staff actions (staff/actions.py bot_suspend, bot_reinstate: checked,
audited, with the reason typed next to the action)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.helpers import ActionForm
from django.db.models import QuerySet
from django.http import HttpRequest

from games.admin import NoAddOrDeleteAdmin, game_link
from games.errors import GameError
from games.models import Bot, BotCall
from staff.actions import REASON_LENGTH, bot_reinstate, bot_suspend
from staff.models import AuditEntry


@admin.register(AuditEntry)
class AuditEntryAdmin(admin.ModelAdmin[AuditEntry]):
    list_display = ("at", "actor", "action", "target_link", "reason")
    list_filter = ("action",)
    list_select_related = ("actor",)
    search_fields = ("target", "reason", "actor__username")
    fields = ("at", "actor", "action", "target_link", "reason", "details")
    readonly_fields = fields

    @admin.display(description="target", ordering="target")
    def target_link(self, entry: AuditEntry) -> str:
        kind, _, key = entry.target.partition(":")
        if kind == "game" and key.isdigit():
            return game_link(int(key))
        return entry.target

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


# ----------------------------------------------------------------------------- registered bots


class BotCallInline(admin.TabularInline[BotCall, Bot]):
    model = BotCall
    fields = ("at", "outcome", "latency", "reason", "game")
    readonly_fields = fields
    extra = 0
    can_delete = False
    verbose_name_plural = "recent calls (the last 100 are kept)"

    @admin.display(description="game")
    def game(self, call: BotCall) -> str:
        return game_link(call.game_id)

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class BotActionForm(ActionForm):
    # The staff actions keep a reason with every change (staff/models.py AuditEntry): the staff's
    # own note, never shown to the bot's owner (the console's suspend page has a message for them).
    reason = forms.CharField(
        required=False, max_length=REASON_LENGTH, label="Note for the staff (not shown to owners)"
    )


def _each_bot(
    modeladmin: admin.ModelAdmin[Bot],
    request: HttpRequest,
    queryset: QuerySet[Bot],
    action: Callable[..., Any],
    done: str,
) -> None:
    """Run a staff action on each selected bot; its refusals are reported, bot by bot."""
    count = 0
    for bot in queryset:
        try:
            action(bot_id=bot.pk, user=request.user, reason=request.POST.get("reason", ""))
        except GameError as error:
            modeladmin.message_user(request, f"{bot.name}: {error}", messages.ERROR)
        else:
            count += 1
    if count:
        modeladmin.message_user(request, f"{count} bot(s) {done}.", messages.SUCCESS)


@admin.action(description="Suspend the selected active bots (the default bot plays their seats)")
def suspend(
    modeladmin: admin.ModelAdmin[Bot], request: HttpRequest, queryset: QuerySet[Bot]
) -> None:
    _each_bot(modeladmin, request, queryset, bot_suspend, "suspended")


@admin.action(description="Reinstate the selected suspended bots (through a new validation)")
def reinstate(
    modeladmin: admin.ModelAdmin[Bot], request: HttpRequest, queryset: QuerySet[Bot]
) -> None:
    _each_bot(modeladmin, request, queryset, bot_reinstate, "sent to a new validation round")


@admin.register(Bot)
class BotAdmin(NoAddOrDeleteAdmin[Bot]):
    # No adding: a bot is registered by its owner (bot_register), who alone is shown its token;
    # no deleting: its seats and entries hang from it (and the log names it): suspend it.
    list_display = (
        "name",
        "owner",
        "kind",
        "status",
        "strikes",
        "calls",
        "latency",
        "timeouts",
        "errors",
        "illegal_answers",
        "updated_at",
    )
    list_filter = ("status", "kind")
    list_select_related = ("owner",)
    search_fields = ("name", "owner__username", "=id")
    actions = [suspend, reinstate]
    action_form = BotActionForm
    inlines = [BotCallInline]
    # `secret` and `token_hash` are in neither list: no form field, no page shows them.
    fields = (
        "name",
        "owner",
        "kind",
        "strategy",
        "url",
        "secret_set",
        "token_set",
        "status",
        "status_reason",
        "validation_round",
        "validation_started_at",
        "strikes",
        "calls",
        "latency",
        "timeouts",
        "errors",
        "illegal_answers",
        "created_at",
        "updated_at",
    )
    # Everything but the name: a new URL or strategy must open a validation round
    # (bot_registry.bot_update, the owner's), and the status moves by the staff actions.
    readonly_fields = tuple(field for field in fields if field != "name")

    @admin.display(description="mean latency (s)")
    def latency(self, bot: Bot) -> str:
        mean = bot.mean_latency
        return "-" if mean is None else f"{mean:.3f}"

    @admin.display(description="secret", boolean=True)
    def secret_set(self, bot: Bot) -> bool:
        return bool(bot.secret)

    @admin.display(description="token", boolean=True)
    def token_set(self, bot: Bot) -> bool:
        return bool(bot.token_hash)
