"""``python -m captain.rules bench``: the engine's speed, measured against a yardstick.

Every timed figure is interleaved with the yardstick, python-chess's
``list(chess.Board().legal_moves)``: each round times a batch of ours and a batch of the
yardstick back to back (alternating which goes first), and the report gives the median
of the per-round ratios with its interquartile range. A machine that is busy or slow
shifts both sides of a round alike, so the ratio is what compares across runs and
machines; the microseconds are the medians of the same rounds.

Figures: Battle + Treasure Time on a full 4×4 board, and the public :func:`solve`, each
call as a request makes it: on a position never seen before in the run (a full 4×4 battle
from the next seed, written in its notation before the batch, untimed), starting from the
notation's text: read and checked against the rules (:func:`notation.parse`), then resolved or
solved (:func:`solve` checks the situation again, as it does for a request); ``legal_actions``
and ``apply`` on states taken from seeded random 4-player games; complete random 4-player
games per second in one process and in one process per core.

The report ends with the load average at the start and the end and a plain warning when the
machine was busy or a figure's ratios spread wide (:mod:`.figures`).
"""

from __future__ import annotations

import os
import random
import statistics
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

from .. import notation
from ..game import GameState, apply, legal_actions
from ..model import AttackCard, AttackKind, Board, Cell, Colour, Position, Treasure
from ..resolve.solve import solve
from ..resolve.treasure import resolve_round
from ..situation import Seating, Situation
from .figures import load, load_line, quartiles, verdict, wide
from .players import POLICIES, play_game
from .simulate import spawned_pool


@dataclass(frozen=True)
class Figure:
    """One interleaved measurement: medians over ``rounds`` rounds.

    ``ours`` and ``yardstick`` are seconds per call; ``ratios`` the per-round ratios, of
    which ``ratio`` is the median and ``low``/``high`` the first and third quartiles.
    """

    ours: float
    yardstick: float
    ratios: tuple[float, ...]

    @property
    def rounds(self) -> int:
        return len(self.ratios)

    @property
    def low(self) -> float:
        return quartiles(self.ratios)[0]

    @property
    def ratio(self) -> float:
        return quartiles(self.ratios)[1]

    @property
    def high(self) -> float:
        return quartiles(self.ratios)[2]

    @property
    def wide(self) -> bool:
        return wide(self.ratios)


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


class FreshPositions:
    """Positions never seen before in the run, as the notation a request brings: full 4×4
    battles from ever new seeds. :meth:`prepare` writes the next ones down (outside the
    timing), :meth:`take` hands them out one by one."""

    def __init__(self) -> None:
        self.seed = 0
        self.seen: set[str] = set()
        self.ready: deque[str] = deque()

    def prepare(self, n: int) -> None:
        while len(self.ready) < n:
            self.seed += 1
            board, seating = full_battle_board(self.seed)
            code = Situation(board, seating).to_notation()
            if code not in self.seen:
                self.seen.add(code)
                self.ready.append(code)

    def take(self) -> str:
        return self.ready.popleft()


def _nothing(_n: int) -> None:
    pass


def _batch(fn: Callable[[], object], n: int, prepare: Callable[[int], None] = _nothing) -> float:
    prepare(n)
    t = time.perf_counter()
    for _ in range(n):
        fn()
    return (time.perf_counter() - t) / n


def _calls_for(fn: Callable[[], object], seconds: float, prepare: Callable[[int], None] = _nothing) -> int:
    """How many calls of ``fn`` take about ``seconds`` (``prepare(n)`` readies n calls' inputs)."""
    n = 1
    while True:
        prepare(n)
        t = time.perf_counter()
        for _ in range(n):
            fn()
        if time.perf_counter() - t >= seconds / 4 or n >= 1 << 20:
            per_call = (time.perf_counter() - t) / n
            return max(1, int(seconds / per_call))
        n *= 2


