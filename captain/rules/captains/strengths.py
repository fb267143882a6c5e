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
  mode, when it cannot claim, it re-rolls so that it can, aiming at the cards worth most.

A captain is also a policy for :func:`~captain.rules.sim.players.play_game`.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from ..game import (
    Action,
    Claim,
    GameState,
    LegalActions,
    Pass,
    PlaceAttackCard,
    RingBell,
    RingStartBell,
    Roll,
    legal_actions,
    pairs_shown,
)
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
                hands = hands_of(world)
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
            hands = hands_of(world)
            for pos in positions:
                board = world.board.with_cell(pos, cell_of(world.board.at(pos).treasure, colour))  # type: ignore[arg-type]
                seating = world.seating
                if world.rules.mode is Mode.STRATEGY and may_ring(board, seating, world.rules):
                    seating = Seating(seating.players, colour)
                totals[pos] += _round_value(world, colour, board, dict(hands), seating, rng)
        return {pos: total / samples for pos, total in totals.items()}

    def _reroll(self, view: GameState, colour: Colour, rolls: Sequence[Roll],
                rng: random.Random) -> Roll:
        """Strategy mode, no claim possible now: the re-roll whose outcomes are worth most.

        An outcome showing a free card's pair is worth the best such card's claim value
        (the captain claims as soon as it can); one showing none is worth less than the
        worst claim. Holding out is never a plan: nothing forces a pass (INT-8) and a
        player with two dice and a free card can still act (INT-6), so once the others
        have placed all their dice only this captain's claim ends Dice Time. Only re-rolls
        after which some free card can be claimed are weighed; re-rolling every die is
        always one (any card's pair with a chance of at least 1/36).

        So the rules need no reading for a Dice Time in which nobody claims: among
        computer players each Dice Time ends with probability 1 (three claims at most per
        player, then no dice or no free card is left and STRAT-3 or INT-6 ends it). Only
        a human who chooses never to claim can keep it going; in a practice game that is
        the learner, and the game waits on the learner's own choice, as it does when they
        make no move at all.
        """
        free = view.board.free_faces()
        if not free:
            return max(rolls, key=lambda r: len(r.dice or ()))
        hand = view.player(colour).dice
        hopeful = [r for r in rolls if _claimable_after(hand, r.dice or (), free.values())]
        values = self._claim_values(view, colour, list(free), rng)
        worth = sorted(((values[pos], faces) for pos, faces in free.items()), reverse=True)
        miss = worth[-1][0] - 1.0  # below every claim: a pair has to come some time
        best, best_score = None, float("-inf")
        for roll in hopeful or rolls:
            chosen = roll.dice or ()
            kept = list(hand)
            for d in chosen:
                kept.remove(d)
            score = 0.0
            trials = 12
            for _ in range(trials):
                dice = tuple(sorted(kept + [rng.randint(1, 6) for _ in chosen]))
                shown = pairs_shown(dice)
                score += next((v for v, faces in worth if faces in shown), miss)
            if score > best_score:
                best, best_score = roll, score
        return best  # type: ignore[return-value]


def _claimable_after(hand: Sequence[int], rerolled: Sequence[int],
                     faces: Iterable[tuple[int, int]]) -> bool:
    """True when re-rolling the dice ``rerolled`` of ``hand`` can show two dice with some
    card's ``faces``: the faces the kept dice do not show number at most the dice re-rolled
    (so re-rolling two dice or more always can)."""
    kept = list(hand)
    for d in rerolled:
        kept.remove(d)
    for pair in faces:
        left, missing = list(kept), 0
        for v in pair:
            if v in left:
                left.remove(v)
            else:
                missing += 1
        if missing <= len(rerolled):
            return True
    return False


def hands_of(world: GameState) -> dict[Colour, list[AttackKind]]:
    return {p.colour: list(p.hand or p.discard) for p in world.players}


def _without(hand: list[AttackKind], kind: AttackKind) -> list[AttackKind]:
    left = list(hand)
    left.remove(kind)
    return left


def _round_value(world: GameState, colour: Colour, board: Board,
                 hands: Mapping[Colour, list[AttackKind]], seating: Seating,
                 rng: random.Random) -> float:
    """:func:`fill_round`, then Battle and Treasure Time: ``colour``'s cards won minus the
    others' average."""
    board = fill_round(world, colour, board, hands, rng)
    _battle, treasure = resolve_round(board, seating, world.rules)
    won = treasure.winnings
    others = [len(won[c]) for c in seating.players if c is not colour]
    return len(won[colour]) - sum(others) / len(others)


def fill_round(world: GameState, colour: Colour, board: Board,
               hands: Mapping[Colour, list[AttackKind]], rng: random.Random) -> Board:
    """Setting Time played out: every dice-holding card of ``board`` gets an attack card
    from its owner's hand (``hands``; a hand left empty takes the discard pile back,
    SET-4) — greedy choices for ``colour``, greedy or random ones for the others."""
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
    return board


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
