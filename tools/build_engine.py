"""Build the compiled engine: the engine's hot modules compiled with mypyc (the pinned mypy of
requirements-dev.txt) into extension modules beside their sources, and engine/compiled.json,
the SHA-256 of every engine source they were built from (docs/architecture.md, "The compiled
engine"). `engine` uses them only while every source still matches (engine/__init__.py);
otherwise, and with UNO_ENGINE_PURE=1, it runs its sources alone.

    .venv/bin/python tools/build_engine.py        # `make run` and `make test` run it

Needs the C compiler Python's own extensions build with and Python's headers. Without them the
build fails, says so, and leaves a manifest that names no module: the engine runs pure Python
(the same rules, events and streams, slower), and make does not try again until an engine
source changes. Nothing built is committed (.gitignore).

The sources are compiled from a copy in build/engine/, where one thing differs: `State.fork`
and `State.copy` have their generated statements written in (`engine.state.copier_source`,
from the dataclass's fields, as the pure engine execs them), since a compiled class's methods
cannot be replaced after the class is made.
"""

from __future__ import annotations

import importlib.machinery
import importlib.metadata
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "engine"
WORK = ROOT / "build" / "engine"
SUFFIX = importlib.machinery.EXTENSION_SUFFIXES[0]
# The modules compiled: those a command, a listing, a fold and a deal go through. The rule
# families (rules/base.py and the families over it) stay Python: they make classes at run time
# (the precognitive modifier over any base) and keep per-family flags on the instances, which
# compiled classes do not allow; so does Variant (its decide and listing are bound per family).
MODULES = (
    "engine.cards",
    "engine.commands",
    "engine.dealing",
    "engine.events",
    "engine.scoring",
    "engine.state",
    "engine.rules.decision",
    "engine.rules.listing",
    "engine.rules.quick",
)
# Written in C, built beside the mypyc modules (engine/shared.c: engine/shared.py's read-only
# dict and list, which a Python subclass would make slower to read).
C_MODULES = ("engine.shared",)
# The training environment's hot modules (engine/env.py's observation encoding and per-step
# machinery; env.py itself, a pettingzoo AECEnv subclass, stays Python), built only where their
# optional numpy is installed: without it the engine's modules are built alone.
ENV_MODULES = ("engine.env_actions", "engine.env_spaces", "engine.env_chance", "engine.env_core")
# The compiled modules' shared library: engine/_compiled__mypyc<SUFFIX>.
GROUP = "engine._compiled"
MYPY_CONFIG = """[mypy]
python_version = 3.11
strict = True
"""
# C compiler flags added to mypyc's own (-O3 among them), for any x86-64 or other machine (no
# -march: the image is built on one machine and run on another). The compiled modules are one
# shared library whose functions call each other and the runtime's helpers (dict and list
# operations) included in it: -fno-semantic-interposition lets the compiler call (and inline)
# them directly instead of through the procedure linkage table, and -fno-plt calls
# libpython's functions through the global offset table directly (about 1.6% fewer
# instructions a bench game, docs/performance.md "Engine").
EXTRA_CFLAGS = ("-fno-semantic-interposition", "-fno-plt")
# Profile-guided: the modules are built once instrumented (-fprofile-generate), play the
# training run (tools/engine_training.py: games of every family, about a second), and are built
# again from what it counted (-fprofile-use), so the compiler lays out the hot paths of real
# games: about 2% fewer instructions a bench game and 4-5% less time (docs/performance.md,
# "Engine"). -fprofile-partial-training keeps what the run did not reach optimised as before.
# If the training run fails the second build is the plain one, and the build says so.
PROFILE_GENERATE = ("-fprofile-generate", "-fprofile-update=single")
PROFILE_USE = ("-fprofile-use", "-fprofile-partial-training", "-Wno-missing-profile")
SETUP = """
import os
import subprocess
import sys
from setuptools import Extension, setup
from mypyc.build import mypycify

training, paths = sys.argv[1], sys.argv[2:]
extensions = mypycify(["--config-file", "mypy.ini", *paths], group_name={group!r})
for extension in extensions:
    extension.extra_compile_args += {flags!r}
for module in {c_modules!r}:
    source = module.replace(".", "/") + ".c"
    extensions.append(Extension(module, [source], extra_compile_args=["-O2", *{flags!r}]))
plain = [list(extension.extra_compile_args) for extension in extensions]


def build(compile_args, link_args):
    for extension, args in zip(extensions, plain):
        extension.extra_compile_args = args + list(compile_args)
        extension.extra_link_args = list(link_args)
    setup(
        name="uno-engine-compiled",
        ext_modules=extensions,
        script_args=["build_ext", "--inplace", "--force"],
    )


build({generate!r}, {generate!r})
run = subprocess.run(
    [sys.executable, training],
    env={{
        **{{name: value for name, value in os.environ.items() if name != "UNO_ENGINE_PURE"}},
        "PYTHONPATH": os.getcwd(),
    }},
    capture_output=True,
    text=True,
)
if run.returncode != 0:
    build((), ())
    print("PROFILE: not used, the training run failed:", run.stdout[-1000:], run.stderr[-2000:])
else:
    try:
        build({use!r}, ())
    except (Exception, SystemExit) as error:  # the compiler refused the counts: build plainly
        build((), ())
        print("PROFILE: not used, the build with it failed:", str(error)[-1000:])
    else:
        print("PROFILE: used", run.stdout.strip())
"""

# Imported from the sources (no extension module may be older than them), for the digest and
# the generated fork and copy.
os.environ["UNO_ENGINE_PURE"] = "1"
sys.path.insert(0, str(ROOT))
import engine  # noqa: E402
from engine.state import copier_source  # noqa: E402


