"""When ladder matchmaking seats nobody: an entrant over its budget, and a site nobody visits.

An event-sourced ladder only grows, so matchmaking has two brakes (docs/ladders.md,
"Budget and rest"):

- **The budget.** An entrant starts at most LEAGUE_LADDER_SETS_PER_DAY sets (tables) of a
  ladder in any 24 hours, as Kaggle gives a submission so many episodes a day; over it, the
  entrant waits out of matchmaking until its oldest set of the day is a day old. 0: no budget.
- **The rest.** Where LEAGUE_LADDER_REST_SECONDS is set (`make run` sets it), beat's matchmaking
  seats no new table once nobody has visited the site for that long: the demo's ladder plays
  while someone looks at the site and rests when they leave, instead of filling the disk of an
  idle laptop. The sets already drawn still play their rotations out. 0 (the default): a
  ladder never rests.
"""

from __future__ import annotations

from collections import Counter
from datetime import timedelta

from django.conf import settings
from django.utils import timezone

from league.models import Competition, LadderSet, SiteVisit

_DAY = timedelta(days=1)


def over_budget(competition: Competition) -> set[int]:
    """The ids of the ladder's entries that started their budget of sets in the last day."""
    budget = settings.LEAGUE_LADDER_SETS_PER_DAY
    if budget <= 0:
        return set()
    since = timezone.now() - _DAY
    started: Counter[int] = Counter()
    recent = LadderSet.objects.filter(competition=competition, created_at__gte=since)
    for entries in recent.values_list("entries", flat=True):
        started.update(int(entry) for entry in entries)
    return {entry for entry, count in started.items() if count >= budget}


def note_visit() -> None:
    """Record that a request reached the site now (the front door calls it)."""
    SiteVisit.objects.update_or_create(pk=1, defaults={"seen_at": timezone.now()})


def resting() -> bool:
    """Whether beat's matchmaking rests: the rest is on and nobody visited for that long."""
    rest = settings.LEAGUE_LADDER_REST_SECONDS
    if rest <= 0:
        return False
    since = timezone.now() - timedelta(seconds=rest)
    return not SiteVisit.objects.filter(pk=1, seen_at__gte=since).exists()
