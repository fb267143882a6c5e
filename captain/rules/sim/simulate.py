"""Statistics over many simulated games, and the benchmark.

``python -m captain.rules simulate --players 4 --games N --seed S [--mode strategy]
[--policy random|greedy|strong]`` plays whole games and prints: rounds per game, cards per
player, how often the start player wins a speed tie, the score spread, and the longest
Dice Time (in turns; in action mode, moves) with the seed of its game.

The benchmark is :mod:`captain.rules.sim.bench`.
"""

from __future__ import annotations

import concurrent.futures
import multiprocessing
import statistics
from collections import Counter
from dataclasses import dataclass, field

from ..captains.policies import Policy
from ..captains.strengths import captain
from ..game import GameState
from ..model import Colour
from ..resolve.battle import Outcome
from ..situation import Mode, RuleSet
from .players import POLICIES, DiceTimeLength, play_game


@dataclass
class Tally:
    """Running counts over simulated games."""

    rounds: list[int] = field(default_factory=list)
    cards: list[int] = field(default_factory=list)
    spreads: list[int] = field(default_factory=list)
    winner_cards: list[int] = field(default_factory=list)
    ties_decided: int = 0
    speed_ties: int = 0
    start_player_won_tie: int = 0
    wins_by_seat: Counter[int] = field(default_factory=Counter)
    undecided: int = 0
    longest_dice_time: int = 0
    longest_dice_time_seed: int | None = None

    def merge(self, other: Tally) -> None:
        """Add the counts of ``other`` (games played after this tally's games)."""
        self.rounds += other.rounds
        self.cards += other.cards
        self.spreads += other.spreads
        self.winner_cards += other.winner_cards
        self.ties_decided += other.ties_decided
        self.speed_ties += other.speed_ties
        self.start_player_won_tie += other.start_player_won_tie
        self.wins_by_seat.update(other.wins_by_seat)
        self.undecided += other.undecided
        self.longest(other.longest_dice_time, other.longest_dice_time_seed)

    def longest(self, turns: int, seed: int | None) -> None:
        """Keep the longest Dice Time so far (the first game's on a tie, as in one process)."""
        if turns > self.longest_dice_time:
            self.longest_dice_time, self.longest_dice_time_seed = turns, seed

    def add_game(self, final: GameState, ties: tuple[int, int]) -> None:
        self.rounds.append(final.round)
        counts = [len(p.won) for p in final.players]
        self.cards.extend(counts)
        self.spreads.append(max(counts) - min(counts))
        standings, winner = final.standings()
        self.winner_cards.append(standings[0].cards)
        if winner is None:
            self.undecided += 1
        else:
            self.wins_by_seat[final.seating.players.index(winner)] += 1
        if len({s.cards for s in standings[:2]}) == 1 and winner is not None:
            self.ties_decided += 1
        self.speed_ties += ties[0]
        self.start_player_won_tie += ties[1]


def _speed_ties(state_before: GameState, state_after: GameState) -> tuple[int, int]:
    """(speed ties, ties the start player won) in the battle that ``state_after`` resolved.

    A speed tie: a card removes another player's card of the same speed; the remover
    won it (BAT-2).
    """
    record = state_after.last_round
    if record is None or record is state_before.last_round:
        return (0, 0)
    ties = won = 0
    for step in record.battle.turns:
        if step.outcome is not Outcome.ACTS:
            continue
        for pos in step.removed:
            victim = record.battle.before.at(pos).card
            if victim is not None and victim.kind == step.card.kind:
                ties += 1
                won += step.card.colour == state_before.start_player
    return (ties, won)


def simulate(players: int, games: int, seed: int, mode: Mode = Mode.ACTION,
             policy: str = "random", jobs: int = 1) -> Tally:
    """Play ``games`` games with ``players`` seats; game *i* uses seed ``seed + i``.

    ``jobs`` > 1 plays them in that many processes (contiguous blocks of games) and
    merges the counts in game order, so the statistics do not depend on ``jobs``.
    """
    if jobs > 1 and games > 1:
        jobs = min(jobs, games)
        bounds = [games * k // jobs for k in range(jobs + 1)]
        with spawned_pool(jobs) as pool:
            parts = list(pool.map(_simulate_block, [players] * jobs,
                                  [bounds[k + 1] - bounds[k] for k in range(jobs)],
                                  [seed + bounds[k] for k in range(jobs)],
                                  [mode] * jobs, [policy] * jobs))
        tally = parts[0]
        for part in parts[1:]:
            tally.merge(part)
        return tally
    return _simulate_block(players, games, seed, mode, policy)


def _simulate_block(players: int, games: int, seed: int, mode: Mode, policy: str) -> Tally:
    colours = tuple(Colour)[:players]
    rules = RuleSet(mode=mode)
    tally = Tally()
    chooser = _policy(policy)
    for i in range(games):
        ties = [0, 0]
        length = DiceTimeLength()

        def on_step(before: GameState, action, after: GameState, ties: list[int] = ties,
                    length: DiceTimeLength = length) -> None:
            t = _speed_ties(before, after)
            ties[0] += t[0]
            ties[1] += t[1]
            length(before, action, after)

        final = play_game(colours, dict.fromkeys(colours, chooser), seed=seed + i,
                          rules=rules, on_step=on_step)
        tally.add_game(final, (ties[0], ties[1]))
        tally.longest(length.longest, seed + i)
    return tally


def _policy(name: str) -> Policy:
    """The players of ``simulate``: the random and greedy policies, or the strong captain."""
    return POLICIES[name] if name in POLICIES else captain(name)


def report(tally: Tally, players: int, games: int, mode: Mode, policy: str, seconds: float,
           jobs: int = 1) -> str:
    """Human-readable statistics, one figure a line."""
    def stats(values: list[int]) -> str:
        return (f"mean {statistics.fmean(values):.2f}, min {min(values)}, max {max(values)}"
                if values else "n/a")

    tie_share = (f"{tally.start_player_won_tie}/{tally.speed_ties} "
                 f"({100 * tally.start_player_won_tie / tally.speed_ties:.1f}%)"
                 if tally.speed_ties else "no speed ties")
    seats = ", ".join(f"seat {s + 1}: {tally.wins_by_seat[s]}" for s in range(players))
    unit = "turns" if mode is Mode.STRATEGY else "moves"
    return "\n".join([
        f"games: {games} ({players} players, {mode.value} mode, {policy} players"
        f"{f', {jobs} processes' if jobs > 1 else ''}) in {seconds:.2f} s",
        f"rounds per game: {stats(tally.rounds)}",
        f"cards per player: {stats(tally.cards)}",
        f"winner's cards: {stats(tally.winner_cards)}",
        f"score spread (most - fewest cards): {stats(tally.spreads)}",
        f"start player wins a speed tie: {tie_share}",
        f"wins by seat: {seats}; left to the players (END-3): {tally.undecided}",
        f"card ties decided by doubles: {tally.ties_decided}",
        f"longest Dice Time: {tally.longest_dice_time} {unit} "
        f"(seed {tally.longest_dice_time_seed})",
    ])


def spawned_pool(processes: int) -> concurrent.futures.ProcessPoolExecutor:
    """Worker processes started fresh ("spawn"): forking a process that runs threads
    (a test runner, a web server) can deadlock the child."""
    return concurrent.futures.ProcessPoolExecutor(
        processes, mp_context=multiprocessing.get_context("spawn"))
