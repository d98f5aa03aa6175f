"""The shared commands and events (engine/shared.py, docs/engine.md "Shared commands and
events"): read like a dict and a list everywhere, refuse every change, copy to plain values;
the C version the compiled engine loads (engine/shared.c) behaves as the Python one."""

from __future__ import annotations

import copy
import importlib.util
import json
import pickle
from pathlib import Path
from types import ModuleType

import orjson
import pytest

import engine
import engine.shared
from engine import Variant
from engine.cards import DECK

ROOT = Path(engine.__file__).resolve().parent


def _python_version() -> ModuleType:
    """engine/shared.py itself, whichever version `import engine.shared` loaded."""
    spec = importlib.util.spec_from_file_location("shared_as_python", ROOT / "shared.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


VERSIONS = {"loaded": engine.shared, "python": _python_version()}


@pytest.fixture(params=sorted(VERSIONS))
def shared(request: pytest.FixtureRequest) -> ModuleType:
    return VERSIONS[request.param]


def test_the_compiled_engine_loads_the_c_version():
    loaded = str(engine.shared.__file__)
    assert loaded.endswith(".py") is not engine.COMPILED, loaded


def test_a_shared_dict_reads_as_a_dict(shared: ModuleType) -> None:
    play = shared.ReadOnlyDict({"type": "play", "seat": 1, "card": "red-7", "uno": False})
    assert isinstance(play, dict)
    assert play["card"] == "red-7" and play.get("color") is None and "uno" in play
    assert play == {"type": "play", "seat": 1, "card": "red-7", "uno": False}
    assert list(play) == ["type", "seat", "card", "uno"] and len(play) == 4
    assert json.dumps(play) == '{"type": "play", "seat": 1, "card": "red-7", "uno": false}'
    assert orjson.loads(orjson.dumps(play)) == play
    with pytest.raises(KeyError):
        play["color"]
    for plain in (play.copy(), dict(play), {**play}, copy.copy(play), copy.deepcopy(play)):
        assert type(plain) is dict and plain == play
        plain["uno"] = True  # a copy is the caller's own
    assert play["uno"] is False
    unpickled = pickle.loads(pickle.dumps(play))
    assert type(unpickled) is dict and unpickled == play
    assert type(play | {"uno": True}) is dict and play["uno"] is False


def test_a_shared_dict_refuses_every_change(shared: ModuleType) -> None:
    play = shared.ReadOnlyDict({"type": "play", "seat": 1})
    changes = [
        lambda: play.__setitem__("seat", 2),
        lambda: play.__delitem__("seat"),
        lambda: play.update(seat=2),
        lambda: play.pop("seat"),
        lambda: play.popitem(),
        lambda: play.clear(),
        lambda: play.setdefault("uno", True),
    ]
    for change in changes:
        with pytest.raises(TypeError, match="shared by every game"):
            change()
    with pytest.raises(TypeError, match="shared by every game"):
        play["seat"] = 3
    with pytest.raises(TypeError, match="shared by every game"):
        play |= {"seat": 3}
    assert play == {"type": "play", "seat": 1}


def test_a_shared_list_reads_as_a_list_and_refuses_every_change(shared: ModuleType) -> None:
    seats = shared.ReadOnlyList([2])
    assert isinstance(seats, list) and seats == [2] and seats[0] == 2 and seats[-1:] == [2]
    assert json.dumps(seats) == "[2]" and orjson.dumps(seats) == b"[2]"
    assert type(seats + [3]) is list and seats + [3] == [2, 3]
    for plain in (seats.copy(), list(seats), seats[:], copy.copy(seats), copy.deepcopy(seats)):
        assert type(plain) is list and plain == [2]
    assert type(pickle.loads(pickle.dumps(seats))) is list
    changes = [
        lambda: seats.append(3),
        lambda: seats.extend([3]),
        lambda: seats.insert(0, 3),
        lambda: seats.pop(),
        lambda: seats.remove(2),
        lambda: seats.clear(),
        lambda: seats.sort(),
        lambda: seats.reverse(),
        lambda: seats.__setitem__(0, 3),
        lambda: seats.__setitem__(slice(0, 1), [3]),
        lambda: seats.__delitem__(0),
    ]
    for change in changes:
        with pytest.raises(TypeError, match="shared by every game"):
            change()
    with pytest.raises(TypeError, match="shared by every game"):
        seats += [3]
    with pytest.raises(TypeError, match="shared by every game"):
        seats *= 2
    assert seats == [2]


def _first_turn(seed: int):
    variant = Variant.from_spec({"rules": "official", "options": {"scoring": "single-hand"}})
    state = variant.replay(variant.start(seats=2, seed=seed))
    return variant, state


def test_two_games_hand_out_the_same_listed_command_which_nobody_can_change():
    """A caller that changed a listed command would change it in every game: it is refused."""
    listed = []
    for seed in range(40):
        variant, state = _first_turn(seed)
        listed += variant.legal_commands(state, state.to_act[0])
    draws = [c for c in listed if c["type"] == "draw"]
    assert len(draws) >= 2 and len({id(c) for c in draws if c["seat"] == draws[0]["seat"]}) == 1
    play = next(c for c in listed if c["type"] == "play")
    with pytest.raises(TypeError, match="change a copy of it"):
        play["uno"] = True
    assert play["uno"] is False
    assert {**play, "uno": True}["uno"] is True


def test_a_usual_step_s_events_are_shared_and_refuse_changes():
    variant, state = _first_turn(3)
    seat = state.to_act[0]
    draw = next(c for c in variant.legal_commands(state, seat) if c["type"] == "draw")
    events = variant.decide(state, draw)
    drawn = events[0]
    assert drawn["type"] == "cards-drawn" and drawn["cards"] == [state.draw[-1]]
    with pytest.raises(TypeError):
        drawn["cards"].append(DECK[0])
    with pytest.raises(TypeError):
        events[-1]["to_act"] = [seat]
    # The events list is the caller's own, and the state folds as ever.
    events.append({"type": "noted"})
    assert variant.replay(events[:-1], state).hands[seat][-1] == state.draw[-1]
