"""When a computer captain acts in real time: its pace.

A captain's strength decides *what* it does; its pace decides *when*. In action mode a
captain acts once per interval: ``1 / actions_per_second`` seconds, scaled by a jitter
between 0.5 and 1.5 that comes from the game's seed, the captain's colour and the number
of the interval — so the same game always has the same timing, and no two captains tick
in lockstep.

>>> Pace.TABLE.actions_per_second
1.2
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
        """0.5 for a first game, 1.2 at table pace, 2.5 quick, 20 fastest (for tests)."""
        return _RATES[self]


_RATES = {Pace.FIRST_GAME: 0.5, Pace.TABLE: 1.2, Pace.QUICK: 2.5, Pace.FASTEST: 20.0}


def jitter(seed: int, colour: str, n: int) -> float:
    """A number in [0.5, 1.5) from BLAKE2b of (seed, colour, n): reproducible, uniform."""
    digest = hashlib.blake2b(f"pace:{seed}:{colour}:{n}".encode(), digest_size=8).digest()
    return 0.5 + int.from_bytes(digest, "big") / 2**64


def interval(pace: Pace, *, seed: int, colour: str, n: int) -> float:
    """Seconds before a captain's ``n``-th action: ``jitter / actions_per_second``."""
    return jitter(seed, colour, n) / pace.actions_per_second
