"""A PettingZoo AEC environment over the real engine, so bots can train offline on exactly the
rules the server plays (docs/training.md: installing, an example loop, the full layouts).

pettingzoo, gymnasium and numpy are optional (requirements-dev.txt): only this module imports
them, and nothing in games.engine imports this module, so `import games.engine` never needs them.

- Agents are `seat_0 … seat_{n-1}`. Who acts follows games/driver.py, the order the server's bot
  runs use: out-of-turn chances first (a seat that owes an uno call, then the seats that may
  catch it; newno jump-ins by the seats holding the card on top, in a seeded random order),
  then a newno open choice to its seats in a seeded random order, then the first seat of
  `to_act`. An out-of-turn chance or an open choice may be declined with the `wait` action;
  when every eligible seat of an open choice waits, the env sends the system `close-window`
  (the Youngest Rule), as the service does when only bots could act. The system `next-hand`
  is sent as soon as a hand ends. pettingzoo's AgentSelector cycles a fixed order, which UNO's
  turns (skips, reverses, out-of-turn chances) do not follow, so `agent_selection` is set here.
- Actions: one `Discrete(N_ACTIONS)` space for every family and seat count; each index is one
  command shape, seats named relative to the acting seat (see ACTIONS). A `precommit` is chosen
  one lane slot at a time, so any ordered choice of cards the engine accepts is reachable.
- Observations: `{"observation": float32 vector, "action_mask": int8 vector}`, the vector built
  from `Variant.view(state, seat)` of the observing seat only (OBSERVATION_FIELDS).
- Rewards come once, when the match ends (placement, or win/lose); an episode is one match, cut
  by `max_steps` (truncation).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv
from pettingzoo.utils import OrderEnforcingWrapper

from .cards import (
    ACTION_RANKS,
    CARD_CODES,
    COLOR_OF,
    COLORS,
    NUMBER_RANKS,
    RANK_OF,
    WILD,
    WILD_DRAW4,
    Card,
)
from .commands import (
    ACCEPT,
    APPROVE,
    CALL_UNO,
    CATCH,
    CHALLENGE,
    CHOOSE_COLOR,
    CLOSE_WINDOW,
    DRAW,
    NEXT_HAND,
    PASS,
    PLAY,
    PRECOMMIT,
    RETURN,
    SUBMIT,
    SUBSTITUTE,
    SWAP,
    Command,
)
from .state import HAND_OVER, MATCH_OVER, State
from .variant import Variant

# The most seats any family takes; observations and actions are sized for it, so one policy
# fits every table size.
MAX_SEATS = 10
# Relative seats: offset k is the seat k places clockwise of the acting (or observing) seat.
OFFSETS = tuple(range(1, MAX_SEATS))

# Every card code once: red-0 … red-9, red-skip, red-reverse, red-draw2, then yellow, green,
# blue the same way, then wild and wild-draw4 (54 codes).
CARDS: tuple[Card, ...] = (
    *(f"{color}-{rank}" for color in COLORS for rank in (*NUMBER_RANKS, *ACTION_RANKS)),
    WILD,
    WILD_DRAW4,
)
CARD_INDEX = {card: i for i, card in enumerate(CARDS)}
assert set(CARDS) == CARD_CODES and len(CARDS) == 54

# ------------------------------------------------------------------------------- actions

WAIT = "wait"
# A precommit's lane slots, one action each (`lane`, card, uno); see UnoEnv._lane_mask.
LANE = "lane"

ActionKey = tuple[str | int | bool | None, ...]


def _action_table() -> list[ActionKey]:
    """Every command shape of every family, once; the list index is the action."""
    keys: list[ActionKey] = [(WAIT,)]
    keys += [(kind,) for kind in (DRAW, PASS, CALL_UNO, CHALLENGE, ACCEPT, APPROVE)]
    keys += [(CHOOSE_COLOR, color) for color in COLORS]
    keys += [(CATCH, offset) for offset in OFFSETS]
    keys += [(SWAP, offset) for offset in OFFSETS]
    # A newno 7 jumper may swap two other seats: the pair, nearer seat first.
    keys += [(SWAP, a, b) for a, b in combinations(OFFSETS, 2)]
    colors: tuple[str | None, ...]
    for card in CARDS:
        black = COLOR_OF[card] is None
        # A black card names its colour with the play, or names none when it goes out.
        colors = (None, *COLORS) if black else (None,)
        targets = (None, *OFFSETS) if RANK_OF[card] == "7" else (None,)
        keys += [
            (PLAY, card, color, target, uno)
            for color in colors
            for target in targets
            for uno in (False, True)
        ]
    for card in CARDS:
        colors = COLORS if COLOR_OF[card] is None else (None,)
        keys += [(SUBMIT, card, color, uno) for color in colors for uno in (False, True)]
    for card in CARDS:
        colors = COLORS if COLOR_OF[card] is None else (None,)
        keys += [(SUBSTITUTE, card, color) for color in colors]
    keys += [(RETURN, card) for card in CARDS]
    keys += [(LANE, card, uno) for card in CARDS for uno in (False, True)]
    return keys


ACTIONS: list[ActionKey] = _action_table()
ACTION_INDEX: dict[ActionKey, int] = {key: i for i, key in enumerate(ACTIONS)}
N_ACTIONS = len(ACTIONS)
WAIT_ACTION = ACTION_INDEX[(WAIT,)]
assert len(ACTION_INDEX) == N_ACTIONS


def _offset(seat: int, other: int | None, seats: int) -> int | None:
    return None if other is None else (other - seat) % seats


def command_key(command: Command, seats: int) -> ActionKey:
    """The action shape of an engine command of `command["seat"]` at a table of `seats`.

    A precommit maps to its first lane slot (carrying the uno flag when it has one card)."""
    kind, seat = command["type"], command["seat"]
    if kind == PLAY:
        target = _offset(seat, command.get("target"), seats)
        return (PLAY, command["card"], command.get("color"), target, bool(command.get("uno")))
    if kind == SUBMIT:
        return (SUBMIT, command["card"], command.get("color"), bool(command.get("uno")))
    if kind == SUBSTITUTE:
        return (SUBSTITUTE, command["card"], command.get("color"))
    if kind == RETURN:
        return (RETURN, command["card"])
    if kind == CHOOSE_COLOR:
        return (CHOOSE_COLOR, command["color"])
    if kind == CATCH:
        return (CATCH, _offset(seat, command["target"], seats))
    if kind == SWAP:
        target = _offset(seat, command["target"], seats)
        other = _offset(seat, command.get("other"), seats)
        if other is None:
            return (SWAP, target)
        return (SWAP, *sorted((target, other)))  # type: ignore[type-var]
    if kind == PRECOMMIT:
        cards = command["cards"]
        return (LANE, cards[0], len(cards) == 1 and bool(command.get("uno")))
    return (kind,)


def action_index(command: Command, seats: int) -> int:
    """The action that sends `command` (for a precommit: its first lane slot)."""
    try:
        return ACTION_INDEX[command_key(command, seats)]
    except KeyError:
        raise ValueError(f"no action sends {command!r}") from None


# --------------------------------------------------------------------------- observations

# A bound for counts that have none in the rules (scores, cards held); values are clipped to it.
BIG = 1e9
PENDING_TYPES = (
    "play",
    "drawn",
    "color",
    "challenge",
    "precommit",
    "first-play",
    "second-play",
    "stack",
    "swap",
    "submit",
    "resubmit",
    "ruling",
)
# The seat a pending decision is about, beside the seats asked: the wild-draw4's offender, the
# submitter awaiting a ruling, the first player of a newno second play, the seat whose 7 a
# jumper's swap follows.
ABOUT = ("offender", "submitter", "first", "jumper_of")

# (name, size, low, high), in order. Seat blocks are indexed by relative seat (0 = the observer,
# k = k seats clockwise); card blocks by CARDS; colour blocks by COLORS.
OBSERVATION_FIELDS: tuple[tuple[str, int, float, float], ...] = (
    ("hand", 54, 0, 108),  # copies of each card in the observer's regular hand
    ("top", 54, 0, 1),  # the top discard
    ("color", 4, 0, 1),  # the current colour
    ("direction", 1, -1, 1),  # 1 clockwise, -1 counter-clockwise
    ("seat_present", MAX_SEATS, 0, 1),  # 1 for each seat at the table
    ("hand_sizes", MAX_SEATS, 0, BIG),  # cards held, lane included
    ("lane_sizes", MAX_SEATS, 0, BIG),  # precognitive lane lengths
    ("to_act", MAX_SEATS, 0, 1),  # the seats the game waits for
    ("uncalled", MAX_SEATS, 0, 1),  # seats that owe an uno call (catchable)
    ("dealer", MAX_SEATS, 0, 1),  # the dealer (censorship: the censor); none in basic-plus
    ("scores", MAX_SEATS, 0, BIG),  # match totals
    ("hands_won", MAX_SEATS, 0, BIG),
    ("lane_front", MAX_SEATS * 54, 0, 1),  # per seat: its lane's front card, when visible
    ("lane_cards", MAX_SEATS * 54, 0, 108),  # per seat: visible lane cards, front included
    ("lane_hidden", MAX_SEATS, 0, BIG),  # per seat: lane cards the observer may not see
    ("pending", len(PENDING_TYPES) + 1, 0, 1),  # what is awaited; last: anything else / none
    ("pending_about", MAX_SEATS, 0, 1),  # see ABOUT
    ("pending_card", 54, 0, 1),  # a drawn card that may be played / resubmitted (own only)
    ("stack_total", 1, 0, BIG),  # newno: cards a pending stack (or a wild-draw4) makes draw
    ("precommit_count", 1, 0, BIG),  # cards the pending precommit must fill
    ("pending_flags", 3, 0, 1),  # newno leeway (first play), forced (Youngest Rule), open
    ("jump_card", 54, 0, 1),  # newno: the card an open jump-in window is for
    ("jump_by", MAX_SEATS, 0, 1),  # newno: who played it
    ("submission_seat", MAX_SEATS, 0, 1),  # censorship: who submitted the pending card
    ("submission_card", 54, 0, 1),  # … and the card (submitter and dealer only)
    ("submission_color", 4, 0, 1),  # … and its named colour (submitter and dealer only)
    ("lane_chosen", 54, 0, 108),  # the observer's precommit slots chosen so far
    ("lane_to_choose", 1, 0, BIG),  # slots of that precommit still to choose
    ("optional", 1, 0, 1),  # 1: this chance may be declined (`wait` is legal)
    ("piles", 2, 0, 108),  # draw pile, discard pile
    ("hand_number", 1, 0, BIG),
)
FIELD_AT: dict[str, int] = {}
_at = 0
for _name, _size, _, _ in OBSERVATION_FIELDS:
    FIELD_AT[_name] = _at
    _at += _size
OBSERVATION_SIZE = _at
OBS_LOW = np.concatenate([np.full(size, lo, np.float32) for _, size, lo, _ in OBSERVATION_FIELDS])
OBS_HIGH = np.concatenate([np.full(size, hi, np.float32) for _, size, _, hi in OBSERVATION_FIELDS])

FloatArray = npt.NDArray[np.float32]
MaskArray = npt.NDArray[np.int8]


def encode(
    view: Mapping[str, Any],
    chosen: list[Card] | None = None,
    to_choose: int = 0,
    optional: bool = False,
) -> FloatArray:
    """The observation vector of a seat's view (OBSERVATION_FIELDS). It reads nothing but the
    view and the observer's own lane choice, so it can hold no card the seat may not see."""
    obs = np.zeros(OBSERVATION_SIZE, np.float32)
    me, seats = view["seat"], view["seats"]

    def at(name: str, index: int = 0) -> int:
        return FIELD_AT[name] + index

    def rel(seat: int) -> int:
        return int((seat - me) % seats)

    def card(name: str, code: Card | None, offset: int = 0) -> None:
        if code is not None:
            obs[at(name, offset + CARD_INDEX[code])] += 1

    def seat_flag(name: str, seat: int | None) -> None:
        if seat is not None:
            obs[at(name, rel(seat))] = 1

    for code in view["hand"]:
        card("hand", code)
    card("top", view["top"])
    if view["color"] is not None:
        obs[at("color", COLORS.index(view["color"]))] = 1
    obs[at("direction")] = 1 if view["direction"] == "clockwise" else -1
    for seat in range(seats):
        r = rel(seat)
        obs[at("seat_present", r)] = 1
        obs[at("hand_sizes", r)] = view["hand_sizes"][seat]
        obs[at("scores", r)] = view["scores"][seat]
        obs[at("hands_won", r)] = view["hands_won"][seat]
        lane = view["lane"][seat]
        obs[at("lane_sizes", r)] = len(lane)
        if lane:
            card("lane_front", lane[0], r * 54)
        for code in lane:
            card("lane_cards", code, r * 54)
        obs[at("lane_hidden", r)] = sum(code is None for code in lane)
    for seat in view["to_act"]:
        seat_flag("to_act", seat)
    for seat in view["uncalled"]:
        seat_flag("uncalled", seat)
    seat_flag("dealer", view["dealer"])
    _encode_pending(obs, view.get("pending"), rel)
    submission = view.get("submission")
    if submission is not None:
        seat_flag("submission_seat", submission["seat"])
        card("submission_card", submission["card"])
        if submission["color"] is not None:
            obs[at("submission_color", COLORS.index(submission["color"]))] = 1
    for code in chosen or ():
        card("lane_chosen", code)
    obs[at("lane_to_choose")] = to_choose
    obs[at("optional")] = optional
    obs[at("piles")] = view["draw_pile"]
    obs[at("piles", 1)] = view["discard_pile"]
    obs[at("hand_number")] = view["hand_number"]
    return np.clip(obs, OBS_LOW, OBS_HIGH)


