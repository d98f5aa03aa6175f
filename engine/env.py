"""A PettingZoo AEC environment over the real engine, so bots can train offline on exactly the
rules the server plays (docs/training.md: installing, an example loop, the full layouts).

pettingzoo, gymnasium and numpy are optional (requirements-dev.txt): only this module, its
env_spaces.py (the observation encoding), its env_chance.py (the decision a seat is offered,
`Chance`) and its env_core.py (the step machinery) import them (env_actions.py, the action
table, needs none), and nothing else in engine imports any of them, so `import engine` never
needs them. `UnoEnv` is the AEC shell: a step's work is its `Core`'s (env_core.py), which the
compiled engine's build compiles with env_actions.py, env_spaces.py and env_chance.py
(docs/architecture.md).

- Agents are `seat_0 … seat_{n-1}`. Who acts follows bots/driver.py, the order the server's bot
  runs use: out-of-turn chances first (a seat that owes an uno call, then the seats that may
  catch it; newno jump-ins by the seats holding the card on top, in a seeded random order),
  then a newno open choice to its seats in a seeded random order, then the first seat of
  `to_act`. An out-of-turn chance or an open choice may be declined with the `wait` action;
  when every eligible seat of an open choice waits, the env sends the system `close-window`
  (the Youngest Rule), as the service does when only bots could act. The system `next-hand`
  is sent as soon as a hand ends. pettingzoo's AgentSelector cycles a fixed order, which UNO's
  turns (skips, reverses, out-of-turn chances) do not follow, so the core sets
  `agent_selection`.
- Actions: one `Discrete(N_ACTIONS)` space for every family and seat count; each index is one
  command shape, seats named relative to the acting seat (ACTIONS, in env_actions.py). A
  `precommit` is chosen one lane slot at a time, so any ordered choice of cards the engine
  accepts is reachable.
- Observations: `{"observation": float32 vector, "action_mask": int8 vector}`, the vector
  `encode(Variant.view(state, seat))` of the observing seat only (OBSERVATION_FIELDS, in
  env_spaces.py), kept in place per seat and brought up to date from the state when the seat is
  asked (SeatEncoder). Infos are made when first read (LazyInfo).
- Rewards come once, when the match ends (placement, or win/lose); an episode is one match, cut
  by `max_steps` (truncation).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv
from pettingzoo.utils.env_logger import EnvLogger
from pettingzoo.utils.wrappers import OrderEnforcingWrapper
from pettingzoo.utils.wrappers.order_enforcing import (
    AECOrderEnforcingIterable,
)

from engine.commands import Command
from engine.env_actions import (
    ACTION_INDEX,
    ACTIONS,
    CARD_INDEX,
    CARDS,
    LANE,
    MAX_SEATS,
    N_ACTIONS,
    OFFSETS,
    WAIT,
    WAIT_ACTION,
    ActionKey,
    action_index,
    command_key,
)
from engine.env_chance import Chance
from engine.env_core import Core, Turns
from engine.env_spaces import (
    ABOUT,
    BIG,
    FIELD_AT,
    OBS_HIGH,
    OBS_LOW,
    OBSERVATION_FIELDS,
    OBSERVATION_SIZE,
    PENDING_TYPES,
    FloatArray,
    MaskArray,
    SeatEncoder,
    encode,
    encode_into,
)
from engine.state import State
from engine.variant import Variant

# The action table (env_actions.py) and the observation encoding (env_spaces.py): scripts import
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
    "encode_into",
    "env",
    "placement_reward",
    "raw_env",
    "LazyInfo",
    "SeatEncoder",
]

# ------------------------------------------------------------------------- the environment

REWARDS = ("placement", "win")
START_OPTIONS = ("deck", "dealer", "first", "ages")
# {"observation": float32 vector, "action_mask": int8 vector} (gymnasium's Dict space is typed
# with Any values).
Observation = dict[str, Any]
Action = int | np.integer[Any] | None


class LazyInfo(dict[str, Any]):
    """The selected agent's info: a dict whose entries are made when it is first read.

    Its view and its events cost more than the rest of a step, and a training loop that reads
    only the observation never needs them; so the info keeps what makes them (the state, the
    log's new events, the mask's actions: values that no later step changes) and fills itself
    with them on any read, through any dict method, `==`, `repr`, `dict(info)`, `{**info}`,
    copy or pickle (a plain dict for those two). The entries are those it would have had if
    made at once: `action_mask`, `view`, `legal`, `optional`, `lane_chosen`, `events`.
    """

    __slots__ = ("_making",)

    # Made empty, then given what makes it (`_making`) by the env (engine/env_core.py): no
    # __init__ of its own, so making one runs no Python code.
    _making: tuple[Any, ...] | None

    def _load(self) -> None:
        making = self._making
        if making is None:
            return
        self._making = None
        variant, state, seat, news, masked, chance, optional, chosen = making
        mask = np.zeros(N_ACTIONS, np.int8)
        mask[masked] = 1
        view_event = variant.view_event
        dict.update(
            self,
            {
                "action_mask": mask,
                "view": variant.view(state, seat),
                "legal": chance.legal,
                "optional": optional,
                "lane_chosen": [] if chosen is None else chosen,
                "events": [view_event(event, seat) for event in news],
            },
        )

    def __reduce_ex__(self, protocol: Any) -> tuple[Any, ...]:
        self._load()
        return (dict, (dict.copy(self),))


def _loading(name: str) -> Any:
    method = getattr(dict, name)

    def call(self: LazyInfo, *args: Any, **kwargs: Any) -> Any:
        self._load()
        return method(self, *args, **kwargs)

    call.__name__ = call.__qualname__ = name
    return call


# Every dict method that reads or changes the entries fills the info first.
for _name in (
    "__contains__",
    "__delitem__",
    "__eq__",
    "__getitem__",
    "__ior__",
    "__iter__",
    "__len__",
    "__ne__",
    "__or__",
    "__repr__",
    "__reversed__",
    "__ror__",
    "__setitem__",
    "clear",
    "copy",
    "get",
    "items",
    "keys",
    "pop",
    "popitem",
    "setdefault",
    "update",
    "values",
):
    setattr(LazyInfo, _name, _loading(_name))


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
        # The match, the selected agent's chance, its mask and each seat's observation: the
        # compiled step machinery (engine/env_core.py), which keeps `agent_selection` and
        # `infos` up to date as it asks each seat.
        self._core = Core(self, self.variant, seats, self.possible_agents, LazyInfo, max_steps)

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # The match's state (None before reset), the env steps of the episode and the selected
    # agent's chance: the core's.
    @property
    def state_(self) -> State | None:
        return self._core.state

    @state_.setter
    def state_(self, state: State | None) -> None:
        self._core.state = state

    @property
    def steps(self) -> int:
        return self._core.steps

    @property
    def max_steps(self) -> int | None:
        return self._core.max_steps

    @max_steps.setter
    def max_steps(self, max_steps: int | None) -> None:
        self._core.max_steps = max_steps

    @property
    def chance(self) -> Chance:
        chance = self._core.chance
        if chance is None:
            raise AttributeError("chance: call reset() first")
        return chance

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
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._core.reset(events, self.np_random)

    def step(self, action: Action) -> None:
        self._core.step(action)

    def observe(self, agent: str) -> Observation:
        """The agent's observation: new arrays, the caller's to keep or change. The selected
        agent's vector was brought up to date once, when it was asked, in its buffer; each call
        returns a copy of it."""
        core = self._core
        if agent == core.asked and core.state is core.encoded:
            return {"observation": core.vector.copy(), "action_mask": core.mask.copy()}
        seat = self.possible_agents.index(agent)
        view = self.variant.view(self._state, seat)
        chance = core.chance if agent == self.agent_selection and self._live(agent) else None
        if chance is None:
            vector = encode(view)
            mask = np.zeros(N_ACTIONS, np.int8)
        else:
            to_choose = chance.lane_count - len(chance.chosen)
            optional = bool(chance.mask[WAIT_ACTION])
            vector = encode(view, chance.chosen, to_choose, optional)
            mask = chance.mask.copy()
        return {"observation": vector, "action_mask": mask}

    def last(self, observe: bool = True) -> tuple[Observation | None, float, bool, bool, Any]:
        """AECEnv.last, with observe's usual case inline."""
        return self._core.last(observe)

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
        state = self._core.state
        if state is None:
            raise RuntimeError("call reset() first")
        return state

    def _live(self, agent: str) -> bool:
        return agent in self.terminations and not (
            self.terminations[agent] or self.truncations[agent]
        )

    def _finish(self) -> None:
        """The match is over: every agent's reward and final info (the core calls this)."""
        places = self._state.places or [1] * self.seats
        for seat, agent in enumerate(self.possible_agents):
            place = places[seat]
            if self.reward_mode == "placement":
                self.rewards[agent] = placement_reward(place, self.seats)
            else:
                self.rewards[agent] = 1.0 if place == 1 else -1.0
        self.terminations = dict.fromkeys(self.agents, True)
        self._core.rewarded = True
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


