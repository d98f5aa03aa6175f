"""The staff console's actions: each takes the staff member and a required reason, checks before
it writes (a refusal is a typed GameError and changes nothing), and records itself.

The reason is the staff's own note: it is kept in the AuditEntry alone, never in an event or
anywhere a player reads it. What a player is told is a separate, optional `message` (a deadline
extension's, to that seat; a suspension's, to the bot's owner), written as the staff typed it.

A game action is an event in the game's stream with the staff member as its actor
(`staff:<user id>`, games.actors.StaffActor): `game-aborted`, `seat-forfeited` (reason
`awarded`, no note) or `deadline-extended` (its `message`, if any). Every action, those included,
also writes an AuditEntry (who, when, action, target, reason, details) in the same transaction, so
the console lists them all in one place. Tasks (a re-drive, a rebuild, a reinstated bot's
validation) are sent once the transaction has committed. docs/operations.md, "Actions".
"""

from __future__ import annotations

from datetime import datetime, timedelta
from functools import partial
from typing import Any

from django.db import transaction

from bots import suspension_notice
from bots.remote import validation
from engine.events import DEADLINE_EXTENDED, GAME_ABORTED
from games import projections, seat_facts, tasks
from games.actors import StaffActor, actor_label, is_person
from games.commands import append_decided
from games.errors import Forbidden, GameError, InvalidGame
from games.game_settings import GameSettings
from games.models import Bot, Game, Seat
from games.repository import repository
from games.variant_text import moment
from league.ladders import ladder_set_close
from league.models import Competition
from staff import tasks as staff_tasks
from staff.models import AuditEntry

Action = AuditEntry.Action
# The longest a reason may be (the form's limit too); the audit row keeps it whole.
REASON_LENGTH = 500
# At most two weeks more per extension: longer absences are what vacations are for.
MAX_EXTENSION_HOURS = 14 * 24


class ReasonRequired(GameError):
    """Every action says why: an empty reason is refused."""

    code = "reason-required"


class UnknownTarget(GameError):
    """No such bot, ladder or projection (an unknown game is games.errors.GameNotFound)."""

    code = "not-found"


class ActionRefused(GameError):
    """The action does not apply to the target as it stands (a bot already suspended, a seat
    with no running clock, a ladder already paused); `code` says which."""

    code = "action-refused"


def staff_actor(user: Any) -> StaffActor:
    """The staff member as the event log names them; Forbidden (`not-staff`) for anyone else
    (the views 404 them before this; the check holds for any other caller)."""
    if not (is_person(user) and user.is_active and user.is_staff):
        raise Forbidden("only staff take staff actions", code="not-staff")
    return StaffActor(user.pk)


def clean_reason(reason: str) -> str:
    reason = (reason or "").strip()
    if not reason:
        raise ReasonRequired("give a reason: it is kept with the action")
    if len(reason) > REASON_LENGTH:
        raise ReasonRequired(f"a reason has at most {REASON_LENGTH} characters")
    return reason


def clean_message(message: str) -> str:
    """The optional words for a player: empty for none."""
    message = (message or "").strip()
    if len(message) > REASON_LENGTH:
        raise ReasonRequired(f"a message has at most {REASON_LENGTH} characters")
    return message


def _told(message: str) -> dict[str, str]:
    """The audit row's `message` detail: what the player was told, when they were told any."""
    return {"message": message} if message else {}


def _audit(user: Any, action: str, target: str, reason: str, **details: Any) -> AuditEntry:
    return AuditEntry.objects.create(
        actor=user, action=action, target=target, reason=reason, details=details
    )


def game_target(game_id: int) -> str:
    return f"game:{game_id}"


# Games.


def held_seats(game_id: int, user: Any) -> list[int]:
    """The seats of the game that `user` plays: their person's seats first, then the seats of
    the bots they own (staff/inspections.py shows such a staff member their seat's view)."""
    seats = Seat.objects.filter(game_id=game_id).select_related("registered_bot").order_by("number")
    mine, bots = [], []
    for seat in seats:
        if seat.user_id == user.pk:
            mine.append(seat.number)
        elif seat.registered_bot is not None and seat.registered_bot.owner_id == user.pk:
            bots.append(seat.number)
    return mine + bots


