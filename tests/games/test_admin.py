"""games admin: read-only pages that never show a hidden card before the match is over."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.models import GameEvent
from tests.games.factories import make_game, play_to_end

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff(client, django_user_model):
    user = django_user_model.objects.create_superuser("admin", password="pw")
    client.force_login(user)
    return client


@pytest.mark.parametrize(
    "model",
    ["game", "gameevent", "gamesummary", "handresult", "matchresult", "projectioncheckpoint"],
)
def test_every_games_page_lists_its_rows(staff, model):
    make_game()

    response = staff.get(reverse(f"admin:games_{model}_changelist"))

    assert response.status_code == 200


def test_games_and_events_cannot_be_added_or_deleted_from_the_admin(staff):
    game = make_game()
    event = GameEvent.objects.filter(game=game).first()

    assert staff.get(reverse("admin:games_game_add")).status_code == 403
    assert staff.get(reverse("admin:games_game_delete", args=[game.pk])).status_code == 403
    assert staff.get(reverse("admin:games_gameevent_delete", args=[event.pk])).status_code == 403


def test_a_private_event_hides_its_data_until_the_match_is_over(staff):
    game = make_game(seed=8)
    dealt = GameEvent.objects.get(game=game, type="hand-started", version__lte=3)
    url = reverse("admin:games_gameevent_change", args=[dealt.pk])
    deck_start = ", ".join(f"&#x27;{card}&#x27;" for card in dealt.data["deck"][:3])

    before = staff.get(url).content.decode()
    play_to_end(game.pk, seed=8)
    after = staff.get(url).content.decode()

    assert "hidden until the match is over" in before
    assert deck_start not in before
    assert deck_start in after
