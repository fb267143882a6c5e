"""What every benchmark prints about the machine it ran on and about the spread of its
figures: the engine's (``python -m captain.rules bench``) and the site's (``bin/bench-*``,
through ``tests/deploy/bench_figures.py``).

A busy machine makes every measurement wait and scatter, and not alike on both sides of a
ratio, so a figure is only read with the load it was taken under and its spread beside it:
the load average at the start of the measured part and at its end, the first and third
quartiles around each median, and a plain warning when the load at the start was
:data:`BUSY` or more (another run shares the cores) or the quartiles lie more than
:data:`WIDE` of the median apart.
"""

from __future__ import annotations

import os
import statistics
from collections.abc import Iterable, Sequence

#: a 1-minute load average at least this high when a measurement starts: the machine was busy
BUSY = 1.0
#: a first-to-third quartile range wider than this share of the median is reported as wide
WIDE = 0.5


def quartiles(values: Sequence[float]) -> tuple[float, float, float]:
    """First quartile, median and third quartile of ``values``."""
    if len(values) < 2:
        return values[0], values[0], values[0]
    low, _median, high = statistics.quantiles(values, n=4)
    return low, statistics.median(values), high


def wide(values: Sequence[float]) -> bool:
    """Whether the quartiles of ``values`` lie further apart than :data:`WIDE` of the median."""
    low, median, high = quartiles(values)
    return median > 0 and (high - low) / median > WIDE


def load() -> tuple[float, float, float]:
    """The load average over 1, 5 and 15 minutes, now."""
    return os.getloadavg()


def load_line(start: Sequence[float], end: Sequence[float]) -> str:
    """The load averages at the start of the measured part and at its end, as printed."""
    return (f"load average (1, 5, 15 min) at the start: {_loads(start)}; at the end: {_loads(end)} "
            f"({os.cpu_count()} CPUs)")


def _loads(values: Sequence[float]) -> str:
    return " ".join(f"{value:.2f}" for value in values)


def verdict(start: Sequence[float], spread: Iterable[str] | None, *, holds: str,
            again: bool = True) -> list[str]:
    """What the run's figures are worth, as printed: a warning when the machine was busy at
    the start (``start``: its load averages) or the spread of the figures named in ``spread``
    wide (None: no figure that spreads, such as a count of bytes); else that it was quiet and
    the spread narrow. ``holds``: which of the figures a busy machine moves least, and why
    they still suffer; ``again``: whether a busy machine's figures are to be measured again."""
    lines = []
    spread = None if spread is None else list(spread)
    if start[0] >= BUSY:
        lines.append(f"BUSY MACHINE: the load average was {start[0]:.2f} at the start (at least "
                     f"{BUSY:g}; {os.cpu_count()} CPUs): other work shared the CPUs. {holds}"
                     + (" Measure again on a quiet machine." if again else ""))
    if spread:
        lines.append(f"WIDE SPREAD ({', '.join(spread)}): the quartiles lie more than "
                     f"{WIDE:.0%} of the median apart; the medians are uncertain.")
    if not lines:
        lines.append(f"The machine was quiet (load below {BUSY:g})"
                     + (" and the spread narrow." if spread is not None else "."))
    return lines
