"""A practice game: one learner against computer captains, in real time or by turns.

:class:`Practice` is an immutable record of the game so far: the engine's state, who
plays which seat, the captains' strength and pace, and the timed log of every action.
Time is seconds since the game began, as the caller's clock says.

* :func:`advance` plays the captains' actions due up to a moment; :func:`next_due` says
  when the next one may be due, so a caller knows when to advance again. Strategy mode and the
  start of each round are turn by turn: a captain on turn acts at once. In action mode
  each captain acts once per interval of its pace (:mod:`.pace`); every phase change
  (Dice Time begins, Setting Time, a new turn) restarts the captains' intervals, Dice Time
  after the pace's opening seconds, and no captain acts within the pace's gap after
  another captain's action.
* :func:`learner_acts` first advances to the learner's moment, then applies the
  learner's action — so a claim on a card a captain took a moment earlier is refused
  (:class:`~captain.rules.errors.IllegalAction` with the clause).
* After every Battle and Treasure Time the captains wait until the learner is ready for
  the next round (:func:`learner_continues`); they also wait before the first round.
* :func:`replay` applies a timed log again to the state as dealt: the same game.
* :func:`take_back` undoes the learner's last move in strategy mode, with the captains'
  answers to it.

Captains decide with a random source of their own (``captain_seed``, never the game's
seed, which fixes future rolls) and from a re-drawn state (:mod:`.strengths`).

>>> from captain.rules.model import Colour
>>> p = start_practice((Colour.RED, Colour.BLUE), learner=Colour.RED, seed=3, captain_seed=4)
>>> p.waiting_for_learner, p.state.phase
(True, Phase.AWAIT_START_BELL)
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from types import MappingProxyType

from ..errors import IllegalAction, InvalidInput
from ..game import Action, GameState, Phase, apply, legal_actions, new_game
from ..model import Colour
from ..situation import Mode, RuleSet
from .pace import Pace, interval
from .strengths import captain

#: Engine version recorded with a game: a log replays exactly on the same version.
ENGINE_VERSION = 1


@dataclass(frozen=True)
class TimedAction:
    """One action of the log: ``at`` seconds into the game, by the learner or a captain."""

    at: float
    action: Action
    by_learner: bool


@dataclass(frozen=True)
class Practice:
    """A practice game so far (see the module docstring).

    Attributes:
        state: the engine's state.
        learner: the learner's colour.
        strengths: each captain's colour → ``random``, ``greedy`` or ``strong``.
        pace: the captains' pace in action mode.
        captain_seed: the captains' own random source.
        dealt: the state as dealt, before any action (what :func:`replay` starts from).
        log: every action so far, in order.
        clock: the moment up to which captains have been advanced.
        waiting_for_learner: True between rounds (and before the first) until the learner
            says they are ready.
        next_tick: action mode: each captain's next moment to act.
        ticks: each captain's intervals used so far (numbers the pace's jitter).
    """

    state: GameState
    learner: Colour
    strengths: Mapping[Colour, str]
    pace: Pace
    captain_seed: int
    dealt: GameState
    log: tuple[TimedAction, ...] = ()
    clock: float = 0.0
    waiting_for_learner: bool = True
    next_tick: Mapping[Colour, float] = field(default_factory=dict)
    ticks: Mapping[Colour, int] = field(default_factory=dict)

    @property
    def captains(self) -> tuple[Colour, ...]:
        """The captains' colours, in seat order."""
        return tuple(c for c in self.state.seating.players if c is not self.learner)

    @property
    def real_time(self) -> bool:
        """True while captains act by the clock: action-mode Dice Time."""
        return self.state.rules.mode is Mode.ACTION and self.state.phase is Phase.DICE

    def __repr__(self) -> str:
        return (f"<Practice learner {self.learner.value}, {len(self.log)} actions, "
                f"{self.state!r}>")


