"""The image runs the compiled engine (docs/architecture.md, "The compiled engine"): the
Dockerfile builds it in a stage of its own from the image's base, stops the image's build when
the engine does not load compiled, and copies the built modules and their manifest beside the
sources; .dockerignore keeps a checkout's own build (made for another machine's Python and C
library) out of the build context. No Docker runs here: these read the two files."""

from __future__ import annotations

import ast
import re
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SUFFIX = EXTENSION_SUFFIXES[0]
CHECK = "sys.exit(0 if engine.COMPILED else"


def stages() -> list[list[str]]:
    """The Dockerfile's stages, each a list of instructions (continuations joined, no
    comments), its FROM first."""
    text = (ROOT / "Dockerfile").read_text().replace("\\\n", " ")
    found: list[list[str]] = []
    for line in text.splitlines():
        line = " ".join(line.split())
        if not line or line.startswith("#"):
            continue
        if line.startswith("FROM "):
            found.append([])
        found[-1].append(line)
    return found


def build_constants() -> dict[str, object]:
    """tools/build_engine.py's module lists, read without importing it (importing it sets
    UNO_ENGINE_PURE)."""
    tree = ast.parse((ROOT / "tools" / "build_engine.py").read_text())
    return {
        node.targets[0].id: ast.literal_eval(node.value)
        for node in tree.body
        if isinstance(node, ast.Assign)
        and isinstance(node.targets[0], ast.Name)
        and node.targets[0].id in ("MODULES", "C_MODULES", "ENV_MODULES", "GROUP")
    }


def built_files() -> list[str]:
    """Every file a build can install beside the sources (the environment's modules where numpy
    is installed), and the manifest."""
    names = build_constants()
    modules = [*names["MODULES"], *names["C_MODULES"], *names["ENV_MODULES"]]  # type: ignore[misc]
    files = [module.replace(".", "/") + SUFFIX for module in modules]
    files.append(str(names["GROUP"]).replace(".", "/") + "__mypyc" + SUFFIX)
    return [*files, "engine/compiled.json"]


def test_an_engine_stage_builds_the_compiled_engine_and_stops_the_image_unless_it_loads() -> None:
    engine, final = stages()[0], stages()[-1]
    assert engine[0] == "FROM python:3.11-slim AS engine"
    # The same base: extension modules fit one interpreter's suffix and one C library.
    assert final[0] == "FROM python:3.11-slim"
    runs = [line for line in engine if line.startswith("RUN ")]
    build = next(line for line in runs if "tools/build_engine.py" in line)
    assert "python tools/build_engine.py &&" in build and CHECK in build
    # mypy at requirements-dev.txt's pin, read from it.
    assert "grep -x 'mypy==.*' requirements-dev.txt" in " ".join(runs)
    pins = re.findall(r"^mypy==\S+$", (ROOT / "requirements-dev.txt").read_text(), re.M)
    assert len(pins) == 1
    # The stage copies the engine and the build's two scripts, which import nothing else of the
    # project (the build's own setup.py imports setuptools and mypyc).
    assert "COPY engine/ engine/" in engine
    assert "COPY tools/build_engine.py tools/engine_training.py tools/" in engine
    project = {path.parent.name for path in ROOT.glob("*/__init__.py")}
    assert {"engine", "games", "web"} <= project
    for script in ("build_engine.py", "engine_training.py"):
        tree = ast.parse((ROOT / "tools" / script).read_text())
        imported = {
            (node.module or "").split(".")[0]
            for node in ast.walk(tree)
            if isinstance(node, ast.ImportFrom)
        } | {
            alias.name.split(".")[0]
            for node in ast.walk(tree)
            if isinstance(node, ast.Import)
            for alias in node.names
        }
        assert imported & project <= {"engine"}, script


def test_the_image_copies_every_built_file_after_its_sources_and_has_no_compiler() -> None:
    final = stages()[-1]
    sources = final.index("COPY . .")
    copied = [
        source
        for line in final[sources:]
        if line.startswith("COPY --from=engine ")
        for source in line.split()[2:-1]
    ]
    for path in built_files():
        assert any(re.fullmatch(glob(source), f"/app/{path}") for source in copied), path
    # ... and checks the manifest matches the sources it was copied beside.
    assert any(line.startswith("RUN ") and CHECK in line for line in final[sources:])
    # Neither the C compiler nor mypy in the image.
    for line in final:
        assert "apt-get" not in line and "mypy" not in line and "requirements-dev" not in line


def glob(pattern: str) -> str:
    """A regular expression for one of Docker's patterns (Go's filepath.Match, and `**`): `*`
    and `?` match within a name, `**` any number of directories."""
    regex = re.escape(pattern).replace(r"\*\*/", "(?:.*/)?").replace(r"\*\*", ".*")
    return regex.replace(r"\*", "[^/]*").replace(r"\?", "[^/]")


def ignored(path: str, patterns: list[str]) -> bool:
    """Docker's .dockerignore rule for a path of the context: a match on a directory excludes
    what is under it; the last matching pattern decides (`!` readmits)."""
    result = False
    for pattern in patterns:
        readmit = pattern.startswith("!")
        regex = glob(pattern.lstrip("!").strip("/"))
        parts = path.split("/")
        prefixes = ["/".join(parts[:count]) for count in range(1, len(parts) + 1)]
        if any(re.fullmatch(regex, prefix) for prefix in prefixes):
            result = not readmit
    return result


def test_dockerignore_keeps_a_checkouts_compiled_engine_out() -> None:
    lines = (ROOT / ".dockerignore").read_text().splitlines()
    patterns = [line.strip() for line in lines if line.strip() and not line.startswith("#")]
    for path in [*built_files(), "build/engine/setup.py", "build/engine/engine/state.py"]:
        assert ignored(path, patterns), path
    for path in ("engine/state.py", "engine/shared.c", "engine/rules/quick.py"):
        assert not ignored(path, patterns), path
    assert not ignored("tools/build_engine.py", patterns)
