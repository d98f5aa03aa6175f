"""The analysis on the site (docs/analysis.md, "Where you see it"): the replay page's section for
the hand being viewed (each seat's chance to win the hand move by move, drawn on the server as
inline SVG; the costly decisions marked at their steps with the better option named; the luck
and decisions split per hand and for the match), its progress while it runs (an htmx poll of
the section), the button that asks for one, and the player page's cost per decision per family
over time. Only the geometry and the words are made here; templates/games/_analysis.html and
templates/players/_decision_costs.html draw them."""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from analysis import reads, tasks
from analysis.errors import AnalysisHidden
from analysis.models import GameAnalysis
from analysis.report import Decision, HandReport, MatchAnalysis, SeatHand, SeatSummary
from engine.commands import (
    ACCEPT,
    CALL_UNO,
    CATCH,
    CHALLENGE,
    CHOOSE_COLOR,
    DRAW,
    PASS,
    PLAY,
    SWAP,
)
from engine.events import HAND_STARTED
from frontdoor.charts import Tick
from games import event_reads
from games.actors import seats_held
from games.errors import GameError, GameNotFound
from games.models import Game
from ratings.pools import pool_name
from web.cards import card_name
from web.charts import sparkline
from web.names import Names, names_at
from web.sentences import opening

# At most this many costly decisions listed for a hand (the costliest).
COSTLY_SHOWN = 8
POLL_SECONDS = 2
WIDTH, HEIGHT = 480, 250
# The left margin holds the ticks ("100%") and, turned upright beside them, the axis's label.
LEFT, RIGHT, TOP, BOTTOM = 78, WIDTH - 12, 12, HEIGHT - 34
# A costly mark's hit area, in the chart's units: on a phone's column (about 330 px for 480
# units) 2 x 20 units are about 27 px, above the 24 px of WCAG 2.5.8 (Target Size, Minimum).
MARK_HIT = 20


def _unit(points: int) -> str:
    return "point" if abs(points) == 1 else "points"


def _points(value: float) -> str:
    """A value in a hand's points, signed and rounded: "+35", "−12", "0"."""
    rounded = round(value)
    if rounded > 0:
        return f"+{rounded}"
    if rounded < 0:
        return f"−{-rounded}"
    return "0"


def option_words(command: dict[str, Any], names: Names, *, noun: bool = False) -> str:
    """An option in words: as done ("played red 7", `noun=False`) or as a choice ("red 7",
    "drawing a card", `noun=True`)."""
    kind = command.get("type")
    card = command.get("card")
    if kind == PLAY and isinstance(card, str):
        name = _card(card)
        if command.get("color"):
            name += f" as {command['color']}"
        if command.get("uno"):
            name += " calling UNO"
        return name if noun else f"played {name}"
    if kind == DRAW:
        return "drawing" if noun else "drew"
    if kind == PASS:
        return "passing" if noun else "passed"
    if kind == CALL_UNO:
        return "calling UNO" if noun else "called UNO"
    if kind == CHALLENGE:
        return "challenging" if noun else "challenged"
    if kind == ACCEPT:
        return "accepting the draw" if noun else "accepted the draw"
    if kind == CHOOSE_COLOR:
        return f"choosing {command.get('color')}" if noun else f"chose {command.get('color')}"
    if kind == CATCH:
        target = names.who(command.get("target"), start=False)
        return f"catching {target}" if noun else f"caught {target}"
    if kind == SWAP:
        target = names.who(command.get("target"), start=False)
        return f"swapping with {target}" if noun else f"swapped hands with {target}"
    words = str(kind or "a move").replace("-", " ")
    return words if noun else f"chose {words}"


def _card(code: str) -> str:
    try:
        return card_name(code)
    except KeyError:
        return code


@dataclass(frozen=True, slots=True)
class Costly:
    """One costly decision as the page says it."""

    version: int
    seat: int
    who: str
    cost: float
    text: str  # "Ana played red 7; blue skip was better by 12 points"
    move: str  # "Ana played red 7"
    better: str  # "blue skip was better by 12 points"
    url: str  # the replay at the decision
    x: float
    y: float