def start_practice(players: Sequence[Colour], *, learner: Colour, seed: int, captain_seed: int,
                   rules: RuleSet = RuleSet(), strength: str | Mapping[Colour, str] = "greedy",
                   pace: Pace = Pace.TABLE, start_player: Colour | None = None) -> Practice:
    """Deal a practice game. ``strength`` is one strength for every captain or one per
    captain's colour. Raises :class:`InvalidInput` when the learner is not seated or a
    strength is unknown."""
    state = new_game(players, rules=rules, seed=seed, start_player=start_player)
    if learner not in state.seating.players:
        raise InvalidInput(f"the learner's colour {learner.value} is not seated",
                           where="learner", code="colour-not-seated", colour=learner.value)
    others = [c for c in state.seating.players if c is not learner]
    chosen = {c: strength for c in others} if isinstance(strength, str) else dict(strength)
    if set(chosen) != set(others):
        raise InvalidInput("give a strength for every captain", where="strengths",
                           code="bad-strengths")
    for value in chosen.values():
        try:
            captain(value)
        except KeyError as exc:
            raise InvalidInput(str(exc.args[0]), where="strength", code="bad-strength",
                               value=str(value)) from None
    return Practice(state, learner, MappingProxyType(chosen), pace, captain_seed, state,
                    ticks=MappingProxyType(dict.fromkeys(others, 0)))


def learner_continues(practice: Practice, now: float) -> Practice:
    """The learner is ready for the next round (or the first): the captains go on."""
    practice = advance(practice, now)
    if not practice.waiting_for_learner:
        return practice
    ready = _restart_clocks(replace(practice, waiting_for_learner=False), max(now, practice.clock))
    return advance(ready, now)


def learner_acts(practice: Practice, action: Action, now: float) -> Practice:
    """Advance the captains to ``now``, then apply the learner's ``action``.

    Raises :class:`IllegalAction` (with the clause) when the action is not the
    learner's or not legal at that moment — for instance a card a captain claimed first.
    """
    if action.player is not practice.learner:
        raise IllegalAction(f"{action.player.value} is played by a computer captain",
                            clause="SETUP-1", code="not-your-seat", colour=action.player.value)
    practice = advance(practice, now)
    at = max(now, practice.clock)
    if practice.waiting_for_learner:
        practice = replace(practice, waiting_for_learner=False)
    new_state = apply(practice.state, action)
    return _after(practice, new_state, TimedAction(at, action, True), at)


def take_back(practice: Practice) -> tuple[Practice, TimedAction]:
    """The game as it was just before the learner's last move, in strategy mode: that move
    and the captains' answers to it are undone (their turns come again after the learner's
    next move). Returns the game and the move taken back.

    Only a move of the round being played, before its Battle Time: a round resolved since
    showed every card. Raises :class:`InvalidInput` (``code`` ``take-back-mode``,
    ``nothing-to-take-back`` or ``round-played``) otherwise.
    """
    if practice.state.rules.mode is not Mode.STRATEGY:
        raise InvalidInput("only strategy mode takes a move back", where="action",
                           code="take-back-mode")
    mine = [i for i, entry in enumerate(practice.log) if entry.by_learner]
    if practice.state.is_over or not mine:
        raise InvalidInput("there is no move of yours to take back", where="action",
                           code="nothing-to-take-back")
    last = mine[-1]
    state = replay(practice.dealt, practice.log[:last])
    if state.round != practice.state.round:
        raise InvalidInput("the round of that move has been played", where="action",
                           code="round-played")
    kept = practice.log[:last]
    ticks = {c: sum(1 for e in kept if not e.by_learner and e.action.player is c) for c in practice.captains}
    back = replace(practice, state=state, log=kept, waiting_for_learner=False,
                   ticks=MappingProxyType(ticks), next_tick=MappingProxyType({}))
    return back, practice.log[last]


