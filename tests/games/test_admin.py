"""games admin: every model of our apps has a page; games and events are read-only and never
show a hidden card before the match is over; registered bots are listed with their stats, never
with their secret or token hash, and change status only through the actions."""

from __future__ import annotations

import datetime

import pytest
from django.apps import apps
from django.contrib import admin
from django.db import connection
from django.urls import NoReverseMatch, reverse
from django.utils import timezone

from bots.remote import leases, webhook
from bots.remote.strikes import ILLEGAL, record_call
from bots.remote.tokens import issue_token
from games import archive, projections, rebuilds, rematch, snapshots
from games.models import (
    Bot,
    BotCall,
    GameEvent,
    NotificationPreference,
    Presence,
    SiteActivity,
    Snapshot,
    TurnNotice,
)
from games.repository import repository
from tests.games.factories import make_game, make_user, play_to_end

pytestmark = pytest.mark.django_db

OUR_APPS = ("games", "league", "accounts", "staff")


@pytest.fixture
def staff(client, django_user_model):
    user = django_user_model.objects.create_superuser("admin", password="pw")
    client.force_login(user)
    return client


def test_every_model_of_our_apps_has_an_admin_page():
    # staff has no models yet; once it has, they are held to the same rule.
    models = [
        model
        for label in OUR_APPS
        if label in {config.label for config in apps.get_app_configs()}
        for model in apps.get_app_config(label).get_models()
    ]

    assert len(models) > 30
    assert [m.__name__ for m in models if not admin.site.is_registered(m)] == []


def inspector(game_id):
    """Where a game's row links: the staff console's inspector, or the admin's page of the game
    while the console has none."""
    try:
        return reverse("staff:game", kwargs={"game_id": game_id})
    except NoReverseMatch:
        return reverse("admin:games_game_change", args=[game_id])


def make_bot(kind=Bot.Kind.WEBHOOK, status=Bot.Status.ACTIVE, **fields):
    if kind == Bot.Kind.WEBHOOK:
        fields.setdefault("url", "https://bots.example.org/play")
        fields.setdefault("secret", "webhook-secret-b7e1c0d9")
    if kind == Bot.Kind.BUILTIN:
        fields.setdefault("strategy", "greedy")
    name = fields.pop("name", f"{kind}-{status}-{Bot.objects.count()}")
    return Bot.objects.create(owner=make_user(), name=name, kind=kind, status=status, **fields)


@pytest.fixture(scope="class")
def games_rows(class_transaction):
    """A finished game with its read models and a snapshot, a bot with calls, a turn notice, a
    preference: made once for TestTheRowsOfAFinishedGame."""
    game = make_game(seed=8)
    play_to_end(game.pk, seed=8)
    # Kept by loads outside a transaction only: this test runs inside one.
    _, state, version = repository.state(game)
    Snapshot.objects.create(
        game=game,
        fingerprint=snapshots.FINGERPRINT,
        version=version,
        state=snapshots.encode({"type": "match-started"}, state),
        written_at=timezone.now(),
    )
    # A second finished game, archived (games/archive.py): its row for the archive's pages.
    archived = make_game(players=0, bots=["greedy", "greedy"], seed=9)
    play_to_end(archived.pk, seed=9)
    for name in projections.PROJECTIONS:
        projections.run(name)
    assert archive.archive_game(archived.pk) is not None
    # A rebuild run of one projection, folded here: its run and partition rows.
    run = rebuilds.start(["game-results"], partitions=1)
    for partition in rebuilds.pending(run.pk):
        rebuilds.fold_partition(partition)
    bot = make_bot()
    record_call(bot.pk, outcome=webhook.OK, latency=0.25, game_id=game.pk)
    record_call(bot.pk, outcome=webhook.TIMEOUT, latency=1.0, reason="no answer", game_id=game.pk)
    seat = game.seats.first()
    TurnNotice.objects.create(seat=seat, deadline_at=timezone.now() + datetime.timedelta(days=1))
    NotificationPreference.objects.create(user=seat.user, turn_emails="digest")
    Presence.objects.create(user=seat.user, game=game, seen_at=timezone.now(), muted=True)
    SiteActivity.objects.create(user=seat.user, seen_at=timezone.now())
    rematch.offer(game_id=game.pk, person=seat.user)  # an open offer and its offerer's answer
    lease = leases.acquire(game.pk, seconds=30)
    assert lease is not None
    leases.release(lease)  # a lease row, let go
    return game


