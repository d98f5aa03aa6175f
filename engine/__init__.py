"""The UNO rules engine: pure Python, no Django.

from engine import Variant, IllegalCommand
variant = Variant.from_spec({"rules": "official", "options": {"target": 500}})
events = variant.start(seats=4, seed=7)
state = variant.replay(events)
variant.legal_commands(state, seat)
new = variant.decide(state, {"type": "play", "seat": 1, "card": "red-7", "uno": False})
state = variant.replay(new, state)
variant.view(state, seat)
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from importlib.machinery import (
    BYTECODE_SUFFIXES,
    EXTENSION_SUFFIXES,
    SOURCE_SUFFIXES,
    FileFinder,
    SourceFileLoader,
    SourcelessFileLoader,
)
from pathlib import Path

# The compiled engine (docs/architecture.md "The compiled engine"): `make` builds the hot
# modules with mypyc into extension modules beside their sources (tools/build_engine.py), and
# writes MANIFEST: the SHA-256 of every engine source they were built from. They are used only
# while every source still matches and UNO_ENGINE_PURE is not set: otherwise the submodules are
# imported from their sources alone (the pure-Python engine, the same rules and events).
PACKAGE = Path(__file__).resolve().parent
MANIFEST = PACKAGE / "compiled.json"


def sources_digest(package: Path) -> dict[str, str]:
    """Every source file of the engine package (Python and C) -> its SHA-256."""
    return {
        path.relative_to(package).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted([*package.rglob("*.py"), *package.rglob("*.c")])
    }


def compiled_usable(package: Path = PACKAGE) -> bool:
    """The extension modules were built from exactly these sources, for this interpreter."""
    try:
        manifest = json.loads((package / "compiled.json").read_text())
    except (OSError, ValueError):
        return False
    return (
        isinstance(manifest, dict)
        and manifest.get("suffix") == EXTENSION_SUFFIXES[0]
        and manifest.get("sources") == sources_digest(package)
        and all(
            (package.parent / f"{module.replace('.', '/')}{EXTENSION_SUFFIXES[0]}").is_file()
            for module in manifest.get("modules", ["?"])
        )
    )


def _import_sources_only(paths: list[str]) -> None:
    """Make the engine's submodules (and engine.rules's) load from .py files, never from the
    extension modules beside them: the finder of each directory knows no extension suffix. An
    entry that is no directory, the engine inside a zip archive (the site's one-file arena,
    bots/bundle.py), keeps its own importer: zipimport loads no extension module anyway."""
    loaders = [(SourceFileLoader, SOURCE_SUFFIXES), (SourcelessFileLoader, BYTECODE_SUFFIXES)]
    for entry in paths:
        if not os.path.isdir(entry):
            continue
        for directory in (entry, os.path.join(entry, "rules")):
            sys.path_importer_cache[directory] = FileFinder(directory, *loaders)


# True when the compiled modules run; False for the pure-Python engine.
COMPILED = os.environ.get("UNO_ENGINE_PURE", "") in ("", "0") and compiled_usable()
if not COMPILED:
    _import_sources_only(list(__path__))

from engine.cards import COLORS, DECK, POINTS  # noqa: E402
from engine.commands import IllegalCommand  # noqa: E402
from engine.events import evolve  # noqa: E402
from engine.state import HAND_OVER, MATCH_OVER, PLAYING, State  # noqa: E402
from engine.variant import RULES_VERSION, RulesVersionMismatch, Variant  # noqa: E402

__all__ = [
    "COMPILED",
    "COLORS",
    "DECK",
    "HAND_OVER",
    "MATCH_OVER",
    "PLAYING",
    "POINTS",
    "RULES_VERSION",
    "IllegalCommand",
    "RulesVersionMismatch",
    "State",
    "Variant",
    "evolve",
]
