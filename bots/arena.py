"""Try a bot locally without the server: `python -m bots.arena`, the engine and the bots only.

    python -m bots.arena --url http://127.0.0.1:8080/ [--secret S]
    python -m bots.arena --command "python my_bot.py"
        [--rules official | --rules '{"rules": "newno", "options": {"target": 100}}']
        [--seats 4] [--games 3] [--seed 0] [--opponents greedy,colour-control]
        [--timeout 1.0] [--window 0.3]

No database, no Django, no broker: the matches are played in this process through the engine
and the built-in strategies (bots/driver.py, as the workers drive them), and the bot under test
is asked what the ladder asks it, the way the ladder asks it:

- a webhook bot (`--url`) is POSTed the ladder's request, `{"game", "variant", "seat",
  "version", "view", "legal", "deadline"}` (plus `"optional": true` for an out-of-turn window),
  signed with `X-Uno-Signature: sha256=<HMAC-SHA256 of the body under --secret>`, by the
  server's own exchange (bots/remote/wire.py: one deadline for the whole exchange, one retry of
  a refused connection, no redirects, at most 64 KiB of answer). Loopback URLs are allowed;
  private addresses are refused as the server refuses them.
- a command bot (`--command`) is started once and speaks JSON lines: the same request as one
  line on its stdin, its answer as one line on its stdout, within the same time limit (the
  first answer STARTUP seconds more, for the program's start; an answer that comes after its
  deadline is read and thrown away; its stderr is passed through).

Each decision is judged as the service judges it (bots/remote/webhook_turns.py): a timeout, a
failed call, an answer that is not JSON, a command for another seat ("wrong-seat"), a malformed
or system command, or one the rules refuse is a strike, reported with the reason the service
gives (`timeout: ...`, `error: ...`, `illegal answer ...: <code>: <message>`) and the fallback's
reason code (bot-timeout, bot-error, bot-illegal); the default bot (greedy, seeded by the game
and version as on the server) then makes that one decision. Out-of-turn windows (uno calls,
catches, newno jump-ins) are offered as the workers offer them (bots/remote/windows.py): with
`--window` seconds (at most the time limit), where `null` declines and a late, failed or refused
answer costs nothing. The exit status is 1 when the ladder would have struck the bot, 0 when
not, 2 for bad options.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import IO, Any

from bots.arena_bots import Bot, BotGone, CommandBot, WebhookBot
from bots.driver import Command, Event, chances, new_chances, play, step
from bots.remote import wire
from bots.strategies import STRATEGIES, Strategy, find_strategy
from engine import MATCH_OVER, PLAYING, IllegalCommand, State, Variant
from engine.commands import SYSTEM_COMMANDS, parse

# The server's defaults (config/settings.py): BOTS_WEBHOOK_TIMEOUT, BOTS_WINDOW_SECONDS,
# BOTS_FALLBACK_STRATEGY, BOTS_STRIKES_TO_SUSPEND.
TIMEOUT = 1.0
WINDOW = 0.3
FALLBACK = "greedy"
STRIKES_TO_SUSPEND = 3
# Commands of the built-in seats in one append at most (GAMES_ADVANCE_BATCH).
BATCH = 2000
# Commands before a match is given up as one that does not end (bots/simulation.py's cap).
COMMAND_CAP = 200_000
YOUR_BOT = "your bot"
# The outcome of an answer the service refuses (bots/remote/strikes.py ILLEGAL).
ILLEGAL = "illegal"
# The fallback's reason for each failed outcome (games/seat_facts.py FallbackReason).
FALLBACK_REASON = {wire.TIMEOUT: "bot-timeout", wire.ERROR: "bot-error", ILLEGAL: "bot-illegal"}


@dataclass(frozen=True, slots=True)
class Strike:
    game: int
    version: int
    seat: int
    # The fallback's reason code: bot-timeout, bot-error or bot-illegal.
    code: str
    # The reason as the service records it for the bot's owner.
    reason: str


@dataclass
class Tally:
    """One contender's results (a strategy's summed over its seats), as `manage.py arena`."""

    seats: int = 0
    wins: float = 0.0
    places: int = 0
    points: int = 0
    hands_won: int = 0


@dataclass
class Report:
    variant: dict[str, Any]
    opponents: list[str]
    strikes: list[Strike] = field(default_factory=list)
    tallies: dict[str, Tally] = field(default_factory=dict)
    # Per game: the names seated and the points of each seat.
    games: list[tuple[list[str], list[int]]] = field(default_factory=list)
    asked: int = 0
    answered: int = 0
    # Why the run stopped before its games were played (the command bot's program ended).
    stopped: str = ""
    windows: int = 0
    windows_answered: int = 0
    latency: float = 0.0
    most_in_a_row: int = 0

    @property
    def struck(self) -> bool:
        return bool(self.strikes or self.stopped)


class _Match:
    """One game: the built-in seats driven in-process, the bot asked for its seat."""

    def __init__(
        self,
        variant: Variant,
        names: list[str],
        seat: int,
        number: int,
        seed: str,
        bot: Bot,
        limits: tuple[float, float],
        report: Report,
        in_a_row: list[int],
    ) -> None:
        self.variant, self.seat, self.number, self.bot = variant, seat, number, bot
        self.timeout, self.window = limits
        self.report, self.in_a_row = report, in_a_row
        self.strategies: dict[int, Strategy] = {
            s: find_strategy(name) for s, name in enumerate(names) if s != seat
        }
        self.state: State = variant.replay(variant.start(len(names), seed=seed))
        # The server's version: the deal is the first append; then each run of built-in moves,
        # each answer of the bot and each fallback is one more.
        self.version = 1
        self.commands = 0
        # The version at which the bot was struck and the fallback had no move (a newno open
        # choice): the seat is not asked again there (bots/turns.py).
        self.passed_at: int | None = None

    def play(self) -> State:
        remote = frozenset({self.seat})
        while self.state.status != MATCH_OVER:
            if self.commands > COMMAND_CAP:
                raise RuntimeError(f"game {self.number} passed {COMMAND_CAP} commands")
            strategies = dict(self.strategies)
            limit = BATCH
            if self.passed_at == self.version:
                # Struck here with no fallback move: the open choice goes on without the bot,
                # for one command (the others' answer, or the close-window at once).
                strategies[self.seat] = _decline
                limit = 1
            run = play(
                self.variant,
                self.state,
                strategies,
                # Seeded by the game and version, as the workers seed a run (bots/turns.py).
                random.Random(f"{self.number}:{self.version}"),
                limit=limit,
                keep_events=False,
                remote=remote if self.seat not in strategies else frozenset(),
            )
            self.state = run.state
            # A run of the built-in seats' commands is one append, as on the server.
            self.version += 1 if run.commands else 0
            self.commands += run.commands
            if self.state.status == MATCH_OVER:
                break
            if run.window:
                self._offer_window()
                continue
            if run.commands == 0 and self.seat in self.state.to_act:
                self._turn()
                continue
            if run.commands == 0:
                raise RuntimeError(f"game {self.number} stopped: no seat could move")
        return self.state

    def _request(self, timeout: float, *, optional: bool = False) -> dict[str, Any]:
        payload: dict[str, Any] = {
            "game": self.number,
            "variant": self.variant.spec,
            "seat": self.seat,
            "version": self.version,
            "view": self.variant.view(self.state, self.seat),
            "legal": self.variant.legal_commands(self.state, self.seat),
            "deadline": (datetime.now(UTC) + timedelta(seconds=timeout)).isoformat(
                timespec="microseconds"
            ),
        }
        if optional:
            payload["optional"] = True
        return payload

    def _refusal(self, command: object) -> str | None:
        """Why the service would refuse `command` from the bot's seat now (as
        bots/remote/webhook_turns.py submit_answer and games/commands.py), None if it takes it."""
        if not isinstance(command, dict) or command.get("seat") != self.seat:
            return f"wrong-seat: the answer is no command for seat {self.seat}"
        try:
            parsed = parse(command, self.state.seats)
            if parsed["type"] in SYSTEM_COMMANDS:
                return f"system-command: {parsed['type']} is sent by the system only"
            self.variant.decide(self.state, parsed)
        except IllegalCommand as error:
            return f"{error.code}: {error.message}"
        return None

    def _apply(self, command: Command) -> list[Event]:
        events, self.state = step(self.variant, self.state, command)
        self.version += 1
        self.commands += 1
        return events

    def _turn(self) -> None:
        """Ask the bot for its decision, as the ladder does; the fallback on a failure."""
        answer = self.bot.ask(self._request(self.timeout), self.timeout)
        self.report.asked += 1
        self.report.latency += answer.latency
        outcome, reason = answer.outcome, f"{answer.outcome}: {answer.detail}"
        if outcome == wire.OK:
            refused = self._refusal(answer.command)
            if refused is None:
                self.report.answered += 1
                self.in_a_row[0] = 0
                self._after(self._apply(answer.command))
                return
            outcome = ILLEGAL
            reason = f"illegal answer {answer.command!r} at version {self.version}: {refused}"
        self._strike(FALLBACK_REASON[outcome], reason)
        # The default bot makes that one decision, seeded as on the server (clocks/fallback.py).
        rng = random.Random(f"{self.number}:{self.version}")
        run = play(self.variant, self.state, {self.seat: find_strategy(FALLBACK)}, rng, limit=1)
        if not run.commands:
            self.passed_at = self.version
            return
        self.state = run.state
        self.version += 1  # the fallback's events are one append
        self.commands += run.commands
        self._after(run.events)

    def _after(self, events: list[Event]) -> None:
        """The bot's decision (or the fallback's) may open a chance for it (an uno call): its
        window is offered next, as the workers offer one after every append."""
        windows = new_chances(frozenset({self.seat}), events, self.state)
        if self.seat in chances(self.state, owed=windows.owed, jump=windows.jump):
            self._offer_window()

    def _offer_window(self) -> None:
        if self.state.status != PLAYING or not self.variant.free_commands(self.state, self.seat):
            return
        limit = min(self.window, self.timeout)
        answer = self.bot.ask(self._request(limit, optional=True), limit)
        self.report.windows += 1
        # null declines; a late, failed or refused answer costs nothing (bots/remote/windows.py).
        if answer.outcome != wire.OK or answer.command is None:
            return
        if self._refusal(answer.command) is None:
            self.report.windows_answered += 1
            self._after(self._apply(answer.command))

    def _strike(self, code: str, reason: str) -> None:
        self.report.strikes.append(Strike(self.number, self.version, self.seat, code, reason))
        self.in_a_row[0] += 1
        self.report.most_in_a_row = max(self.report.most_in_a_row, self.in_a_row[0])


def _decline(view: dict[str, Any], legal: list[Command], rng: random.Random) -> None:
    return None


def run(
    bot: Bot,
    variant: Variant,
    *,
    seats: int = 4,
    games: int = 3,
    seed: int = 0,
    opponents: Sequence[str] = ("greedy", "colour-control"),
    timeout: float = TIMEOUT,
    window: float = WINDOW,
) -> Report:
    """Play `games` matches of `variant` with the bot in a different seat each game and the
    `opponents` cycled over the others; what the ladder would have struck, and the results."""
    report = Report(variant.spec, list(opponents))
    in_a_row = [0]
    for number in range(1, games + 1):
        names = [opponents[i % len(opponents)] for i in range(seats - 1)]
        seat = (number - 1) % seats
        names.insert(seat, YOUR_BOT)
        match = _Match(
            variant,
            names,
            seat,
            number,
            f"arena:{seed}:{number}",
            bot,
            (timeout, window),
            report,
            in_a_row,
        )
        try:
            state = match.play()
        except BotGone as gone:
            report.stopped = f"game {number}: {gone}"
            break
        places = list(state.places or [])
        firsts = places.count(1)
        for s, name in enumerate(names):
            tally = report.tallies.setdefault(name, Tally())
            tally.seats += 1
            tally.wins += 1 / firsts if places and places[s] == 1 else 0
            tally.places += places[s] if places else 0
            tally.points += state.scores[s]
            tally.hands_won += state.hands_won[s]
        report.games.append((names, list(state.scores)))
    return report


def write_report(report: Report, out: IO[str]) -> None:
    played = len(report.games)
    out.write(
        f"{json.dumps(report.variant)}: {played} game{'s' if played != 1 else ''} against "
        f"{', '.join(report.opponents)}\n"
    )
    for strike in report.strikes:
        out.write(
            f"strike: game {strike.game} version {strike.version} seat {strike.seat} "
            f"{strike.code}: {strike.reason}\n"
        )
    if report.stopped:
        out.write(f"stopped in {report.stopped} (whatever it wrote to stderr is above)\n")
    width = max((len(name) for name in report.tallies), default=0)
    out.write(
        f"{'':<{width}} {'seats':>6} {'wins':>6} {'win rate':>9} {'mean place':>11} "
        f"{'points':>8} {'hands won':>10}\n"
    )
    for name in [YOUR_BOT, *dict.fromkeys(report.opponents)]:
        tally = report.tallies.get(name)
        if tally is None:
            continue
        out.write(
            f"{name:<{width}} {tally.seats:>6} {tally.wins:>6g} "
            f"{tally.wins / tally.seats:>9.1%} {tally.places / tally.seats:>11.2f} "
            f"{tally.points / tally.seats:>8.1f} {tally.hands_won / tally.seats:>10.2f}\n"
        )
    for number, (names, points) in enumerate(report.games, start=1):
        pairs = enumerate(zip(names, points, strict=True))
        seats = ", ".join(f"{s} {name} {p}" for s, (name, p) in pairs)
        out.write(f"game {number} points per seat: {seats}\n")
    latency = f"{report.latency / report.asked:.3f} s" if report.asked else "-"
    out.write(
        f"your bot: {report.asked} decisions asked, {report.answered} answered legally, "
        f"{report.windows} windows offered, {report.windows_answered} taken, "
        f"mean latency {latency}\n"
    )
    codes: dict[str, int] = {}
    for strike in report.strikes:
        codes[strike.code] = codes.get(strike.code, 0) + 1
    summary = ", ".join(f"{n} {code}" for code, n in sorted(codes.items()))
    out.write(f"strikes: {len(report.strikes)}{f' ({summary})' if summary else ''}\n")
    if report.most_in_a_row >= STRIKES_TO_SUSPEND:
        out.write(
            f"the ladder would have suspended the bot: {report.most_in_a_row} strikes in a row "
            f"(it suspends at {STRIKES_TO_SUSPEND})\n"
        )


def variant_from(text: str) -> Variant:
    """A family name ("official", "newno"...) or a JSON variant spec."""
    text = text.strip()
    spec = json.loads(text) if text.startswith("{") else {"rules": text}
    if not isinstance(spec, dict):
        raise ValueError("a variant spec is a JSON object")
    return Variant.from_spec(spec)


def parser(prog: str = "python -m bots.arena", version: str = "") -> argparse.ArgumentParser:
    """The options; `--version` where the runner has one (the site's one file, bots/bundle.py)."""
    parsing = argparse.ArgumentParser(
        prog=prog,
        description="Play a webhook bot (--url) or a command bot (--command) against the "
        "built-in bots, with the ladder's requests, limits and judgement, and print what the "
        "ladder would have struck and the results. Exit status 1 if it would have struck it.",
    )
    kind = parsing.add_mutually_exclusive_group(required=True)
    kind.add_argument("--url", help="the webhook bot's URL (loopback, or public)")
    kind.add_argument(
        "--command", help="the command that starts a bot speaking JSON lines on stdin/stdout"
    )
    parsing.add_argument(
        "--secret", default="arena", help="the webhook bot's HMAC secret (default: arena)"
    )
    parsing.add_argument(
        "--rules",
        "--variant",
        dest="rules",
        default="official",
        help="a family (official, basic-plus, newno, censorship) or a JSON variant spec",
    )
    parsing.add_argument("--seats", type=int, default=4)
    parsing.add_argument("--games", type=int, default=3)
    parsing.add_argument("--seed", type=int, default=0)
    parsing.add_argument(
        "--opponents",
        default="greedy,colour-control",
        help=f"built-in bots cycled over the other seats ({', '.join(STRATEGIES)})",
    )
    parsing.add_argument(
        "--timeout",
        type=float,
        default=TIMEOUT,
        help=f"seconds for a decision, the whole exchange (the server's default: {TIMEOUT})",
    )
    parsing.add_argument(
        "--window",
        type=float,
        default=WINDOW,
        help=f"seconds for an out-of-turn window (the server's default: {WINDOW})",
    )
    if version:
        parsing.add_argument("--version", action="version", version=version)
    return parsing


def main(
    argv: Sequence[str] | None = None,
    out: IO[str] | None = None,
    *,
    prog: str = "python -m bots.arena",
    version: str = "",
) -> int:
    out = out or sys.stdout
    parsing = parser(prog, version)
    opts = parsing.parse_args(argv)
    opponents = [name.strip() for name in opts.opponents.split(",") if name.strip()]
    try:
        variant = variant_from(opts.rules)
        variant.start(opts.seats, seed=0)
        for name in opponents:
            find_strategy(name)
    except ValueError as error:
        parsing.error(str(error))
    if opts.games < 1 or not opponents:
        parsing.error("--games must be at least 1, and --opponents name a bot")
    if opts.timeout <= 0 or opts.window <= 0:
        parsing.error("--timeout and --window must be more than 0 seconds")
    if opts.url:
        try:
            wire.check_url(opts.url, allow_loopback=True)
        except wire.RefusedURL as error:
            parsing.error(f"refused: {error}")
        bot: Bot = WebhookBot(opts.url, opts.secret)
    else:
        try:
            bot = CommandBot(opts.command)
        except (OSError, ValueError) as error:
            parsing.error(f"cannot start {opts.command!r}: {error}")
    try:
        report = run(
            bot,
            variant,
            seats=opts.seats,
            games=opts.games,
            seed=opts.seed,
            opponents=opponents,
            timeout=opts.timeout,
            window=opts.window,
        )
    finally:
        bot.close()
    write_report(report, out)
    out.flush()
    return 1 if report.struck else 0


if __name__ == "__main__":
    sys.exit(main())
