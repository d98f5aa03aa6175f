"""docs/api.md's and docs/bots-api.md's tables of error codes are the codes the API answers
(issue 32 item 7): every code the code can answer is in a table, and every code in a table is
one the code has.

The codes are read from the source: every `raise` of a typed error (games.errors.GameError and
its kinds, the input boundary's BadInput, DRF's exceptions and ours) with its `code=` (a string,
or a module constant), or, without one, its class's own `code` (DRF's `default_code`); DRF's own
codes, which any view may answer; and the health check's and the 503's codes. A table of codes
is any table of either page whose header has a column named "Code" or "Codes"; its codes are
the backquoted words of that column but a body's field names. docs/rules.md lists the engine's
reason codes (a 422's `code`), kept equal by tests/test_rules_doc.py; a table here may name
some of them."""

from __future__ import annotations

import ast
import functools
import re
from collections.abc import Iterator
from pathlib import Path

from rest_framework import exceptions

from api import unavailable
from api.errors import NOT_FOUND
from botcalls.reasons import REASONS
from games import health

ROOT = Path(__file__).resolve().parents[2]
# Every package a request to /api/ reaches (api/ imports them; the layers contract below it).
PACKAGES = (
    "api", "games", "league", "tables", "chat", "ratings", "accounts", "bots", "clocks",
    "social", "frontdoor", "botcalls", "tournaments", "analysis",
)  # fmt: skip
SKIPPED = {"migrations", "management", "admin.py", "tests"}
# The typed errors' roots: a raise of one of these or of a kind of them is an answer's code.
ROOTS = {"GameError", "BadInput", "APIException"}
DRF = {
    cls.__name__: cls.default_code
    for cls in vars(exceptions).values()
    if isinstance(cls, type) and issubclass(cls, exceptions.APIException)
}
# DRF's NotFound is answered with the site's spelling, `not-found` (api/errors.py).
DRF["NotFound"] = NOT_FOUND
# Codes the API answers that no typed error names: DRF's ValidationError answered as `invalid`
# (api/errors.py), the health check's (games/health.py), the 503 of a database that is down
# (api/unavailable.py), and the reason codes of a bot's calls (botcalls/reasons.py; its own
# test keeps docs/bots-api.md "Reason codes" equal to them, tests/games/test_bot_calls.py).
ANSWERED = set(REASONS) | {
    "invalid",
    health.DATABASE_UNAVAILABLE,
    health.BROKER_UNAVAILABLE,
    health.NO_WORKERS,
    unavailable.CODE,
}
# DRF's own answers any view may give: a wrong method, an unreadable or unacceptable body.
FRAMEWORK = {
    exceptions.MethodNotAllowed.default_code,
    exceptions.NotAcceptable.default_code,
    exceptions.UnsupportedMediaType.default_code,
    exceptions.ParseError.default_code,
    exceptions.NotAuthenticated.default_code,
    exceptions.AuthenticationFailed.default_code,
    exceptions.PermissionDenied.default_code,
    NOT_FOUND,
    exceptions.Throttled.default_code,
}


def sources() -> Iterator[Path]:
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            if not SKIPPED.intersection(path.relative_to(ROOT).parts):
                yield path


def name_of(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def classes(trees: dict[Path, ast.Module]) -> tuple[dict[str, set[str]], dict[str, str]]:
    """Every class of the sources by name: its bases' names, and its own `code` if it sets one."""
    bases: dict[str, set[str]] = {}
    codes: dict[str, str] = {}
    for tree in trees.values():
        for node in ast.walk(tree):
            if not isinstance(node, ast.ClassDef):
                continue
            bases[node.name] = {name for base in node.bases if (name := name_of(base))}
            for item in node.body:
                if (
                    isinstance(item, ast.Assign)
                    and isinstance(item.value, ast.Constant)
                    and isinstance(item.value.value, str)
                    and any(name_of(t) in ("code", "default_code") for t in item.targets)
                ):
                    codes[node.name] = item.value.value
    return bases, codes


def typed_errors(bases: dict[str, set[str]]) -> set[str]:
    """The names of the typed errors: the roots, DRF's exceptions, and every kind of them."""
    family = set(ROOTS) | set(DRF)
    grown = True
    while grown:
        more = {name for name, parents in bases.items() if parents & family} - family
        family |= more
        grown = bool(more)
    return family


def default_code(name: str, bases: dict[str, set[str]], codes: dict[str, str]) -> str | None:
    """A class's own code, or its nearest ancestor's (DRF's `default_code` for DRF's)."""
    if name in codes:
        return codes[name]
    if name in DRF:
        return str(DRF[name])
    for parent in sorted(bases.get(name, ())):
        if (code := default_code(parent, bases, codes)) is not None:
            return code
    return None


def constants(tree: ast.Module) -> dict[str, str]:
    """A module's string constants (`NAME = "..."`), for a `code=NAME`."""
    found = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant):
            for target in node.targets:
                if isinstance(target, ast.Name) and isinstance(node.value.value, str):
                    found[target.id] = node.value.value
    return found


