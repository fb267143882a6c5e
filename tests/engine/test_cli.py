"""``python -m captain.rules solve FILE...``: the contract of tests/cases/README.md."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

GOOD = {
    "players": ["red", "blue"],
    "start_player": "red",
    "board": ["11:r2 12 13:b5", "14 15 16:b3", "22 23 24"],
}
# r2 (speed 2) sweeps row 0 and removes b5 before b3 (speed 3) can act; b3's column 2 then
# holds nothing of red's. Red wins (0,0); blue wins (1,2).
GOOD_OUTCOME = {
    "removals": [{"by": [0, 0], "removed": [[0, 2]]}],
    "survivors": [[[0, 0], "r2"], [[1, 2], "b3"]],
    "treasure": {"red": [[0, 0]], "blue": [[1, 2]]},
}

BELL = {
    "players": ["red", "blue", "green"],
    "start_player": "green",
    "board": ["11:R 12:B 13:G 14", "15 16 22 23", "24 25 26 33", "34 35 36 44"],
}


def run(*files: Path, extra: tuple[str, ...] = ()) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "captain.rules", "solve", *extra,
                           *map(str, files)],
                          cwd=ROOT, capture_output=True, text=True, timeout=60)


def write(tmp_path: Path, name: str, data: object) -> Path:
    path = tmp_path / f"{name}.json"
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return path


def test_one_json_line_per_file(tmp_path):
    good = write(tmp_path, "good", GOOD)
    bell = write(tmp_path, "bell", BELL)
    proc = run(good, bell, good)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    lines = proc.stdout.splitlines()
    assert len(lines) == 3
    assert json.loads(lines[0]) == GOOD_OUTCOME
    assert json.loads(lines[1]) == {"bell": True}
    assert lines[2] == lines[0]


def test_expect_block_is_ignored(tmp_path):
    case = dict(GOOD, id="x", question="?", expect={"bell": True, "removals": "nonsense"})
    proc = run(write(tmp_path, "expect", case))
    assert proc.returncode == 0
    assert json.loads(proc.stdout) == GOOD_OUTCOME


def test_deck_adds_end_of_round_keys(tmp_path):
    # 9 cards, 2 won: 7 left and an empty deck, so the game is over (END-1). Red and blue
    # have one card each; red's "11" is a double, blue's "16" is not (END-3).
    case = dict(GOOD, deck=0)
    proc = run(write(tmp_path, "deck", case))
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["board_after"] == 7 and out["game_over"] is True
    assert out["standings"] == [{"player": "red", "cards": 1, "doubles": 1},
                                {"player": "blue", "cards": 1, "doubles": 0}]
    assert out["winner"] == "red"


def test_explain_adds_events(tmp_path):
    proc = run(write(tmp_path, "good", GOOD), extra=("--explain",))
    assert proc.returncode == 0
    events = json.loads(proc.stdout)["events"]
    assert events[0]["code"] == "battle.reveal"
    assert all(e["code"] and e["clause"] for e in events)


def board_case(*rows: str, players=("red", "blue", "green"), **extra) -> dict:
    return {"players": list(players), "start_player": players[0], "board": list(rows), **extra}


#: Every kind of invalid input of tests/cases/README.md, and what the error must name.
INVALID = {
    "unseated-colour": (board_case("11 12:w5 13"), "[0, 1]"),
    "attack-value-6": (board_case("11 12 13", "14:r6 15 16"), "[1, 0]"),
    "two-boarding-melee": (board_case("11:g1 12 13", "14 15 16:g1"), "[1, 2]"),
    "three-scouts-two-players": (board_case("11:b5 12:b5 13", "14 15:b5 16",
                                            players=("red", "blue")), "[1, 1]"),
    "attack-card-without-treasure": (board_case("11 -- 13", "14 --:b2 16"), "[1, 1]"),
    "dice-without-treasure": (board_case("11 12 --:G"), "[0, 2]"),
    "two-occupants": (board_case("11:r1:b2 12"), "[0, 0]"),
    "faces-07": (board_case("11 07 12"), "[0, 1]"),
    "faces-17": (board_case("11 12", "13 17"), "[1, 1]"),
    "third-copy": (board_case("11 12 13", "14 12 15", "12 16 22"), "12"),
    "dice-on-four-cards": (board_case("11:B 12 13:B", "14:B 15 16:B"), "[1, 2]"),
    "unknown-rules-value": (board_case("11:r5 12", rules={"speed_order": "backwards"}),
                            "rules.speed_order"),
    "unknown-collection": (board_case("11:r5 12", rules={"collection": "random"}),
                           "rules.collection"),
    "unknown-mode": (board_case("11:R 12", rules={"mode": "turbo"}), "rules.mode"),
    "malformed-json": ('{"players": ["red", "blue"], "board": [', "line 1 column"),
    "not-an-object": ("[1, 2, 3]", "top level"),
    "missing-board": ({"players": ["red", "blue"], "start_player": "red"}, "board"),
    "unknown-colour": (board_case("11 12", players=("red", "purple")), "players[1]"),
}


@pytest.mark.parametrize("kind", INVALID)
def test_invalid_input_exits_1_with_an_error_line(tmp_path, kind):
    data, where = INVALID[kind]
    path = write(tmp_path, kind, data)
    proc = run(path)
    assert proc.returncode == 1
    assert proc.stdout == ""
    lines = proc.stderr.splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith("error:")
    assert str(path) in lines[0]
    assert where in lines[0].removeprefix(f"error: {path}:")


def test_missing_file_is_an_error(tmp_path):
    proc = run(tmp_path / "nowhere.json")
    assert proc.returncode == 1
    assert proc.stderr.startswith("error:")


def test_good_files_still_answered_among_bad_ones(tmp_path):
    good = write(tmp_path, "good", GOOD)
    bad1 = write(tmp_path, "bad1", INVALID["attack-value-6"][0])
    bell = write(tmp_path, "bell", BELL)
    bad2 = write(tmp_path, "bad2", INVALID["malformed-json"][0])
    proc = run(bad1, good, bad2, bell)
    assert proc.returncode == 1
    out = [json.loads(line) for line in proc.stdout.splitlines()]
    assert out == [GOOD_OUTCOME, {"bell": True}]
    errors = proc.stderr.splitlines()
    assert len(errors) == 2
    assert errors[0].startswith(f"error: {bad1}:") and errors[1].startswith(f"error: {bad2}:")
