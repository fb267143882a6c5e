"""``python -m captain.rules bench``: the engine's speed, measured against a yardstick.

Every timed figure is interleaved with the yardstick, python-chess's
``list(chess.Board().legal_moves)``: each round times a batch of ours and a batch of the
yardstick back to back (alternating which goes first), and the report gives the median
of the per-round ratios with its interquartile range. A machine that is busy or slow
shifts both sides of a round alike, so the ratio is what compares across runs and
machines; the microseconds are the medians of the same rounds.

Figures: Battle + Treasure Time on a full 4×4 board, and the public :func:`solve` of the
same boards, whose figure includes checking the situation against the rules (64 different
boards in turn, each call on a new :class:`Board` of their cells, as a request holds a board
it has just read: nothing memoised on a board carries over from one call to the next);
``legal_actions`` and ``apply`` on states taken from seeded random 4-player games; complete
random 4-player games per second in one process and in one process per core.
"""

from __future__ import annotations

import os
import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass

from ..game import GameState, apply, legal_actions
from ..model import AttackCard, AttackKind, Board, Cell, Colour, Position, Treasure
from ..resolve.solve import solve
from ..resolve.treasure import resolve_round
from ..situation import RuleSet, Seating, Situation
from .players import POLICIES, play_game
from .simulate import spawned_pool


@dataclass(frozen=True)
class Figure:
    """One interleaved measurement: medians over ``rounds`` rounds.

    ``ours`` and ``yardstick`` are seconds per call; ``ratio`` the median of the per-round
    ratios, ``low``/``high`` its first and third quartiles.
    """

    ours: float
    yardstick: float
    ratio: float
    low: float
    high: float
    rounds: int


def full_battle_board(seed: int = 1) -> tuple[Board, Seating]:
    """A full 4×4 board with 16 attack cards of four colours (4 each), for the benchmark."""
    rng = random.Random(seed)
    kinds = [AttackKind.BOARDING_MELEE, AttackKind.BROADSIDE, AttackKind.CANNON,
             AttackKind.KRAKENS_WRATH, AttackKind.HOSTAGE_GAMBIT, AttackKind.SCOUT_SHIP]
    cards = [AttackCard(c, k) for c in Colour for k in rng.sample(kinds, 4)]
    rng.shuffle(cards)
    faces = [Treasure(a, b) for a in range(1, 7) for b in range(a, 7)]
    cells = {Position(r, c): Cell(faces[r * 4 + c], cards[r * 4 + c])
               for r in range(4) for c in range(4)}
    return Board.from_cells(cells, (4, 4)), Seating(tuple(Colour), Colour.RED)


def _batch(fn: Callable[[], object], n: int) -> float:
    t = time.perf_counter()
    for _ in range(n):
        fn()
    return (time.perf_counter() - t) / n


def _calls_for(fn: Callable[[], object], seconds: float) -> int:
    """How many calls of ``fn`` take about ``seconds``."""
    n = 1
    while True:
        t = time.perf_counter()
        for _ in range(n):
            fn()
        if time.perf_counter() - t >= seconds / 4 or n >= 1 << 20:
            per_call = (time.perf_counter() - t) / n
            return max(1, int(seconds / per_call))
        n *= 2


def interleaved(ours: Callable[[], object], yardstick: Callable[[], object], *, rounds: int = 41,
                batch_seconds: float = 0.01) -> Figure:
    """Time ``ours`` against ``yardstick`` in alternating batches; see the module docstring."""
    n_ours = _calls_for(ours, batch_seconds)
    n_yard = _calls_for(yardstick, batch_seconds)
    ratios, mine, theirs = [], [], []
    for r in range(rounds):
        if r % 2:
            a = _batch(ours, n_ours)
            b = _batch(yardstick, n_yard)
        else:
            b = _batch(yardstick, n_yard)
            a = _batch(ours, n_ours)
        ratios.append(a / b)
        mine.append(a)
        theirs.append(b)
    low, _median, high = statistics.quantiles(ratios, n=4)
    return Figure(statistics.median(mine), statistics.median(theirs), statistics.median(ratios),
                  low, high, rounds)


