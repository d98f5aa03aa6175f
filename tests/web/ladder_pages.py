"""Set-up for the ladder and bot pages' tests: a ladder whose built-in bots really play, seated
by league.ladders.ladder_matchmaking and moved by the eager workers (tests with `eager_tasks`),
then rated by the projections, as beat would."""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from typing import Any

from django.db import transaction

from games import projections
from games.models import Bot
from league.ladders import ladder_matchmaking
from league.models import Competition, Entry
from league.services import competition_join
from tests.games.factories import make_user
from tests.league.factories import make_competition
from tests.web.league_pages import text

# One hand a match, so a set of rotations is over quickly.
ONE_HAND = {"rules": "official", "options": {"scoring": "single-hand"}}


@dataclass
class Played:
    ladder: Competition
    ada: Any  # owns Greta and Rex
    bots: dict[str, Bot]
    entries: dict[str, Entry]


def owned_bot(owner: Any, name: str, strategy: str = "greedy", **fields: Any) -> Bot:
    fields = {"status": Bot.Status.ACTIVE, "kind": Bot.Kind.BUILTIN, "strategy": strategy, **fields}
    return Bot.objects.create(owner=owner, name=name, **fields)


def rate() -> None:
    """The projections beat runs: results, then the ratings folded from them."""
    projections.run("game-results")
    projections.run("ladder-ratings")


def play_rounds(ladder: Competition, rounds: int, seed: int = 7) -> None:
    """`rounds` matchmaking runs; each commits, and the eager workers play its games (and the
    sets' next rotations) to the end before the next run."""
    rng = random.Random(seed)
    for _ in range(rounds):
        with transaction.atomic():
            ladder_matchmaking(ladder, rng=rng)
    rate()


def played_ladder(rounds: int = 3, **fields: Any) -> Played:
    """ "Open Ladder" (tables of two, duplicate deals, matchmaking on) with four bots: ada's
    Greta (greedy) and Rex (random), cy's Cole (colour-control) and Stacy (stacker); played
    for `rounds` matchmaking runs and rated. Needs a transactional test with `eager_tasks`."""
    fields = {"name": "Open Ladder", "slug": "open", "variant": ONE_HAND, **fields}
    ladder = make_competition(seats_per_game=2, matchmaking=True, **fields)
    ada, cy = make_user("ada"), make_user("cy")
    bots = {
        "Greta": owned_bot(ada, "Greta", "greedy"),
        "Rex": owned_bot(ada, "Rex", "random"),
        "Cole": owned_bot(cy, "Cole", "colour-control"),
        "Stacy": owned_bot(cy, "Stacy", "stacker"),
    }
    entries = {name: competition_join(ladder, bot=bot) for name, bot in bots.items()}
    play_rounds(ladder, rounds)
    return Played(ladder, ada, bots, entries)


def board_rows(html: str) -> list[tuple[str, list[str]]]:
    """A leaderboard's lines: (the row's HTML, the text of each cell)."""
    rows = re.findall(r'<tr class="board-line[^"]*"[^>]*>(.*?)</tr>', html, re.S)
    return [(row, [text(cell) for cell in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row, re.S)])
            for row in rows]  # fmt: skip