def plays_in_words(game_id: int) -> str:
    """Why a staff member who plays in the game may not rule on it, as the refusal says it."""
    return f"you play in game {game_id}: another member of the staff must act on it"


def _not_a_player(game_id: int, user: Any) -> None:
    """A staff member who plays in a game does not rule on it: another member of the staff
    aborts it, forfeits a seat or extends a clock (ActionRefused `plays-in-game`). The
    inspector and the rulings' pages say so before any form (staff/views.py,
    staff/action_views.py)."""
    if held_seats(game_id, user):
        raise ActionRefused(plays_in_words(game_id), code="plays-in-game")


def game_redrive(*, game_id: int, user: Any, reason: str) -> AuditEntry:
    """Ask the workers to move a game now (advance_game, as the reconciler would): for a game
    whose task was lost or whose bot run stopped. The game decides what, if anything, is due;
    nothing is appended here. InvalidGame `match-over` for a game that is over."""
    staff_actor(user)
    reason = clean_reason(reason)
    with transaction.atomic():
        game = seat_facts.locked_game(game_id)
        entry = _audit(user, Action.REDRIVE, game_target(game.pk), reason, version=game.version)
        transaction.on_commit(partial(tasks.advance_game.delay, game.pk))
    return entry


def game_abort(*, game_id: int, user: Any, reason: str) -> AuditEntry:
    """End a playing game where it stands: a `game-aborted` event (the staff member as actor; the
    reason stays in the audit row), which the engine folds as over with no winner and no places.
    Nobody moves it again (its status is match-over), and as it has no match-ended no result,
    standing or rating counts it. A ladder game's set is closed (ladders.ladder_set_close): a set
    with an aborted game is never rated, so its other rotations are not played. ActionRefused
    `plays-in-game` for a staff member who plays in it."""
    actor = staff_actor(user)
    reason = clean_reason(reason)
    _not_a_player(game_id, user)
    with transaction.atomic():
        game = seat_facts.locked_game(game_id)
        variant, state, version = repository.state(game)
        event = {"type": GAME_ABORTED}
        after = variant.replay([event], state)
        appended = append_decided(game, variant, after, [event], version, None, actor_label(actor))
        # The clocks stop with the event (the dispatcher would stop them after the commit;
        # the caches are written with the event that changes them).
        Seat.objects.filter(game=game).exclude(deadline_at=None).update(deadline_at=None)
        found = GameSettings.of(game.context)
        closed = found.ladder_set is not None and ladder_set_close(found.ladder_set)
        return _audit(
            user,
            Action.ABORT,
            game_target(game.pk),
            reason,
            version=appended.version,
            ladder_set=found.ladder_set,
            set_closed=closed,
        )


def game_forfeit(*, game_id: int, seat: int, user: Any, reason: str) -> AuditEntry:
    """Forfeit one seat of a playing game: the seat-forfeited event a resignation writes
    (reason `awarded`, no note: the staff's reason stays in the audit row; the staff member as
    actor); the default
    bot plays the seat out and the match result places it last. ActionRefused
    `already-forfeited`, `plays-in-game`; InvalidGame `invalid-seat`, `match-over`."""
    actor = staff_actor(user)
    reason = clean_reason(reason)
    _not_a_player(game_id, user)
    with transaction.atomic():
        if not seat_facts.seat_forfeit(game_id=game_id, seat=seat, actor=actor, by="the staff"):
            raise ActionRefused(
                f"seat {seat} of game {game_id} is forfeited already", code="already-forfeited"
            )
        version = Game.objects.values_list("version", flat=True).get(pk=game_id)
        return _audit(
            user, Action.FORFEIT, game_target(game_id), reason, seat=seat, version=version
        )