@dataclass(frozen=True, slots=True)
class Line:
    seat: int
    name: str
    points: str
    style: int  # a dash pattern and colour per seat (never colour alone)


@dataclass(frozen=True, slots=True)
class Row:
    """A row of the table beside the chart: the step and each seat's chance in per cent."""

    version: int
    chances: list[int]
    here: bool


@dataclass(frozen=True, slots=True)
class Account:
    """One seat's luck and decisions, in words and figures."""

    seat: int
    name: str
    points: int
    deal: str
    draws: str
    luck: str
    cost: str
    decisions: int
    text: str  # "The deal gave Ana +35 points and the draws −4; Ana's decisions cost 12 points"


@dataclass(frozen=True, slots=True)
class Chart:
    width: int
    height: int
    left: int
    right: int
    top: int
    bottom: int
    lines: list[Line]
    y_ticks: list[Tick]
    marks: list[Costly]
    at_x: float | None
    steps: int
    middle: int  # the plot's vertical middle, where the y axis's label sits
    hit: int  # a costly mark's hit radius


def _account(seat: SeatHand | SeatSummary, names: Names) -> Account:
    who = names.who(seat.seat)
    whose = names.whose(seat.seat, start=False)
    if isinstance(seat, SeatSummary):
        luck, points = seat.luck, seat.score
        given = f"{_points(luck)} {_unit(round(luck))}"
        text = f"The cards gave {names.who(seat.seat, start=False)} {given}; "
        deal = draws = ""
    else:
        luck, points = seat.deal_luck + seat.draw_luck, seat.points
        deal, draws = _points(seat.deal_luck), _points(seat.draw_luck)
        dealt = f"{deal} {_unit(round(seat.deal_luck))}"
        text = f"The deal gave {names.who(seat.seat, start=False)} {dealt} and the draws {draws}; "
    cost = seat.decision_cost
    text += (
        f"{whose} decisions cost {round(cost)} {_unit(round(cost))}"
        if cost >= 0.5
        else f"{whose} decisions cost nothing"
    )
    return Account(
        seat=seat.seat,
        name=who,
        points=points,
        deal=deal,
        draws=draws,
        luck=_points(luck),
        cost=str(round(cost)),
        decisions=seat.decisions,
        text=text + ".",
    )


def hand_at(game: Game, at: int) -> int | None:
    """The number of the hand being viewed at event `at` (its hand-started's `hand`)."""
    started = event_reads.load(game.pk, until=at, types={HAND_STARTED})
    return int(started[-1]["hand"]) if started else None


def _report_for(found: MatchAnalysis, hand: int | None, at: int) -> HandReport | None:
    if not found.hands:
        return None
    for report in found.hands:
        if report.hand == hand:
            return report
    # Else the hand whose series starts last at or before `at`.
    starting = [(r.chances[0][0] if r.chances else 0, i) for i, r in enumerate(found.hands)]
    before = [(v, i) for v, i in starting if v <= at]
    return found.hands[max(before)[1] if before else 0]


def _decision_words(d: Decision, names: Names) -> tuple[str, str]:
    """The move ("Ana played red 7") and what was better ("blue skip was better by 12
    points")."""
    chosen = option_words(d.chosen.command, names)
    best = option_words(d.best.command, names, noun=True)
    cost = round(d.cost)
    return f"{names.who(d.seat)} {chosen}", f"{best} was better by {cost} {_unit(cost)}"


