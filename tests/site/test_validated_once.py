"""A request checks each position against the rules once: the reader checks it
(``notation.parse``, ``situation_from_json``) and ``solve`` trusts that."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from captain.rules import Situation, situation_to_json
from captain.rules.notation import parse_unchecked

EX_BATTLE = "Rbg_11.13r3.22.14-15.16b1.23.24r2-26.33.34g1.35-36g0.44.45.46"
EX_DICE = "rBg_11R.12.13G-14.15B.16-22.23.24_d20"

pytestmark = pytest.mark.django_db


@pytest.fixture
def checked(monkeypatch) -> Counter:
    """How many times the rules' checks ran on each position, by notation."""
    runs: Counter = Counter()
    within = Situation._within_limits

    def counted(self):
        runs[self.to_notation()] += 1
        return within(self)

    monkeypatch.setattr(Situation, "_within_limits", counted)
    return runs


def _assert_once(checked: Counter, notation: str) -> None:
    assert checked[notation] == 1, checked
    assert max(checked.values()) == 1, checked


@pytest.mark.parametrize("notation", [EX_BATTLE, EX_DICE])
@pytest.mark.parametrize("view", ["explain", "edit"])
def test_the_analyzer_page(client, checked, notation, view):
    response = client.get("/en/analyze/", {"pos": notation, "view": view, "step": "999"})
    assert response.status_code == 200
    _assert_once(checked, notation)


def test_the_what_if_panel(client, checked):
    response = client.get("/en/analyze/what-if/", {"pos": EX_BATTLE}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    _assert_once(checked, EX_BATTLE)


def test_saving_from_the_analyzer(client, checked):
    response = client.post("/en/analyze/save/", {"pos": EX_BATTLE, "title": "Battle"})
    assert response.status_code == 302
    _assert_once(checked, EX_BATTLE)


@pytest.mark.parametrize("notation", [EX_BATTLE, EX_DICE])
def test_the_api_solves(client, checked, notation):
    case = situation_to_json(parse_unchecked(notation))
    response = client.post("/api/v1/solve", data=json.dumps(case), content_type="application/json")
    assert response.status_code == 200, response.content
    _assert_once(checked, notation)


def test_the_api_reads_and_saves(client, checked):
    assert client.get(f"/api/v1/positions/{EX_BATTLE}").status_code == 200
    _assert_once(checked, EX_BATTLE)
    checked.clear()
    response = client.post("/api/v1/positions", data=json.dumps({"notation": EX_BATTLE}),
                           content_type="application/json")
    assert response.status_code == 201, response.content
    _assert_once(checked, EX_BATTLE)
