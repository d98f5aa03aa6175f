"""The layers of docs/architecture.md hold: the import contract passes, and no module hides an
import inside a function (the old way round a cycle between layers)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("engine", "bots", "clocks", "games", "league", "accounts", "api", "web", "staff", "config")
# Django loads an app's modules after its AppConfig: ready() is where the dispatcher connects.
ALLOWED = {("games/apps.py", "ready"), ("league/apps.py", "ready"), ("accounts/apps.py", "ready")}


def test_the_import_contract_is_kept():
    lint = Path(sys.executable).with_name("lint-imports")
    run = subprocess.run([str(lint)], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "0 broken" in run.stdout


def imports_inside_functions() -> list[str]:
    found = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            relative = path.relative_to(ROOT).as_posix()
            if "/migrations/" in relative:
                continue
            for node in ast.walk(ast.parse(path.read_text())):
                if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                    continue
                if (relative, node.name) in ALLOWED:
                    continue
                for inner in ast.walk(node):
                    if isinstance(inner, ast.Import | ast.ImportFrom):
                        found.append(f"{relative}:{inner.lineno} in {node.name}()")
    return found


def test_no_module_imports_inside_a_function():
    assert imports_inside_functions() == []
