"""The training environment's step machinery (engine/env.py, docs/training.md): who is asked
next, the mask of their actions, their observation and info, and the command an action sends.
The decision a seat is offered (`Chance`, the actions of the listing's commands) is
env_chance.py's.

`UnoEnv` (env.py) is a pettingzoo `AECEnv`, a Python class that the compiled engine's build
cannot make native; it is the AEC shell over a `Core` of this module, which the build compiles
with mypyc beside the engine's hot modules (docs/architecture.md, "The compiled engine"), and
which runs as plain Python where it is not built or with UNO_ENGINE_PURE=1. numpy is optional
like pettingzoo: only env.py imports this module, and nothing else in engine imports either.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Final, cast

import numpy as np

from engine.cards import COLORS
from engine.commands import CLOSE_WINDOW, NEXT_HAND, PLAY, PRECOMMIT, Command
from engine.env_actions import (
    ACTION_INDEX,
    ACTIONS,
    LANE,
    N_ACTIONS,
    WAIT,
    WAIT_ACTION,
    action_index,
)
from engine.env_chance import CARD_ACTIONS, DRAW_ACTION, KIND_ACTION, PLAIN_ACTIONS, Chance
from engine.env_spaces import (
    FloatArray,
    MaskArray,
    SeatEncoder,
)
from engine.rules.listing import DRAW_TEMPLATES, PLAY_TEMPLATES, listed_cards, plain_turn
from engine.state import HAND_OVER, MATCH_OVER, State

# Each action's kind: 0 a command's (looked up in the chance's choices), 1 `wait`, 2 a lane slot.
_SENDS, _WAITS, _LANE_SLOT = 0, 1, 2
_KIND_OF: Final[list[int]] = [
    _WAITS if key[0] == WAIT else _LANE_SLOT if key[0] == LANE else _SENDS for key in ACTIONS
]
# A lane slot's card and uno flag, by action (None for the other actions).
_SLOT_CARD: Final[list[str]] = [str(key[1]) if key[0] == LANE else "" for key in ACTIONS]
_SLOT_UNO: Final[list[bool]] = [bool(key[2]) if key[0] == LANE else False for key in ACTIONS]
# The card and colour each of the usual turn's play actions (CARD_ACTIONS) names, by action
# (None: no such play).
_PLAY_OF: Final[list[tuple[str, str | None] | None]] = [None] * N_ACTIONS
for _card, _actions in CARD_ACTIONS.items():
    for _colour, _action in zip(COLORS if len(_actions) > 1 else (None,), _actions, strict=True):
        _PLAY_OF[cast(int, _action)] = (_card, _colour)


# The shell's attributes `Core.last`, `Core.step`, `Core.offer` and `Turns` read (or write).
_LAST_READS: Final = (
    "agent_selection",
    "_cumulative_rewards",
    "terminations",
    "truncations",
    "infos",
    "agents",
    "render_mode",
)

# The variant's attributes `Core.send` and `Core.select` read.
_VARIANT_READS: Final = ("decide", "_memo", "legal_commands", "quick_listing")


class Core:
    """One environment's match and the selected agent's chance, for its AEC shell (`UnoEnv`):
    the shell's `reset`, `step` and `observe` call into it, and it keeps the shell's
    `agent_selection` and `infos` up to date as it asks each seat.

    `shell` is the UnoEnv (its `infos`, the reward and status dicts, `_finish`, `render`);
    `info` makes an empty info, to be given what it is made of (env.py's LazyInfo)."""

    def __init__(
        self,
        shell: Any,
        variant: Any,
        seats: int,
        agents: list[str],
        info: Any,
        max_steps: int | None,
    ) -> None:
        self.shell = shell
        # The shell's instance dict, where `last` reads the attributes it reads every step,
        # unless a class of the shell's makes any of them a descriptor (then: getattr).
        self.attrs: dict[str, Any] | None = shell.__dict__
        if any(name in vars(cls) for cls in type(shell).__mro__ for name in _LAST_READS):
            self.attrs = None
        self.variant = variant
        # The variant's instance dict, where `send` and `select` read its per-step attributes
        # (the decide and listing it binds there, or a test's), unless a class of the variant's
        # makes any of them a data descriptor (then: getattr).
        self.vattrs: dict[str, Any] | None = vars(variant)
        for cls in type(variant).__mro__:
            for name in _VARIANT_READS:
                held = vars(cls).get(name)
                if held is not None and (hasattr(held, "__set__") or hasattr(held, "__delete__")):
                    self.vattrs = None
        self.seats = seats
        self.agents = agents
        self.info = info
        self.max_steps = max_steps
        # Each seat's observation vector, kept in a buffer of its own and brought up to date
        # when the seat is asked (SeatEncoder); the selected agent's vector, the state it was
        # encoded from and the agent it was offered to (observe encodes anew for anything
        # else: another agent, a test's state).
        self.encoders = [SeatEncoder(variant.ruleset, seats, seat) for seat in range(seats)]
        self.vector: FloatArray = self.encoders[0].buffer
        self.encoded: State | None = None
        self.asked: str | None = None
        # The selected agent's mask, kept in place: the actions set in it are `masked`.
        # Its entries are written through the bytearray it is a view of (a bytearray's item
        # assignment costs less than a memoryview's, which packs by the format).
        self.mask_m: Any = bytearray(N_ACTIONS)
        self.mask: MaskArray = np.frombuffer(self.mask_m, np.int8)
        self.masked: list[Any] = []
        self.state: State | None = None
        self.chance: Chance | None = None
        # The seats still to ask before the turn, `seat * 2 + optional` each (None: not known
        # yet for this state).
        self.queue: list[int] | None = None
        # The usual turn's queue of each seat: that seat, no choice to wait (never popped: only
        # a seat that may wait is taken off its queue).
        self.usual: list[list[int]] = [[seat * 2] for seat in range(seats)]
        # The events some seat has not been shown yet (each seat's info carries those since
        # its previous info, as it may see them): `log[0]` is the match's event `logged`.
        self.log: list[dict[str, Any]] = []
        self.logged = 0
        self.seen: list[int] = [0] * seats
        self.steps = 0
        self.rewarded = False  # rewards were given (the match's end): step accumulates them
        self.np_random: Any = None

    def reset(self, events: list[dict[str, Any]], np_random: Any) -> None:
        """A new match from its start `events` (the shell has made its dicts anew)."""
        self.np_random = np_random
        self.state = self.variant.replay(events)
        self.log = list(events)
        self.logged = 0
        self.seen = [0] * self.seats
        self.steps = 0
        self.rewarded = False
        self.asked = None
        self.queue = None
        self.select()

    def observed(self, agent: str) -> Any:
        """`agent`'s observation: the vector and mask kept in place, copied, when it is the agent
        asked and they are of the current state; else the shell's `observe`."""
        if agent == self.asked and self.state is self.encoded:
            return {"observation": self.vector.copy(), "action_mask": self.mask.copy()}
        return self.shell.observe(agent)

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, Any]:
        """The shell's `last`: AECEnv.last, with observe's usual case in `observed` (new arrays: the
        caller's to keep or change)."""
        shell = self.shell
        attrs = self.attrs
        agent: str
        if attrs is not None and self.state is not None:
            # The shell's attributes read from its instance dict (no descriptor of its class
            # names them: checked when the core was made).
            agent = attrs["agent_selection"]
            return (
                self.observed(agent) if observe else None,
                attrs["_cumulative_rewards"][agent],
                attrs["terminations"][agent],
                attrs["truncations"][agent],
                attrs["infos"][agent],
            )
        agent = shell.agent_selection
        return (
            self.observed(agent) if observe else None,
            shell._cumulative_rewards[agent],
            shell.terminations[agent],
            shell.truncations[agent],
            shell.infos[agent],
        )

    def step(self, action: Any) -> None:
        """The shell's `step`: the selected agent's `action`."""
        shell = self.shell
        # The shell's attributes from its instance dict where `last` reads them from it.
        attrs = self.attrs if self.state is not None else None
        agent: str = attrs["agent_selection"] if attrs is not None else shell.agent_selection
        if agent != self.asked:  # a finished agent (or one asked nothing: a bug)
            if shell.terminations[agent] or shell.truncations[agent]:
                shell._was_dead_step(action)
                return
        chance = self.chance
        try:
            index = int(action)
            key: object = index
            legal = 0 <= index < N_ACTIONS and bool(self.mask_m[key])
        except (TypeError, ValueError):
            index, key, legal = 0, 0, False
        if not legal or chance is None:
            raise ValueError(f"action {action!r} is not legal for {agent} now (see its mask)")
        rewards: dict[str, float] = (
            attrs["_cumulative_rewards"] if attrs is not None else shell._cumulative_rewards
        )
        rewards[agent] = 0.0
        # Rewards are given once, when the match ends (the shell's _finish): until then every
        # agent's is 0 and pettingzoo's _clear_rewards and _accumulate_rewards would change
        # nothing.
        if self.rewarded:
            shell._clear_rewards()
            self.rewarded = False
        self.steps += 1
        kind = _KIND_OF[index]
        if kind == _SENDS:
            if chance._legal is None:
                # The usual turn's command, as the listing makes it (listing.plain_plays).
                play = _PLAY_OF[index]
                seat = chance.seat
                if play is None:
                    self.send(DRAW_TEMPLATES[seat].copy())
                elif play[1] is None:
                    command = PLAY_TEMPLATES[seat].copy()  # type, seat, card, uno: False
                    command["card"] = play[0]
                    self.send(command)
                else:
                    card, colour = play
                    self.send(
                        {"type": PLAY, "seat": seat, "card": card, "color": colour, "uno": False}
                    )
            else:
                self.send(chance.choices[key])
        elif kind == _WAITS:
            queue = self.queue
            assert queue is not None
            queue.pop(0)
            self.select()
        else:  # a lane slot
            chance.chosen.append(_SLOT_CARD[index])
            if len(chance.chosen) < chance.lane_count:
                self.offer(chance)  # The same seat chooses its next lane slot.
            else:
                cards, uno = chance.chosen, _SLOT_UNO[index]
                self.send({"type": PRECOMMIT, "seat": chance.seat, "cards": cards, "uno": uno})
        max_steps = self.max_steps
        if max_steps is not None and self.steps >= max_steps:
            agents = shell.agents
            if agents and not any(shell.terminations.values()):
                shell.truncations = dict.fromkeys(agents, True)
                self.asked = None
        if self.rewarded:
            shell._accumulate_rewards()
        render_mode = attrs["render_mode"] if attrs is not None else shell.render_mode
        if render_mode == "human":
            shell.render()

    def ask(self, state: State, seat: int, optional: bool) -> None:
        """Ask `seat` at `state`, as the env would (imitation.py's pairs)."""
        self.state = state
        self.queue = [seat * 2 + optional]
        self.select()

    def send(self, command: Command) -> None:
        """Decide `command`, then select who acts next (the system's commands included)."""
        state, variant = self.state, self.variant
        assert state is not None
        # Through the variant's attribute each time (a test may record what it decides).
        vattrs = self.vattrs
        decide: Any = vattrs.get("decide") if vattrs is not None else None
        if decide is None:  # the class's (a family decided the general way), or a descriptor
            decide = variant.decide
        events: list[dict[str, Any]] = decide(state, command)
        # Variant.replay's first case, inline (a call of it costs more than the check):
        # `decide` folded exactly these events into a copy of exactly this state.
        memo: list[Any] = vattrs["_memo"] if vattrs is not None else variant._memo
        last = memo[0]
        if last is not None and last[0] is state and last[1] is events and len(events) == last[2]:
            memo[0] = None
            self.state = last[3]
        else:
            self.state = variant.replay(events, state)
        self.log += events
        self.queue = None
        self.select()

    def chances(self, state: State) -> list[int]:
        """Who is asked, in the driver's order (bots/driver.py), and whether they may wait."""
        pending = state.pending or {}
        to_act = state.to_act
        if not state.uncalled and "jump" not in pending and "seats" not in pending:
            return self.usual[to_act[0]]  # the usual turn: its seat, no choice to wait
        rng = self.np_random
        chances: list[int] = []
        if state.uncalled:
            owing = sorted(state.uncalled)
            others = [s for s in range(state.seats) if s not in state.uncalled]
            chances += [s * 2 + 1 for s in owing]
            chances += [s * 2 + 1 for s in others if s not in to_act]
        window = pending.get("jump")
        if window is not None:
            # Only the seats holding the card are asked, as the driver does: the scheduler may
            # read the hands, the observations never do.
            holders = [
                s
                for s in range(state.seats)
                if s not in to_act and s != window["by"] and window["card"] in state.hands[s]
            ]
            chances += [int(s) * 2 + 1 for s in rng.permutation(holders)]
        if "seats" in pending:
            eligible = list(to_act)
            chances += [int(s) * 2 + 1 for s in rng.permutation(eligible)]
        else:
            chances.append(to_act[0] * 2)
        return chances

    def select(self) -> None:
        """Move on to the next seat to ask, sending `next-hand` and `close-window` on the way."""
        variant = self.variant
        vattrs = self.vattrs
        while True:
            state = self.state
            assert state is not None
            status = state.status
            if status == MATCH_OVER:
                self.asked = None
                self.shell._finish()
                return
            if status == HAND_OVER:
                self.send({"type": NEXT_HAND})
                return
            queue = self.queue
            if queue is None:
                pending = state.pending
                if not state.uncalled and (
                    pending is None or ("jump" not in pending and "seats" not in pending)
                ):
                    # The usual turn (what chances gives first): its seat, no choice to wait.
                    queue = self.usual[state.to_act[0]]
                else:
                    queue = self.chances(state)
                self.queue = queue
            if not queue:
                # Every seat of an open choice waited: the Youngest Rule decides.
                self.send({"type": CLOSE_WINDOW})
                return
            seat, optional = queue[0] >> 1, bool(queue[0] & 1)
            if vattrs is not None:
                listing: Any = vattrs.get("legal_commands")
                quick: Any = vattrs.get("quick_listing")
            else:
                listing, quick = variant.legal_commands, variant.quick_listing
            if listing is quick and quick is not None and plain_turn(state, seat):
                # The usual turn: the listing's actions from its cards (listing.plain_plays
                # lists a play of each, then the draw), its commands made when needed.
                fast: list[Any] = []
                card_actions = CARD_ACTIONS
                for card in listed_cards(state, seat):
                    for action in card_actions[card]:
                        fast.append(action)
                fast.append(DRAW_ACTION)
                self.chance = chance = Chance(
                    seat, optional, None, None, mask=self.mask, variant=variant, state=state
                )
                self.offer(chance, fast)
                return
            legal: list[Command] = variant.legal_commands(state, seat)
            if legal:
                break
            if not optional:
                raise RuntimeError(f"seat {seat} must act but has no legal command")
            queue.pop(0)
        choices: dict[Any, Command] = {}
        # The actions of the commands, in the listing's order (as the choices' keys).
        masked: list[Any] = []
        chance = Chance(
            seat, optional, legal, choices, mask=self.mask, variant=variant, state=state
        )
        plain, kinds = PLAIN_ACTIONS, KIND_ACTION
        index: object
        for command in legal:
            kind = command["type"]
            if kind == PLAY:
                if "color" not in command and "target" not in command:
                    # The commonest listing, a play of a card alone: its two actions looked up
                    # by the card (what action_index finds through command_key).
                    pair = plain[command["card"]]
                    index = pair[1] if command.get("uno") else pair[0]
                else:
                    index = action_index(command, state.seats)
            elif kind == PRECOMMIT:
                chance.lane_count = len(command["cards"])
                chance.lane_uno = chance.lane_uno or bool(command.get("uno"))
                continue
            elif len(command) == 2 and kind in kinds:  # a draw, a pass …: type and seat
                index = kinds[kind]
            else:
                index = action_index(command, state.seats)
            choices[index] = command
            masked.append(index)
            if len(masked) != len(choices):
                raise RuntimeError(f"two legal commands share action {index}: {command!r}")
        self.chance = chance
        self.offer(chance, masked)

    def offer(self, chance: Chance, masked: list[Any] | None = None) -> None:
        """Ask the chance's seat: its mask, observation and info. `masked`: the actions of its
        commands, when the caller has them (a new list, kept by the info), else its choices'."""
        m = self.mask_m
        for index in self.masked:
            m[index] = 0
        if chance.chosen:
            masked = self.lane_mask(chance)
            waits = False
        else:
            if masked is None:
                masked = list(chance.choices) if chance._legal is not None else self.plain(chance)
            if chance.lane_count:
                masked += self.lane_mask(chance)
            waits = chance.optional
            if waits:
                masked.append(WAIT_ACTION)
        for index in masked:
            m[index] = 1
        self.masked = masked
        chance.mask = self.mask
        seat = chance.seat
        agent = self.agents[seat]
        previous = self.asked
        shell = self.shell
        attrs = self.attrs if self.state is not None else None
        if attrs is not None:  # no descriptor of the shell's class names it (as `last`)
            attrs["agent_selection"] = agent
        else:
            shell.agent_selection = agent
        self.asked = agent
        # The events since the seat's previous info; the log keeps what some seat has not seen.
        logged, log, seen = self.logged, self.log, self.seen
        end = logged + len(log)
        news = log[seen[seat] - logged :]
        seen[seat] = end
        oldest = end
        for at in seen:
            if at < oldest:
                oldest = at
        if oldest > logged:
            # Every seat has seen these: drop them, so the log stays short (the events die
            # young, leaving the garbage collector little to scan) and long episodes keep
            # little memory.
            del log[: oldest - logged]
            self.logged = oldest
        state = self.state
        assert state is not None
        to_choose = chance.lane_count - len(chance.chosen)
        self.vector = self.encoders[seat].update(state, chance.chosen, to_choose, waits)
        self.encoded = state
        infos: dict[str, Any] = attrs["infos"] if attrs is not None else shell.infos
        if previous is not None and previous != agent and previous in infos:
            infos[previous] = {}
        # The info's view, events and mask are made when the info is first read (LazyInfo):
        # the same values, from the same state and log, as if they were made now.
        info = self.info()
        info._making = (
            self.variant,
            state,
            seat,
            news,
            masked,
            chance,
            chance.optional,
            chance.chosen[:] if chance.chosen else None,  # None: [] (made when read)
        )
        infos[agent] = info

    def plain(self, chance: Chance) -> list[Any]:
        """The usual turn's actions (select's), for a chance offered again."""
        state = chance.state
        assert state is not None
        actions: list[Any] = []
        for card in listed_cards(state, chance.seat):
            for action in CARD_ACTIONS[card]:
                actions.append(action)
        actions.append(DRAW_ACTION)
        return actions

    def lane_mask(self, chance: Chance) -> list[int]:
        """The next lane slot: any card of the regular hand not chosen yet (any ordered choice
        is a legal precommit); the last slot carries the uno flag where the engine lists it."""
        state = self.state
        assert state is not None
        left = Counter(state.hands[chance.seat]) - Counter(chance.chosen)
        last = len(chance.chosen) == chance.lane_count - 1
        unos = (False, True) if last and chance.lane_uno else (False,)
        return [ACTION_INDEX[(LANE, card, uno)] for card in left for uno in unos]


class Turns:
    """The agent iterator of env.py's order-enforcing wrapper (pettingzoo's
    AECOrderEnforcingIterator, the same checks), compiled: each agent to act, until no agent is
    left or `max_iter` agents have been given, asserting that the loop stepped (or reset) the
    env in between."""

    def __init__(self, wrapper: Any, core: Core, max_iter: int) -> None:
        self.env = wrapper
        self.core = core
        self.iters_til_term = max_iter

    def __iter__(self) -> Turns:
        return self

    def __next__(self) -> str:
        core = self.core
        attrs = core.attrs
        shell = core.shell
        agents = attrs["agents"] if attrs is not None and core.state is not None else shell.agents
        if not agents or self.iters_til_term <= 0:
            raise StopIteration
        self.iters_til_term -= 1
        wrapper = self.env
        assert wrapper._has_updated, "need to call step() or reset() in a loop over `agent_iter`"
        wrapper._has_updated = False
        if attrs is not None:
            agent: str = attrs["agent_selection"]
            return agent
        selected: str = shell.agent_selection
        return selected