class TestTheRowsOfAFinishedGame:
    """Pages that list or show the rows of games_rows: one finished game for the class."""

    @pytest.mark.parametrize(
        "model",
        [model._meta.model_name for model in apps.get_app_config("games").get_models()],
    )
    def test_every_games_page_lists_its_rows(self, staff, games_rows, model):
        response = staff.get(reverse(f"admin:games_{model}_changelist"))

        assert response.status_code == 200
        # On PostgreSQL positions come from a sequence (migration 0010): the counter has no row.
        unused = model == "positioncounter" and connection.vendor == "postgresql"
        assert response.context["cl"].result_count >= (0 if unused else 1)

    @pytest.mark.parametrize(
        ("model", "key"),
        [
            ("game", lambda game: game.pk),
            ("gameevent", lambda game: GameEvent.objects.filter(game=game).first().pk),
            ("seat", lambda game: game.seats.first().pk),
            ("matchresult", lambda game: game.pk),
        ],
    )
    def test_rows_of_a_game_link_to_its_inspector(self, staff, games_rows, model, key):
        listing = staff.get(reverse(f"admin:games_{model}_changelist"))
        page = staff.get(reverse(f"admin:games_{model}_change", args=[key(games_rows)]))

        link = f'href="{inspector(games_rows.pk)}"'
        assert link in listing.content.decode()
        if model in ("game", "gameevent"):
            assert link in page.content.decode()

    def test_a_bots_recent_calls_are_shown_read_only_with_their_game(self, staff, games_rows):
        bot = Bot.objects.get()

        page = staff.get(reverse("admin:games_bot_change", args=[bot.pk])).content.decode()
        call = BotCall.objects.filter(bot=bot, outcome="timeout").get()
        calls = staff.get(reverse("admin:games_botcall_change", args=[call.pk]))

        assert "no answer" in page
        assert f'href="{inspector(games_rows.pk)}"' in page
        assert staff.get(reverse("admin:games_botcall_add")).status_code == 403
        assert (
            staff.post(reverse("admin:games_botcall_change", args=[call.pk]), {}).status_code == 403
        )
        assert calls.status_code == 200


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

    assert "hidden until the game&#x27;s log is public" in before
    assert deck_start not in before
    assert deck_start in after


def test_events_refuse_add_change_and_delete_even_for_a_superuser(staff):
    game = make_game()
    event = GameEvent.objects.filter(game=game).first()
    change = reverse("admin:games_gameevent_change", args=[event.pk])

    assert staff.get(reverse("admin:games_gameevent_add")).status_code == 403
    assert staff.post(change, {"actor": "user:1", "type": "x"}).status_code == 403
    assert (
        staff.post(
            reverse("admin:games_gameevent_delete", args=[event.pk]), {"post": "yes"}
        ).status_code
        == 403
    )
    listing = staff.get(reverse("admin:games_gameevent_changelist"))
    staff.post(
        reverse("admin:games_gameevent_changelist"),
        {"action": "delete_selected", "_selected_action": [event.pk], "post": "yes"},
    )

    assert "delete_selected" not in listing.content.decode()
    assert "Save" not in staff.get(change).content.decode()
    after = GameEvent.objects.get(pk=event.pk)
    assert (after.actor, after.type) == (event.actor, event.type)
    admin_of_events = admin.site.get_model_admin(GameEvent)
    request = listing.wsgi_request
    assert request.user.is_superuser
    assert not admin_of_events.has_add_permission(request)
    assert not admin_of_events.has_change_permission(request, event)
    assert not admin_of_events.has_delete_permission(request, event)


def test_bots_are_listed_with_their_stats_and_filtered_by_status(staff):
    bot = make_bot(name="sparrow")
    make_bot(status=Bot.Status.SUSPENDED, name="crow")
    record_call(bot.pk, outcome=webhook.OK, latency=0.2)
    record_call(bot.pk, outcome=webhook.ERROR, latency=0.4, reason="HTTP 500")

    listing = staff.get(reverse("admin:games_bot_changelist"), {"status__exact": "active"})
    searched = staff.get(reverse("admin:games_bot_changelist"), {"q": "crow"})

    [shown] = listing.context["cl"].result_list
    assert shown == bot
    row = listing.content.decode()
    assert "0.300" in row  # the mean latency
    assert bot.owner.username in row
    assert [b.name for b in searched.context["cl"].result_list] == ["crow"]


