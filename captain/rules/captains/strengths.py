"""Computer captains of three strengths, each deciding from what its seat sees.

Every captain first turns the real state into one its player cannot tell apart from it
(:func:`~captain.rules.game.view.determinize`: deck, box, the others' face-down cards and
future rolls re-drawn), then decides on that. So a captain plays fair by construction:
nothing hidden from its seat can change its choice.

* ``random``: any legal action.
* ``greedy``: :func:`~captain.rules.captains.policies.greedy_policy` (rings as soon as it
  may, claims the card lining up with its own, plays the card that hits most dice).
* ``strong``: sampled look-ahead. For Setting Time choices and Dice Time claims it plays
  the rest of the round out on several re-drawn states — the others' cards drawn from
  what they may hold, everyone else placing like a greedy player — and takes the choice
  with the best average result (its cards won minus the others' average). In strategy
  mode it re-rolls the dice that least help its best cards.

A captain is also a policy for :func:`~captain.rules.sim.players.play_game`.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ..game import (Action, Claim, GameState, LegalActions, Pass, PlaceAttackCard, RingBell,
                    RingStartBell, Roll, legal_actions, pairs_shown)
from ..game.view import determinize
from ..model import AttackKind, Board, Colour, Position, cell_of
from ..resolve.bell import may_ring
from ..resolve.treasure import resolve_round
from ..situation import Mode, Seating
from .policies import greedy_policy, random_policy


class Captain:
    """A computer captain: ``choose(state, colour, rng)`` returns one of ``colour``'s
    legal actions (or ``None`` when it has none), decided on a re-drawn state.

    Attributes:
        strength: ``"random"``, ``"greedy"`` or ``"strong"``.
    """

    strength = ""

    def __call__(self, state: GameState, colour: Colour, actions: LegalActions,
                 rng: random.Random) -> Action | None:
        """The policy protocol of :func:`~captain.rules.sim.players.play_game`."""
        return self.choose(state, colour, rng)

    def choose(self, state: GameState, colour: Colour, rng: random.Random) -> Action | None:
        """``colour``'s next action, from a state with the hidden facts re-drawn."""
        view = determinize(state, colour, rng)
        own = legal_actions(view, colour)
        if not own:
            return None
        return self.decide(view, colour, own, rng)

    def decide(self, view: GameState, colour: Colour, actions: LegalActions,
               rng: random.Random) -> Action:
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


class RandomCaptain(Captain):
    """Any legal action, uniformly."""

    strength = "random"

    def decide(self, view, colour, actions, rng):
        return random_policy(view, colour, actions, rng)


class GreedyCaptain(Captain):
    """The greedy policy (see :func:`~captain.rules.captains.policies.greedy_policy`)."""

    strength = "greedy"

    def decide(self, view, colour, actions, rng):
        return greedy_policy(view, colour, actions, rng)


