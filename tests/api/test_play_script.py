"""docs/examples/play_match.py, the client written from docs/api.md alone, plays a whole match of
every family as a person over HTTP with a personal token: to 100 points (a hand or two of each
family's decisions); with UNO_SLOW_TESTS=1 every family to 500."""

from __future__ import annotations

import datetime
import importlib.util
from pathlib import Path

import pytest

from accounts import services as accounts
from games.models import Game, GameEvent
from tests.games.factories import make_user

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("eager_tasks")]

SCRIPT = Path(__file__).resolve().parents[2] / "docs" / "examples" / "play_match.py"
spec = importlib.util.spec_from_file_location("play_match", SCRIPT)
assert spec is not None and spec.loader is not None
play_match = importlib.util.module_from_spec(spec)
spec.loader.exec_module(play_match)

FAMILIES = {
    "official": {"rules": "official"},
    # basic-plus plays a single hand by default; to 500 points here, like the others.
    "basic-plus": {"rules": "basic-plus", "options": {"scoring": "winner-takes"}},
    "newno": {"rules": "newno"},
    "censorship": {"rules": "censorship"},
    "precognitive": {"rules": "official", "precognitive": {"lane": 2, "sight": "blind"}},
}


# Every family plays to 100 points in the suite, and to 500 in the slow run.
SHORT_TARGET = 100
CASES = [pytest.param(family, SHORT_TARGET, id=family) for family in FAMILIES] + [
    pytest.param(family, 500, id=f"{family}-500", marks=pytest.mark.slow) for family in FAMILIES
]


@pytest.mark.parametrize(("family", "target"), CASES)
def test_a_script_plays_a_whole_match_through_the_api(live_server, family, target, settings):
    # The bots wait a grace for a present person's out-of-turn chance; the script's own polls of
    # its game end each one (nothing else would here: no beat). A short grace keeps it quick.
    settings.GAMES_GRACE_SECONDS = 0.2
    ana = make_user("ana")
    profile = accounts.profile_of(ana)
    profile.birth_date = datetime.date(1990, 5, 17)
    profile.save()
    token = accounts.token_issue(user=ana)

    spec = FAMILIES[family]
    variant = {**spec, "options": {**spec.get("options", {}), "target": target}}
    result = play_match.play(live_server.url, token, variant, seed=11)

    game = Game.objects.get(pk=result["game"]["game"])
    assert game.status == Game.Status.MATCH_OVER
    view = result["game"]["view"]
    assert max(view["scores"]) >= target
    assert sorted(view["places"])[0] == 1
    # The events followed along the way are the whole log, once each, in order.
    assert [e["version"] for e in result["events"]] == list(range(1, game.version + 1))
    # The person really played: commands of theirs are in the log.
    assert GameEvent.objects.filter(game=game, actor=f"user:{ana.pk}").count() > 10
