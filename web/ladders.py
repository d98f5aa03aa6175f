"""The ladder pages: every ladder (/ladders/), a ladder's leaderboard (/ladders/<slug>/) with its
unranked entrants, and entering and leaving it (POST …/enter and …/leave, for a signed-in person
and each of their bots). The numbers are league.ladder_reads' (the `ladder-ratings` projection,
decayed as of now); entering and leaving are league.ladders' services, whose refusals come back
as messages in words (REFUSALS), with nothing changed. docs/web.md, "Ladders and bots".
"""

from __future__ import annotations

import datetime
from collections.abc import Collection
from dataclasses import dataclass

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.timesince import timesince
from django.views.decorators.http import require_GET, require_POST

from frontdoor import boundary
from games.errors import GameError
from games.models import Bot
from games.variant_text import variant_details, variant_title
from league import ladder_reads
from league.errors import LadderNotFound, LeagueNotFound
from league.ladder_reads import BoardLine
from league.ladders import is_for_bots, ladder_enter, ladder_leave
from league.models import Competition, Entry
from web.accounts import SignedInRequest
from web.charts import Sparkline, sparkline
from web.sentences import sentence

# Each refusal of ladder_enter / ladder_leave by its code, in words: {who} is "You" or "Bot
# <name>", {bot} the bot's name, {ladder} the ladder's.
REFUSALS = {
    "not-owner": "{bot} is not your bot: only its owner enters it in a ladder or takes it out.",
    "not-a-person": "Only a signed-in person enters a ladder.",
    "not-a-ladder": "{ladder} is not a ladder.",
    "bot-validating": (
        "{bot} is still playing its validation games: a ladder takes validated bots only. "
        "Enter it once its status is active."
    ),
    "bot-suspended": (
        "{bot} is suspended after too many strikes in a row: ask for a new validation on its "
        "page to reinstate it, then enter it."
    ),
    "bot-failed": (
        "{bot} failed its validation: fix it and ask for a new validation on its page, then "
        "enter it."
    ),
    "bot-retired": "{bot} is retired: a retired bot enters no ladder.",
    "already-entered": "{who} already entered in {ladder}.",
    "not-entered": "{who} not entered in {ladder}, so there was nothing to leave.",
    "ladder-for-bots": "{ladder} is a ladder for bots: enter one of your bots, not yourself.",
    "birth-date-missing": (
        "{ladder} plays NEWNO, whose Youngest Rule needs your birth date: add it on your "
        "profile, then enter."
    ),
}
# Days after which "last played" is a date rather than "3 days ago".
AGO_DAYS = 7


def refusal_text(error: GameError, ladder: Competition, bot: Bot | None) -> str:
    """A refusal of ladder_enter or ladder_leave in words (the service's message for a code
    this page does not know)."""
    template = REFUSALS.get(error.code)
    if template is None:
        return sentence(error.message)
    who = f"Bot {bot.name} is" if bot is not None else "You are"
    name = bot.name if bot is not None else ""
    return template.format(who=who, bot=f"Bot {name}", ladder=ladder.name)


def ladder_or_404(slug: str) -> Competition:
    try:
        return ladder_reads.ladder_of(slug)
    except LadderNotFound as error:
        raise Http404(error.message) from error


def last_played_words(when: datetime.datetime | None, now: datetime.datetime) -> str:
    """ "2 hours ago" within AGO_DAYS, else the day ("3 Mar 2026"); "never" without a game."""
    if when is None:
        return "never"
    if now - when < datetime.timedelta(minutes=1):
        return "just now"
    if now - when < datetime.timedelta(days=AGO_DAYS):
        return f"{timesince(when, now, depth=1)} ago"
    return f"{when:%-d %b %Y}"


def entrant_url(kind: str, bot_id: int | None, username: str) -> str:
    """A bot's public page, or a person's player page."""
    if kind == "bot" and bot_id is not None:
        return reverse("web:bot", args=[bot_id])
    return reverse("web:player", args=[username])


@dataclass(frozen=True, slots=True)
class ShownLine:
    """A leaderboard line with what the page draws from it."""

    line: BoardLine
    # The entrant's name, a bot's with its owner's when another entrant goes by the same name
    # ("Gus (ana)" beside "Gus (bob)"): the cell names the entrant wherever the row is read.
    name: str
    url: str
    owner_url: str
    last_played: str
    trend: Sparkline | None

    @property
    def win_rate(self) -> str:
        rate = self.line.win_rate
        return "–" if rate is None else f"{rate:.0%}"


def told_apart(name: str, owner: str, kind: str, shared: Collection[str]) -> str:
    """An entrant's name as a list shows it: a bot's with its owner's ("Gus (ana)") when another
    entrant in the list goes by the same name (`shared`: such names, casefolded), since a
    name is checked per owner only (bots/registry.py)."""
    return f"{name} ({owner})" if kind == "bot" and name.casefold() in shared else name


def shown(
    lines: list[BoardLine], now: datetime.datetime, shared: frozenset[str] = frozenset()
) -> list[ShownLine]:
    """The lines as the board draws them; `shared`: the names (casefolded) more than one
    entrant on the board goes by."""
    return [
        ShownLine(
            line=line,
            name=told_apart(line.name, line.owner, line.kind, shared),
            url=entrant_url(line.kind, line.bot_id, line.owner),
            owner_url=reverse("web:player", args=[line.owner]),
            last_played=last_played_words(line.last_played, now),
            trend=sparkline(line.trend),
        )
        for line in lines
    ]


