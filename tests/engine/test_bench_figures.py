"""What every benchmark prints about the machine and the spread (captain/rules/sim/figures.py)."""

from __future__ import annotations

import pytest

from captain.rules.sim.figures import BUSY, WIDE, load_line, quartiles, verdict, wide

HOLDS = "CPU time holds up."


def test_quartiles_are_the_first_and_third_around_the_median():
    assert quartiles([1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]) == (2.0, 4.0, 6.0)
    assert quartiles([5.0, 1.0, 3.0]) == (1.0, 3.0, 5.0)
    assert quartiles([2.5]) == (2.5, 2.5, 2.5)


def test_a_spread_is_wide_when_the_quartiles_lie_further_apart_than_half_the_median():
    narrow = [10.0, 10.0, 9.0, 11.0, 10.0, 12.0, 8.0]  # quartiles 9 and 11 around 10
    assert quartiles(narrow) == (9.0, 10.0, 11.0) and not wide(narrow)
    spread = [4.0, 10.0, 10.0, 10.0, 16.0]  # quartiles 7 and 13: 0.6 of the median
    assert (quartiles(spread)[2] - quartiles(spread)[0]) / 10 > WIDE and wide(spread)
    assert not wide([0.0, 0.0, 0.0])  # nothing measured is not a spread


@pytest.mark.parametrize("load, spread, busy, wide_named", [
    ((BUSY, 0.5, 0.2), [], True, False),
    ((0.99, 3.0, 3.0), ["page"], False, True),
    ((4.0, 3.0, 3.0), ["page", "panel"], True, True),
])
def test_the_verdict_warns_plainly_when_busy_or_wide(load, spread, busy, wide_named):
    lines = verdict(load, spread, holds=HOLDS)
    text = "\n".join(lines)
    assert text.startswith("BUSY MACHINE: ") == busy
    if busy:
        assert f"the load average was {load[0]:.2f} at the start" in lines[0] and HOLDS in lines[0]
    assert ("WIDE SPREAD (" + ", ".join(spread) + "): ") in text if wide_named else "WIDE" not in text
    assert "The machine was quiet" not in text
    assert len(lines) == busy + wide_named


def test_a_quiet_machine_and_a_narrow_spread_are_said_so():
    assert verdict((0.5, 2.0, 2.0), [], holds=HOLDS) == [
        "The machine was quiet (load below 1) and the spread narrow."]


def test_figures_that_do_not_spread_say_nothing_of_a_spread():
    assert verdict((0.2, 0.2, 0.2), None, holds=HOLDS) == ["The machine was quiet (load below 1)."]
    busy = verdict((2.0, 0.2, 0.2), None, holds=HOLDS, again=False)
    assert len(busy) == 1 and busy[0].endswith(HOLDS)
    assert verdict((2.0, 0.2, 0.2), None, holds=HOLDS)[0].endswith(" Measure again on a quiet machine.")


def test_the_load_line_gives_the_start_and_the_end():
    line = load_line((1.234, 0.5, 0.25), (0.0, 10.0, 2.005))
    assert line.startswith("load average (1, 5, 15 min) at the start: 1.23 0.50 0.25; "
                           "at the end: 0.00 10.00 ")
    assert line.endswith(" CPUs)")
