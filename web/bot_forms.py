"""The owner's bot forms: registering each kind of bot, renaming one and changing one. They
check the shape only; bots.registry checks the rest (a name taken, a URL the workers will not
call) and its refusals come back on the form, by the field they are about (`REFUSAL_FIELDS`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import forms

from bots.registry import NAME_LENGTH, SECRET_LENGTH, URL_LENGTH
from bots.strategies import STRATEGIES
from games.models import Bot

# A refusal's code -> the field it is about (None: above the form).
REFUSAL_FIELDS = {
    "name-taken": "name",
    "invalid-url": "url",
    "unknown-strategy": "strategy",
}
STRATEGY_CHOICES = [(name, name) for name in STRATEGIES]


class BotNameForm(forms.Form):
    kind: str = ""  # the kind each subclass registers
    name = forms.CharField(
        label="Name",
        max_length=NAME_LENGTH,
        help_text="Shown on the leaderboards; unique among your bots.",
    )


class WebhookRegisterForm(BotNameForm):
    kind = Bot.Kind.WEBHOOK
    url = forms.URLField(
        label="Webhook URL",
        max_length=URL_LENGTH,
        assume_scheme="https",
        # Django renders a field's help unescaped: a link to the guide, not a file's path.
        help_text='We POST each decision there (<a href="/guides/bots-api/#webhook-bots">'
        "Writing a bot: webhook bots</a>).",
    )
    secret = forms.CharField(
        label="Secret (optional)",
        max_length=SECRET_LENGTH,
        required=False,
        strip=False,
        help_text="The HMAC key the requests are signed with; left blank, we make one and "
        "show it once.",
    )


class PullRegisterForm(BotNameForm):
    kind = Bot.Kind.PULL


class BuiltinRegisterForm(BotNameForm):
    kind = Bot.Kind.BUILTIN
    strategy = forms.ChoiceField(label="Strategy", choices=STRATEGY_CHOICES)


REGISTER_FORMS: dict[str, type[BotNameForm]] = {
    Bot.Kind.WEBHOOK: WebhookRegisterForm,
    Bot.Kind.PULL: PullRegisterForm,
    Bot.Kind.BUILTIN: BuiltinRegisterForm,
}


class WebhookChangeForm(forms.Form):
    url = forms.URLField(
        label="Webhook URL",
        max_length=URL_LENGTH,
        assume_scheme="https",
        help_text="A new URL is validated again: the bot plays its validation games first.",
    )
    secret = forms.CharField(
        label="New secret",
        max_length=SECRET_LENGTH,
        required=False,
        strip=False,
        help_text="Blank keeps the secret it has.",
    )

    def changes(self) -> dict[str, str]:
        data = self.cleaned_data
        return {"url": data["url"], **({"secret": data["secret"]} if data["secret"] else {})}


class BuiltinChangeForm(forms.Form):
    strategy = forms.ChoiceField(
        label="Strategy",
        choices=STRATEGY_CHOICES,
        help_text="A new strategy is validated again.",
    )

    def changes(self) -> dict[str, str]:
        return {"strategy": self.cleaned_data["strategy"]}


def rename_form(bot: Bot, data: Mapping[str, Any] | None = None) -> BotNameForm:
    """The name field of registration, filled in with the bot's name: a new name is checked as a
    new bot's is."""
    return BotNameForm(data, prefix="rename", initial={"name": bot.name})


def change_form(
    bot: Bot, data: Mapping[str, Any] | None = None
) -> WebhookChangeForm | BuiltinChangeForm | None:
    """The form that changes how this bot plays (a pull bot has none: it plays from its own
    machine, and only its token changes)."""
    if bot.kind == Bot.Kind.WEBHOOK:
        return WebhookChangeForm(data, initial={"url": bot.url})
    if bot.kind == Bot.Kind.BUILTIN:
        return BuiltinChangeForm(data, initial={"strategy": bot.strategy})
    return None
