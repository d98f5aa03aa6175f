"""A tournament's standings: every entry's points from the results of its finished tables and
its byes, ranked by tournaments/scoring.py `swiss_table` (its published tiebreaks; a rank may
be shared).

`standings` reads the `tournament-results` read model (the pages and the API); `live_standings`
reads the same results straight from the games' logs (the services, when a round ends). Both
fold the same lines (tournaments/results.py), so they agree once the projection has caught up.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from games.models import Game
from tournaments import results, scheduling, scoring
from tournaments.models import Entry, Result, Round, Tournament, TournamentGame


@dataclass(slots=True)
class StandingLine:
    rank: int
    entry: int
    name: str
    is_bot: bool
    withdrawn: bool
    points: float
    played: int = 0
    wins: int = 0
    byes: int = 0
    forfeits: int = 0
    # The tiebreaks (tournaments/scoring.py SWISS_TIEBREAKS): opponents' scores, card points.
    opponents: float = 0.0
    scored: int = 0

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True, slots=True)
class Played:
    """One finished table: its entries in seat order and their lines."""

    entries: tuple[int, ...]
    lines: tuple[results.Line, ...]
    round: int = 0
    game: int = 0


def standings(tournament: Tournament) -> list[StandingLine]:
    """From the read model (the `tournament-results` projection)."""
    rows = Result.objects.filter(tournament=tournament).order_by("game_id", "pk")
    tables: dict[int, list[results.Line]] = {}
    for row in rows:
        tables.setdefault(row.game_id, []).append(
            results.Line(row.entry_id, row.place, row.points, row.score, row.forfeited)
        )
    seats = {
        game: (entries, number)
        for game, entries, number in TournamentGame.objects.filter(
            round__tournament=tournament
        ).values_list("game_id", "entries", "round__number")
    }
    played = [
        Played(
            tuple(seats[game][0]),
            tuple(sorted(lines, key=lambda line: seats[game][0].index(line.entry))),
            seats[game][1],
            game,
        )
        for game, lines in sorted(tables.items(), key=lambda item: item[0])
        if game in seats
    ]
    return _rank(tournament, played)


def live_standings(tournament: Tournament) -> list[StandingLine]:
    """From the games' logs: every finished table's match-ended, read now."""
    return _rank(tournament, played_tables(tournament))


def played_tables(tournament: Tournament) -> list[Played]:
    tables = (
        TournamentGame.objects.filter(
            round__tournament=tournament, game__status=Game.Status.MATCH_OVER
        )
        .select_related("round")
        .order_by("game_id")
    )
    played = []
    for table in tables:
        record = results.match_ended(table.game_id)
        if record is not None:
            lines = results.table_lines(record, table.entries, tournament.table_size)
            played.append(
                Played(tuple(table.entries), tuple(lines), table.round.number, table.game_id)
            )
    return played


def _rank(tournament: Tournament, played: Sequence[Played]) -> list[StandingLine]:
    entries = list(
        Entry.objects.filter(tournament=tournament).select_related("user", "bot").order_by("pk")
    )
    lines = {
        entry.pk: StandingLine(
            rank=0,
            entry=entry.pk,
            name=entry.name,
            is_bot=entry.is_bot,
            withdrawn=entry.withdrawn,
            points=0.0,
        )
        for entry in entries
    }
    for table in played:
        for line in table.lines:
            standing = lines[line.entry]
            standing.played += 1
            standing.points += line.points
            standing.wins += line.place == 1 and not line.forfeited
            standing.forfeits += line.forfeited
            standing.scored += line.score
    rounds = list(Round.objects.filter(tournament=tournament).values_list("number", "byes"))
    if tournament.format == Tournament.Format.KNOCKOUT:
        return _knockout_rank(tournament, lines, played, rounds)
    if tournament.format == Tournament.Format.DUPLICATE:
        return _duplicate_rank(lines, played, rounds)
    if tournament.format == Tournament.Format.ARENA:
        return _arena_rank(tournament, lines, played)
    bye = results.bye_points(tournament.table_size)
    for _, byes in rounds:
        for entry in byes:
            lines[entry].byes += 1
            lines[entry].points += bye
    swiss_lines = scoring.swiss_table(
        [as_scheduling(line) for line in lines.values()], history(played), tournament.table_size
    )
    ranked = []
    for swiss in swiss_lines:
        standing = lines[swiss.entrant]
        standing.rank = swiss.rank
        standing.opponents = round(swiss.opponents, 6)
        ranked.append(standing)
    return ranked


def as_scheduling(line: StandingLine) -> scheduling.Standing:
    return scheduling.Standing(
        entrant=line.entry, points=line.points, byes=line.byes, scored=float(line.scored)
    )


def history(
    played: Iterable[Played],
) -> list[tuple[scheduling.Table, Sequence[scheduling.EntrantId]]]:
    """Each finished table with its entries best place first (the tiebreaks' history)."""
    return [
        (
            scheduling.Table(seats=table.entries),
            [line.entry for line in sorted(table.lines, key=lambda line: (line.place, line.entry))],
        )
        for table in played
    ]


def _knockout_rank(
    tournament: Tournament,
    lines: dict[int, StandingLine],
    played: Sequence[Played],
    rounds: Sequence[tuple[int, list[int]]],
) -> list[StandingLine]:
    """A cup's standings: the furthest round reached first, then the place at that round's
    table (a bye there before the place of anyone who played), then the seeding; entrants out
    in the same round at the same place share a rank. `points` is the placement points
    earned on the way, for information."""
    reached: dict[int, tuple[int, int]] = {}
    for number, byes in rounds:
        for entry in byes:
            lines[entry].byes += 1
            reached[entry] = max(reached.get(entry, (0, 0)), (number, 0))
    for table in played:
        for result in table.lines:
            # (round, -place): later rounds first; within one, the better place.
            at = (table.round, -result.place)
            if at > reached.get(result.entry, (0, 0)):
                reached[result.entry] = at
    seeds = {entry: position for position, entry in enumerate(tournament.seeding)}

    def went(standing: StandingLine) -> tuple[int, int]:
        number, place = reached.get(standing.entry, (0, 0))
        return (-number, -place if place else 0)

    ordered = sorted(
        lines.values(), key=lambda one: (went(one), seeds.get(one.entry, len(seeds)), one.entry)
    )
    for position, standing in enumerate(ordered):
        before = ordered[position - 1] if position else None
        same = before is not None and went(before) == went(standing)
        standing.rank = before.rank if same and before is not None else position + 1
    return ordered


def _duplicate_rank(
    lines: dict[int, StandingLine],
    played: Sequence[Played],
    rounds: Sequence[tuple[int, list[int]]],
) -> list[StandingLine]:
    """A duplicate event's standings (scoring.duplicate_scores): each game's placement points
    compared with those of everyone who held the same seat of the same round's deal, summed;
    equal totals share a rank. A bye scores nothing (0: as if level with the field)."""
    held: dict[tuple[int, int], dict[int, int]] = {}
    for table in played:
        for seat, line in enumerate(table.lines):
            held.setdefault((table.round, seat), {})[line.entry] = round(line.points)
    totals = scoring.duplicate_scores(held)
    for _, byes in rounds:
        for entry in byes:
            lines[entry].byes += 1
    for entry, standing in lines.items():
        standing.points = round(totals.get(entry, 0.0), 6)
    ordered = sorted(lines.values(), key=lambda one: (-one.points, one.entry))
    for position, standing in enumerate(ordered):
        before = ordered[position - 1] if position else None
        same = before is not None and before.points == standing.points
        standing.rank = before.rank if same and before is not None else position + 1
    return ordered


def _arena_rank(
    tournament: Tournament, lines: dict[int, StandingLine], played: Sequence[Played]
) -> list[StandingLine]:
    """An arena's leaderboard (scoring.arena_leaderboard): each game's place points, doubled
    on a streak of wins, then wins, then fewer games; equal lines share a rank. The games in
    the order played: an entrant's games follow one another, so their ids are their order."""
    finishes: dict[int, list[int]] = {entry: [] for entry in lines}
    for table in sorted(played, key=lambda one: one.game):
        for line in table.lines:
            finishes[line.entry].append(line.place)
    ordered = []
    for arena in scoring.arena_leaderboard(finishes, tournament.table_size):
        standing = lines[arena.entrant]
        standing.points = float(arena.points)
        standing.rank = arena.rank
        ordered.append(standing)
    return ordered
