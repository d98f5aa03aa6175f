"""What a club's season tells its people under the bell (social/notifications.py, kind
`season`): that it started (its entrants), that their fixture's deadline moved (the people
seated), and that it closed, with each entrant's final place (league/seasons.py calls them).
Their fixtures, as their rounds open, are told by league/seasons.py `_open`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.placings import ordinal
from league.models import Division, Entry, Fixture, Season
from social.models import Notification
from social.notifications import game_url, notify


def tell_started(season: Season) -> None:
    """Every person entered in the season hears it started, under the bell
    (social/notifications.py); their fixtures follow as their rounds open (`_open`)."""
    people = (
        Entry.objects.filter(competition=season.competition, active=True, user__isnull=False)
        .values_list("user_id", flat=True)
        .distinct()
    )
    for user_id in people:
        notify(
            user_id,
            Notification.Kind.SEASON,
            f"{season.name} of {season.club.name} started",
            url=f"/seasons/{season.slug}/",
            key=f"season-started:{season.pk}",
        )


def tell_retimed(season: Season, fixture: Fixture, actor: Any, version: int) -> None:
    """The people seated in the fixture (but whoever moved it) hear its new deadline, a notice
    per move (keyed by the event's version): their game's page and lobby card show it too."""
    people = set(
        fixture.seats.filter(entry__user__isnull=False).values_list("entry__user_id", flat=True)
    )
    when = f"{fixture.deadline:%a %-d %b %Y, %H:%M} UTC"
    for user_id in sorted(people - {actor.pk}):
        notify(
            user_id,
            Notification.Kind.SEASON,
            f"Your fixture's deadline moved to {when}: {season.name}, "
            f"{fixture.division.name}, round {fixture.round} (game {fixture.game_id})",
            url=game_url(fixture.game_id or 0),
            key=f"fixture-retimed:{fixture.pk}:{version}",
            game=fixture.game_id,
        )


def tell_closed(season: Season, divisions: Sequence[Division]) -> int:
    """Every person entered in the season hears it closed and where they finished, from its
    divisions' archived final tables: "Autumn League of Friday Night UNO closed: you finished
    2nd of 5 (shared), promoted" (the division named when there are more than one). Once per
    season and person; returns how many were told."""
    told = 0
    for division in divisions:
        lines = division.final_table or []
        where = f" in {division.name}" if len(divisions) > 1 else ""
        for line in lines:
            if line.get("user_id") is None:
                continue
            shared = " (shared)" if line.get("shared") else ""
            moved = {"up": ", promoted", "down": ", relegated"}.get(line.get("zone", ""), "")
            told += notify(
                line["user_id"],
                Notification.Kind.SEASON,
                f"{season.name} of {season.club.name} closed: you finished "
                f"{ordinal(line['rank'])} of {len(lines)}{where}{shared}{moved}",
                url=f"/seasons/{season.slug}/",
                key=f"season-closed:{season.pk}",
            )
    return told
