"""The rules engine is pure Python: it neither imports nor loads Django."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import engine

ENGINE = Path(engine.__file__).resolve().parent
ROOT = ENGINE.parent

PROBE = """
import json, sys
import engine
from engine import Variant
variant = Variant.from_spec({"rules": "official", "precognitive": {"lane": 2}})
state = variant.replay(variant.start(3, seed=1))
variant.view(state, 0)
print(json.dumps(sorted(sys.modules)))
"""


def test_importing_the_engine_in_a_fresh_interpreter_loads_no_django_module():
    """Importing (and using) engine in a fresh python3 loads no module named django*."""
    result = subprocess.run(
        [sys.executable, "-c", PROBE],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        # Only the repository on the path; no DJANGO_SETTINGS_MODULE or other test set-up.
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
    )
    assert result.returncode == 0, result.stderr
    modules = json.loads(result.stdout)
    assert "engine" in modules
    assert [m for m in modules if m.startswith("django")] == []


def engine_files() -> list[Path]:
    files = sorted(ENGINE.rglob("*.py"))
    assert ENGINE / "__init__.py" in files and ENGINE / "rules" / "base.py" in files
    return files


def imported_modules(path: Path) -> list[str]:
    names = []
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.append(node.module)
        elif isinstance(node, ast.Call) and call_name(node) in ("import_module", "__import__"):
            names += [arg.value for arg in node.args if isinstance(arg, ast.Constant)]
    return names


def call_name(node: ast.Call) -> str:
    func = node.func
    return func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")


def test_no_file_under_engine_imports_django():
    """No file under engine imports django (import, from-import or importlib)."""
    offenders = {}
    for path in engine_files():
        names = [name for name in imported_modules(path) if name.split(".")[0] == "django"]
        if names:
            offenders[str(path.relative_to(ROOT))] = names
    assert offenders == {}
