"""The arena as one file (docs/bots-api.md, "Trying a bot locally"): `python uno-arena.pyz
--command "node my_bot.mjs"` runs `python -m bots.arena` anywhere with Python 3.11+ and nothing
else, no clone of the repository. The site serves it (web/downloads.py, /downloads/uno-arena.pyz).

The file is a zip application (the standard library's zipapp format: a shebang line, then a zip
with a `__main__.py` at its top) holding the sources of exactly the modules bots/arena.py
imports, found by reading their import statements (and those of every package they stand in),
with a `__main__.py` that calls `bots.arena.main`. Only `.py` sources go in, never the compiled
engine's extension modules (they are built for one machine; engine/__init__.py imports the pure
engine, the same rules, from an archive). The archive's bytes depend on the sources alone (fixed
order, times and modes), so every process builds the same bytes for the same sources, and its
version is the SHA-256 of those sources. Standard library only.
"""

from __future__ import annotations

import ast
import hashlib
import io
import zipfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FILENAME = "uno-arena.pyz"
# The module it runs, and the project's packages its imports are followed into (the rest is the
# standard library, which the arena imports nothing beyond: tests/games/bots/test_bundle.py).
ENTRY = "bots.arena"
PACKAGES = ("bots", "engine")
# Every entry's time (zip's earliest) and mode: the bytes do not depend on the checkout.
STAMP = (1980, 1, 1, 0, 0, 0)
MODE = 0o100644 << 16

MAIN = '''"""The UNO league's arena in one file: your bot against the built-in bots, asked and
judged as the ladder asks and judges it, with no server. Needs Python 3.11 or newer, nothing else.

    python {filename} --url http://127.0.0.1:8080/ [--secret S]
    python {filename} --command "node my_bot.mjs"
    python {filename} --help

Version {version}: the SHA-256 of the sources it holds (the site's bots/ and engine/).
"""

import sys

VERSION = "{version}"

if sys.version_info < (3, 11):
    sys.exit("{filename} needs Python 3.11 or newer; this is " + sys.version.split()[0])

from bots import arena  # noqa: E402

sys.exit(arena.main(prog="{filename}", version="%(prog)s " + VERSION))
'''


@dataclass(frozen=True)
class Bundle:
    data: bytes  # the file
    version: str  # the sources' SHA-256, shortened: `--version` prints it
    digest: str  # the file's own SHA-256 (its strong ETag)
    modules: tuple[str, ...]  # the archive's module files, e.g. "engine/rules/base.py"


def _source(module: str, root: Path) -> Path | None:
    """The module's source file under root, or None (not one of the project's modules)."""
    if module.split(".")[0] not in PACKAGES:
        return None
    base = root.joinpath(*module.split("."))
    for path in (base / "__init__.py", base.with_suffix(".py")):
        if path.is_file():
            return path
    return None


def _imported(module: str, path: Path) -> set[str]:
    """Every module name the source's import statements may load, relative ones resolved: for
    `from a import b`, both `a` and `a.b` (which is a module or a name in `a`)."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_bytes(), str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1])
                base = f"{base}.{node.module}" if node.module else base
            else:
                base = node.module or ""
            names.add(base)
            names.update(f"{base}.{alias.name}" for alias in node.names)
    return names


def module_files(entry: str = ENTRY, root: Path = ROOT) -> dict[str, Path]:
    """The project's modules the entry imports, at any depth, with every package they stand in:
    their place in the archive (`bots/remote/wire.py`) -> their source."""
    found: dict[str, Path] = {}
    waiting = [entry]
    while waiting:
        module = waiting.pop()
        if module in found or (path := _source(module, root)) is None:
            continue
        found[module] = path
        parts = module.split(".")
        waiting += [".".join(parts[:i]) for i in range(1, len(parts))]
        waiting += sorted(_imported(module, path))
    return {path.relative_to(root).as_posix(): path for path in found.values()}


def build(root: Path = ROOT) -> Bundle:
    """The arena's zip application, built in memory from the sources under root."""
    files = {name: path.read_bytes() for name, path in sorted(module_files(root=root).items())}
    sources = hashlib.sha256()
    for name, data in files.items():
        sources.update(f"{name}\0{len(data)}\0".encode())
        sources.update(data)
    version = sources.hexdigest()[:16]
    files["__main__.py"] = MAIN.format(filename=FILENAME, version=version).encode()
    out = io.BytesIO()
    out.write(b"#!/usr/bin/env python3\n")
    with zipfile.ZipFile(out, "w") as archive:
        for name in ["__main__.py", *sorted(set(files) - {"__main__.py"})]:
            info = zipfile.ZipInfo(name, date_time=STAMP)
            info.external_attr = MODE
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, files[name], compresslevel=9)
    data = out.getvalue()
    return Bundle(
        data=data,
        version=version,
        digest=hashlib.sha256(data).hexdigest(),
        modules=tuple(sorted(set(files) - {"__main__.py"})),
    )
