"""The season page's "Add a bot" (web/league_forms.py BotEntryForm) reads a bot's name as the
registry does: one owner's bots' names differ in more than case (bots/registry.py)."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from games.models import Bot
from tests.league.factories import make_bot, make_club, make_season
from tests.web.clients import signed_in

pytestmark = pytest.mark.django_db


def test_a_bot_named_in_another_case_is_the_admins_own_bot():
    """The admin's bot "Greedy" is offered once, by its name (no "greedy" to register beside it,
    which the registry refuses `name-taken`), and "greedy" typed enters it."""
    club, admin, _ = make_club()
    season = make_season(club, admin)
    mine = make_bot(owner=admin, name="Greedy", strategy="greedy")
    client = signed_in(admin)

    html = client.get(reverse("web:season", args=[season.slug])).content.decode()
    datalist = re.search(r'<datalist id="bot-names">(.*?)</datalist>', html, re.S)
    offered = re.findall(r'<option value="([^"]+)">', datalist.group(1)) if datalist else []
    assert "Greedy" in offered and "greedy" not in offered

    response = client.post(
        reverse("web:season-enter-bot", args=[season.slug]), {"bot_name": "greedy"}, follow=True
    )

    said = [str(m) for m in response.context["messages"]]
    assert said[-1] == "Bot Greedy is entered."
    assert [e.bot for e in season.competition.entries.all()] == [mine]
    assert list(Bot.objects.filter(owner=admin).values_list("name", flat=True)) == ["Greedy"]
