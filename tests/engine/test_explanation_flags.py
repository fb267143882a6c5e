"""Explanations name the rule that decided them, checked against the plain reference on
random legal positions (both modes, 2-4 players, every variant): ties that matter cite
BAT-2, reversed speed VAR-1, and INT-1/2/3 are flagged exactly when the other reading
would give another answer."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings

import oracle
from captain.rules import Collection, RuleSet, SpeedOrder, resolve_battle, solve
from engine_strategies import situations
from profiles import examples


def _cell(p) -> tuple[int, int]:
    return (p[0], p[1])


@settings(max_examples=examples(500), suppress_health_check=[HealthCheck.too_slow])
@given(situations())
def test_every_deciding_rule_is_named(situation):
    board, seating, rules = situation.board, situation.seating, situation.rules
    solution = solve(situation)
    events = solution.events
    flagged = {e.interpretation for e in events if e.interpretation}

    if solution.bell is not None:
        other = oracle.bell(board, seating, rules, full_only=True) != oracle.bell(board, seating, rules)
        assert (solution.bell.event.interpretation == "INT-3") == other

    if solution.battle is not None:
        reveal = solution.battle.events[0]
        reversed_ = rules.speed_order is SpeedOrder.REVERSED
        assert reveal.clause == ("VAR-1" if reversed_ else "BAT-1")
        want = oracle.ties_that_matter(board, seating, rules)
        got = set()
        for event in solution.battle.events:
            p = event.params
            for other in p.get("went_before", ()):
                got.add((_cell(p["position"]), _cell(other["position"])))
            if "order_clause" in p and event.code != "battle.reveal":
                tie = bool(p.get("went_before") or p.get("went_after"))
                assert p["order_clause"] == ("BAT-2" if tie else "VAR-1" if reversed_ else "BAT-1")
        assert got == want

        after = resolve_battle(board, seating, rules).board
        mine = oracle.treasure(after, seating, rules.collection)
        other_reading = oracle.treasure(after, seating, Collection.SIMULTANEOUS
                                        if rules.collection is Collection.SEQUENTIAL
                                        else Collection.SEQUENTIAL)
        assert ("INT-1" in flagged) == (other_reading != mine)
        gaps = oracle.treasure(after, seating, rules.collection, gaps_break=True)
        assert ("INT-2" in flagged) == (gaps != mine)

    if solution.round_end is not None:
        for event in solution.round_end.events:
            if event.code == "round.rearrange":
                assert event.interpretation == "INT-5"
            if event.code in ("round.game_over", "round.continue"):
                assert (event.interpretation == "INT-4") == (event.params["board_after"] == 8)


def test_the_tie_of_the_issue_is_explained_on_red_and_blue():
    from captain.rules import notation

    s = notation.parse("Rbgw_12r2.35.44.26b2-15g2.33.24.56w2-11.46.23b1.13-34.66w5.25.14")
    events = {e.params.get("card"): e for e in solve(s).battle.events if "card" in e.params}
    assert [o["card"] for o in events["r2"].params["went_before"]] == ["b2"]
    assert events["r2"].params["went_before"][0]["reason"] == "start-player"
    assert "went_before" not in events["g2"].params and "went_after" not in events["g2"].params
    assert events["b2"].params["went_after"][0]["card"] == "r2"


def test_reversed_speed_cites_var_1():
    from captain.rules import notation

    s = notation.parse("Rbg_11.13r3.22.14-15.16b1.23.24r2-26.33.34g1.35-36g0.44.45.46_rv1")
    assert solve(s).battle.events[0].clause == "VAR-1"
    assert RuleSet(speed_order=SpeedOrder.REVERSED).speed_ranks == (0, 5, 4, 3, 2, 1)
