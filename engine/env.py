"""A PettingZoo AEC environment over the real engine, so bots can train offline on exactly the
rules the server plays (docs/training.md: installing, an example loop, the full layouts).

pettingzoo, gymnasium and numpy are optional (requirements-dev.txt): only this module and its
env_spaces.py (the action table and the observation encoding) import them, and nothing else in
engine imports either, so `import engine` never needs them.

- Agents are `seat_0 … seat_{n-1}`. Who acts follows bots/driver.py, the order the server's bot
  runs use: out-of-turn chances first (a seat that owes an uno call, then the seats that may
  catch it; newno jump-ins by the seats holding the card on top, in a seeded random order),
  then a newno open choice to its seats in a seeded random order, then the first seat of
  `to_act`. An out-of-turn chance or an open choice may be declined with the `wait` action;
  when every eligible seat of an open choice waits, the env sends the system `close-window`
  (the Youngest Rule), as the service does when only bots could act. The system `next-hand`
  is sent as soon as a hand ends. pettingzoo's AgentSelector cycles a fixed order, which UNO's
  turns (skips, reverses, out-of-turn chances) do not follow, so `agent_selection` is set here.
- Actions: one `Discrete(N_ACTIONS)` space for every family and seat count; each index is one
  command shape, seats named relative to the acting seat (ACTIONS, in env_spaces.py). A
  `precommit` is chosen one lane slot at a time, so any ordered choice of cards the engine
  accepts is reachable.
- Observations: `{"observation": float32 vector, "action_mask": int8 vector}`, the vector built
  from `Variant.view(state, seat)` of the observing seat only (OBSERVATION_FIELDS and `encode`,
  in env_spaces.py).
- Rewards come once, when the match ends (placement, or win/lose); an episode is one match, cut
  by `max_steps` (truncation).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv
from pettingzoo.utils.wrappers import OrderEnforcingWrapper

from engine.cards import Card
from engine.commands import CLOSE_WINDOW, NEXT_HAND, PRECOMMIT, Command
from engine.env_spaces import (
    ABOUT,
    ACTION_INDEX,
    ACTIONS,
    BIG,
    CARD_INDEX,
    CARDS,
    FIELD_AT,
    LANE,
    MAX_SEATS,
    N_ACTIONS,
    OBS_HIGH,
    OBS_LOW,
    OBSERVATION_FIELDS,
    OBSERVATION_SIZE,
    OFFSETS,
    PENDING_TYPES,
    WAIT,
    WAIT_ACTION,
    ActionKey,
    FloatArray,
    MaskArray,
    action_index,
    command_key,
    encode,
)
from engine.state import HAND_OVER, MATCH_OVER, State
from engine.variant import Variant

# The action table and the observation encoding are env_spaces.py's; training scripts import
# them from here, beside the environment (docs/training.md), so they stay this module's names.
__all__ = [
    "ABOUT",
    "ACTIONS",
    "ACTION_INDEX",
    "BIG",
    "CARDS",
    "CARD_INDEX",
    "FIELD_AT",
    "LANE",
    "MAX_SEATS",
    "N_ACTIONS",
    "OBSERVATION_FIELDS",
    "OBSERVATION_SIZE",
    "OBS_HIGH",
    "OBS_LOW",
    "OFFSETS",
    "PENDING_TYPES",
    "REWARDS",
    "START_OPTIONS",
    "WAIT",
    "WAIT_ACTION",
    "Action",
    "ActionKey",
    "Chance",
    "FloatArray",
    "MaskArray",
    "Observation",
    "UnoEnv",
    "action_index",
    "command_key",
    "encode",
    "env",
    "placement_reward",
    "raw_env",
]

# ------------------------------------------------------------------------- the environment

REWARDS = ("placement", "win")
START_OPTIONS = ("deck", "dealer", "first", "ages")
# {"observation": float32 vector, "action_mask": int8 vector} (gymnasium's Dict space is typed
# with Any values).
Observation = dict[str, Any]
Action = int | np.integer[Any] | None


@dataclass
class Chance:
    """The decision the selected agent is asked for: the legal commands by action, and the
    precommit being chosen slot by slot."""

    seat: int
    optional: bool
    legal: list[Command]
    choices: dict[int, Command]
    lane_count: int = 0  # > 0: a precommit of this many cards is among the legal commands
    lane_uno: bool = False  # the precommit may carry the uno call (on its last slot)
    chosen: list[Card] = field(default_factory=list)
    mask: MaskArray = field(default_factory=lambda: np.zeros(N_ACTIONS, np.int8))


def placement_reward(place: int, seats: int) -> float:
    """First place 1, last place -1, evenly in between; tied seats share their place's."""
    return 1.0 - 2.0 * (place - 1) / (seats - 1)