def _encode_pending(obs: FloatArray, pending: Mapping[str, Any] | None, rel: Any) -> None:
    kind = pending["type"] if pending is not None else None
    index = PENDING_TYPES.index(kind) if kind in PENDING_TYPES else len(PENDING_TYPES)
    obs[FIELD_AT["pending"] + index] = 1
    if pending is None:
        return
    for name in ABOUT:
        if pending.get(name) is not None:
            obs[FIELD_AT["pending_about"] + rel(pending[name])] = 1
    if kind in ("drawn", "resubmit") and pending.get("card") is not None:
        obs[FIELD_AT["pending_card"] + CARD_INDEX[pending["card"]]] = 1
    obs[FIELD_AT["stack_total"]] = pending.get("total") or 0
    if kind == "precommit":
        obs[FIELD_AT["precommit_count"]] = pending["count"]
    flags = (bool(pending.get("leeway")), bool(pending.get("forced")), "seats" in pending)
    for i, flag in enumerate(flags):
        obs[FIELD_AT["pending_flags"] + i] = flag
    jump = pending.get("jump")
    if jump is not None:
        obs[FIELD_AT["jump_card"] + CARD_INDEX[jump["card"]]] = 1
        obs[FIELD_AT["jump_by"] + rel(jump["by"])] = 1


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
        """Who is asked, in the driver's order (games/driver.py), and whether they may wait."""
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