@dataclass
class StrongCaptain(Captain):
    """Sampled look-ahead over Setting Time choices and Dice Time claims.

    Attributes:
        samples: at most this many re-drawn states each choice is played out on.
        rollouts: at most this many play-outs per decision in all: with many choices each
            gets fewer samples (at least 2). This bounds a decision's time.
    """

    samples: int = 10
    rollouts: int = 80
    strength = "strong"

    def __repr__(self) -> str:
        return f"StrongCaptain(samples={self.samples}, rollouts={self.rollouts})"

    def _samples_for(self, choices: int) -> int:
        return max(2, min(self.samples, self.rollouts // max(1, choices)))

    def decide(self, view, colour, actions, rng):
        first = actions[0]
        if isinstance(first, RingStartBell):
            return first
        if isinstance(first, PlaceAttackCard):
            return self._place(view, colour, actions, rng)
        claims = [a for a in actions if isinstance(a, Claim)]
        ring = next((a for a in actions if isinstance(a, RingBell)), None)
        if ring is not None and view.dice_cards(colour):
            return ring  # becoming start player wins ties, priority and the next start
        if claims:
            return self._claim(view, colour, claims, rng)
        if view.rules.mode is Mode.STRATEGY:
            passes = [a for a in actions if isinstance(a, Pass)]
            if passes:
                return passes[0]
            rolls = [a for a in actions if isinstance(a, Roll)]
            if rolls:
                return self._reroll(view, colour, rolls, rng)
        return next(a for a in actions if isinstance(a, Roll)) if any(
            isinstance(a, Roll) for a in actions) else actions[0]

    # --- Setting Time ---------------------------------------------------------------------------
    def _place(self, view: GameState, colour: Colour, actions: Sequence[PlaceAttackCard],
               rng: random.Random) -> PlaceAttackCard:
        totals = dict.fromkeys(actions, 0.0)
        for _ in range(self._samples_for(len(actions))):
            world = determinize(view, colour, rng)
            for action in actions:
                board = world.board.with_cell(action.position, cell_of(
                    world.board.at(action.position).treasure, colour, action.kind))  # type: ignore[arg-type]
                hands = _hands(world)
                hands[colour] = _without(hands[colour], action.kind)
                totals[action] += _round_value(world, colour, board, hands, world.seating, rng)
        return max(actions, key=lambda a: (totals[a], -int(a.kind)))

    # --- Dice Time --------------------------------------------------------------------------------
    def _claim(self, view: GameState, colour: Colour, claims: Sequence[Claim],
               rng: random.Random) -> Claim:
        values = self._claim_values(view, colour, [c.position for c in claims], rng)
        return max(claims, key=lambda c: values[c.position])

    def _claim_values(self, view: GameState, colour: Colour, positions: Sequence[Position],
                      rng: random.Random) -> dict[Position, float]:
        """The average round result if ``colour`` put dice on each position and Dice
        Time ended right then (the start player changes if that completes a strategy
        line, STRAT-3)."""
        totals = dict.fromkeys(positions, 0.0)
        samples = self._samples_for(len(positions))
        for _ in range(samples):
            world = determinize(view, colour, rng)
            hands = _hands(world)
            for pos in positions:
                board = world.board.with_cell(pos, cell_of(world.board.at(pos).treasure, colour))  # type: ignore[arg-type]
                seating = world.seating
                if world.rules.mode is Mode.STRATEGY and may_ring(board, seating, world.rules):
                    seating = Seating(seating.players, colour)
                totals[pos] += _round_value(world, colour, board, dict(hands), seating, rng)
        return {pos: total / samples for pos, total in totals.items()}

    def _reroll(self, view: GameState, colour: Colour, rolls: Sequence[Roll],
                rng: random.Random) -> Roll:
        """Strategy mode, no claim possible: re-roll the dice whose replacement most
        often gives a pair for one of the free cards worth most."""
        free = list(view.board.free_faces().items())
        if not free:
            return max(rolls, key=lambda r: len(r.dice or ()))
        values = self._claim_values(view, colour, [pos for pos, _ in free], rng)
        worth = sorted(((values[pos], faces) for pos, faces in free), reverse=True)[:4]
        hand = view.player(colour).dice
        best, best_score = None, float("-inf")
        for roll in rolls:
            chosen = roll.dice or ()
            kept = list(hand)
            for d in chosen:
                kept.remove(d)
            score = 0.0
            trials = 12
            for _ in range(trials):
                dice = tuple(sorted(kept + [rng.randint(1, 6) for _ in chosen]))
                shown = pairs_shown(dice)
                score += max((v for v, faces in worth if faces in shown), default=-1.0)
            if score > best_score:
                best, best_score = roll, score
        return best  # type: ignore[return-value]


def _hands(world: GameState) -> dict[Colour, list[AttackKind]]:
    return {p.colour: list(p.hand or p.discard) for p in world.players}


def _without(hand: list[AttackKind], kind: AttackKind) -> list[AttackKind]:
    left = list(hand)
    left.remove(kind)
    return left


def _round_value(world: GameState, colour: Colour, board: Board,
                 hands: Mapping[Colour, list[AttackKind]], seating: Seating,
                 rng: random.Random) -> float:
    """Every dice-holding card of ``board`` gets an attack card — greedy choices for
    ``colour``, greedy or random ones for the others — then Battle and Treasure Time:
    ``colour``'s cards won minus the others' average."""
    occupancy = board.occupancy()
    g = board.geometry
    dice_of = occupancy.dice_of
    hands = {c: list(h) for c, h in hands.items()}
    for owner, mask in list(dice_of.items()):
        for pos in g.to_positions(mask):
            hand = hands.get(owner) or list(_full_hand(world, owner))
            kind = _pick(board, owner, pos, hand, rng, greedy=owner is colour or rng.random() < 0.6)
            hand.remove(kind)
            hands[owner] = hand
            board = board.with_cell(pos, cell_of(board.at(pos).treasure, owner, kind))  # type: ignore[arg-type]
    _battle, treasure = resolve_round(board, seating, world.rules)
    won = treasure.winnings
    others = [len(won[c]) for c in seating.players if c is not colour]
    return len(won[colour]) - sum(others) / len(others)


def _full_hand(world: GameState, colour: Colour) -> tuple[AttackKind, ...]:
    player = world.player(colour)
    return tuple(sorted(player.hand + player.discard))


def _pick(board: Board, owner: Colour, pos: Position, hand: list[AttackKind],
          rng: random.Random, *, greedy: bool) -> AttackKind:
    """The card ``owner`` puts on ``pos``: the one whose range holds most other players'
    dice (ties: a Scout Ship, then the lowest), or a random one."""
    kinds = sorted(set(hand))
    if not greedy:
        return kinds[int(rng.random() * len(kinds))]
    g = board.geometry
    occupancy = board.occupancy()
    others = occupancy.dice & ~occupancy.dice_of.get(owner, 0)
    at = g.index[pos]

    def score(kind: AttackKind) -> tuple[int, int]:
        hits = (g.reach[int(kind)][at] & others).bit_count()
        return (hits * 10 + (3 if kind is AttackKind.SCOUT_SHIP else 0), -int(kind))

    return max(kinds, key=score)


#: The captains by strength.
CAPTAINS: Mapping[str, type[Captain]] = {"random": RandomCaptain, "greedy": GreedyCaptain,
                                         "strong": StrongCaptain}


def captain(strength: str) -> Captain:
    """A captain of ``strength`` (``random``, ``greedy`` or ``strong``). Raises
    ``KeyError`` naming the strengths for anything else."""
    try:
        return CAPTAINS[strength]()
    except KeyError:
        raise KeyError(f"unknown strength {strength!r}; expected one of "
                       f"{', '.join(CAPTAINS)}") from None
