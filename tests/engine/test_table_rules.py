"""Which rule sets a table may play (``check_table_rules``), the rule flags the start forms
choose them by (``RuleSet.from_flags``), and the notation's pattern against its reader."""

from __future__ import annotations

import itertools
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from captain.rules import BellRule, Collection, InvalidInput, Mode, RuleSet, SpeedOrder
from captain.rules.notation import PATTERN, NotationError, parse_unchecked
from captain.rules.situation import PLAYER_COUNTS, RULE_FLAGS, check_table_rules
from engine_strategies import situations

ALL_RULE_SETS = [RuleSet(speed, collection, mode, scouts, bell, reroll)
                 for speed, collection, mode, scouts, bell, reroll in itertools.product(
                     SpeedOrder, Collection, Mode, (False, True), BellRule, (False, True))
                 if not reroll or mode is Mode.STRATEGY]


@pytest.mark.parametrize("players", PLAYER_COUNTS)
@pytest.mark.parametrize("rules", ALL_RULE_SETS, ids=repr)
def test_a_table_plays_every_rule_set_but_a_bell_that_means_nothing(rules, players):
    """A bell rule in strategy mode, which has no bell (STRAT-1), and the first-edition
    bell with two players, for whom it changes nothing (VAR-4 is for 3-4 players)."""
    if rules.mode is Mode.STRATEGY and rules.bell is not BellRule.LINE:
        expected = ("bell-in-strategy", "STRAT-1")
    elif rules.bell is BellRule.FIRST_EDITION and players == 2:
        expected = ("first-edition-two", "VAR-4")
    else:
        assert check_table_rules(rules, players) is rules
        return
    with pytest.raises(InvalidInput) as refused:
        check_table_rules(rules, players)
    assert (refused.value.code, refused.value.clause, refused.value.field) == (*expected, "rules.bell")


def _flags(rules: RuleSet) -> list[str]:
    return re.findall(r"v[0-9]|[spi]", rules.flags())


@pytest.mark.parametrize("rules", ALL_RULE_SETS, ids=repr)
def test_flags_read_back_as_the_rule_set_in_any_order(rules):
    assert RuleSet.from_flags(_flags(rules)) == rules
    assert RuleSet.from_flags(reversed(_flags(rules))) == rules


@pytest.mark.parametrize("flags, code, params", [
    (["v3", "v4"], "two-bell-rules", {}),
    (["p"], "bad-rule", {"key": "place_after_reroll"}),
    (["v5"], "bad-rule", {"flag": "v5"}),
])
def test_flags_that_make_no_rule_set_are_refused(flags, code, params):
    with pytest.raises(InvalidInput) as refused:
        RuleSet.from_flags(flags)
    assert refused.value.code == code
    assert params.items() <= refused.value.params.items()


def test_the_flags_are_the_notations():
    assert set(RULE_FLAGS) == {f for rules in ALL_RULE_SETS for f in _flags(rules)}


@given(situations())
def test_every_notation_the_engine_writes_matches_the_pattern(situation):
    assert re.fullmatch(PATTERN, situation.to_notation())


@given(st.text(alphabet="rbgwRBGWx0123456789._-vspid_", max_size=40))
def test_text_the_pattern_refuses_the_reader_refuses(text):
    """The pattern promises clients nothing the reader would not read: where it says no,
    the reader says no too (it may refuse more: row lengths, flag order, the seats)."""
    if not re.fullmatch(PATTERN, text):
        with pytest.raises(NotationError):
            parse_unchecked(text)
