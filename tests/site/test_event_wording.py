"""Every event code the engine can emit has wording in ja, en and de, rendered from a real
instance the engine produced: the explanations' codes, and the whole-game
codes (the deal, Dice Time, Setting Time, the standings) the practice game will show."""

from __future__ import annotations

import re

import pytest
from django.utils import translation

from captain.rules import Colour, Mode, RuleSet, notation, solve
from captain.rules import events as events_module
from captain.rules.game import RingBell, RingStartBell, apply, new_game
from captain.rules.sim.simulate import POLICIES, play_game
from tutorials.walkthrough import Walkthrough
from tutorials.wording.events import KNOWN_CODES, explain
from wording_helpers import english_messages

#: Every code the engine documents (the table in captain.rules.events).
CODES = frozenset(re.findall(r"^``([a-z_]+\.[a-z_]+)``", events_module.__doc__, re.MULTILINE))


def _instances() -> dict[str, object]:
    """One real event per code: seeded games in both modes and every table size, plus a
    deal and two false bells (random players seldom ring falsely)."""
    seen: dict = {}

    def keep(events):
        for e in events:
            seen.setdefault(e.code, e)

    for seed in range(12):
        for players in (2, 3, 4):
            for mode in Mode:
                colours = tuple(Colour)[:players]
                rules = RuleSet(mode=mode, place_after_reroll=mode is Mode.STRATEGY)
                final = play_game(colours, {c: POLICIES["random"] for c in colours}, seed=seed,
                                  rules=rules, on_step=lambda _b, _a, after: keep(after.log))
                keep(final.log)
    game = new_game((Colour.RED, Colour.BLUE), seed=1, start_player=Colour.RED)
    keep(game.log)
    game = apply(game, RingStartBell(Colour.RED))
    game = apply(game, RingBell(Colour.RED))
    keep(game.log)
    game = apply(game, RingBell(Colour.BLUE))
    keep(game.log)
    # answers the games never log: the bell's verdicts and a gap that decides a sandwich
    for pos in ("Rbgw_11R.12.13.14-15.16.22.23-24.25.26.33-34.35.36.44",
                "Rbgw_11R.12R.13R.14-15.16.22.23-24.25.26.33-34.35.36.44_rv3",
                "Rbgw_11r1.x.13.14r2-15.16.22.23-24.25.26.33-34.35.36.44"):
        keep(solve(notation.parse(pos)).events)
    # the site's own: a player who wins nothing in Treasure Time (the walkthrough's step)
    walk = Walkthrough(notation.parse("Rb_11r1.12b2"))  # red's [1] removes blue's only card
    for step in walk.steps:
        keep(walk.events_of(step))
    return seen


@pytest.fixture(scope="module")
def instances():
    return _instances()


def test_every_code_has_wording_and_a_real_instance(instances):
    assert CODES == KNOWN_CODES
    missing = CODES - set(instances)
    assert not missing, f"no real instance for {sorted(missing)}"


@pytest.mark.parametrize("code", sorted(CODES))
def test_each_code_reads_in_every_language(instances, code):
    event = instances[code]
    texts = {}
    for lang in ("en", "ja", "de"):
        with translation.override(lang):
            texts[lang] = explain(event).text
        assert texts[lang].strip(), (code, lang)
    english = english_messages()
    for lang in ("ja", "de"):
        assert texts[lang] != texts["en"], (code, lang, texts[lang])
        assert not [m for m in english if m in texts[lang]], (code, lang, texts[lang])


def test_a_card_with_only_hostage_gambits_in_range_is_not_said_to_have_nothing_in_range():
    """A fresh learner read "no other player's card is in its range. The Hostage Gambit on
    B1 is in range …": both cannot be true."""
    [act] = [e for e in solve(notation.parse("Rb_11r1.12b0")).events if e.code == "battle.act"]
    with translation.override("en"):
        text = explain(act).text
    assert "no other player's card" not in text and "Hostage Gambits (B1)" in text, text


#: German names a card with its article or a possessive ("der [1] Enterkampf"), never bare
#: (docs/style/de.md)
_GERMAN_DETERMINERS = {"der", "die", "das", "den", "dem", "des", "sein", "seine", "seinen", "seinem",
                       "seiner", "ihr", "ihre", "ihren", "ihrem", "ihrer"}
_KANA_OR_KANJI = r"[\u3040-\u30ff\u3400-\u9fff]"


@pytest.mark.parametrize("code", sorted(CODES))
def test_german_names_every_card_with_its_article(instances, code):
    with translation.override("de"):
        text = explain(instances[code]).text
    bare = [m.group(0) for m in re.finditer(r"(\S+)\s\[\d\]", text)
            if m.group(1).lower().strip("(„") not in _GERMAN_DETERMINERS]
    assert not bare and not re.match(r"\[\d\]", text), (code, text)


@pytest.mark.parametrize("code", sorted(CODES))
def test_japanese_explanations_have_no_latin_spaces_between_words(instances, code):
    """「青 1枚」 reads as a gap: Japanese runs on, or uses its own punctuation
    (docs/style/ja.md)."""
    with translation.override("ja"):
        text = explain(instances[code]).text
    assert not re.search(rf"{_KANA_OR_KANJI} +(?:{_KANA_OR_KANJI}|\d)", text), (code, text)


@pytest.mark.parametrize("pos, pronoun", [("Rb_11r1.12.13r2", "wins it too"),
                                          ("Rb_11r1.12.13.14r2", "wins them too")])
def test_a_sandwich_of_one_card_says_it(pos, pronoun):
    """"sandwich B2: Red wins them too" read wrong for a single card; the colour after the
    colon is written as mid-sentence, in lower case."""
    [won] = [e for e in solve(notation.parse(pos)).events if e.code == "treasure.sandwich"]
    with translation.override("en"):
        text = explain(won).text
        assert text.startswith("Red's cards") and text.endswith(f": red {pronoun}."), text


@pytest.mark.parametrize("pos, verb", [("rBgw_11w1.12.13-14.15b1.16-22.23.24", "which has"),
                                       ("rBgw_11w1.12.13r1-14.15b1.16-22.23.24", "which have")])
def test_cards_of_equal_speed_agree_with_their_number(pos, verb):
    """Blue's [1] acts before one or two other [1] cards it removes (BAT-2)."""
    [act] = [e for e in solve(notation.parse(pos)).events if e.code == "battle.act"]
    with translation.override("en"):
        text = explain(act).text
    assert f"{verb} the same speed" in text, text
