"""The staff actions: nobody but staff reaches them (a 404, GET and POST); each is a confirmation
page and a POST with a required reason, and writes its event (the staff member as actor) or
audit row; its effect shows in the read models after every projection is rebuilt; and a bad
request (no reason, a finished game, an unknown game, an action that does not apply) changes
nothing. Against real PostgreSQL (and Redis where a task goes through the broker)."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from bots import registry, turns
from bots.remote import validation
from clocks import deadlines
from engine import MATCH_OVER, Variant
from engine.events import DEADLINE_EXTENDED, GAME_ABORTED, SEAT_FORFEITED
from games import event_reads, projections, seat_facts
from games import rebuilds as rebuild_runs
from games.commands import append_decided, game_command
from games.creation import SeatSpec, game_create
from games.errors import Forbidden, IllegalMove
from games.models import (
    Bot,
    Game,
    GameEvent,
    GameSummary,
    MatchResult,
    RebuildPartition,
    RebuildRun,
    Seat,
)
from games.repository import repository
from games.visibility import game_events, game_view
from league import tasks as league_tasks
from league.ladders import ladder_continue, ladder_matchmaking
from league.models import Fixture, LadderSet, Rating, RatingChange, Standing
from league.seasons import season_enter, season_start
from staff import actions, rebuilds
from staff.models import AuditEntry
from tests.games.factories import SHORT, make_game, make_user
from tests.league.factories import enter_bots, make_bot, make_club, make_competition, make_season

pytestmark = pytest.mark.django_db

REASON = "reported stuck by its players"


@pytest.fixture
def staff_user():
    return get_user_model().objects.create_user("operator", is_staff=True)


@pytest.fixture
def staff(staff_user) -> Client:
    client = Client()
    client.force_login(staff_user)
    return client


def play_out(game_id: int) -> None:
    """The workers' bot runs, in-process, until the match is over (every seat a bot's)."""
    for _ in range(300):
        if Game.objects.get(pk=game_id).status == MATCH_OVER:
            return
        turns.advance_game(game_id=game_id)
    raise AssertionError(f"game {game_id} did not end")


def rebuild_all() -> None:
    for name in projections.PROJECTIONS:
        projections.rebuild(name)


def last_row(game: Game) -> GameEvent:
    return GameEvent.objects.filter(game=game).order_by("-version").first()


def people_game(seed: int = 1) -> Game:
    return make_game(players=2, seed=seed)


def snapshot() -> tuple:
    """Everything an action could change."""
    return (
        AuditEntry.objects.count(),
        GameEvent.objects.count(),
        sorted(Game.objects.values_list("pk", "status", "version")),
        sorted(Seat.objects.values_list("pk", "controller", "deadline_at")),
        sorted(Bot.objects.values_list("pk", "status", "validation_round")),
        sorted(LadderSet.objects.values_list("pk", "made")),
    )


# Who may reach the actions ---------------------------------------------------------------------


def action_paths() -> list[str]:
    game = people_game()
    deadlines.sync_deadlines(game.pk)
    bot = make_bot()
    ladder = make_competition(matchmaking=True)
    return [
        f"/staff/games/{game.pk}/redrive/",
        f"/staff/games/{game.pk}/abort/",
        f"/staff/games/{game.pk}/forfeit/",
        f"/staff/games/{game.pk}/extend-deadline/",
        f"/staff/bots/{bot.pk}/suspend/",
        f"/staff/bots/{bot.pk}/reinstate/",
        f"/staff/ladders/{ladder.slug}/pause/",
        f"/staff/ladders/{ladder.slug}/resume/",
        "/staff/projections/",
        "/staff/projections/game-results/rebuild/",
    ]


@pytest.mark.parametrize("who", ["anonymous", "player", "inactive staff"])
def test_nobody_but_staff_reaches_an_action_get_or_post(who):
    paths = action_paths()
    client = Client()
    if who != "anonymous":
        user = make_user()
        if who == "inactive staff":
            user.is_staff, user.is_active = True, False
            user.save()
        client.force_login(user)
    before = snapshot()
    for path in paths:
        assert client.get(path).status_code == 404, path
        assert client.post(path, {"reason": REASON, "seat": 0, "hours": 1}).status_code == 404
    assert snapshot() == before
    assert AuditEntry.objects.count() == 0


def test_a_staff_member_gets_each_confirmation_page_and_a_get_changes_nothing(staff):
    paths = action_paths()
    before = snapshot()
    for path in paths:
        response = staff.get(path)
        assert response.status_code == 200, path
        if path.endswith(("/reinstate/", "/resume/")):
            # The bot is active, the ladder running: the page says so and offers no form.
            assert b"data-unavailable" in response.content, path
        elif not path.endswith("/projections/"):
            assert b'name="reason"' in response.content, path
            assert b"csrfmiddlewaretoken" in response.content, path
    assert snapshot() == before


def test_a_post_without_the_csrf_token_is_refused(staff_user):
    game = people_game()
    client = Client(enforce_csrf_checks=True)
    client.force_login(staff_user)
    before = snapshot()
    response = client.post(f"/staff/games/{game.pk}/abort/", {"reason": REASON})
    assert response.status_code == 403
    assert snapshot() == before


def test_the_services_refuse_anyone_but_staff():
    game = people_game()
    with pytest.raises(Forbidden) as refused:
        actions.game_abort(game_id=game.pk, user=make_user(), reason=REASON)
    assert refused.value.code == "not-staff"
    assert Game.objects.get(pk=game.pk).status != MATCH_OVER


def test_the_inspector_offers_the_actions_while_the_game_plays(staff):
    game = people_game()
    page = staff.get(f"/staff/games/{game.pk}/").content.decode()
    for name in ("redrive", "abort", "forfeit", "extend-deadline"):
        assert f"/staff/games/{game.pk}/{name}/" in page


# Bad requests change nothing -------------------------------------------------------------------


@pytest.mark.parametrize("reason", ["", "   "])
def test_no_reason_is_a_form_error_and_changes_nothing(staff, reason):
    paths = [path for path in action_paths() if not path.endswith("/projections/")]
    before = snapshot()
    for path in paths:
        response = staff.post(path, {"reason": reason, "seat": 0, "hours": 1})
        assert response.status_code == 400, path
        if not path.endswith(("/reinstate/", "/resume/")):  # no form there: nothing to do
            assert b"Give a reason" in response.content, path
    assert snapshot() == before


def test_a_finished_game_is_refused_with_a_message_and_changes_nothing(staff):
    game = game_create(variant_spec=SHORT, seats=[SeatSpec(bot="greedy")] * 2, seed=3)
    play_out(game.pk)
    before = snapshot()
    for action in ("redrive", "abort", "forfeit", "extend-deadline"):
        path = f"/staff/games/{game.pk}/{action}/"
        assert b"is over" in staff.get(path).content
        response = staff.post(path, {"reason": REASON, "seat": 0, "hours": 1})
        if action in ("forfeit", "extend-deadline"):
            # No seat is offered any more: the form refuses the seat before the service would.
            assert response.status_code == 400, action
        else:
            assert response.status_code == 400, action
            assert b"(match-over)" in response.content, action
    assert snapshot() == before


def test_an_unknown_game_bot_ladder_or_projection_is_a_404_and_changes_nothing(staff):
    people_game()
    before = snapshot()
    for path in (
        "/staff/games/999999/abort/",
        "/staff/games/999999/redrive/",
        "/staff/games/999999/forfeit/",
        "/staff/games/999999/extend-deadline/",
        "/staff/bots/999999/suspend/",
        "/staff/ladders/no-such-ladder/pause/",
        "/staff/projections/no-such-projection/rebuild/",
    ):
        assert staff.get(path).status_code == 404, path
        assert staff.post(path, {"reason": REASON, "seat": 0, "hours": 1}).status_code == 404
    assert staff.get("/staff/projections/rebuilds/999999/").status_code == 404
    assert snapshot() == before


# Re-drive --------------------------------------------------------------------------------------


def test_a_redrive_sends_the_game_to_the_workers(
    staff, staff_user, eager_tasks, django_capture_on_commit_callbacks
):
    # Made inside the test's transaction, the bots' game was never dispatched: it waits.
    game = game_create(variant_spec=SHORT, seats=[SeatSpec(bot="greedy")] * 2, seed=5)
    assert game.version == len(event_reads.load(game.pk))
    with django_capture_on_commit_callbacks(execute=True):
        response = staff.post(f"/staff/games/{game.pk}/redrive/", {"reason": REASON})
    assert response.status_code == 302
    assert response["Location"] == f"/staff/games/{game.pk}/"
    entry = AuditEntry.objects.get()
    assert (entry.action, entry.target, entry.actor, entry.reason) == (
        "re-drive",
        f"game:{game.pk}",
        staff_user,
        REASON,
    )
    # The workers moved it (eager tasks): the bots played.
    assert Game.objects.get(pk=game.pk).version > game.version


# Abort -----------------------------------------------------------------------------------------


def test_an_abort_is_an_event_and_the_game_ends_without_a_result(staff, staff_user):
    game = people_game()
    seat = game.seats.get(number=game.to_act[0])
    deadlines.sync_deadlines(game.pk)
    assert Seat.objects.get(pk=seat.pk).deadline_at is not None
    response = staff.post(f"/staff/games/{game.pk}/abort/", {"reason": REASON})
    assert response.status_code == 302 and response["Location"] == f"/staff/games/{game.pk}/"

    row = last_row(game)
    assert row.type == GAME_ABORTED
    assert row.actor == f"staff:{staff_user.pk}"
    assert event_reads.load(game.pk)[-1] == {"type": GAME_ABORTED}
    game.refresh_from_db()
    assert (game.status, game.to_act) == (MATCH_OVER, [])
    assert not Seat.objects.filter(game=game).exclude(deadline_at=None).exists()
    entry = AuditEntry.objects.get()
    assert (entry.action, entry.actor, entry.reason, entry.details["version"]) == (
        "abort",
        staff_user,
        REASON,
        game.version,
    )

    # The engine folds it as over, without places; nothing plays it further.
    state = Variant.from_spec(SHORT).replay(event_reads.load(game.pk))
    assert (state.status, state.aborted, state.winner, state.places) == (
        MATCH_OVER,
        True,
        None,
        None,
    )
    assert game_view(game_id=game.pk, viewer=seat.user)["legal"] == []
    with pytest.raises(IllegalMove) as refused:
        game_command(
            game_id=game.pk, actor=seat.user, command={"type": "draw", "seat": seat.number},
            expected_version=game.version,
        )  # fmt: skip
    assert refused.value.code == "game-over"
    assert turns.advance_game(game_id=game.pk).commands == 0
    assert game.pk not in turns.stalled_games(idle=timedelta(0))
    assert deadlines.start_missed_turns() == []

    # The players see it over, with no result.
    player = Client()
    player.force_login(seat.user)
    assert "aborted by the staff" in player.get(f"/games/{game.pk}/").content.decode()

    rebuild_all()
    assert GameSummary.objects.get(game=game).status == MATCH_OVER
    assert GameSummary.objects.get(game=game).to_act == []
    assert not MatchResult.objects.filter(game=game).exists()

    # Done once: a second abort is refused as for any finished game.
    again = staff.post(f"/staff/games/{game.pk}/abort/", {"reason": REASON})
    assert again.status_code == 400 and b"(match-over)" in again.content
    assert AuditEntry.objects.count() == 1


def bot_season(bots: int):
    club, admin, _ = make_club()
    season = make_season(club, admin, seats_per_game=2)
    for _ in range(bots):
        season_enter(season=season, actor=admin, bot=make_bot(owner=admin))
    season_start(season=season, admin=admin)
    return season


def test_an_aborted_fixture_gives_no_standing_and_a_forfeited_seat_is_placed_last(staff):
    season = bot_season(bots=4)
    aborted, forfeited = Fixture.objects.filter(division__season=season, round=1)
    assert (
        staff.post(f"/staff/games/{aborted.game_id}/abort/", {"reason": REASON}).status_code == 302
    )
    response = staff.post(
        f"/staff/games/{forfeited.game_id}/forfeit/", {"seat": 0, "reason": REASON}
    )
    assert response.status_code == 302
    play_out(forfeited.game_id)
    rebuild_all()

    # The aborted fixture counts for nobody; the forfeit is last and scores nothing.
    aborted_entries = set(aborted.seats.values_list("entry_id", flat=True))
    assert not Standing.objects.filter(entry_id__in=aborted_entries).exists()
    assert not MatchResult.objects.filter(game_id=aborted.game_id).exists()
    result = MatchResult.objects.get(game_id=forfeited.game_id)
    assert (result.forfeited, result.places[0], result.winner) == ([0], 2, 1)
    loser = Standing.objects.get(entry_id=forfeited.seats.get(number=0).entry_id)
    assert (loser.played, loser.forfeits, loser.league_points) == (1, 1, 0)


# Ladders: an aborted game's set is closed, never rated, and matchmaking goes on ----------------


@pytest.fixture
def ladder(broker_tasks):
    # Broker tasks: the games matchmaking makes wait until a test plays them (play_out).
    ladder = make_competition(seats_per_game=3, matchmaking=True)
    enter_bots(ladder, 3)
    return ladder


def test_aborting_a_ladder_game_closes_its_set_unrated_and_its_entrants_are_seated_again(
    staff, ladder
):
    [first] = ladder_matchmaking(ladder, rng=random.Random(1))
    ladder_set = LadderSet.objects.get(competition=ladder)
    play_out(first.pk)
    [second] = ladder_continue(ladder)
    assert second.context["rotation"] == 1
    response = staff.post(f"/staff/games/{second.pk}/abort/", {"reason": REASON})
    assert response.status_code == 302
    entry = AuditEntry.objects.get()
    assert (entry.details["ladder_set"], entry.details["set_closed"]) == (ladder_set.pk, True)
    ladder_set.refresh_from_db()
    assert ladder_set.made == ladder_set.size == 3

    # No third rotation; the entrants are idle and seated at a new table.
    assert ladder_continue(ladder) == []
    [third] = ladder_matchmaking(ladder, rng=random.Random(2))
    assert third.context["ladder_set"] != ladder_set.pk
    assert third.context["rotation"] == 0

    rebuild_all()
    # The finished rotation counts as a game played; the set is never rated.
    assert not RatingChange.objects.filter(ladder_set=ladder_set).exists()
    ratings = Rating.objects.filter(competition=ladder)
    assert sorted(ratings.values_list("games", "events")) == [(1, 0)] * 3
    assert not MatchResult.objects.filter(game=second).exists()


def test_a_paused_ladder_seats_no_one_and_a_resumed_one_does(staff, staff_user, ladder):
    response = staff.post(f"/staff/ladders/{ladder.slug}/pause/", {"reason": REASON})
    assert response.status_code == 302
    assert response["Location"] == f"/staff/ladders/{ladder.slug}/pause/"
    ladder.refresh_from_db()
    assert ladder.matchmaking is False
    entry = AuditEntry.objects.get()
    assert (entry.action, entry.target, entry.actor, entry.reason) == (
        "pause-matchmaking",
        f"competition:{ladder.pk}",
        staff_user,
        REASON,
    )
    page = staff.get(response["Location"]).content.decode()
    assert "paused already" in page and REASON in page

    league_tasks.ladder_matchmaking()
    assert not Game.objects.filter(context__competition=ladder.pk).exists()
    # Pausing again is refused, and changes nothing.
    again = staff.post(f"/staff/ladders/{ladder.slug}/pause/", {"reason": REASON})
    assert again.status_code == 400 and b"already-paused" in again.content
    assert AuditEntry.objects.count() == 1

    assert (
        staff.post(f"/staff/ladders/{ladder.slug}/resume/", {"reason": "fixed"}).status_code == 302
    )
    ladder.refresh_from_db()
    assert ladder.matchmaking is True
    league_tasks.ladder_matchmaking()
    assert Game.objects.filter(context__competition=ladder.pk).count() == 1
    rebuild_all()
    assert not Rating.objects.filter(competition=ladder).exists()


# Forfeit ---------------------------------------------------------------------------------------


def test_a_forfeit_is_the_resignation_event_with_the_staff_actor_and_is_placed_last(
    staff, staff_user
):
    game = game_create(
        variant_spec=SHORT, seats=[SeatSpec(bot="greedy"), SeatSpec(user=make_user())], seed=2
    )
    response = staff.post(f"/staff/games/{game.pk}/forfeit/", {"seat": 1, "reason": REASON})
    assert response.status_code == 302 and response["Location"] == f"/staff/games/{game.pk}/"
    rows = GameEvent.objects.filter(game=game).order_by("-version")[:2]
    assert [row.actor for row in rows] == [f"staff:{staff_user.pk}"] * 2
    # One seat is left playing: the forfeit ends the match, seat 0 wins.
    assert event_reads.load(game.pk)[-2:] == [
        {"type": SEAT_FORFEITED, "seat": 1, "reason": "awarded"},
        {"type": "match-ended", "winner": 0, "places": [1, 2], "scores": [0, 0]},
    ]
    assert Game.objects.get(pk=game.pk).status == MATCH_OVER
    assert game.seats.get(number=1).controller == Seat.Controller.FALLBACK
    entry = AuditEntry.objects.get()
    assert (entry.action, entry.details["seat"], entry.reason) == ("forfeit", 1, REASON)

    # Twice: refused, nothing written.
    before = snapshot()
    again = staff.post(f"/staff/games/{game.pk}/forfeit/", {"seat": 1, "reason": REASON})
    assert again.status_code == 400
    assert snapshot() == before

    rebuild_all()
    result = MatchResult.objects.get(game=game)
    assert (result.forfeited, result.places, result.winner) == ([1], [1, 2], 0)


# Extend a deadline -----------------------------------------------------------------------------


def test_an_extension_past_a_tournament_rounds_deadline_is_refused_and_changes_nothing(staff):
    game = people_game()
    deadlines.sync_deadlines(game.pk)
    seat = game.seats.get(number=game.to_act[0])
    due = seat.deadline_at
    # The game plays a tournament round that ends an hour after the turn's deadline.
    closes = due + timedelta(hours=1)
    Game.objects.filter(pk=game.pk).update(
        context={**game.context, "closes_at": closes.isoformat()}
    )
    version = Game.objects.get(pk=game.pk).version

    response = staff.post(
        f"/staff/games/{game.pk}/extend-deadline/",
        {"seat": seat.number, "hours": 2, "reason": REASON},
    )

    assert response.status_code == 400
    assert "past-round-deadline" in response.content.decode()
    assert "a turn cannot run past it" in response.content.decode()
    seat.refresh_from_db()
    assert seat.deadline_at == due
    assert Game.objects.get(pk=game.pk).version == version
    assert not AuditEntry.objects.exists()


def test_extending_a_deadline_is_an_event_and_moves_the_clock(staff, staff_user):
    game = people_game()
    deadlines.sync_deadlines(game.pk)
    seat = game.seats.get(number=game.to_act[0])
    due = seat.deadline_at
    version = game.version
    response = staff.post(
        f"/staff/games/{game.pk}/extend-deadline/",
        {"seat": seat.number, "hours": 30, "reason": REASON},
    )
    assert response.status_code == 302
    seat.refresh_from_db()
    assert seat.deadline_at == due + timedelta(hours=30)
    row = last_row(game)
    assert row.type == DEADLINE_EXTENDED and row.actor == f"staff:{staff_user.pk}"
    event = event_reads.load(game.pk)[-1]
    # The staff's note stays in the audit row: the event has no message when none was written.
    assert event == {
        "type": DEADLINE_EXTENDED, "seat": seat.number, "deadline": seat.deadline_at.isoformat(),
    }  # fmt: skip
    entry = AuditEntry.objects.get()
    assert (entry.action, entry.details["hours"], entry.details["seat"]) == (
        "extend-deadline",
        30,
        seat.number,
    )
    assert entry.reason == REASON
    shown = game_events(game_id=game.pk, viewer=seat.user, after=version)
    assert REASON not in str(shown)
    # It moves no card: a move decided before it is still taken.
    view = game_view(game_id=game.pk, viewer=seat.user)
    game_command(
        game_id=game.pk, actor=seat.user, command=view["legal"][0], expected_version=version
    )
    # The turn ended: the clock stops as usual.
    deadlines.sync_deadlines(game.pk)
    rebuild_all()
    assert GameSummary.objects.get(game=game).version == Game.objects.get(pk=game.pk).version


NOTE = "internal: user 😀 <b>bold</b> looks like a multi-account"
MESSAGE = "Get well soon <i>Ana</i> & take your time"


def test_the_staff_note_never_reaches_a_player_and_the_message_reaches_that_seat_alone(
    staff, staff_user
):
    game = people_game()
    deadlines.sync_deadlines(game.pk)
    seat = game.seats.get(number=game.to_act[0])
    other = game.seats.exclude(pk=seat.pk).get()
    version = game.version
    form = staff.get(f"/staff/games/{game.pk}/extend-deadline/").content.decode()
    # Each field says truly who reads it.
    assert "Note for the staff" in form and "Never shown to a player" in form
    assert "Message to the player (optional)" in form and "shown to that seat alone" in form
    assert "Kept with the action, for the other staff" not in form

    response = staff.post(
        f"/staff/games/{game.pk}/extend-deadline/",
        {"seat": seat.number, "hours": 30, "reason": NOTE, "message": MESSAGE},
    )

    assert response.status_code == 302
    seat.refresh_from_db()
    event = event_reads.load(game.pk)[-1]
    assert event == {
        "type": DEADLINE_EXTENDED, "seat": seat.number, "deadline": seat.deadline_at.isoformat(),
        "message": MESSAGE,
    }  # fmt: skip
    entry = AuditEntry.objects.get()
    assert (entry.reason, entry.details["message"]) == (NOTE, MESSAGE)
    for person in (seat.user, other.user):
        client = Client()
        client.force_login(person)
        page = client.get(f"/games/{game.pk}/").content.decode()
        notices = client.get("/notifications/").content.decode()
        shown = str(game_events(game_id=game.pk, viewer=person, after=version))
        for text in (page, notices, shown):
            assert "internal" not in text and "multi-account" not in text
            assert "<b>bold</b>" not in text
        assert "<i>Ana</i>" not in page
        if person == seat.user:
            assert "Get well soon &lt;i&gt;Ana&lt;/i&gt; &amp; take your time" in page
            assert MESSAGE in shown
        else:
            assert "Get well soon" not in page and "Get well soon" not in shown
    # The staff's own audit trail of the game says both, escaped.
    history = staff.get(f"/staff/games/{game.pk}/").content.decode()
    assert "internal: user 😀 &lt;b&gt;bold&lt;/b&gt;" in history
    assert "Get well soon &lt;i&gt;Ana&lt;/i&gt;" in history


def test_an_older_deadline_events_note_reaches_no_player(staff_user):
    """Events written before the note and the message were apart carry the staff's reason as
    `note`, typed for the other staff: no page, story or event view shows it to a player."""
    game = people_game()
    deadlines.sync_deadlines(game.pk)
    seat = game.seats.get(number=game.to_act[0])
    old = {
        "type": DEADLINE_EXTENDED, "seat": seat.number,
        "deadline": (seat.deadline_at + timedelta(hours=3)).isoformat(), "note": NOTE,
    }  # fmt: skip
    seat_facts.append_facts(game, [old], actor=actions.staff_actor(staff_user))
    client = Client()
    client.force_login(seat.user)
    page = client.get(f"/games/{game.pk}/").content.decode()
    shown = str(game_events(game_id=game.pk, viewer=seat.user, after=0))
    assert "The staff gave your turn until" in page
    assert "internal" not in page and "internal" not in shown


def test_an_abort_and_a_forfeit_keep_the_staff_note_out_of_the_game(staff):
    forfeited, aborted = people_game(), people_game(seed=2)
    staff.post(f"/staff/games/{forfeited.pk}/forfeit/", {"seat": 1, "reason": NOTE})
    staff.post(f"/staff/games/{aborted.pk}/abort/", {"reason": NOTE})
    for game in (forfeited, aborted):
        assert NOTE not in str(event_reads.load(game.pk))
        for seat in game.seats.all():
            client = Client()
            client.force_login(seat.user)
            assert "internal" not in client.get(f"/games/{game.pk}/").content.decode()
            assert "internal" not in str(game_events(game_id=game.pk, viewer=seat.user, after=0))
    assert sorted(AuditEntry.objects.values_list("reason", flat=True)) == [NOTE, NOTE]


def test_an_older_aborts_reason_reaches_no_player():
    game = people_game()
    seat = game.seats.first()
    variant, state, version = repository.state(game)
    event = {"type": GAME_ABORTED, "reason": NOTE}
    append_decided(game, variant, variant.replay([event], state), [event], version, None, "staff:1")
    shown = game_events(game_id=game.pk, viewer=seat.user, after=0)
    assert shown[-1]["event"] == {"type": GAME_ABORTED, "reason": None}


def test_the_extension_says_the_new_deadline_in_words(staff):
    game = people_game()
    deadlines.sync_deadlines(game.pk)
    seat = game.seats.get(number=game.to_act[0])
    response = staff.post(
        f"/staff/games/{game.pk}/extend-deadline/",
        {"seat": seat.number, "hours": 30, "reason": REASON},
        follow=True,
    )
    seat.refresh_from_db()
    [said] = [str(message) for message in response.context["messages"]]
    assert said == (
        f"Seat {seat.number}'s deadline in game #{game.pk} is now "
        f"{seat.deadline_at:%a %-d %b %Y, %H:%M} UTC."
    )


def test_a_seat_without_a_running_clock_is_refused_and_nothing_changes(staff):
    game = people_game()
    deadlines.sync_deadlines(game.pk)
    waiting = next(n for n in range(2) if n not in game.to_act)
    before = snapshot()
    response = staff.post(
        f"/staff/games/{game.pk}/extend-deadline/", {"seat": waiting, "hours": 3, "reason": REASON}
    )
    # The form offers only the seats with a running clock.
    assert response.status_code == 400
    with pytest.raises(actions.ActionRefused) as refused:
        actions.game_extend_deadline(
            game_id=game.pk, seat=waiting, hours=3, user=get_user_model().objects.get(
                username="operator"), reason=REASON,
        )  # fmt: skip
    assert refused.value.code == "no-deadline"
    assert snapshot() == before


def test_a_staff_member_who_plays_in_a_game_does_not_rule_on_it(staff, staff_user):
    # A conflict of interest (issue 28's review of item 6): a staff member seated in a game
    # could forfeit their opponent, abort a losing game or give themselves more time.
    game = game_create(
        variant_spec={"rules": "official", "options": {"target": 100}},
        seats=[SeatSpec(user=staff_user), SeatSpec(user=get_user_model().objects.create_user("b"))],
        seed=1,
    )
    deadlines.sync_deadlines(game.pk)
    waiting = Game.objects.get(pk=game.pk).to_act[0]
    before = snapshot()

    for path, data in (
        (f"/staff/games/{game.pk}/abort/", {"reason": REASON}),
        (f"/staff/games/{game.pk}/forfeit/", {"reason": REASON, "seat": 1}),
        (
            f"/staff/games/{game.pk}/extend-deadline/",
            {"reason": REASON, "seat": waiting, "hours": 3},
        ),
    ):
        response = staff.post(path, data)
        assert response.status_code == 400, path
        assert b"plays-in-game" in response.content, path
        assert "another member of the staff must act on it" in response.content.decode(), path
    assert snapshot() == before

    other = get_user_model().objects.create_user("colleague", is_staff=True)
    entry = actions.game_forfeit(game_id=game.pk, seat=1, user=other, reason=REASON)
    assert entry.actor == other


# Bots ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("status", [Bot.Status.SUSPENDED, Bot.Status.FAILED, Bot.Status.VALIDATING])
def test_the_staff_suspend_a_bot_whatever_its_status_and_its_owner_cannot_lift_it(
    staff, staff_user, status
):
    # Issue 28's review: a bot suspended by its strikes (or failed, or validating) could not be
    # given the staff's suspension, so its owner validated a hostile bot back onto the ladders.
    bot = make_bot(status=status, validation_round=1 if status == Bot.Status.VALIDATING else 0)

    response = staff.post(f"/staff/bots/{bot.pk}/suspend/", {"reason": REASON})

    assert response.status_code == 302
    bot.refresh_from_db()
    assert (bot.status, bot.suspended_by_staff) == (Bot.Status.SUSPENDED, True)
    assert AuditEntry.objects.get().details == {"status_before": status}
    with pytest.raises(Forbidden) as refused:
        registry.bot_revalidate(bot=bot, owner=bot.owner)
    assert refused.value.code == "suspended-by-staff"
    bot.refresh_from_db()
    assert bot.status == Bot.Status.SUSPENDED
    # The round it was validating in settles to nothing now.
    assert validation.settle_validation(bot.pk, 1) == Bot.Status.SUSPENDED


def test_a_bot_its_owner_retired_is_not_suspended(staff):
    bot = make_bot(status=Bot.Status.RETIRED)
    before = snapshot()

    asked = staff.get(f"/staff/bots/{bot.pk}/suspend/").content.decode()
    response = staff.post(f"/staff/bots/{bot.pk}/suspend/", {"reason": REASON})

    assert "Its owner retired this bot: it plays nothing, and nothing brings it back." in asked
    assert response.status_code == 400 and b"bot-retired" in response.content
    assert snapshot() == before
    bot.refresh_from_db()
    assert (bot.status, bot.suspended_by_staff) == (Bot.Status.RETIRED, False)


def test_suspending_and_reinstating_a_bot(
    staff, staff_user, eager_tasks, django_capture_on_commit_callbacks
):
    bot = make_bot()
    response = staff.post(
        f"/staff/bots/{bot.pk}/suspend/", {"reason": REASON, "message": "it spams the ladder"}
    )
    assert response.status_code == 302
    assert response["Location"] == f"/staff/bots/{bot.pk}/suspend/"
    bot.refresh_from_db()
    # Its owner reads the message, never the staff's note.
    assert bot.status == Bot.Status.SUSPENDED
    assert bot.status_reason == "suspended by the staff: it spams the ladder"
    entry = AuditEntry.objects.get()
    assert (entry.action, entry.target, entry.actor, entry.reason) == (
        "suspend-bot",
        f"bot:{bot.pk}",
        staff_user,
        REASON,
    )
    page = staff.get(response["Location"]).content.decode()
    assert "The staff have already suspended this bot." in page
    assert f"/staff/bots/{bot.pk}/reinstate/" in page

    before = snapshot()
    again = staff.post(f"/staff/bots/{bot.pk}/suspend/", {"reason": REASON})
    assert again.status_code == 400 and b"bot-suspended-by-staff" in again.content
    assert snapshot() == before

    # Reinstated through a new validation round, which the workers play at once (eager).
    with django_capture_on_commit_callbacks(execute=True):
        response = staff.post(f"/staff/bots/{bot.pk}/reinstate/", {"reason": "owner fixed it"})
    assert response.status_code == 302
    bot.refresh_from_db()
    assert bot.validation_round == 1
    assert bot.status == Bot.Status.ACTIVE, bot.status_reason
    entry = AuditEntry.objects.get(action="reinstate-bot")
    assert entry.details == {"status_before": "suspended", "validation_round": 1}


def test_a_suspended_bots_waiting_game_is_moved_by_the_default_bot(
    staff, eager_tasks, django_capture_on_commit_callbacks
):
    bot = make_bot(kind=Bot.Kind.PULL)
    game = game_create(
        variant_spec=SHORT, seats=[SeatSpec(registered=bot), SeatSpec(bot="greedy")], seed=4
    )
    turns.advance_game(game_id=game.pk)  # up to the pull bot's turn: no worker moves it
    game.refresh_from_db()
    assert game.status != MATCH_OVER and game.to_act == [0]
    with django_capture_on_commit_callbacks(execute=True):
        staff.post(f"/staff/bots/{bot.pk}/suspend/", {"reason": REASON})
    game.refresh_from_db()
    assert game.status == MATCH_OVER


# Rebuilding a projection -----------------------------------------------------------------------


def test_a_rebuild_runs_in_the_background_and_its_page_shows_it_done(
    staff, staff_user, eager_tasks, django_capture_on_commit_callbacks
):
    game = game_create(variant_spec=SHORT, seats=[SeatSpec(bot="greedy")] * 2, seed=6)
    play_out(game.pk)
    assert not MatchResult.objects.exists()
    with django_capture_on_commit_callbacks(execute=True):
        response = staff.post("/staff/projections/game-results/rebuild/", {"reason": REASON})
    entry = AuditEntry.objects.get()
    assert response.status_code == 302
    assert response["Location"] == f"/staff/projections/rebuilds/{entry.pk}/"
    assert (entry.action, entry.target, entry.actor, entry.reason) == (
        "rebuild-projection",
        "projection:game-results",
        staff_user,
        REASON,
    )
    # The run folded up to the head it captured (its partitions ran in-process after the task).
    assert entry.details["head"] == event_reads.head()
    assert rebuilds.progress_of(entry).state == "done"
    assert MatchResult.objects.filter(game=game).exists()
    page = staff.get(response["Location"]).content.decode()
    assert 'data-state="done"' in page and 'http-equiv="refresh"' not in page
    assert "game-results" in staff.get("/staff/projections/").content.decode()


def test_a_rebuild_through_the_broker_waits_then_shows_its_progress(
    staff, redis_url, broker_tasks, django_capture_on_commit_callbacks, settings
):
    settings.CELERY_BROKER_URL = redis_url
    game_create(variant_spec=SHORT, seats=[SeatSpec(bot="greedy")] * 2, seed=7)
    with django_capture_on_commit_callbacks(execute=True):
        response = staff.post("/staff/projections/game-summaries/rebuild/", {"reason": REASON})
    entry = AuditEntry.objects.get()
    # Sent to Redis, where no worker of this test takes it: the page waits and refreshes.
    page = staff.get(response["Location"]).content.decode()
    assert 'data-state="queued"' in page and 'http-equiv="refresh"' in page

    # A worker takes the staff task: it starts the run, whose partitions go to the broker,
    # where no worker of this test folds them: the page shows them waiting.
    rebuilds.run(entry.pk)
    entry.refresh_from_db()
    run = RebuildRun.objects.get(pk=entry.details["run"])
    parts = list(RebuildPartition.objects.filter(run=run).order_by("number"))
    assert entry.details["state"] == "running" and len(parts) == rebuild_runs.PARTITIONS
    page = staff.get(response["Location"]).content.decode()
    assert 'data-state="running"' in page and 'http-equiv="refresh"' in page
    assert f"0 of {sum(part.total for part in parts)} events" in page
    assert page.count("folding") == len(parts)

    # A worker folds the first partition (the task's body): its share shows, the rest waits.
    rebuild_runs.fold_partition(parts[0].pk)
    page = staff.get(response["Location"]).content.decode()
    assert f"{parts[0].total} of {sum(part.total for part in parts)} events" in page
    assert page.count("folding") == len(parts) - 1

    # The others folded: done, and the staff task sent again does nothing more.
    for part in parts[1:]:
        rebuild_runs.fold_partition(part.pk)
    rebuilds.run(entry.pk)
    assert RebuildRun.objects.count() == 1
    page = staff.get(response["Location"]).content.decode()
    assert 'data-state="done"' in page and 'http-equiv="refresh"' not in page
    assert GameSummary.objects.count() == 1


def test_the_rebuild_reports_its_progress_batch_by_batch():
    for seed in range(3):
        game = game_create(variant_spec=SHORT, seats=[SeatSpec(bot="greedy")] * 2, seed=seed)
        play_out(game.pk)
    seen: list[tuple[int, int]] = []
    head = event_reads.head()
    projections.rebuild("game-results", batch_size=50, progress=lambda *p: seen.append(p))
    assert seen[-1] == (head, head)
    assert [done for done, _ in seen] == sorted({done for done, _ in seen})
    assert len(seen) == -(-head // 50)


def test_the_admins_bot_actions_ask_for_a_note_its_owner_never_reads(staff, staff_user):
    staff_user.is_superuser = True
    staff_user.save()
    bot = make_bot()
    page = staff.get("/admin/games/bot/").content.decode()
    assert "Note for the staff (not shown to owners)" in page
    staff.post(
        "/admin/games/bot/",
        {"action": "suspend", "_selected_action": [bot.pk], "reason": NOTE},
    )
    bot.refresh_from_db()
    assert bot.status == Bot.Status.SUSPENDED
    assert bot.status_reason == "suspended by the staff"
    assert AuditEntry.objects.get().reason == NOTE