def game_states(games: int = 12, keep: float = 0.25) -> list[GameState]:
    """States met in seeded random 4-player games (about ``keep`` of them), not over."""
    rng = random.Random(0)
    found: list[GameState] = []
    colours = tuple(Colour)
    for seed in range(games):
        def on_step(_before, _action, after) -> None:
            if not after.is_over and rng.random() < keep:
                found.append(after)

        play_game(colours, {c: POLICIES["random"] for c in colours}, seed=seed, on_step=on_step)
    return found


def _random_games(first_seed: int, seconds: float) -> tuple[int, float]:
    """Play random 4-player games for ``seconds``; returns (games, seconds taken)."""
    colours = tuple(Colour)
    policies = {c: POLICIES["random"] for c in colours}
    t = time.perf_counter()
    games = 0
    while time.perf_counter() - t < seconds:
        play_game(colours, policies, seed=first_seed + games)
        games += 1
    return games, time.perf_counter() - t


def bench(games_seconds: float = 3.0, rounds: int = 41) -> str:
    """Measure every figure (see the module docstring); returns the report, one a line.

    ``games_seconds``: how long each games-per-second run plays (three runs in one
    process, then one run per core at once); ``rounds``: rounds per interleaved figure.
    """
    try:
        import chess  # the yardstick is an optional (dev) dependency
    except ImportError:
        return "python-chess is not installed (pip install chess): no yardstick, no figures"

    def yardstick() -> None:
        list(chess.Board().legal_moves)

    boards = [full_battle_board(seed) for seed in range(64)]
    rules = RuleSet()
    states = game_states()
    rng = random.Random(1)
    pairs = []
    for state in states:
        listed = legal_actions(state)
        pairs.append((state, listed, listed[rng.randrange(len(listed))]))
    at = {"board": 0, "state": 0, "pair": 0, "listed": 0}

    def resolve() -> None:
        board, seating = boards[at["board"] & 63]
        at["board"] += 1
        resolve_round(Board(board.rows), seating, rules)

    def solved() -> None:
        board, seating = boards[at["board"] & 63]
        at["board"] += 1
        solve(Situation(Board(board.rows), seating, rules))

    def listing() -> None:
        legal_actions(states[at["state"] % len(states)])
        at["state"] += 1

    def checked_apply() -> None:
        state, _listed, action = pairs[at["pair"] % len(pairs)]
        at["pair"] += 1
        apply(state, action)

    def listed_apply() -> None:
        _state, listed, action = pairs[at["listed"] % len(pairs)]
        at["listed"] += 1
        listed.apply(action)

    colours = tuple(Colour)
    policies = {c: POLICIES["random"] for c in colours}

    def one_game() -> None:
        play_game(colours, policies, seed=at["board"] % 97)
        at["board"] += 1

    lines = [f"yardstick: python-chess list(Board().legal_moves), interleaved with each figure "
             f"({rounds} rounds; median ratio, interquartile range)"]
    for label, fn, target in (
            ("battle + treasure, full 4x4 board, 16 attack cards", resolve, " (target <= 1.0)"),
            ("solve() of the same boards, checking them included", solved, " (target <= 1.0)"),
            (f"legal_actions, {len(states)} states of random 4-player games", listing, ""),
            ("apply, checked, the same states", checked_apply, ""),
            ("apply from the listing (LegalActions.apply), the same states", listed_apply, ""),
            ("one random 4-player game", one_game, "")):
        f = interleaved(fn, yardstick, rounds=rounds, batch_seconds=0.05 if fn is one_game else 0.01)
        lines.append(f"{label}: {f.ours * 1e6:.1f} µs; chess {f.yardstick * 1e6:.1f} µs; "
                     f"ratio {f.ratio:.2f} (IQR {f.low:.2f}-{f.high:.2f}){target}")
    runs = [_random_games(0, games_seconds) for _ in range(3)]
    rates = sorted(g / s for g, s in runs)
    lines.append(f"random 4-player games: {statistics.median(rates):.0f} games/s, one process "
                 f"(median of 3 runs: {rates[0]:.0f}-{rates[-1]:.0f})")
    cores = os.cpu_count() or 1
    if cores > 1:
        with spawned_pool(cores) as pool:
            results = list(pool.map(_random_games, [i * 1_000_000 for i in range(cores)],
                                    [games_seconds] * cores))
        # each process times its own games, so starting the processes is not counted;
        # they play at the same time, so their rates add up
        lines.append(f"random 4-player games on {cores} cores: "
                     f"{sum(g / s for g, s in results):.0f} games/s")
    return "\n".join(lines)
