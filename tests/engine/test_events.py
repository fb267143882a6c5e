"""Explanation events: stable codes, real clause ids, immutable, JSON-friendly."""

from __future__ import annotations

import dataclasses
import json
import re

import pytest

from captain.rules import (
    BellRule,
    Board,
    Collection,
    Colour,
    Event,
    InvalidSituation,
    Mode,
    RuleSet,
    Seating,
    Situation,
    situation_from_json,
    solve,
)
from captain.rules import events as events_module
from conformance import CASE_FILES, CLAUSE_IDS

#: Clause ids of the site's rules reference.
CLAUSES = frozenset(CLAUSE_IDS)

#: Codes listed in the table of events.py's docstring.
CODES = frozenset(re.findall(r"^``([a-z_]+\.[a-z_]+)``", events_module.__doc__, re.MULTILINE))

R, B, G, W = Colour.RED, Colour.BLUE, Colour.GREEN, Colour.WHITE


def test_rules_md_and_code_table_parse():
    assert {"SETUP-1", "DICE-4", "BAT-2", "TRE-3", "END-3", "VAR-1", "INT-1", "INT-5"} <= CLAUSES
    assert {"battle.act", "treasure.sandwich", "bell.line", "round.standings"} <= CODES


def _situation(rows, players, start=None, deck=None, won=None, **rules) -> Situation:
    return Situation(Board.parse(rows), Seating(players, start or players[0]), RuleSet(**rules),
                     deck, won or {})


#: Situations that between them make the engine emit every kind of event it has.
SITUATIONS = {
    "bell-line": _situation(["11 12:R 13 14", "15 16 22:B 23", "24 25 26 33:R",
                             "34 35 36 44"], (R, B, G, W)),
    "bell-not-yet": _situation(["11:R 12:G 13 14", "15 16 22 23:B", "24 25 26 33",
                                "34 35 36 44"], (R, B, G)),
    "bell-count": _situation(["11:R 12 13", "14 15 16", "22:B 23 24:B"], (R, B)),
    "bell-all-dice": _situation(["11:R 12 13:R", "14 15:R 16"], (R, B, G),
                                bell=BellRule.ALL_DICE),
    "battle-example": _situation(["11 13:r3 22 14", "15 16:b1 23 24:r2", "26 33 34:g1 35",
                                  "36:g0 44 45 46"], (R, B, G), deck=20),
    "int-1": _situation(["11:r5 12:b5 13 14:r5", "15 16 22 23"], (R, B), start=B),
    "int-1-simultaneous": _situation(["11:r5 12:b5 13 14:r5", "15 16 22 23"], (R, B), start=B,
                                     collection=Collection.SIMULTANEOUS),
    "int-2": _situation(["11:r5 -- 13 14:r5", "15 16 22 23"], (R, B)),
    "priority": _situation(["11 12:r5 13 14", "15:b5 16 22:b5 23", "24 25:r0 26 33"],
                           (R, B, G), deck=3),
    "blocked": _situation(["11 12 13 14", "15:r5 16:b0 22 23:r5", "24 25 26 33"], (R, B),
                          deck=0),
    "strategy": _situation(["11:R -- 12:G 13:B", "14 15 16 22"], (R, B, G), mode=Mode.STRATEGY),
}


def _case_events() -> dict[str, tuple[Event, ...]]:
    out = {}
    for path in CASE_FILES:
        data = json.loads(path.read_text(encoding="utf-8"))
        if not data.get("expect", {}).get("error"):
            out[f"case-{path.stem}"] = solve(situation_from_json(data)).events
    return out


#: name → the events the engine gives for it.
EVENTS = {**{name: solve(s).events for name, s in SITUATIONS.items()}, **_case_events()}


#: Codes only whole games emit (dealing, Dice Time, Setting Time): solve() never does.
GAME_ONLY = frozenset(c for c in CODES if c.split(".")[0] in ("game", "dice", "setting"))


def test_fixtures_cover_every_kind_of_event():
    seen = {e.code for events in EVENTS.values() for e in events}
    assert seen == CODES - GAME_ONLY


@pytest.mark.parametrize("name", EVENTS)
def test_events_have_stable_codes_and_real_clauses(name):
    assert EVENTS[name]
    for event in EVENTS[name]:
        assert event.code and event.code in CODES, event
        assert event.clause in CLAUSES, event
        if event.interpretation is not None:
            assert event.interpretation.startswith("INT-"), event
            assert event.interpretation in CLAUSES, event
        assert all(c in CLAUSES for c in event.clauses)


@pytest.mark.parametrize("name", EVENTS)
def test_event_to_json_is_json_serialisable(name):
    for event in EVENTS[name]:
        out = event.to_json()
        text = json.dumps(out, ensure_ascii=False)
        assert json.loads(text) == out
        assert out["code"] == event.code and out["clause"] == event.clause
        assert out.get("interpretation") == event.interpretation


def test_events_are_immutable():
    source = {"position": [1, 2], "removed": [[0, 1]], "nested": {"a": [1]}}
    event = Event("battle.act", "BAT-4", source)
    with pytest.raises(dataclasses.FrozenInstanceError):
        event.params = {}  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        event.code = "other"  # type: ignore[misc]
    with pytest.raises(TypeError):
        event.params["position"] = [0, 0]  # type: ignore[index]
    with pytest.raises(TypeError):
        event.params["nested"]["a"] = [2]  # type: ignore[index]
    with pytest.raises((AttributeError, TypeError)):
        event.params["removed"].append([3, 3])  # type: ignore[union-attr]
    # changing the dict it was built from does not change the event
    source["position"].append(9)
    source["nested"]["a"] = []
    assert event.to_json()["params"] == {"position": [1, 2], "removed": [[0, 1]],
                                         "nested": {"a": [1]}}


def test_events_from_the_engine_are_immutable():
    event = solve(SITUATIONS["int-1"]).events[-1]
    with pytest.raises(TypeError):
        event.params["extra"] = 1  # type: ignore[index]
    with pytest.raises(dataclasses.FrozenInstanceError):
        event.interpretation = None  # type: ignore[misc]


def test_error_clauses_are_real_clause_ids():
    bad = [
        (["11:w5 12 13"], (R, B, G)),
        (["11:r1 12:r1 13"], (R, B, G)),
        (["11:r5 12:r5 13:r5"], (R, B)),
        (["11 11 11"], (R, B, G)),
        (["11:R 12:R 13:R 14:R"], (R, B, G)),
    ]
    for rows, players in bad:
        with pytest.raises(InvalidSituation) as info:
            _situation(rows, players).validate()
        assert info.value.clause in CLAUSES
    for token in ("--:r1", "11:r1:b2", "07", "11:r6"):
        with pytest.raises(InvalidSituation) as info:
            Board.parse([token])
        assert info.value.clause in CLAUSES