def advance(practice: Practice, now: float) -> Practice:
    """Play every captain action due up to ``now`` (see the module docstring)."""
    while not practice.state.is_over and not practice.waiting_for_learner:
        state = practice.state
        if practice.real_time:
            due = [(practice.next_tick[c], seat, c) for seat, c in enumerate(state.seating.order())
                   if c in practice.next_tick]
            if not due:
                break
            at, _seat, colour = min(due)
            if at > now:
                break
            action = _decide(practice, colour)
            ticks = {**practice.ticks, colour: practice.ticks[colour] + 1}
            next_tick = {**practice.next_tick, colour: at + interval(
                practice.pace, seed=state.seed, colour=colour.value, n=ticks[colour])}
            if action is not None:  # one captain's move at a time, the pace's gap apart
                next_tick = {c: max(t, at + practice.pace.gap_seconds) for c, t in next_tick.items()}
            practice = replace(practice, ticks=MappingProxyType(ticks),
                               next_tick=MappingProxyType(next_tick), clock=max(practice.clock, at))
            if action is not None:
                practice = _after(practice, apply(state, action), TimedAction(at, action, False), at)
            continue
        mover = _turn_taker(state)
        if mover is None or mover is practice.learner:
            break
        if state.rules.mode is Mode.ACTION:  # a turn in Setting Time, or the start bell
            at = practice.next_tick.get(mover, practice.clock)
            if at > now:
                break
        else:
            at = practice.clock
        action = _decide(practice, mover)
        ticks = {**practice.ticks, mover: practice.ticks[mover] + 1}
        practice = replace(practice, ticks=MappingProxyType(ticks), clock=max(practice.clock, at))
        assert action is not None, "a captain on turn always has an action"
        practice = _after(practice, apply(state, action), TimedAction(at, action, False), at)
        if not practice.waiting_for_learner:
            practice = _restart_clocks(practice, at)  # the next turn comes one interval later
    return replace(practice, clock=max(practice.clock, now))


def next_due(practice: Practice) -> float | None:
    """The moment (seconds into the game) from which :func:`advance` has something to do:
    a captain's next tick in real time (which may decide to do nothing), a captain on turn
    at once (:attr:`Practice.clock`) or at its tick in action mode's turns; ``None`` while
    the learner is to act or the game is over. A caller that advances at this moment
    plays each captain's action when it is due.

    >>> from captain.rules.model import Colour
    >>> p = start_practice((Colour.RED, Colour.BLUE), learner=Colour.RED, seed=3, captain_seed=4)
    >>> next_due(p) is None  # the captains wait for the learner before the first round
    True
    """
    if practice.state.is_over or practice.waiting_for_learner:
        return None
    state = practice.state
    if practice.real_time:
        due = [practice.next_tick[c] for c in state.seating.order() if c in practice.next_tick]
        return min(due) if due else None
    mover = _turn_taker(state)
    if mover is None or mover is practice.learner:
        return None
    if state.rules.mode is Mode.ACTION:
        return practice.next_tick.get(mover, practice.clock)
    return practice.clock


def replay(dealt: GameState, log: Sequence[TimedAction]) -> GameState:
    """The state ``log`` leads to from the state as ``dealt`` (each action checked).
    Raises :class:`IllegalAction` if the log does not belong to that deal."""
    state = dealt
    for entry in log:
        state = apply(state, entry.action)
    return state


def _turn_taker(state: GameState) -> Colour | None:
    if state.phase is Phase.AWAIT_START_BELL:
        return state.start_player
    return state.turn


def _decide(practice: Practice, colour: Colour) -> Action | None:
    """The captain's choice, with a random source of its own for this very decision."""
    rng = random.Random(f"{practice.captain_seed}:{colour.value}:{practice.ticks[colour]}")
    if not legal_actions(practice.state, colour):
        return None
    return captain(practice.strengths[colour]).choose(practice.state, colour, rng)


def _after(practice: Practice, new_state: GameState, entry: TimedAction, at: float) -> Practice:
    old = practice.state
    practice = replace(practice, state=new_state, log=practice.log + (entry,),
                       clock=max(practice.clock, at))
    if new_state.last_round is not old.last_round:  # a round was resolved: let the learner read it
        return replace(practice, waiting_for_learner=True,
                       next_tick=MappingProxyType({}))
    if (new_state.phase is not old.phase or new_state.turn is not old.turn
            or new_state.round != old.round):
        return _restart_clocks(practice, at)
    return practice


def _restart_clocks(practice: Practice, at: float) -> Practice:
    """Every captain's next action one interval after ``at`` (action mode); in Dice Time,
    which begins with everyone's roll, after the pace's opening seconds too."""
    if practice.state.rules.mode is not Mode.ACTION:
        return practice
    seed = practice.state.seed
    opening = practice.pace.opening_seconds if practice.state.phase is Phase.DICE else 0.0

    def first(colour: Colour) -> float:
        gap = interval(practice.pace, seed=seed, colour=colour.value, n=practice.ticks[colour])
        # after the opening, a quarter of each captain's own interval spreads their first moves
        return max(opening + gap / 4 if opening else gap, practice.pace.gap_seconds)

    next_tick = {c: at + first(c) for c in practice.captains}
    return replace(practice, next_tick=MappingProxyType(next_tick))