@functools.cache
def raised_codes() -> frozenset[str]:
    """The codes the API's sources raise, read from their syntax trees once a run (a second of
    CPU each time)."""
    trees = {path: ast.parse(path.read_text()) for path in sources()}
    bases, codes = classes(trees)
    family = typed_errors(bases)
    found: set[str] = set()
    for tree in trees.values():
        named = constants(tree)
        for node in ast.walk(tree):
            # A typed error made (raised, or kept to be raised or reported).
            if not isinstance(node, ast.Call) or (kind := name_of(node.func)) not in family:
                continue
            given = [kw.value for kw in node.keywords if kw.arg == "code"]
            if not given:
                code = default_code(kind, bases, codes)
                if code is not None:
                    found.add(code)
            elif isinstance(given[0], ast.Constant) and isinstance(given[0].value, str):
                found.add(given[0].value)
            elif isinstance(given[0], ast.Name) and given[0].id in named:
                found.add(named[given[0].id])
    return frozenset(found)


def answered_codes() -> set[str]:
    """Every code the API can answer (an engine's reason aside: docs/rules.md)."""
    return set(raised_codes()) | ANSWERED | FRAMEWORK


def engine_codes() -> set[str]:
    pattern = re.compile(r'IllegalCommand\(\s*"([a-z-]+)"')
    return {
        code
        for path in (ROOT / "engine").rglob("*.py")
        for code in pattern.findall(path.read_text())
    }


# The fields an error's body may add to `code` and `message` (api/errors.py), which a table's
# code column names beside the codes.
BODY_FIELDS = {"current_version", "until", "wait", "errors"}


def code_tables(page: str) -> dict[str, set[str]]:
    """The codes of every table of `page` with a "Code"/"Codes" column, by the table's header
    line (for the failure message)."""
    lines = (ROOT / "docs" / page).read_text().splitlines()
    tables: dict[str, set[str]] = {}
    index = 0
    while index < len(lines):
        line = lines[index]
        following = lines[index + 1] if index + 1 < len(lines) else ""
        if not (line.startswith("|") and re.fullmatch(r"\|( ?-+ ?\|)+", following.strip())):
            index += 1
            continue
        header = [cell.strip().lower() for cell in line.strip("|").split("|")]
        columns = [n for n, cell in enumerate(header) if re.match(r"codes?\b", cell)]
        index += 2
        codes: set[str] = set()
        while index < len(lines) and lines[index].startswith("|"):
            cells = lines[index].strip("|").split("|")
            for column in columns:
                if column < len(cells):
                    codes |= set(re.findall(r"`([a-z][a-z0-9_-]*)`", cells[column]))
            index += 1
        if columns:
            codes -= BODY_FIELDS
            tables[f"{page}, the table above line {index + 1}: {line}"] = codes
    return tables


def documented() -> dict[str, set[str]]:
    return {**code_tables("api.md"), **code_tables("bots-api.md")}


def test_the_pages_have_tables_of_codes():
    tables = documented()
    assert len([name for name in tables if name.startswith("api.md")]) >= 10
    assert any(name.startswith("bots-api.md") for name in tables)
    assert {"version-conflict", "too-late", "token-scope"} <= set().union(*tables.values())


def test_every_code_the_api_can_answer_is_in_a_table():
    codes = answered_codes()
    # The collector sees the kinds of codes there are: a class's own, a raise's, a constant's.
    assert {"game-not-found", "ladder-for-bots", "token-scope", "invalid-characters"} <= codes
    missing = codes - set().union(*documented().values())
    assert not missing, f"codes the API answers that no table lists: {sorted(missing)}"


def test_every_code_in_a_table_is_one_the_code_has():
    known = answered_codes() | engine_codes()
    for table, codes in documented().items():
        unknown = codes - known
        assert not unknown, f"{table}\n  codes no code answers: {sorted(unknown)}"