@dataclass(frozen=True, slots=True)
class EntryOption:
    """One thing the signed-in person may enter in the ladder or take out: themselves or one
    of their bots."""

    label: str
    bot: Bot | None
    entered: bool

    @property
    def bot_value(self) -> str:
        return str(self.bot.pk) if self.bot is not None else ""


def entry_options(ladder: Competition, person: User) -> list[EntryOption]:
    """The person themselves (not in a ladder for bots, unless entered: then to leave), then
    their bots by name, each marked entered or not."""
    active = Entry.objects.filter(competition=ladder, active=True)
    me_in = active.filter(user=person).exists()
    bots_in = set(active.filter(bot__owner=person).values_list("bot_id", flat=True))
    options = []
    if me_in or not is_for_bots(ladder):
        options.append(EntryOption("You, in person", None, me_in))
    # A retired bot enters nothing, and is in no ladder (bots/registry.py bot_retire).
    for bot in (
        Bot.objects.filter(owner=person).exclude(status=Bot.Status.RETIRED).order_by("name", "pk")
    ):
        options.append(EntryOption(f"Bot {bot.name}", bot, bot.pk in bots_in))
    return options


@dataclass(frozen=True, slots=True)
class LadderRow:
    ladder: Competition
    rules: str
    details: str
    entrants: int
    # A ladder for bots (league/ladders.py is_for_bots): no person enters it in person.
    for_bots: bool = False


def describe(ladder: Competition) -> tuple[str, str]:
    """The ladder's family and its options in words."""
    return variant_title(ladder.variant), variant_details(ladder.variant)


@require_GET
def ladder_list(request: HttpRequest) -> HttpResponse:
    """Every ladder: its rules in words, table size, duplicate deals, entrants, matchmaking."""
    rows = [
        # entrant_count: annotated by ladder_reads.ladders().
        LadderRow(
            ladder,
            *describe(ladder),
            ladder.entrant_count,  # type: ignore[attr-defined]
            is_for_bots(ladder),
        )
        for ladder in ladder_reads.ladders()
    ]
    return render(request, "ladders/list.html", {"ladders": rows, "who_enters": who_enters(rows)})


def who_enters(rows: list[LadderRow]) -> str:
    """Who the listed ladders admit, in words for the page's lead."""
    if rows and all(row.for_bots for row in rows):
        return "bots enter (their owners enter them; people do not play in person here)"
    if any(row.for_bots for row in rows):
        return "people and bots enter (bots only where a ladder says so)"
    return "people and bots enter"


@require_GET
def ladder(request: HttpRequest, slug: str) -> HttpResponse:
    """The leaderboard, the unranked entrants, and the signed-in person's entry forms."""
    found = ladder_or_404(slug)
    now = timezone.now()
    # A page of the board at a time: the lines after entry `?after=` (ladder_reads.board_page).
    try:
        page = ladder_reads.board_page(found, after=boundary.integer(request.GET, "after"), now=now)
    except LeagueNotFound as error:
        raise Http404(error.message) from error
    rules, details = describe(found)
    context = {
        "ladder": found,
        "rules": rules,
        "details": details,
        "ranked": shown(page.ranked, now, page.shared_names),
        "unranked": shown(page.unranked, now, page.shared_names),
        # Whether this page reaches the end of the ranked lines (the off-board ones follow).
        "ranked_end": page.ranked_end,
        # The next page's `after` (the entry of the last line shown), or None on the last page.
        "more": page.after,
        "options": (entry_options(found, request.user) if isinstance(request.user, User) else []),
        "for_bots": is_for_bots(found),
        "here": request.path,
    }
    return render(request, "ladders/ladder.html", context)


def _back(request: HttpRequest, ladder: Competition) -> HttpResponse:
    """Back where the form was (the ladder, or a bot's page), never off the site. Only a path
    of this site is followed: redirect() would take any other text for a URL pattern's name
    (`next=²` was a 500, NoReverseMatch)."""
    target = request.POST.get("next", "")
    if target.startswith("/") and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return HttpResponseRedirect(target)
    return redirect("web:ladder", slug=ladder.slug)


def _bot_of_form(request: HttpRequest) -> tuple[Bot | None, bool]:
    """The bot the form names (blank: the person themselves); False when it names none that
    exists. A value that is no id at all is 400 `invalid-number` (frontdoor/boundary.py)."""
    bot_id = boundary.integer(request.POST, "bot")
    if bot_id is None:
        return None, True
    bot = Bot.objects.filter(pk=bot_id).first()
    return bot, bot is not None


def _change(request: SignedInRequest, slug: str, *, enter: bool) -> HttpResponse:
    found = ladder_or_404(slug)
    bot, named = _bot_of_form(request)
    if not named:
        messages.error(request, "There is no such bot: choose one of yours.")
        return _back(request, found)
    service = ladder_enter if enter else ladder_leave
    try:
        service(found, actor=request.user, bot=bot)
    except GameError as error:
        messages.error(request, refusal_text(error, found, bot))
        return _back(request, found)
    who = f"Bot {bot.name} is" if bot is not None else "You are"
    if enter:
        done = f"{who} entered in {found.name}."
        if not found.matchmaking:
            done += " Its matchmaking is paused: no new table is seated until it is on again."
    else:
        done = f"{who} out of {found.name}; a set already being played plays on to its end."
    messages.success(request, done)
    return _back(request, found)


@login_required
@require_POST
def enter(request: SignedInRequest, slug: str) -> HttpResponse:
    """Enter the person, or one of their bots (`bot`), in the ladder."""
    return _change(request, slug, enter=True)


@login_required
@require_POST
def leave(request: SignedInRequest, slug: str) -> HttpResponse:
    """Take the person, or one of their bots (`bot`), out of the ladder."""
    return _change(request, slug, enter=False)
