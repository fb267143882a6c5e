"""When a computer captain acts in real time: its pace.

A captain's strength decides *what* it does; its pace decides *when*. In action mode a
captain acts once per interval: ``1 / actions_per_second`` seconds, scaled by a jitter
between 0.5 and 1.5 that comes from the game's seed, the captain's colour and the number
of the interval — so the same game always has the same timing, and no two captains tick
in lockstep.

Two more bounds make the first-game pace slow enough to learn at: no captain acts in the
first ``opening_seconds`` of Dice Time (everyone has just rolled: time to look at the grid),
and after any captain's action no captain acts for ``gap_seconds`` (one move at a time,
whatever the number of captains). A learner who needs about a second to spot a pair then
gets the first claim, and sees each captain move on its own.

>>> Pace.TABLE.actions_per_second
1.2
>>> Pace.FIRST_GAME.opening_seconds, Pace.FIRST_GAME.gap_seconds
(5.0, 3.0)
>>> interval(Pace.FASTEST, seed=1, colour="red", n=0) < 0.1
True
"""

from __future__ import annotations

import enum
import hashlib


class Pace(enum.Enum):
    """How fast captains act in action mode (actions per second, before jitter)."""

    FIRST_GAME = "first-game"
    TABLE = "table"
    QUICK = "quick"
    FASTEST = "fastest"

    def __repr__(self) -> str:
        return f"Pace.{self.name}"

    @property
    def actions_per_second(self) -> float:
        """Each captain's rate before jitter: 1/3 for a first game, 1.2 at table pace, 2.5
        quick, 20 fastest (for tests)."""
        return _RATES[self][0]

    @property
    def opening_seconds(self) -> float:
        """Seconds after Dice Time begins before any captain acts (5 for a first game)."""
        return _RATES[self][1]

    @property
    def gap_seconds(self) -> float:
        """Seconds after any captain's action before the next one (3 for a first game)."""
        return _RATES[self][2]


#: pace -> (actions per second per captain, opening seconds, gap seconds between captains)
_RATES = {Pace.FIRST_GAME: (1 / 3, 5.0, 3.0), Pace.TABLE: (1.2, 0.0, 0.0), Pace.QUICK: (2.5, 0.0, 0.0),
          Pace.FASTEST: (20.0, 0.0, 0.0)}


def jitter(seed: int, colour: str, n: int) -> float:
    """A number in [0.5, 1.5) from BLAKE2b of (seed, colour, n): reproducible, uniform."""
    digest = hashlib.blake2b(f"pace:{seed}:{colour}:{n}".encode(), digest_size=8).digest()
    return 0.5 + int.from_bytes(digest, "big") / 2**64


def interval(pace: Pace, *, seed: int, colour: str, n: int) -> float:
    """Seconds before a captain's ``n``-th action: ``jitter / actions_per_second``."""
    return jitter(seed, colour, n) / pace.actions_per_second
