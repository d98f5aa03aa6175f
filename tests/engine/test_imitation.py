"""The open database's loader (engine/imitation.py; docs/database.md): a match played in the
training environment, written as a line of the open database, loads back as the very
(observation, action) pairs the environment gave its agents."""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from engine import open_data  # noqa: E402
from engine.env import ACTION_INDEX, ACTIONS, FIELD_AT, WAIT_ACTION, UnoEnv  # noqa: E402
from engine.imitation import Unmatched, game_pairs, load_pairs  # noqa: E402
from engine.scoring import forfeit_end  # noqa: E402
from engine.variant import Variant  # noqa: E402

OPTIONAL = FIELD_AT["optional"]
PLAYS = slice(
    ACTIONS.index(next(a for a in ACTIONS if a[0] == "play")),
    ACTIONS.index(next(a for a in ACTIONS if a[0] == "submit")),
)


class RecordingEnv(UnoEnv):
    """The environment, keeping every event it decided (its own log drops old ones): the
    match's start, then what each command it sent decided."""

    def __init__(self, spec: dict[str, Any], seats: int) -> None:
        super().__init__(spec, seats=seats)
        decide = self.variant.decide

        def recorded(state: Any, command: dict[str, Any]) -> list[dict[str, Any]]:
            events = decide(state, command)
            self.events += events
            return events

        self.variant.decide = recorded  # type: ignore[method-assign]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self.events: list[dict[str, Any]] = []
        start = self.variant.start

        def started(*args: Any, **kwargs: Any) -> list[dict[str, Any]]:
            events = start(*args, **kwargs)
            self.events += events
            return events

        self.variant.start = started  # type: ignore[method-assign]
        try:
            super().reset(seed, options)
        finally:
            del self.variant.start


def played(
    spec: dict[str, Any], seats: int, seed: int, steps: int = 2000
) -> tuple[dict[str, Any], list[Any]]:
    """A match of agents that never wait (its first `steps` actions at most) as a line, and the
    env's (seat, observation, action) of each action."""
    env = RecordingEnv(spec, seats=seats)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    asked = []
    for agent in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        mask = obs["action_mask"].copy()
        if mask.sum() > 1:
            mask[WAIT_ACTION] = 0  # every chance taken: a wait leaves nothing in a log
        plays = np.flatnonzero(mask[PLAYS]) + PLAYS.start
        # A card played when one may be (random agents would otherwise play for thousands of
        # steps), else any legal action.
        action = int(rng.choice(plays if len(plays) else np.flatnonzero(mask)))
        if action != WAIT_ACTION:
            asked.append((env.possible_agents.index(agent), obs, action))
        env.step(action)
        if len(asked) == steps:  # a log cut short loads as far as it goes
            break
    events = json.loads(json.dumps(env.events))
    line = {"format": 1, "game": 7, "variant": env.variant.spec, "seats": [], "events": events}
    return line, asked


def test_a_precognitive_match_loads_back_as_the_environments_pairs(tmp_path):
    spec = {"rules": "official", "options": {"scoring": "single-hand"}, "precognitive": {"lane": 1}}
    line, asked = played(spec, seats=2, seed=3, steps=300)
    path = tmp_path / "official.jsonl.zst"
    with open(path, "wb") as target:
        open_data.write_lines(target, [line])

    pairs = list(load_pairs(path))

    assert [(p.seat, p.action) for p in pairs] == [(seat, action) for seat, _, action in asked]
    assert any(pair.observation["observation"][FIELD_AT["lane_to_choose"]] for pair in pairs)
    for pair, (_, obs, _) in zip(pairs, asked, strict=True):
        # Whether the seat might have waited is the one thing a log cannot tell.
        got, want = pair.observation["observation"].copy(), obs["observation"].copy()
        got[OPTIONAL] = want[OPTIONAL] = 0
        assert np.array_equal(got, want)
        got, want = pair.observation["action_mask"].copy(), obs["action_mask"].copy()
        got[WAIT_ACTION] = want[WAIT_ACTION] = 0
        assert np.array_equal(got, want)
        assert pair.game == 7 and not pair.default
    assert [p.seat for p in game_pairs(line, lambda _, seat: seat == 1)] == [
        seat for seat, _, _ in asked if seat == 1
    ]


def test_a_whole_match_loads_back_to_its_end():
    line, asked = played({"rules": "basic-plus"}, seats=3, seed=2)
    assert line["events"][-1]["type"] == "match-ended"
    pairs = list(game_pairs(line))
    assert [p.seat for p in pairs] == [seat for seat, _, _ in asked]
    # basic-plus's wrong catch costs the catcher the same whoever it named, and the log says
    # only that: the loader names the first seat it may (docs/database.md). Nothing else differs.
    catches = range(ACTION_INDEX[("catch", 1)], ACTION_INDEX[("catch", 9)] + 1)
    differ = [(p.action, a) for p, (_, _, a) in zip(pairs, asked, strict=True) if p.action != a]
    assert all(got in catches and want in catches for got, want in differ)
    assert len(differ) < len(pairs) // 10


def test_a_log_the_rules_do_not_make_is_refused():
    line, _ = played({"rules": "official", "options": {"scoring": "single-hand"}}, 2, seed=1)
    played_card = next(e for e in line["events"] if e["type"] == "card-played")
    played_card["card"] = "blue-9" if played_card["card"] != "blue-9" else "red-9"
    with pytest.raises(Unmatched, match="no command makes event"):
        list(game_pairs(line))


def test_a_match_a_forfeit_ended_mid_hand_loads_back_to_the_forfeit():
    # The service's seat-forfeited and the match-ended of scoring.forfeit_end are no command's.
    line, asked = played({"rules": "official"}, seats=2, seed=4, steps=6)
    variant = Variant.from_stream(line["events"][0], line["variant"])
    state = variant.replay(line["events"])
    forfeit = {"type": "seat-forfeited", "seat": 0, "reason": "resigned"}
    line["events"] += [forfeit, *forfeit_end(state, {0})]
    assert line["events"][-1]["type"] == "match-ended"

    pairs = list(game_pairs(line))

    assert [p.seat for p in pairs] == [seat for seat, _, _ in asked]
