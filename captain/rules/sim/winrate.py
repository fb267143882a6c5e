"""``python -m captain.rules winrate``: how often a captain wins against others.

One captain of the tested strength plays against captains of another strength; its seat
rotates from game to game (game *i* seats it at seat ``i mod players``). A game counts 1
for an outright win, ``1/k`` for a tie of ``k`` players that END-3 leaves to the table,
0 otherwise; the report gives the mean with a 95% confidence interval (normal
approximation over the games), against the ``1/players`` of an equal player, the
tested captain's decision times, and the longest Dice Time of those games (in turns; in
action mode, moves).
"""

from __future__ import annotations

import math
import statistics
import time
from dataclasses import dataclass, field

from ..captains.policies import Policy
from ..captains.strengths import captain
from ..model import Colour
from ..situation import Mode, RuleSet
from .players import DiceTimeLength, play_game
from .simulate import spawned_pool


@dataclass
class WinTally:
    """Per-game shares of the tested captain and its decision times (seconds)."""

    shares: list[float] = field(default_factory=list)
    decisions: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)
    longest_dice_time: int = 0
    longest_dice_time_seed: int | None = None

    def merge(self, other: WinTally) -> None:
        self.shares += other.shares
        self.decisions += other.decisions
        self.cpu += other.cpu
        self.longest(other.longest_dice_time, other.longest_dice_time_seed)

    def longest(self, turns: int, seed: int | None) -> None:
        """Keep the longest Dice Time so far (the first game's on a tie, as in one process)."""
        if turns > self.longest_dice_time:
            self.longest_dice_time, self.longest_dice_time_seed = turns, seed


class _Timed:
    """Wraps a captain and records how long each of its decisions takes: wall-clock
    time, and the CPU time of this process (which other load on the machine does not
    inflate)."""

    def __init__(self, inner, tally: WinTally) -> None:
        self.inner = inner
        self.tally = tally

    def __call__(self, state, colour, actions, rng):
        t, c = time.perf_counter(), time.process_time()
        try:
            return self.inner(state, colour, actions, rng)
        finally:
            self.tally.cpu.append(time.process_time() - c)
            self.tally.decisions.append(time.perf_counter() - t)


def _block(strength: str, against: str, players: int, first: int, games: int, seed: int,
           mode: Mode) -> WinTally:
    colours = tuple(Colour)[:players]
    rules = RuleSet(mode=mode)
    tally = WinTally()
    for i in range(first, first + games):
        tested = colours[i % players]
        policies: dict[Colour, Policy] = {c: captain(against) for c in colours}
        policies[tested] = _Timed(captain(strength), tally)
        length = DiceTimeLength()
        final = play_game(colours, policies, seed=seed + i, rules=rules, on_step=length)
        tally.longest(length.longest, seed + i)
        standings, winner = final.standings()
        if winner is not None:
            tally.shares.append(1.0 if winner is tested else 0.0)
        else:
            best = standings[0]
            tied = [s.player for s in standings if (s.cards, s.doubles) == (best.cards, best.doubles)]
            tally.shares.append(1 / len(tied) if tested in tied else 0.0)
    return tally


def winrate(strength: str, against: str, *, players: int = 4, games: int = 1000, seed: int = 0,
            mode: Mode = Mode.ACTION, jobs: int = 1) -> WinTally:
    """Play ``games`` games (in ``jobs`` processes); the figures do not depend on ``jobs``."""
    if jobs <= 1 or games < 2:
        return _block(strength, against, players, 0, games, seed, mode)
    jobs = min(jobs, games)
    bounds = [games * k // jobs for k in range(jobs + 1)]
    with spawned_pool(jobs) as pool:
        parts = list(pool.map(_block, [strength] * jobs, [against] * jobs, [players] * jobs,
                              bounds[:-1], [bounds[k + 1] - bounds[k] for k in range(jobs)],
                              [seed] * jobs, [mode] * jobs))
    tally = parts[0]
    for part in parts[1:]:
        tally.merge(part)
    return tally


def report(tally: WinTally, strength: str, against: str, players: int, mode: Mode,
           seconds: float) -> str:
    """The win share with its 95% confidence interval, and decision times."""
    n = len(tally.shares)
    mean = statistics.fmean(tally.shares)
    half = 1.96 * statistics.stdev(tally.shares) / math.sqrt(n) if n > 1 else float("nan")
    even = 1 / players
    verdict = ("above" if mean - half > even else "below" if mean + half < even
               else "not distinguishable from")
    def times(values: list[float]) -> str:
        values = sorted(values)
        p95 = values[int(0.95 * (len(values) - 1))]
        return (f"median {1000 * statistics.median(values):.2f} ms, p95 {1000 * p95:.2f} ms, "
                f"max {1000 * values[-1]:.2f} ms")

    return "\n".join([
        f"games: {n} ({players} players, {mode.value} mode): one {strength} captain against "
        f"{players - 1} {against}, seats rotated, in {seconds:.0f} s",
        f"{strength} captain's win share: {100 * mean:.1f}% "
        f"(95% CI {100 * (mean - half):.1f}-{100 * (mean + half):.1f}%); an equal player: "
        f"{100 * even:.1f}% — {verdict} it",
        f"{strength} captain's decisions: {len(tally.cpu)}; CPU time {times(tally.cpu)}; "
        f"wall-clock {times(tally.decisions)}" if tally.cpu else "no decisions",
        f"longest Dice Time: {tally.longest_dice_time} "
        f"{'turns' if mode is Mode.STRATEGY else 'moves'} (seed {tally.longest_dice_time_seed})",
    ])
