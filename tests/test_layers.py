"""The layers of docs/architecture.md hold: the import contract passes, and no module hides an
import inside a function (the old way round a cycle between layers)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = (
    "analysis",
    "engine",
    "bots",
    "clocks",
    "games",
    "league",
    "accounts",
    "tables",
    "social",
    "chat",
    "ratings",
    "botcalls",
    "tournaments",
    "api",
    "web",
    "staff",
    "config",
)
# Django loads an app's modules after its AppConfig: ready() is where the dispatcher connects.
ALLOWED = {
    ("games/apps.py", "ready"),
    ("league/apps.py", "ready"),
    ("accounts/apps.py", "ready"),
    ("ratings/apps.py", "ready"),
    ("tournaments/apps.py", "ready"),
    ("analysis/apps.py", "ready"),
}


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


def layer_units() -> set[str]:
    """The modules and packages the layers contract of .importlinter names."""
    text = (ROOT / ".importlinter").read_text()
    block = text.split("[importlinter:contract:layers]", 1)[1].split("\n[", 1)[0]
    lines = block.split("layers =", 1)[1].splitlines()
    return {unit.strip() for line in lines if line.strip() for unit in line.split("|")}


def test_every_module_stands_on_a_named_layer():
    """No module escapes the layers contract by being left out of it (a module no line names
    could import anything): every module of the code's packages, but migrations and package
    faces, is a named unit or inside one."""
    units = layer_units()
    unplaced = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            relative = path.relative_to(ROOT)
            if "migrations" in relative.parts or path.name == "__init__.py":
                continue
            module = ".".join(relative.with_suffix("").parts)
            parts = module.split(".")
            if not any(".".join(parts[:n]) in units for n in range(1, len(parts) + 1)):
                unplaced.append(module)
    assert unplaced == []
