"""``python -m captain.rules simulate`` and ``bench``, run as a user runs them (subprocess).

Timings are printed but never asserted: they depend on the machine.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from captain.rules import notation
from captain.rules.sim.bench import FreshPositions
from captain.rules.sim.simulate import report, simulate
from captain.rules.situation import Mode

ROOT = Path(__file__).resolve().parents[2]
TIMING = re.compile(r" in \d+\.\d+ s$", re.M)


def run(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "captain.rules", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=timeout)


def figures(line: str) -> tuple[float, int, int]:
    m = re.search(r"mean (\d+\.\d+), min (\d+), max (\d+)$", line)
    assert m, line
    return float(m.group(1)), int(m.group(2)), int(m.group(3))


def lines_by_label(out: str) -> dict[str, str]:
    return {line.split(":", 1)[0]: line for line in out.splitlines() if ":" in line}


SIMULATIONS = [
    ("4", "action"),
    ("4", "strategy"),
    ("2", "action"),
    ("3", "strategy"),
]


@pytest.fixture(scope="module")
def outputs() -> dict[tuple[str, str], list[subprocess.CompletedProcess[str]]]:
    """Each simulation run twice with the same seed (separate processes, separate hash seeds)."""
    out = {}
    for players, mode in SIMULATIONS:
        args = ("simulate", "--players", players, "--games", "5", "--seed", "1", "--mode", mode)
        out[(players, mode)] = [run(*args), run(*args)]
    return out


@pytest.mark.parametrize("players, mode", SIMULATIONS)
def test_simulate_prints_the_statistics(outputs, players, mode):
    proc = outputs[(players, mode)][0]
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    out = proc.stdout
    assert out.startswith(f"games: 5 ({players} players, {mode} mode, random players) in ")
    by_label = lines_by_label(out)
    for label in ("rounds per game", "cards per player", "winner's cards",
                  "score spread (most - fewest cards)", "start player wins a speed tie",
                  "wins by seat", "card ties decided by doubles"):
        assert label in by_label, f"{label!r} missing from:\n{out}"
    n = int(players)
    for label in ("rounds per game", "cards per player", "winner's cards",
                  "score spread (most - fewest cards)"):
        mean, low, high = figures(by_label[label])
        assert low <= mean <= high, by_label[label]
    rounds = figures(by_label["rounds per game"])
    assert rounds[1] >= 1
    cards = figures(by_label["cards per player"])
    treasure = 32 if n == 2 else 42
    # every card in play is won except the 8 or fewer left when the game ends (END-1)
    assert treasure - 8 - 0.1 <= cards[0] * n <= treasure + 0.1, by_label["cards per player"]
    tie = by_label["start player wins a speed tie"]
    assert re.search(r": (\d+/\d+ \(\d+\.\d%\)|no speed ties)$", tie), tie
    seats = re.findall(r"seat (\d): (\d+)", by_label["wins by seat"])
    assert [int(s) for s, _ in seats] == list(range(1, n + 1))
    undecided = int(re.search(r"\(END-3\): (\d+)$", by_label["wins by seat"]).group(1))
    assert sum(int(w) for _, w in seats) + undecided == 5


def test_two_player_speed_ties_always_go_to_the_start_player(outputs):
    """BAT-2: with two players every tie between players is the start player's."""
    tie = lines_by_label(outputs[("2", "action")][0].stdout)["start player wins a speed tie"]
    m = re.search(r": (\d+)/(\d+)", tie)
    if m:
        assert m.group(1) == m.group(2), tie


@pytest.mark.parametrize("players, mode", SIMULATIONS)
def test_same_seed_same_output_except_the_timing(outputs, players, mode):
    first, second = outputs[(players, mode)]
    assert TIMING.search(first.stdout.splitlines()[0] + "\n")
    assert TIMING.sub("", first.stdout) == TIMING.sub("", second.stdout)


def test_the_cli_prints_what_simulate_and_report_compute(outputs):
    tally = simulate(4, 5, 1, Mode.ACTION, "random")
    text = report(tally, 4, 5, Mode.ACTION, "random", 0.0)
    assert TIMING.sub("", text + "\n") == TIMING.sub("", outputs[("4", "action")][0].stdout)


def test_another_seed_plays_other_games(outputs):
    other = run("simulate", "--players", "4", "--games", "5", "--seed", "2")
    assert other.returncode == 0
    assert TIMING.sub("", other.stdout) != TIMING.sub("", outputs[("4", "action")][0].stdout)


