"""Golden transcripts: seeded whole games, written out and reviewed as diffs.

When the engine changes on purpose, run ``.venv/bin/python -m captain.rules golden`` and
review ``git diff tests/golden`` before committing the new transcripts.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from captain.rules.sim.transcript import GOLDEN_GAMES, golden_name, transcript, write_golden

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "golden"
HOW = ("run `.venv/bin/python -m captain.rules golden` and review the diff "
       "(git diff tests/golden) before committing it")


def _id(game) -> str:
    return golden_name(*game)


@pytest.mark.parametrize("game", GOLDEN_GAMES, ids=_id)
def test_transcript_matches_the_golden_file(game):
    path = GOLDEN / golden_name(*game)
    assert path.exists(), f"{path.name} is missing: {HOW}"
    expected = path.read_text(encoding="utf-8")
    got = transcript(*game)
    assert got == expected, f"the transcript of {path.name} changed: {HOW}"


def test_no_stale_golden_files():
    names = {golden_name(*g) for g in GOLDEN_GAMES}
    on_disk = {p.name for p in GOLDEN.glob("*.txt")}
    assert on_disk == names, f"golden files and GOLDEN_GAMES differ: {HOW}"


def test_golden_games_cover_every_player_count_and_both_modes():
    assert {players for players, *_ in GOLDEN_GAMES} == {2, 3, 4}
    assert {mode.value for _, _, mode, _ in GOLDEN_GAMES} == {"action", "strategy"}


@pytest.mark.parametrize("game", GOLDEN_GAMES, ids=_id)
def test_transcript_tells_the_whole_game(game):
    text = (GOLDEN / golden_name(*game)).read_text(encoding="utf-8")
    players, seed, mode, policy = game
    assert text.startswith(f"Captain Dice transcript: {players} players")
    assert f"{mode.value} mode, {policy} players, seed {seed}" in text.splitlines()[0]
    assert "Round 1: start player" in text
    assert text.count("Battle Time:") == text.count("Treasure Time:") >= 1
    assert "Game over after" in text and text.rstrip().splitlines()[-1].startswith("Winner: ")


def test_golden_command_writes_the_same_files(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "captain.rules", "golden", str(tmp_path)],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    for game in GOLDEN_GAMES:
        name = golden_name(*game)
        assert f"wrote {tmp_path}/{name}" in proc.stdout
        assert (tmp_path / name).read_text(encoding="utf-8") == \
            (GOLDEN / name).read_text(encoding="utf-8"), f"{name}: {HOW}"


def test_write_golden_returns_the_names(tmp_path):
    assert write_golden(tmp_path / "new") == [golden_name(*g) for g in GOLDEN_GAMES]


@pytest.mark.parametrize("game", GOLDEN_GAMES[:1], ids=_id)
def test_transcript_command_prints_the_same_text(game):
    players, seed, mode, policy = game
    proc = subprocess.run([sys.executable, "-m", "captain.rules", "transcript", "--players",
                           str(players), "--seed", str(seed), "--mode", mode.value, "--policy",
                           policy], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == (GOLDEN / golden_name(*game)).read_text(encoding="utf-8")