def game_extend_deadline(
    *, game_id: int, seat: int, hours: int, user: Any, reason: str, message: str = ""
) -> AuditEntry:
    """Give a person's running turn `hours` more: a `deadline-extended` event (the seat, the new
    deadline and, if given, `message`, the staff's words shown to that seat alone; the reason
    stays in the audit row) and the seat's clock moved with
    it. ActionRefused `no-deadline` when the seat's turn has no running clock (not a person's,
    not their turn), `plays-in-game`, `past-round-deadline` (a tournament round's game, past the
    round's deadline); GameError `invalid-hours` outside 1..MAX_EXTENSION_HOURS."""
    actor = staff_actor(user)
    reason = clean_reason(reason)
    message = clean_message(message)
    if (
        isinstance(hours, bool)
        or not isinstance(hours, int)
        or not 1 <= hours <= MAX_EXTENSION_HOURS
    ):
        raise GameError(
            f"hours must be a whole number from 1 to {MAX_EXTENSION_HOURS}", code="invalid-hours"
        )
    _not_a_player(game_id, user)
    with transaction.atomic():
        game = seat_facts.locked_game(game_id)
        row = Seat.objects.select_for_update().filter(game=game, number=seat).first()
        if row is None:
            raise InvalidGame(f"game {game_id} has no seat {seat}", code="invalid-seat")
        if row.controller != Seat.Controller.PERSON or row.deadline_at is None:
            raise ActionRefused(
                f"seat {seat} of game {game_id} has no running turn clock", code="no-deadline"
            )
        before = row.deadline_at
        row.deadline_at = before + timedelta(hours=hours)
        # A tournament round forfeits the seats still playing at its deadline (GameSettings
        # closes_at): more time past it would be a promise the round breaks.
        closes = GameSettings.of(game.context).closes_at
        if closes and row.deadline_at > datetime.fromisoformat(closes):
            ends = moment(datetime.fromisoformat(closes))
            raise ActionRefused(
                f"game {game_id} is a tournament round's, which ends {ends}: a turn cannot run "
                "past it",
                code="past-round-deadline",
            )
        event: dict[str, Any] = {
            "type": DEADLINE_EXTENDED,
            "seat": seat,
            "deadline": row.deadline_at.isoformat(),
        }
        if message:
            event["message"] = message
        appended = seat_facts.append_facts(game, [event], actor=actor)
        row.save(update_fields=["deadline_at"])
        return _audit(
            user,
            Action.EXTEND_DEADLINE,
            game_target(game.pk),
            reason,
            seat=seat,
            hours=hours,
            before=before.isoformat(),
            deadline=row.deadline_at.isoformat(),
            version=appended.version,
            **_told(message),
        )


# Bots.


def _locked_bot(bot_id: int) -> Bot:
    bot = Bot.objects.select_for_update().filter(pk=bot_id).first()
    if bot is None:
        raise UnknownTarget(f"there is no bot {bot_id}")
    return bot


def bot_suspend(*, bot_id: int, user: Any, reason: str, message: str = "") -> AuditEntry:
    """Suspend a bot, whatever its status, as its strikes would: the default bot plays its seats
    from now on (games.seats.effective) and matchmaking seats it no more; only the staff lift it
    (bot_reinstate), its owner's re-validation is refused. A bot already suspended by its strikes
    or failed is put under the staff's suspension too, so its owner cannot validate it back onto
    the ladders; a validating bot's round is void (its games are finished by the fallback and its
    result never settles, bots.remote.validation). The games where it is to act are advanced at
    once, not when the reconciler finds them. ActionRefused `bot-suspended-by-staff` for a bot
    the staff have already suspended, `bot-retired` for one its owner retired. Its owner reads
    "suspended by the staff" and `message`, if any; never the reason."""
    staff_actor(user)
    reason = clean_reason(reason)
    message = clean_message(message)
    with transaction.atomic():
        bot = _locked_bot(bot_id)
        if bot.suspended_by_staff:
            raise ActionRefused(
                f"bot {bot.name} is already suspended by the staff", code="bot-suspended-by-staff"
            )
        if bot.status == Bot.Status.RETIRED:
            # Retired for good by its owner: a suspension would bring it back as a status
            # the staff could reinstate from.
            raise ActionRefused(
                f"bot {bot.name} is retired by its owner: it plays nothing", code="bot-retired"
            )
        status_before = bot.status
        if status_before == Bot.Status.VALIDATING:
            validation.void_round(bot)
        bot.status = Bot.Status.SUSPENDED
        said = f": {message}" if message else ""
        bot.status_reason = f"suspended by the staff{said}"[:1000]
        # Only the staff lift it (bot_reinstate); its owner's re-validation is refused.
        bot.suspended_by_staff = True
        bot.save(update_fields=["status", "status_reason", "suspended_by_staff", "updated_at"])
        suspension_notice.tell_suspended(
            bot.pk, why=suspension_notice.by_staff(message), at=bot.updated_at, by_the_staff=True
        )
        waiting = [
            game_id
            for game_id, number, to_act in Seat.objects.filter(
                registered_bot=bot, game__status=Game.Status.PLAYING
            ).values_list("game_id", "number", "game__to_act")
            if number in (to_act or [])
        ]
        for game_id in sorted(set(waiting)):
            transaction.on_commit(partial(tasks.advance_game.delay, game_id))
        return _audit(
            user,
            Action.SUSPEND_BOT,
            f"bot:{bot.pk}",
            reason,
            status_before=status_before,
            **_told(message),
        )