def module_path(root: Path, module: str, suffix: str) -> Path:
    return root / (module.replace(".", "/") + suffix)


def built_files(root: Path) -> list[Path]:
    return sorted(path for path in (root / "engine").rglob(f"*{SUFFIX}"))


def remove_built() -> None:
    """The extension modules of an earlier build, and its manifest."""
    for path in built_files(ROOT):
        path.unlink()
    (PACKAGE / "compiled.json").unlink(missing_ok=True)


def write_manifest(manifest: dict[str, object], package: Path = PACKAGE) -> None:
    (package / "compiled.json").write_text(json.dumps(manifest, indent=1) + "\n")


def built_manifest(
    compiled: tuple[str, ...], sources: dict[str, str], **more: object
) -> dict[str, object]:
    """What a build's manifest says: the suffix, its modules (compiled.py's and the C ones), the
    digest of the sources they were built from, and `more` (the installed files, mypy's
    version)."""
    return {"suffix": SUFFIX, "modules": list(compiled + C_MODULES), "sources": sources, **more}


def copy_sources() -> None:
    """The engine's sources in build/engine/engine, State's copies written in."""
    shutil.rmtree(WORK, ignore_errors=True)
    shutil.copytree(
        PACKAGE,
        WORK / "engine",
        ignore=shutil.ignore_patterns("__pycache__", f"*{SUFFIX}", "compiled.json"),
    )
    state = WORK / "engine" / "state.py"
    text = state.read_text()
    for name, deep in (("fork", False), ("copy", True)):
        placeholder = f"raise NotImplementedError  # generated: {name}"
        assignment = f'State.{name} = _copier("{name}", deep={deep})'
        assignment += "  # type: ignore[method-assign]\n"
        if text.count(placeholder) != 1 or text.count(assignment) != 1:
            raise RuntimeError(f"engine/state.py: no single placeholder and assignment of {name}")
        body = copier_source(deep, native=True).replace("\n", "\n        ")
        text = text.replace(placeholder, body)
        text = text.replace(assignment, "")
    state.write_text(text)
    (WORK / "mypy.ini").write_text(MYPY_CONFIG)
    (WORK / "setup.py").write_text(
        SETUP.format(
            group=GROUP,
            flags=list(EXTRA_CFLAGS),
            c_modules=list(C_MODULES),
            generate=PROFILE_GENERATE,
            use=PROFILE_USE,
        )
    )


def modules() -> tuple[str, ...]:
    """The modules this build compiles: the engine's, and the environment's where numpy is."""
    if importlib.util.find_spec("numpy") is None:
        return MODULES
    return MODULES + ENV_MODULES


def compile_modules(compiled: tuple[str, ...]) -> str:
    """Run mypyc and the C compiler in build/engine; return their output (raises on failure)."""
    paths = [str(module_path(Path(), module, ".py")) for module in compiled]
    # The training run imports the build's own modules: a manifest of them, as `install` will
    # write one beside the sources.
    write_manifest(
        built_manifest(compiled, engine.sources_digest(WORK / "engine")), WORK / "engine"
    )
    run = subprocess.run(
        [sys.executable, "setup.py", str(ROOT / "tools" / "engine_training.py"), *paths],
        cwd=WORK,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": ""},
    )
    if run.returncode != 0:
        raise RuntimeError(run.stdout[-4000:] + run.stderr[-4000:])
    return run.stdout


def install() -> list[str]:
    """Copy the built modules beside the sources; their paths."""
    installed = []
    for built in built_files(WORK):
        target = ROOT / built.relative_to(WORK)
        shutil.copy2(built, target)
        installed.append(target.relative_to(ROOT).as_posix())
    return installed


def check_import() -> None:
    """A fresh interpreter imports the compiled engine and plays a few commands with it."""
    probe = (
        "import engine\n"
        "assert engine.COMPILED, 'the engine did not load its compiled modules'\n"
        "import engine.state, engine.rules.quick\n"
        f"assert engine.state.__file__.endswith({SUFFIX!r}), engine.state.__file__\n"
        "v = engine.Variant.from_spec({'rules': 'official'})\n"
        "s = v.replay(v.start(2, seed=1))\n"
        "for _ in range(20):\n"
        "    s = v.replay(v.decide(s, v.legal_commands(s, s.to_act[0])[-1]), s)\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "UNO_ENGINE_PURE"}
    run = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, env=env
    )
    if run.returncode != 0:
        raise RuntimeError(run.stderr[-4000:])


def main() -> int:
    started = time.monotonic()
    remove_built()
    sources = engine.sources_digest(PACKAGE)
    compiled = modules()
    try:
        copy_sources()
        said = compile_modules(compiled)
        profiled = [line for line in said.splitlines() if line.startswith("PROFILE: ")]
        installed = install()
        write_manifest(
            built_manifest(
                compiled, sources, mypy=importlib.metadata.version("mypy"), files=installed
            )
        )
        check_import()
    except Exception as error:  # any failure leaves the pure engine
        remove_built()
        # Names no module and matches no source: the engine runs pure, and make's target is
        # up to date until an engine source changes.
        write_manifest({"built": False, "reason": str(error)[-2000:], "sources": sources})
        print(
            "tools/build_engine.py: the compiled engine was not built; the engine runs pure "
            f"Python (the same games, slower). Why:\n{str(error)[-2000:]}",
            file=sys.stderr,
        )
        return 1
    for line in profiled:
        print(f"tools/build_engine.py: {line[len('PROFILE: ') :]}")
    print(
        f"tools/build_engine.py: compiled {len(compiled)} engine modules with mypyc "
        f"and {len(C_MODULES)} in C "
        f"in {time.monotonic() - started:.0f} s"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