class UnoEnv(AECEnv[str, Observation, Action]):
    """One match of any family, seats `seat_0 …`; see the module docstring and docs/training.md.

    `spec` is a variant spec as `Variant.from_spec` takes (default official); `reward` is
    `placement` or `win`; `max_steps` caps the env steps of an episode (None: no cap).
    """

    metadata = {
        "name": "uno_league_v0",
        "render_modes": ["human", "ansi"],
        "is_parallelizable": False,
    }

    def __init__(
        self,
        spec: Mapping[str, Any] | None = None,
        seats: int = 4,
        *,
        reward: str = "placement",
        max_steps: int | None = 100_000,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()  # type: ignore[no-untyped-call]  # AECEnv's does nothing, unannotated
        self.variant = Variant.from_spec(spec if spec is not None else {"rules": "official"})
        if type(seats) is not int or not 2 <= seats <= MAX_SEATS:
            raise ValueError(f"seats must be from 2 to {MAX_SEATS}, not {seats!r}")
        self.variant.start(seats, seed=0)  # the family's own seat and hand-size checks
        if reward not in REWARDS:
            raise ValueError(f"reward must be one of {', '.join(REWARDS)}, not {reward!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be human, ansi or None, not {render_mode!r}")
        self.seats = seats
        self.reward_mode = reward
        self.max_steps = max_steps
        self.render_mode = render_mode
        self.possible_agents = [f"seat_{seat}" for seat in range(seats)]
        # One space object per agent, each returned every time (pettingzoo seeds them apart).
        self.observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(OBS_LOW, OBS_HIGH, dtype=np.float32),
                    "action_mask": spaces.Box(0, 1, (N_ACTIONS,), dtype=np.int8),
                }
            )
            for agent in self.possible_agents
        }
        self.action_spaces = {agent: spaces.Discrete(N_ACTIONS) for agent in self.possible_agents}
        self.state_: State | None = None
        self.chance: Chance

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # ----------------------------------------------------------------------- the episode

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new match. `seed` makes it reproducible (the engine's deal and reshuffles, and the
        order of chances); `options` may give `deck`, `dealer`, `first`, `ages` as
        `Variant.start` takes them (other keys are ignored, as pettingzoo's api_test sends one).
        """
        self.np_random, _ = seeding.np_random(seed)
        engine_seed = seed if seed is not None else int(self.np_random.integers(2**62))
        start = {k: v for k, v in (options or {}).items() if k in START_OPTIONS}
        events = self.variant.start(self.seats, seed=engine_seed, **start)
        self.state_ = self.variant.replay(events)
        # The events some seat has not been shown yet (each seat's info carries those since its
        # previous info, as it may see them): `_log[0]` is the match's event number `_logged`.
        self._log: list[dict[str, Any]] = list(events)
        self._logged = 0
        self._seen = dict.fromkeys(range(self.seats), 0)
        self.steps = 0
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._queue: list[tuple[int, bool]] | None = None
        self._select()

    def step(self, action: Action) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        chance = self.chance
        if action is None or not 0 <= int(action) < N_ACTIONS or not chance.mask[int(action)]:
            raise ValueError(f"action {action!r} is not legal for {agent} now (see its mask)")
        index = int(action)
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        self.steps += 1
        key = ACTIONS[index]
        if key[0] == WAIT:
            assert self._queue is not None
            self._queue.pop(0)
            self._select()
        elif key[0] == LANE:
            chance.chosen.append(str(key[1]))
            if len(chance.chosen) < chance.lane_count:
                self._offer(chance)  # The same seat chooses its next lane slot.
            else:
                cards, uno = chance.chosen, bool(key[2])
                self._send({"type": PRECOMMIT, "seat": chance.seat, "cards": cards, "uno": uno})
        else:
            self._send(chance.choices[index])
        if self.agents and not any(self.terminations.values()):
            if self.max_steps is not None and self.steps >= self.max_steps:
                self.truncations = dict.fromkeys(self.agents, True)
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def observe(self, agent: str) -> Observation:
        seat = self.possible_agents.index(agent)
        view = self.variant.view(self._state, seat)
        chance = self.chance if agent == self.agent_selection and self._live(agent) else None
        if chance is None:
            vector = encode(view)
            mask = np.zeros(N_ACTIONS, np.int8)
        else:
            to_choose = chance.lane_count - len(chance.chosen)
            optional = bool(chance.mask[WAIT_ACTION])
            vector = encode(view, chance.chosen, to_choose, optional)
            mask = chance.mask.copy()
        return {"observation": vector, "action_mask": mask}

    def action_for(self, command: Command) -> int:
        """The action that sends `command` for the selected agent (a precommit: its first slot,
        then one action per further slot); ValueError when the mask does not allow it."""
        index = action_index(command, self.seats)
        if not self.chance.mask[index] or self.chance.seat != command.get("seat"):
            raise ValueError(f"{command!r} is not legal for {self.agent_selection} now")
        return index

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        text = self._text()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release: no window, no process."""

    # --------------------------------------------------------------------- the machinery

    @property
    def _state(self) -> State:
        if self.state_ is None:
            raise RuntimeError("call reset() first")
        return self.state_

    def _live(self, agent: str) -> bool:
        return agent in self.terminations and not (
            self.terminations[agent] or self.truncations[agent]
        )

    def _send(self, command: Command) -> None:
        """Decide `command`, then select who acts next (the system's commands included)."""
        events = self.variant.decide(self._state, command)
        self.state_ = self.variant.replay(events, self._state)
        self._log += events
        self._queue = None
        self._select()

    def _chances(self) -> list[tuple[int, bool]]:
        """Who is asked, in the driver's order (bots/driver.py), and whether they may wait."""
        state, rng = self._state, self.np_random
        chances: list[tuple[int, bool]] = []
        if state.uncalled:
            owing = sorted(state.uncalled)
            others = [s for s in range(state.seats) if s not in state.uncalled]
            chances += [(s, True) for s in owing]
            chances += [(s, True) for s in others if s not in state.to_act]
        pending = state.pending or {}
        window = pending.get("jump")
        if window is not None:
            # Only the seats holding the card are asked, as the driver does: the scheduler may
            # read the hands, the observations never do.
            holders = [
                s
                for s in range(state.seats)
                if s not in state.to_act and s != window["by"] and window["card"] in state.hands[s]
            ]
            chances += [(int(s), True) for s in rng.permutation(holders)]
        if "seats" in pending:
            eligible = list(state.to_act)
            chances += [(int(s), True) for s in rng.permutation(eligible)]
        else:
            chances.append((state.to_act[0], False))
        return chances

    def _select(self) -> None:
        """Move on to the next seat to ask, sending `next-hand` and `close-window` on the way."""
        while True:
            state = self._state
            if state.status == MATCH_OVER:
                self._finish()
                return
            if state.status == HAND_OVER:
                self._send({"type": NEXT_HAND})
                return
            if self._queue is None:
                self._queue = self._chances()
            if not self._queue:
                # Every seat of an open choice waited: the Youngest Rule decides.
                self._send({"type": CLOSE_WINDOW})
                return
            seat, optional = self._queue[0]
            legal = self.variant.legal_commands(state, seat)
            if legal:
                break
            if not optional:
                raise RuntimeError(f"seat {seat} must act but has no legal command")
            self._queue.pop(0)
        chance = Chance(seat, optional, legal, {})
        for command in legal:
            if command["type"] == PRECOMMIT:
                chance.lane_count = len(command["cards"])
                chance.lane_uno = chance.lane_uno or bool(command.get("uno"))
                continue
            index = action_index(command, state.seats)
            if index in chance.choices:
                raise RuntimeError(f"two legal commands share action {index}: {command!r}")
            chance.choices[index] = command
        self.chance = chance
        self._offer(chance)

    def _offer(self, chance: Chance) -> None:
        """Ask the chance's seat: its mask and info."""
        mask = np.zeros(N_ACTIONS, np.int8)
        if chance.chosen:
            mask[self._lane_mask(chance)] = 1
        else:
            mask[list(chance.choices)] = 1
            if chance.lane_count:
                mask[self._lane_mask(chance)] = 1
            if chance.optional:
                mask[WAIT_ACTION] = 1
        chance.mask = mask
        agent = self.possible_agents[chance.seat]
        self.agent_selection = agent
        end = self._logged + len(self._log)
        seen, self._seen[chance.seat] = self._seen[chance.seat], end
        view_event = self.variant.view_event
        news = [view_event(e, chance.seat) for e in self._log[seen - self._logged :]]
        oldest = min(self._seen.values())
        if oldest - self._logged > 1000:
            # Every seat has seen these: drop them, so long episodes keep little memory.
            del self._log[: oldest - self._logged]
            self._logged = oldest
        self.infos = {a: {} for a in self.agents}
        self.infos[agent] = {
            "action_mask": mask.copy(),  # a copy: changing it changes nothing here
            "view": self.variant.view(self._state, chance.seat),
            "legal": chance.legal,
            "optional": chance.optional,
            "lane_chosen": list(chance.chosen),
            "events": news,
        }

    def _lane_mask(self, chance: Chance) -> list[int]:
        """The next lane slot: any card of the regular hand not chosen yet (any ordered choice
        is a legal precommit); the last slot carries the uno flag where the engine lists it."""
        left = Counter(self._state.hands[chance.seat]) - Counter(chance.chosen)
        last = len(chance.chosen) == chance.lane_count - 1
        unos = (False, True) if last and chance.lane_uno else (False,)
        return [ACTION_INDEX[(LANE, card, uno)] for card in left for uno in unos]

    def _finish(self) -> None:
        places = self._state.places or [1] * self.seats
        for seat, agent in enumerate(self.possible_agents):
            place = places[seat]
            if self.reward_mode == "placement":
                self.rewards[agent] = placement_reward(place, self.seats)
            else:
                self.rewards[agent] = 1.0 if place == 1 else -1.0
        self.terminations = dict.fromkeys(self.agents, True)
        self.infos = {
            agent: {"view": self.variant.view(self._state, seat), "places": list(places)}
            for seat, agent in enumerate(self.possible_agents)
        }

    def _text(self) -> str:
        view = self.variant.view(self._state, None)
        lines = [
            f"{view['rules']} · hand {view['hand_number']} · scores {view['scores']} · "
            f"{view['status']}",
            f"top {view['top']} ({view['color']}) · {view['direction']} · "
            f"draw pile {view['draw_pile']}",
            " | ".join(
                f"seat_{s}: {n}" + (f" (lane {len(view['lane'][s])})" if view["lane"][s] else "")
                for s, n in enumerate(view["hand_sizes"])
            ),
        ]
        if self._live(self.agent_selection):
            seat = self.chance.seat
            pending = (view["pending"] or {}).get("type")
            hand = self._state.hands[seat]
            lines.append(f"{self.agent_selection} to act ({pending}), holding {hand}")
        return "\n".join(lines)


def env(**kwargs: Any) -> OrderEnforcingWrapper[str, Observation, Action]:
    """The environment as pettingzoo's classic games ship it: wrapped so that calls out of
    order (step before reset, …) fail clearly. `env(spec=…, seats=…, reward=…, max_steps=…)`."""
    return OrderEnforcingWrapper(UnoEnv(**kwargs))


raw_env = UnoEnv