class _OrderEnforcing(OrderEnforcingWrapper[str, Observation, Action]):
    """pettingzoo's OrderEnforcingWrapper, the same checks, with the attributes an AEC loop
    reads every step (`agent_selection`, `agents`, the reward and status dicts, `last()`) passed
    through directly: the base class forwards each through two `__getattr__` calls, which cost
    a training loop about a tenth of its time (docs/performance.md, "Training environment")."""

    env: UnoEnv

    def __init__(self, env: UnoEnv) -> None:
        super().__init__(env)
        # The env's `last` and `step`, straight to its core's where a subclass does not
        # override UnoEnv's (which only call them): one Python call less each.
        kind = type(env)
        self._last = env._core.last if kind.last is UnoEnv.last else env.last
        self._step = env._core.step if kind.step is UnoEnv.step else env.step

    def _reset_first(self, name: str) -> None:
        if not self._has_reset:
            raise AttributeError(f"{name} cannot be accessed before reset")

    @property
    def agent_selection(self) -> str:  # type: ignore[override]
        self._reset_first("agent_selection")
        return self.env.agent_selection

    @property
    def agents(self) -> list[str]:  # type: ignore[override]
        self._reset_first("agents")
        return self.env.agents

    @property
    def terminations(self) -> dict[str, bool]:  # type: ignore[override]
        self._reset_first("terminations")
        return self.env.terminations

    @property
    def truncations(self) -> dict[str, bool]:  # type: ignore[override]
        self._reset_first("truncations")
        return self.env.truncations

    @property
    def rewards(self) -> dict[str, float]:  # type: ignore[override]
        self._reset_first("rewards")
        return self.env.rewards

    @property
    def infos(self) -> dict[str, dict[str, Any]]:  # type: ignore[override]
        self._reset_first("infos")
        return self.env.infos

    @property
    def _cumulative_rewards(self) -> dict[str, float]:  # type: ignore[override]
        return self.env._cumulative_rewards

    def last(self, observe: bool = True) -> tuple[Observation | None, float, bool, bool, Any]:
        if not self._has_reset:  # as AECEnv.last reads agent_selection first
            raise AttributeError("agent_selection cannot be accessed before reset")
        return self._last(observe)

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        super().reset(seed=seed, options=options)
        if type(self).last is _OrderEnforcing.last:
            # Reset once, the wrapper's check in `last` can no longer fail: `env.last` is from
            # now on the env's own (its core's), one Python call less a step.
            self.last = self._last  # type: ignore[method-assign]

    def step(self, action: Action) -> None:
        """OrderEnforcingWrapper.step's checks, then the env's step (not through BaseWrapper)."""
        if self._has_reset and self.env.agents:
            self._has_updated = True
            self._step(action)
        else:
            super().step(action)

    def agent_iter(
        self, max_iter: int = 2**63
    ) -> AECOrderEnforcingIterable[str, Observation, Action]:
        if not self._has_reset:
            EnvLogger.error_agent_iter_before_reset()
        return _Iterable(self, max_iter)  # type: ignore[no-untyped-call]  # pettingzoo's


class _Iterable(AECOrderEnforcingIterable[str, Observation, Action]):
    def __iter__(self) -> Iterator[str]:  # type: ignore[override]
        """pettingzoo's order-enforcing iterator, the same checks, compiled (env_core.Turns)."""
        env: _OrderEnforcing = self.env
        return Turns(env, env.env._core, self.max_iter)


def env(**kwargs: Any) -> OrderEnforcingWrapper[str, Observation, Action]:
    """The environment as pettingzoo's classic games ship it: wrapped so that calls out of
    order (step before reset, …) fail clearly. `env(spec=…, seats=…, reward=…, max_steps=…)`."""
    return _OrderEnforcing(UnoEnv(**kwargs))


raw_env = UnoEnv