def interleaved(ours: Callable[[], object], yardstick: Callable[[], object], *, rounds: int = 41,
                batch_seconds: float = 0.01, prepare: Callable[[int], None] = _nothing) -> Figure:
    """Time ``ours`` against ``yardstick`` in alternating batches; see the module docstring.
    ``prepare(n)``, untimed before each batch of ``ours``, readies the inputs of its n calls."""
    n_ours = _calls_for(ours, batch_seconds, prepare)
    n_yard = _calls_for(yardstick, batch_seconds)
    ratios, mine, theirs = [], [], []
    for r in range(rounds):
        if r % 2:
            a = _batch(ours, n_ours, prepare)
            b = _batch(yardstick, n_yard)
        else:
            b = _batch(yardstick, n_yard)
            a = _batch(ours, n_ours, prepare)
        ratios.append(a / b)
        mine.append(a)
        theirs.append(b)
    return Figure(statistics.median(mine), statistics.median(theirs), tuple(ratios))


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


def _games_per_second(seconds: float) -> list[str]:
    """Random 4-player games per second, in one process (three runs of ``seconds``) and in
    one process per core at once."""
    lines = []
    runs = [_random_games(0, seconds) for _ in range(3)]
    rates = sorted(g / s for g, s in runs)
    lines.append(f"random 4-player games: {statistics.median(rates):.0f} games/s, one process "
                 f"(median of 3 runs: {rates[0]:.0f}-{rates[-1]:.0f})")
    cores = os.cpu_count() or 1
    if cores > 1:
        with spawned_pool(cores) as pool:
            results = list(pool.map(_random_games, [i * 1_000_000 for i in range(cores)],
                                    [seconds] * cores))
        # each process times its own games, so starting the processes is not counted;
        # they play at the same time, so their rates add up
        lines.append(f"random 4-player games on {cores} cores: "
                     f"{sum(g / s for g, s in results):.0f} games/s")
    return lines


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

    started = load()
    fresh = FreshPositions()
    states = game_states()
    rng = random.Random(1)
    pairs = []
    for state in states:
        listed = legal_actions(state)
        pairs.append((state, listed, listed[rng.randrange(len(listed))]))
    at = {"game": 0, "state": 0, "pair": 0, "listed": 0}

    def resolve() -> None:
        situation = notation.parse(fresh.take())
        resolve_round(situation.board, situation.seating, situation.rules)

    def solved() -> None:
        solve(notation.parse(fresh.take()))

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
        play_game(colours, policies, seed=at["game"] % 97)
        at["game"] += 1

    lines = [f"yardstick: python-chess list(Board().legal_moves), interleaved with each figure "
             f"({rounds} rounds; median ratio, interquartile range)"]
    spread = []
    for label, fn, target, prepare in (
            ("battle + treasure, a fresh full 4x4 board (16 attack cards) parsed from its notation",
             resolve, " (target <= 1.0)", fresh.prepare),
            ("solve(), a fresh full 4x4 board parsed from its notation, checking included",
             solved, " (target <= 1.0)", fresh.prepare),
            (f"legal_actions, {len(states)} states of random 4-player games", listing, "", _nothing),
            ("apply, checked, the same states", checked_apply, "", _nothing),
            ("apply from the listing (LegalActions.apply), the same states", listed_apply, "", _nothing),
            ("one random 4-player game", one_game, "", _nothing)):
        f = interleaved(fn, yardstick, rounds=rounds, batch_seconds=0.05 if fn is one_game else 0.01,
                        prepare=prepare)
        lines.append(f"{label}: {f.ours * 1e6:.1f} µs; chess {f.yardstick * 1e6:.1f} µs; "
                     f"ratio {f.ratio:.2f} (IQR {f.low:.2f}-{f.high:.2f}){target}")
        if f.wide:
            spread.append(label.split(",")[0])
    lines += _games_per_second(games_seconds)
    lines.append(f"fresh positions parsed: {len(fresh.seen)}, each once")
    lines.append(load_line(started, load()))
    lines += verdict(started, spread,
                     holds="The ratios hold up better than the microseconds (both sides of a round "
                           "wait alike), but caches and CPU frequency suffer too, and the games/s "
                           "not at all.")
    return "\n".join(lines)