def bot_reinstate(*, bot_id: int, user: Any, reason: str) -> AuditEntry:
    """Give a suspended bot its chance back through a new validation round
    (bots.remote.validation.open_round, as its owner's re-validation does): it is validating
    until the round passes (active) or fails, so a bot that is still broken is not let loose on
    a ladder. A built-in or webhook bot's round is played by the validate_bot task sent on
    commit; a pull bot's starts at its next poll. ActionRefused `not-suspended`."""
    staff_actor(user)
    reason = clean_reason(reason)
    with transaction.atomic():
        bot = _locked_bot(bot_id)
        if bot.status != Bot.Status.SUSPENDED:
            raise ActionRefused(
                f"bot {bot.name} is {bot.status}, not suspended", code="not-suspended"
            )
        round_ = validation.open_round(bot.pk)
        return _audit(
            user,
            Action.REINSTATE_BOT,
            f"bot:{bot.pk}",
            reason,
            status_before=Bot.Status.SUSPENDED,
            validation_round=round_,
        )


# Ladders.


def _set_matchmaking(slug: str, user: Any, reason: str, *, on: bool) -> AuditEntry:
    staff_actor(user)
    reason = clean_reason(reason)
    with transaction.atomic():
        # The row matchmaking locks while it seats a table: a run under way ends first.
        competition = Competition.objects.select_for_update().filter(slug=slug).first()
        if competition is None:
            raise UnknownTarget(f"there is no ladder {slug!r}")
        if competition.kind != Competition.Kind.LADDER:
            raise ActionRefused(f"{competition.name} is not a ladder", code="not-a-ladder")
        if competition.matchmaking == on:
            state = "running" if on else "paused"
            raise ActionRefused(
                f"{competition.name}'s matchmaking is {state} already", code=f"already-{state}"
            )
        competition.matchmaking = on
        competition.save(update_fields=["matchmaking"])
        action = Action.RESUME_MATCHMAKING if on else Action.PAUSE_MATCHMAKING
        return _audit(user, action, f"competition:{competition.pk}", reason, slug=slug)


def ladder_pause(*, slug: str, user: Any, reason: str) -> AuditEntry:
    """Turn a ladder's matchmaking off: beat seats no new table and makes no next rotation of
    its sets (league.tasks skip it); games under way play on. ActionRefused `already-paused`,
    `not-a-ladder`."""
    return _set_matchmaking(slug, user, reason, on=False)


def ladder_resume(*, slug: str, user: Any, reason: str) -> AuditEntry:
    """Turn a ladder's matchmaking back on: the next run makes the waiting rotations and seats
    the idle entrants. ActionRefused `already-running`, `not-a-ladder`."""
    return _set_matchmaking(slug, user, reason, on=True)


# Projections.


def projection_rebuild(*, name: str, user: Any, reason: str) -> AuditEntry:
    """Rebuild a projection in the background: the audit entry (state `queued`) is the rebuild's
    progress record, and the rebuild_projection task (staff/tasks.py) runs
    games.projections.rebuild once it has committed. UnknownTarget for a name no projection
    has."""
    staff_actor(user)
    reason = clean_reason(reason)
    if name not in projections.PROJECTIONS:
        raise UnknownTarget(f"there is no projection {name!r}")
    with transaction.atomic():
        entry = _audit(
            user, Action.REBUILD_PROJECTION, f"projection:{name}", reason, projection=name,
            state="queued",
        )  # fmt: skip
        transaction.on_commit(partial(staff_tasks.rebuild_projection.delay, entry.pk))
    return entry