def test_a_bots_secret_and_token_hash_never_appear_in_its_pages(staff):
    secret = "webhook-secret-b7e1c0d9"
    hook = make_bot(secret=secret)
    pull = make_bot(kind=Bot.Kind.PULL)
    token = issue_token(pull)
    pull.refresh_from_db()
    record_call(hook.pk, outcome=ILLEGAL, latency=0.1, reason="not your turn")

    pages = [
        staff.get(reverse("admin:games_bot_changelist")),
        staff.get(reverse("admin:games_bot_change", args=[hook.pk])),
        staff.get(reverse("admin:games_bot_change", args=[pull.pk])),
        staff.get(reverse("admin:games_botcall_changelist")),
    ]
    by_secret = staff.get(reverse("admin:games_bot_changelist"), {"q": secret})
    by_hash = staff.get(reverse("admin:games_bot_changelist"), {"q": pull.token_hash})

    for page in pages:
        html = page.content.decode()
        assert page.status_code == 200
        assert secret not in html
        assert pull.token_hash not in html
        assert token not in html
    assert by_secret.context["cl"].result_count == 0
    assert by_hash.context["cl"].result_count == 0


def test_editing_a_bot_changes_its_name_and_nothing_else(staff):
    bot = make_bot(status=Bot.Status.SUSPENDED)
    url = reverse("admin:games_bot_change", args=[bot.pk])

    response = staff.post(
        url,
        {
            "name": "renamed",
            "status": "active",
            "url": "https://elsewhere.example.org/",
            "secret": "chosen-by-staff",
            "strikes": "0",
            "recent_calls-TOTAL_FORMS": "0",
            "recent_calls-INITIAL_FORMS": "0",
        },
    )

    assert response.status_code == 302
    bot.refresh_from_db()
    assert bot.name == "renamed"
    assert (bot.status, bot.url, bot.secret) == (
        Bot.Status.SUSPENDED,
        "https://bots.example.org/play",
        "webhook-secret-b7e1c0d9",
    )
    assert staff.get(reverse("admin:games_bot_add")).status_code == 403
    assert staff.get(reverse("admin:games_bot_delete", args=[bot.pk])).status_code == 403


def test_the_staff_actions_suspend_and_reinstate_bots_with_a_reason(staff):
    active = make_bot(kind=Bot.Kind.BUILTIN)
    validating = make_bot(kind=Bot.Kind.BUILTIN, status=Bot.Status.VALIDATING)
    suspended = make_bot(kind=Bot.Kind.BUILTIN, status=Bot.Status.SUSPENDED)
    by_staff = make_bot(kind=Bot.Kind.BUILTIN, status=Bot.Status.SUSPENDED, suspended_by_staff=True)
    listing = reverse("admin:games_bot_changelist")

    unexplained = staff.post(listing, {"action": "suspend", "_selected_action": [active.pk]})
    active.refresh_from_db()
    assert active.status == Bot.Status.ACTIVE
    response = staff.post(
        listing,
        {
            "action": "suspend",
            "_selected_action": [active.pk, validating.pk, by_staff.pk],
            "reason": "answers with garbage",
        },
        follow=True,
    )
    refused = [str(message) for message in response.context["messages"]]
    staff.post(
        listing,
        {
            "action": "reinstate",
            "_selected_action": [suspended.pk],
            "reason": "fixed, says the owner",
        },
    )

    for bot in (active, validating, suspended):
        bot.refresh_from_db()
    assert unexplained.status_code == 302
    assert active.status == Bot.Status.SUSPENDED
    # The staff's note is theirs (the audit trail, below); the owner reads only that it was
    # the staff (staff/actions.py bot_suspend, with no message to the owner here).
    assert active.status_reason == "suspended by the staff"
    # A validating bot is suspended too (its round is void); one the staff suspended already is
    # refused, by name.
    assert (validating.status, validating.suspended_by_staff) == (Bot.Status.SUSPENDED, True)
    assert any(m.startswith(f"{by_staff.name}: bot-suspended-by-staff") for m in refused), refused
    assert (suspended.status, suspended.validation_round) == (Bot.Status.VALIDATING, 1)
    # Each change is in the console's audit trail, which the admin lists and never changes.
    audit = staff.get(reverse("admin:staff_auditentry_changelist")).content.decode()
    assert "answers with garbage" in audit
    assert "fixed, says the owner" in audit
    assert staff.get(reverse("admin:staff_auditentry_add")).status_code == 403


def test_a_snapshots_page_shows_no_card_and_it_may_be_deleted(staff):
    game = make_game(seed=8)
    _, state, version = repository.state(game)
    snapshot = Snapshot.objects.create(
        game=game,
        fingerprint=snapshots.FINGERPRINT,
        version=version,
        state=snapshots.encode({"type": "match-started"}, state),
        written_at=timezone.now(),
    )

    page = staff.get(reverse("admin:games_snapshot_change", args=[snapshot.pk]))

    assert page.status_code == 200
    assert not any(card in page.content.decode() for hand in state.hands for card in hand)
    delete = reverse("admin:games_snapshot_delete", args=[snapshot.pk])
    assert staff.post(delete, {"post": "yes"}).status_code == 302
    assert not Snapshot.objects.filter(pk=snapshot.pk).exists()