def chart(
    report: HandReport, decisions: list[Decision], names: Names, at: int, replay_url: str, view: str
) -> Chart | None:
    """Each seat's chance to win the hand over its steps, the costly decisions on their seat's
    line; None with fewer than two steps."""
    series = report.chances
    if len(series) < 2:
        return None
    count = len(series)

    def x(index: int) -> float:
        return round(LEFT + index * (RIGHT - LEFT) / (count - 1), 1)

    def y(chance: float) -> float:
        return round(BOTTOM - max(0.0, min(1.0, chance)) * (BOTTOM - TOP), 1)

    seats = len(series[0][1])
    lines = [
        Line(
            seat=seat,
            name=names.who(seat),
            points=" ".join(f"{x(i)},{y(c[seat])}" for i, (_, c) in enumerate(series)),
            style=seat % 4,
        )
        for seat in range(seats)
    ]
    index_of = {version: i for i, (version, _) in enumerate(series)}
    versions = [version for version, _ in series]

    def nearest(version: int) -> int:
        if version in index_of:
            return index_of[version]
        later = [i for i, v in enumerate(versions) if v >= version]
        return later[0] if later else count - 1

    marks = []
    for d in decisions:
        i = nearest(d.version)
        chance = series[i][1][d.seat] if d.seat < seats else 0.0
        move, better = _decision_words(d, names)
        marks.append(
            Costly(
                version=d.version,
                seat=d.seat,
                who=names.who(d.seat),
                cost=d.cost,
                text=f"{move}; {better}",
                move=move,
                better=better,
                url=f"{replay_url}?at={max(d.version, 1)}&as={view}",
                x=x(i),
                y=y(chance),
            )
        )
    at_x = x(nearest(at)) if versions[0] <= at <= versions[-1] else None
    return Chart(
        width=WIDTH,
        height=HEIGHT,
        left=LEFT,
        right=RIGHT,
        top=TOP,
        bottom=BOTTOM,
        lines=lines,
        y_ticks=[Tick(y(p / 100), f"{p}%") for p in (0, 25, 50, 75, 100)],
        marks=marks,
        at_x=at_x,
        steps=count,
        middle=(TOP + BOTTOM) // 2,
        hit=MARK_HIT,
    )


def section(
    request: HttpRequest, game: Game, at: int, view: str, you: int | None = None
) -> dict[str, Any]:
    """The replay page's analysis section for the hand at event `at`, seen with the eyes `view`
    (the seat `you` is the viewer's own, named "you"); `hidden`: the game's whole log is not
    public, and nothing of its analysis is said."""
    try:
        from_row = _visible(game)
    except AnalysisHidden:
        return {"hidden": True}
    replay_url = reverse("web:replay", args=[game.pk])
    out: dict[str, Any] = {
        "hidden": False,
        "game": game.pk,
        "at": at,
        "as": view,
        "row": from_row,
        "poll": from_row is not None
        and from_row.status in (GameAnalysis.Status.QUEUED, GameAnalysis.Status.RUNNING),
        "poll_seconds": POLL_SECONDS,
        "can_ask": request.user.is_authenticated
        and (from_row is None or from_row.status == GameAnalysis.Status.FAILED),
        "percent": _percent(from_row),
        "costly_floor": round(settings.ANALYSIS_COSTLY_POINTS),
    }
    found = reads.analysis_of(from_row) if from_row is not None else None
    if found is None:
        return out
    names = Names(names_at(game), you)
    hand = hand_at(game, at)
    report = _report_for(found, hand, at)
    out["done"] = True
    out["match"] = [_account(s, names) for s in found.summaries]
    if report is None:
        return out
    costly = sorted(
        (
            d
            for d in found.decisions
            if d.hand == report.hand and d.cost >= settings.ANALYSIS_COSTLY_POINTS
        ),
        key=lambda d: -d.cost,
    )[:COSTLY_SHOWN]
    drawn = chart(report, sorted(costly, key=lambda d: d.version), names, at, replay_url, view)
    out.update(
        hand=report.hand,
        hands=[
            HandLink(
                hand=h.hand,
                url=f"{replay_url}?at={max(h.chances[0][0], 1)}&as={view}",
                current=h.hand == report.hand,
            )
            for h in found.hands
            if h.chances
        ],
        precision=_precision(found.playouts),
        hand_accounts=[_account(s, names) for s in report.seats],
        chart=drawn,
        costly=drawn.marks if drawn else [],
        rows=[
            Row(version=v, chances=[round(c * 100) for c in chances], here=v == at)
            for v, chances in report.chances
        ],
        seats=[names.who(s) for s in range(found.seats)],
        decisions_in_hand=sum(1 for d in found.decisions if d.hand == report.hand),
    )
    return out


@dataclass(frozen=True, slots=True)
class HandLink:
    """A link to the replay at a hand's start, where the section shows that hand."""

    hand: int
    url: str
    current: bool