def test_greedy_policy_option():
    proc = run("simulate", "--players", "3", "--games", "2", "--seed", "7", "--policy", "greedy")
    assert proc.returncode == 0, proc.stderr
    assert "(3 players, action mode, greedy players)" in proc.stdout


def test_jobs_split_the_games_over_processes_without_changing_the_figures(outputs):
    proc = run("simulate", "--players", "4", "--games", "5", "--seed", "1", "--jobs", "2")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("games: 5 (4 players, action mode, random players, "
                                  "2 processes) in ")
    single = outputs[("4", "action")][0].stdout
    assert proc.stdout.splitlines()[1:] == single.splitlines()[1:]


def test_merged_tallies_equal_one_tally():
    whole = simulate(3, 7, 11, Mode.STRATEGY, "greedy")
    split = simulate(3, 7, 11, Mode.STRATEGY, "greedy", jobs=3)
    assert split == whole
    assert len(split.rounds) == 7


@pytest.mark.parametrize("args", [("--games", "0"), ("--players", "5"), ("--mode", "fast"),
                                  ("--jobs", "-1"), ("--jobs", "two")])
def test_bad_simulate_arguments_fail(args):
    proc = run("simulate", *args)
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert "error" in proc.stderr


def test_bench_prints_every_figure_interleaved_with_the_yardstick():
    proc = run("bench", "--seconds", "0.2", "--rounds", "5")
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert re.match(r"yardstick: python-chess list\(Board\(\)\.legal_moves\), interleaved with "
                    r"each figure \(5 rounds; median ratio, interquartile range\)$", lines[0])
    figure = r": \d+\.\d µs; chess \d+\.\d µs; ratio \d+\.\d\d \(IQR \d+\.\d\d-\d+\.\d\d\)"
    assert re.match(r"battle \+ treasure, a fresh full 4x4 board \(16 attack cards\) parsed from its "
                    r"notation" + figure + r" \(target <= 1\.0\)$", lines[1])
    assert re.match(r"solve\(\), a fresh full 4x4 board parsed from its notation, checking included"
                    + figure + r" \(target <= 1\.0\)$", lines[2])
    assert re.match(r"legal_actions, \d+ states of random 4-player games" + figure + "$", lines[3])
    assert re.match(r"apply, checked, the same states" + figure + "$", lines[4])
    assert re.match(r"apply from the listing \(LegalActions\.apply\), the same states" + figure + "$",
                    lines[5])
    assert re.match(r"one random 4-player game" + figure + "$", lines[6])
    assert re.match(r"random 4-player games: \d+ games/s, one process "
                    r"\(median of 3 runs: \d+-\d+\)$", lines[7])
    rest = lines[8:]
    if rest[0].startswith("random 4-player games on"):
        assert re.match(r"random 4-player games on \d+ cores: \d+ games/s$", rest.pop(0))
    # two figures of at least 5 rounds, each round a batch of at least one call, each call a new position
    fresh = re.match(r"fresh positions parsed: (\d+), each once$", rest.pop(0))
    assert fresh and int(fresh.group(1)) >= 2 * 5, proc.stdout
    load = re.match(r"load average \(1, 5, 15 min\) at the start: (\d+\.\d\d) \d+\.\d\d \d+\.\d\d; "
                    r"at the end: \d+\.\d\d \d+\.\d\d \d+\.\d\d \(\d+ CPUs\)$", rest.pop(0))
    assert load, proc.stdout
    busy = [line for line in rest if line.startswith("BUSY MACHINE: ")]
    wide = [line for line in rest if line.startswith("WIDE SPREAD (")]
    quiet = [line for line in rest if line.startswith("The machine was quiet")]
    assert len(busy) + len(wide) + len(quiet) == len(rest) >= 1, proc.stdout
    # the warning follows the load printed (rounded as printed: a 0.995 reads 1.00 and warns)
    assert bool(busy) == (float(load.group(1)) >= 1) or abs(float(load.group(1)) - 1) <= 0.005, proc.stdout
    assert not quiet or not (busy or wide), proc.stdout


def test_fresh_positions_are_each_new_and_read_as_a_request_reads_them():
    fresh = FreshPositions()
    fresh.prepare(300)
    codes = [fresh.take() for _ in range(300)]
    assert len(set(codes)) == 300
    for code in codes[:20]:
        situation = notation.parse(code)
        assert len(situation.board.cards()) == 16
    fresh.prepare(10)
    assert not set(fresh.take() for _ in range(10)) & set(codes)


def test_bench_refuses_a_bad_round_count():
    proc = run("bench", "--rounds", "2")
    assert proc.returncode == 2 and "--rounds" in proc.stderr
