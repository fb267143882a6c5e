"""How the shared walkthrough cuts an answer into steps."""

from __future__ import annotations

from django.utils import translation

from captain.rules import Outcome, notation
from tutorials.walkthrough import Walkthrough


def test_cards_without_an_attack_share_one_step_and_each_still_takes_its_turn():
    # red [1] on D1 acts first (it reaches none of blue's cards); then three [5], one per turn
    walk = Walkthrough(notation.parse("Rb_11r5.12b5.13r5.14r1"))
    turns = walk.solution.battle.turns
    assert [t.card.kind for t in turns] == [1, 5, 5, 5]
    battle = [s for s in walk.steps if s.kind == "battle"]
    assert [(s.index, s.count) for s in battle] == [(0, 1), (1, 3)]
    merged = walk.steps.index(battle[1])
    events = walk.events_of(battle[1])
    assert [e.code for e in events] == [t.event.code for t in turns[1:]]
    assert all(t.outcome is Outcome.NO_EFFECT for t in turns[1:])
    with translation.override("en"):
        assert walk.step_title(merged) == "Battle Time: 3 cards without an attack"
    strip = walk.order(merged)
    assert [o["status"] for o in strip] == ["done", "current", "current", "current"]
    acting = {c.pos for row in walk.cells(merged) for c in row if "acting" in c.classes}
    assert acting == {t.position for t in turns[1:]}


def test_a_card_removed_before_its_turn_keeps_a_step_of_its_own():
    # blue [1] on B2 removes red's [5] on A1 before its turn (BAT-3): that is worth a step
    walk = Walkthrough(notation.parse("Rb_11r5.12b5-13.14b1"))
    turns = walk.solution.battle.turns
    battle = [s for s in walk.steps if s.kind == "battle"]
    removed = [i for i, t in enumerate(turns) if t.outcome is Outcome.REMOVED_BEFORE]
    assert removed and all(any(s.index == i and s.count == 1 for s in battle) for i in removed)
    assert sum(s.count for s in battle) == len(turns)