@dataclass(frozen=True, slots=True)
class Precision:
    """How rough a point of the chart is: each is the share of `games` playouts a seat won,
    a binomial proportion; near 50% its standard error is 50/sqrt(games) percentage points
    (`one`), and two standard errors (`two`) hold the true chance about 19 times in 20."""

    games: int
    one: int
    two: int


def _precision(playouts: int) -> Precision:
    games = max(1, playouts)
    return Precision(
        games=games, one=round(50 / math.sqrt(games)), two=round(100 / math.sqrt(games))
    )


def _visible(game: Game) -> GameAnalysis | None:
    from_row = None
    try:
        _, from_row = reads.visible_row(game.pk)
    except GameNotFound:
        # No analysis (NoAnalysis is a GameNotFound) or no game: nothing to show but the button.
        pass
    return from_row


def _percent(row: GameAnalysis | None) -> int | None:
    if row is None or not row.total:
        return None
    return min(100, round(100 * row.done / row.total))


@require_GET
def panel(request: HttpRequest, game_id: int) -> HttpResponse:
    """The section alone, for the replay page's poll while the analysis runs."""
    found = Game.objects.filter(pk=game_id).first()
    if found is None:
        raise Http404(f"there is no game {game_id}")
    at = _int(request.GET.get("at"), 1)
    view = request.GET.get("as") or "all"
    seat = view.isascii() and view.isdigit() and len(view) < 4
    if view not in ("all", "spectator") and not seat:
        view = "all"
    held = seats_held(request.user, found.seats.all())
    you = int(view) if seat and int(view) in held else None
    at = min(max(at, 1), found.version)
    context = {"analysis": section(request, found, at, view, you)}
    return render(request, "games/_analysis.html", context)


def _int(value: str | None, default: int) -> int:
    try:
        return int(value) if value else default
    except ValueError:
        return default


@require_POST
def ask(request: HttpRequest, game_id: int) -> HttpResponse:
    """The replay page's button: queue the game's analysis, back to the replay."""
    back = reverse("web:replay", args=[game_id])
    at = _int(request.POST.get("at"), 0)
    if at > 0:
        back += f"?at={at}"
    if not request.user.is_authenticated:
        return HttpResponseRedirect(f"{reverse('login')}?next={back}")
    try:
        tasks.request(game_id, user_id=request.user.pk)
    except GameNotFound as error:
        raise Http404(error.message) from error
    except GameError as error:
        messages.error(request, opening(error.message))
    else:
        messages.success(request, "Analysis asked for: it appears here as it runs.")
    return HttpResponseRedirect(back)


# ---------------------------------------------------------------------------- the player page


@dataclass(frozen=True, slots=True)
class FamilyCosts:
    """A person's cost per decision in one pool: a line per month, and the trend per game."""

    pool: str
    name: str
    months: list[tuple[str, int, int, str]]  # (month, games, decisions, mean cost)
    games: int
    decisions: int
    mean: str
    trend: Any  # web.charts.Sparkline | None


def decision_costs(user_id: int) -> list[FamilyCosts]:
    """The player page's "Decisions" panel: per pool, the mean cost per decision by month and
    a sparkline over the games (lower is better)."""
    by_pool: dict[str, list[reads.CostPoint]] = defaultdict(list)
    for point in reads.cost_history(user_id):
        by_pool[point.pool].append(point)
    out = []
    for pool, points in sorted(by_pool.items()):
        months: dict[str, list[reads.CostPoint]] = defaultdict(list)
        for point in points:
            months[point.finished.strftime("%Y-%m")].append(point)
        decisions = sum(p.decisions for p in points)
        cost = sum(p.cost for p in points)
        out.append(
            FamilyCosts(
                pool=pool,
                name=pool_name(pool),
                months=[
                    (
                        month,
                        len(ps),
                        sum(p.decisions for p in ps),
                        f"{sum(p.cost for p in ps) / max(1, sum(p.decisions for p in ps)):.2f}",
                    )
                    for month, ps in sorted(months.items())
                ],
                games=len(points),
                decisions=decisions,
                mean=f"{cost / max(1, decisions):.2f}",
                trend=sparkline([p.mean for p in points]),
            )
        )
    return out
