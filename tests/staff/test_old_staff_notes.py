"""Staff notes written where players read them before the note and the message were apart
(staff/migrations/0003_old_staff_notes_blanked.py; docs/operations.md, "The staff console"):
the migration blanks a console forfeit's note in its seat-forfeited event, live and archived,
and in the match result, and a console suspension's reason in the bot's status; a club
admin's public ruling note and a suspension's message to the owner stay."""

from __future__ import annotations

import importlib
from types import SimpleNamespace

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.db import DatabaseError, connection, transaction
from django.test import Client

from games import archive, event_reads, projections, recent, seat_facts
from games.actors import StaffActor
from games.creation import SeatSpec, game_create
from games.models import ArchivedStream, Bot, Game, GameEvent, MatchResult
from staff.models import AuditEntry
from tests.games.factories import SHORT, make_user
from tests.league.factories import make_bot
from tests.staff.test_actions import play_out

pytestmark = pytest.mark.django_db

migration = importlib.import_module("staff.migrations.0003_old_staff_notes_blanked")

NOTE = "internal: looks like a multi-account of tom"
RULING = "no show on Tuesday"


def old_console_forfeit(staff, seed: int) -> Game:
    """A match with a bot in seat 0, two people: seat 1 forfeited from the console as it was
    before the note left the event, seat 2 by the club's ruling (a person's public note)."""
    admin = make_user()
    game = game_create(
        variant_spec=SHORT,
        seats=[SeatSpec(bot="greedy"), SeatSpec(user=make_user()), SeatSpec(user=make_user())],
        seed=seed,
    )
    seat_facts.seat_forfeit(game_id=game.pk, seat=1, actor=StaffActor(staff.pk), note=NOTE)
    AuditEntry.objects.create(
        actor=staff, action="forfeit", target=f"game:{game.pk}", reason=NOTE, details={"seat": 1}
    )
    seat_facts.seat_forfeit(game_id=game.pk, seat=2, actor=admin, note=RULING)
    play_out(game.pk)
    return game


def notes(game: Game) -> dict[int, str | None]:
    """Each forfeited seat's note as the game's readers get it (the log, live or archived)."""
    recent.forget()
    return {
        e["seat"]: e.get("note") for e in event_reads.load(game.pk) if e["type"] == "seat-forfeited"
    }


def migrate() -> None:
    migration.forwards(apps, SimpleNamespace(connection=connection))


def test_old_console_notes_leave_what_players_read_and_a_club_ruling_stays():
    staff = get_user_model().objects.create_user("operator", is_staff=True)
    live, archived = old_console_forfeit(staff, seed=2), old_console_forfeit(staff, seed=3)
    for name in projections.PROJECTIONS:
        projections.run(name)
    archive.archive_stream(archived.pk, upto=event_reads.head())
    assert ArchivedStream.objects.filter(pk=archived.pk).exists()
    assert not GameEvent.objects.filter(game_id=archived.pk).exists()
    public = Client().get(f"/api/games/{live.pk}/events", {"after": 0}).content.decode()
    # Before: the staff's note is in the finished game's public log and its result.
    assert NOTE in public
    for game in (live, archived):
        assert notes(game) == {1: NOTE, 2: RULING}
        forfeits = MatchResult.objects.get(game=game).forfeits
        assert {f["seat"]: f.get("note") for f in forfeits} == {1: NOTE, 2: RULING}

    migrate()

    public = Client().get(f"/api/games/{live.pk}/events", {"after": 0}).content.decode()
    assert NOTE not in public and RULING in public
    for game in (live, archived):
        assert notes(game) == {1: None, 2: RULING}
        forfeits = MatchResult.objects.get(game=game).forfeits
        assert {f["seat"]: f.get("note") for f in forfeits} == {1: None, 2: RULING}
    # The log is append-only again: an update is refused.
    row = GameEvent.objects.filter(game_id=live.pk).first()
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic():
        GameEvent.objects.filter(pk=row.pk).update(data={})
    # The staff keep their reason.
    assert AuditEntry.objects.filter(action="forfeit", reason=NOTE).count() == 2
    # Run again: nothing left to change.
    before = list(GameEvent.objects.order_by("pk").values_list("data", flat=True))
    migrate()
    assert list(GameEvent.objects.order_by("pk").values_list("data", flat=True)) == before


def test_an_old_suspension_reason_becomes_the_plain_words_and_a_message_stays():
    staff = get_user_model().objects.create_user("operator", is_staff=True)
    old, new = make_bot(kind=Bot.Kind.WEBHOOK), make_bot(kind=Bot.Kind.WEBHOOK)
    for bot, reason, details, status in (
        (old, NOTE, {}, f"suspended by the staff: {NOTE}"),
        (new, NOTE, {"message": "spamming"}, "suspended by the staff: spamming"),
    ):
        Bot.objects.filter(pk=bot.pk).update(
            status=Bot.Status.SUSPENDED, suspended_by_staff=True, status_reason=status
        )
        AuditEntry.objects.create(
            actor=staff, action="suspend-bot", target=f"bot:{bot.pk}", reason=reason,
            details=details,
        )  # fmt: skip
    owner = Client()
    owner.force_login(old.owner)
    assert NOTE in owner.get(f"/me/bots/{old.pk}/").content.decode()

    migrate()

    page = owner.get(f"/me/bots/{old.pk}/").content.decode()
    assert NOTE not in page and "suspended by the staff" in page
    assert Bot.objects.get(pk=old.pk).status_reason == "suspended by the staff"
    assert Bot.objects.get(pk=new.pk).status_reason == "suspended by the staff: spamming"
