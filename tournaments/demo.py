"""`make run`'s tournaments, so that a newcomer sees what a tournament page looks like: the Demo
Cup, a Swiss event of the eight built-in bots of the demo club and the Bot Arena (league/demo.py)
played to its end in-process when seed_demo makes it, and the Demo Open, taking entries for a
week, which demo and ana (and anyone who signs up) may enter. Called by seed_demo; safe to run
again (an existing tournament is left as it is).
"""

from __future__ import annotations

import datetime
from typing import Any

from django.utils import timezone

from games.models import Bot
from league.demo import demo_bots
from tournaments.models import Tournament
from tournaments.services import tournament_create, tournament_enter, tournament_start

CUP_SLUG = "demo-cup"
OPEN_SLUG = "demo-open"
# Short matches, so the cup's games are quick to play when it is seeded.
VARIANT = {"rules": "official", "options": {"target": 100}}
# Three Swiss rounds of two tables of four: six games.
CUP_ROUNDS = 3
# The open one's entrants to start with: a table's worth of bots, so it reads as a real event.
OPEN_BOTS = 4


def seed_tournaments(*, admin: Any, members: list[Any]) -> list[Tournament]:
    """Create the finished cup (its games played on commit, in-process without a broker, each
    round drawn when the last one's games are over) and the open one; the ones made (none when
    both exist already)."""
    bots = demo_bots(admin, members)
    made = []
    now = timezone.now()
    if not Tournament.objects.filter(slug=CUP_SLUG).exists():
        cup = _made(admin, "Demo Cup", CUP_SLUG, now + datetime.timedelta(hours=1), 7, bots)
        # Started early by its organiser: the rounds play out as the games end.
        tournament_start(cup, actor=admin)
        # Finished by now in-process; running while a broker's workers play it.
        cup.refresh_from_db()
        made.append(cup)
    if not Tournament.objects.filter(slug=OPEN_SLUG).exists():
        closes = now + datetime.timedelta(days=7)
        made.append(_made(admin, "Demo Open", OPEN_SLUG, closes, 8, bots[:OPEN_BOTS]))
    return made


def _made(
    admin: Any, name: str, slug: str, closes: datetime.datetime, seed: int, bots: list[Bot]
) -> Tournament:
    """A demo tournament of the demo's variant and rounds, `bots` entered by its organiser."""
    tournament = tournament_create(
        organiser=admin,
        name=name,
        slug=slug,
        variant=VARIANT,
        entry_closes=closes,
        rounds=CUP_ROUNDS,
        site_wide=admin.is_staff,
        seed=seed,
    )
    for bot in bots:
        tournament_enter(tournament, actor=admin, bot=bot)
    return tournament
