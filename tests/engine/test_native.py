"""The compiled engine and its pure-Python fallback (docs/architecture.md, "The compiled engine").

The whole suite runs whichever engine `import engine` loads: the compiled one where `make` built
it (CI), the pure one elsewhere. These tests run the pinned event streams, the quick steps'
checks and the training environment's tests under the pure engine in a child process
(UNO_ENGINE_PURE=1) as well, so both ways are held to the same games and observations in every
run, and check that stale compiled modules are never used.
"""

from __future__ import annotations

import dataclasses
import json
import os
import shutil
import subprocess
import sys
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import pytest

import engine
import engine.rules.quick
import engine.state

ROOT = Path(engine.__file__).resolve().parent.parent
PURE_SET = [
    "tests/engine/test_streams_pinned.py",
    "tests/engine/test_quick.py",
    "tests/engine/test_fast_paths.py",
    "tests/engine/test_bad_input.py",
    "tests/engine/test_shared.py",
    # The training environment's compiled modules (env_actions, env_spaces, env_chance,
    # env_core) and their pure fallback: the pinned observations, the observation kept in
    # place, the whole API.
    "tests/engine/test_env.py",
    "tests/engine/test_imitation.py",
]


def loaded_from(module: object) -> str:
    return str(getattr(module, "__file__", ""))


def test_the_engine_says_which_modules_it_runs():
    compiled = loaded_from(engine.state).endswith(EXTENSION_SUFFIXES[0])
    assert engine.COMPILED is compiled
    assert loaded_from(engine.rules.quick).endswith(".py") is not compiled
    # The families stay Python either way.
    assert loaded_from(sys.modules["engine.rules.base"]).endswith(".py")


def test_the_training_environment_runs_its_compiled_modules_with_the_engine():
    """Where numpy is installed, the build compiles the environment's observation encoding
    and step machinery with the engine; the AECEnv shell (engine/env.py) stays Python."""
    pytest.importorskip("pettingzoo")
    import engine.env
    import engine.env_actions
    import engine.env_chance
    import engine.env_core
    import engine.env_spaces

    for module in (engine.env_actions, engine.env_chance, engine.env_core, engine.env_spaces):
        assert loaded_from(module).endswith(EXTENSION_SUFFIXES[0]) is engine.COMPILED, module
    assert loaded_from(engine.env).endswith(".py")
    if engine.COMPILED:
        manifest = json.loads((ROOT / "engine" / "compiled.json").read_text())
        modules = {
            "engine.env_actions",
            "engine.env_chance",
            "engine.env_core",
            "engine.env_spaces",
        }
        assert modules <= set(manifest["modules"])


# The training environment's whole-match tests under the pure engine: in the suite for the plain
# official family and a precognitive one (the lanes' precommits), every family in the slow run.
# The rest of PURE_SET (the pinned streams and observations, the quick steps, the fast paths,
# bad input, imitation) runs whole in both.
ENV_MATCHES = "masked_agents or kept_in_place or pettingzoos_api"
ENV_FAMILIES_IN_SUITE = "official or blind"


def run_pure(*selection: str) -> None:
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", *selection],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=900,
        env={**os.environ, "UNO_ENGINE_PURE": "1"},
    )
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]


def test_the_pure_engine_plays_the_pinned_streams_and_the_quick_steps_checks():
    """The pure-Python engine, forced while the compiled one may be built beside it, plays the
    pinned streams byte for byte, passes the quick steps' and fast paths' checks, and gives the
    training environment's pinned observations (where pettingzoo is installed; else those
    tests skip themselves)."""
    run_pure(*PURE_SET, "-k", f"not ({ENV_MATCHES}) or {ENV_FAMILIES_IN_SUITE}")
    probe = subprocess.run(
        [
            sys.executable,
            "-c",
            "import engine, engine.state; print(engine.COMPILED, engine.state.__file__)",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "UNO_ENGINE_PURE": "1"},
    )
    assert probe.stdout.split() == ["False", str(ROOT / "engine" / "state.py")]


def test_compiled_modules_are_used_only_with_the_sources_they_were_built_from(tmp_path):
    """A manifest that names other sources, another interpreter's suffix, a missing module or
    a failed build: the engine runs its sources."""
    package = tmp_path / "engine"
    shutil.copytree(
        ROOT / "engine", package, ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.json")
    )
    suffix = EXTENSION_SUFFIXES[0]
    (package / f"state{suffix}").write_bytes(b"")
    good = {
        "suffix": suffix,
        "modules": ["engine.state"],
        "sources": engine.sources_digest(package),
    }

    def usable(manifest: object) -> bool:
        (package / "compiled.json").write_text(json.dumps(manifest))
        return engine.compiled_usable(package)

    assert usable(good)
    assert not usable({**good, "suffix": ".cpython-312-x86_64-linux-gnu.so"})
    assert not usable({**good, "modules": ["engine.state", "engine.events"]})
    assert not usable({"built": False, "reason": "no compiler", "sources": good["sources"]})
    (package / "cards.py").write_text((package / "cards.py").read_text() + "\n# changed\n")
    assert not usable(good)
    (package / "compiled.json").unlink()
    assert not engine.compiled_usable(package)


@pytest.mark.skipif(not engine.COMPILED, reason="the compiled engine is not built here")
def test_the_compiled_state_forks_and_copies_every_field():
    """The compiled State's fork and copy are written in by the build from the same fields the
    pure engine generates them from: every field is carried over, shared or copied."""
    state = engine.State(seats=3, seed="s")
    values = {}
    for index, field in enumerate(dataclasses.fields(engine.State)):
        current = getattr(state, field.name)
        value = [[f"card-{index}"]] if isinstance(current, list) else current
        if isinstance(current, int) and not isinstance(current, bool):
            value = 100 + index
        setattr(state, field.name, value)
        values[field.name] = value
    fork, copy = state.fork(), state.copy()
    for name, value in values.items():
        assert getattr(fork, name) is value, name
        assert getattr(copy, name) == value, name
    assert copy.hands is not state.hands and copy.hands[0] is not state.hands[0]


@pytest.mark.slow
def test_the_pure_engine_plays_the_environments_matches_of_every_family():
    """The environment's whole-match tests the suite's pure run leaves out (the other families)."""
    run_pure("tests/engine/test_env.py", "-k", f"({ENV_MATCHES}) and not ({ENV_FAMILIES_IN_SUITE})")
