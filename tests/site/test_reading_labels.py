"""Every sentence that rests on one of the site's readings (the INT clauses of RULES.md) says
so where it says it: the clause id is shown with it and the text names it as this site's
reading — or, where the position uses the other reading, names that one instead.

:data:`WHERE` is the table: for each INT clause and each place a reading can show, either
``True`` (a test below builds a position with the engine where the sentence depends on the
reading and checks the label there) or the reason it cannot show in that place.
"""

from __future__ import annotations

import html as htmllib
import re
from dataclasses import replace
from types import SimpleNamespace

import pytest
from django.template.loader import render_to_string
from django.utils import translation

from captain.rules import Colour, Mode, Position, RuleSet, notation
from captain.rules.captains.facts import move_facts
from captain.rules.game import Claim, RingBell, RingStartBell, apply, new_game
from captain.rules.sim.simulate import POLICIES, play_game
from tutorials.analyzer.page import AnalyzerPage
from tutorials.play.hints import hint_pair
from tutorials.sheets.content import PHASES, STRATEGY, context_for, position_context
from tutorials.sheets.render import PAPERS, sheet_html
from tutorials.tutorial.boards import DiceBoard
from tutorials.tutorial.comes_up import CARDS
from tutorials.walkthrough import Walkthrough
from tutorials.wording.clauses import CLAUSES, OTHER_READINGS, READING_WORD, clause_summary, reading_label
from tutorials.wording.events import explain
from tutorials.wording.facts import facts

LANGS = ("ja", "en", "de")
INT = tuple(c for c in CLAUSES if c.startswith("INT-"))
PLACES = ("analyzer", "steps", "hints", "boards", "comes_up", "sheets", "game")

_ANALYZER_ONLY_JUDGES = ("the analyzer judges one position, not a Dice Time in progress: who can "
                         "still act, who rang falsely and why a player re-rolled are in no position")
_GAME_SHOWS_THE_WALK = ("the practice game shows Treasure Time and the round's end through the same "
                        "walkthrough as the analyzer's steps, tested there")
_HINTS_ARE_MOVES = ("hints explain a claim, a placement or a re-roll; none of them rests on this "
                    "reading")
_BOARDS_STOP = ("the example boards stop at the end of Treasure Time: no refill, no end check")
_BOARDS_NO_DICE_TIME_DEADLOCK = ("the Dice Time board is one player's practice against the engine's "
                                 "bell: nobody else acts, so no deadlock, false bells of all or re-roll "
                                 "notes arise there")

WHERE: dict[str, dict[str, bool | str]] = {
    "INT-1": {"analyzer": True, "steps": True, "boards": True, "comes_up": True, "sheets": True,
              "hints": "a hint's sandwich is between two of the learner's own positions with nothing "
                       "of another player's between: it never counts on a blocker collected first",
              "game": _GAME_SHOWS_THE_WALK},
    "INT-2": {"analyzer": True, "steps": True, "comes_up": True, "sheets": True,
              "hints": "a game's grid never has a hole between two positions (a rearranged grid is "
                       "short only in its last row, INT-5), so a hint's sandwich never spans a gap",
              "boards": "the treasure boards' examples (RULES.md EX-*) have no empty position",
              "game": _GAME_SHOWS_THE_WALK},
    "INT-3": {"analyzer": True, "steps": True, "hints": True, "boards": True, "comes_up": True,
              "sheets": True, "game": True},
    "INT-4": {"analyzer": True, "steps": True, "sheets": True, "hints": _HINTS_ARE_MOVES,
              "boards": _BOARDS_STOP, "comes_up": "no card covers the end check (END-1 is read aloud)",
              "game": _GAME_SHOWS_THE_WALK},
    "INT-5": {"analyzer": True, "steps": True, "sheets": True, "hints": _HINTS_ARE_MOVES,
              "boards": _BOARDS_STOP,
              "comes_up": "the TRE-5 card states only the official rule (as close to a square as "
                          "possible), not the site's shape",
              "game": _GAME_SHOWS_THE_WALK},
    "INT-6": {"comes_up": True, "sheets": True, "game": True, "analyzer": _ANALYZER_ONLY_JUDGES,
              "steps": _ANALYZER_ONLY_JUDGES, "hints": "no hint is given once nobody can act",
              "boards": _BOARDS_NO_DICE_TIME_DEADLOCK},
    "INT-7": {"sheets": True, "game": True, "analyzer": _ANALYZER_ONLY_JUDGES,
              "steps": _ANALYZER_ONLY_JUDGES, "hints": "a player under a false bell gets no hint",
              "boards": _BOARDS_NO_DICE_TIME_DEADLOCK,
              "comes_up": "the DICE-6 card covers false bells; all players ringing falsely is left "
                          "to the rules page"},
    "INT-8": {"sheets": True, "game": True, "analyzer": _ANALYZER_ONLY_JUDGES,
              "steps": _ANALYZER_ONLY_JUDGES,
              "hints": "a re-roll hint says which dice to keep for a card (STRAT-2); it never rests "
                       "on whether a pass is forced",
              "boards": _BOARDS_NO_DICE_TIME_DEADLOCK,
              "comes_up": "the rule it rests on (DICE-3, STRAT-2) is read aloud"},
}

#: Positions where a sentence depends on the reading (engine notation).
SHORT_DIAGONAL = "Rbg_11.12R.13.14-15.16.22B.23-24.25.26.33R-34.35.36.44"  # B1, C2, D3 hold dice
#: blue, the start player, collects first: its [0] between red's two [5] leaves the board,
#: so red's sandwich stands only when players collect one after another
SEQUENTIAL = "rB_11.12.13.14-15r5.16b0.22.23r5-24.25.26.33-34.35.36.44"
GAP = "Rbgw_11r1.x.13.14r2-15.16.22.23-24.25.26.33-34.35.36.44"  # red sandwiches across a hole
EIGHT_LEFT = "Rb_11r1.12.13-14.15.16-22.23.24_d0"  # 8 cards remain, deck empty: the game ends
REARRANGED = "Rbg_11r1.12.13.14-15.16.22.23-24.25.26.33-34.35.36.44_d0"  # 15 cards, no deck

#: (position, clause, the position uses the other reading)
ANALYZER_CASES = (
    (SHORT_DIAGONAL + "_rs", "INT-3", False),
    (SHORT_DIAGONAL, "INT-3", False),
    # not over yet: the closest line named is the short diagonal, one card short
    (SHORT_DIAGONAL.replace("33R", "33") + "_rs", "INT-3", False),
    (SEQUENTIAL, "INT-1", False),
    (SEQUENTIAL + "_ri", "INT-1", True),
    (GAP, "INT-2", False),
    (EIGHT_LEFT, "INT-4", False),
    (REARRANGED, "INT-5", False),
)


def visible(html: str) -> str:
    """The text a reader sees: tags (and their attributes, tooltips included) dropped."""
    return re.sub(r"\s+", " ", htmllib.unescape(re.sub(r"<[^>]+>", " ", html)))


def assert_labelled(text: str, clause: str, *, other: bool = False, where: str = "") -> None:
    """``clause``'s id and its reading's label are in ``text``; with ``other`` the other
    reading's label, and not this site's."""
    assert clause in text, (where, clause)
    label = reading_label(clause, other=other)
    assert label in text, (where, clause, label)
    assert str(READING_WORD).lower() in label.lower(), (clause, label)
    if other:
        assert reading_label(clause) != label and reading_label(clause) not in text, (where, clause)


def test_the_table_covers_every_reading_and_place():
    assert set(WHERE) == set(INT) and len(INT) == 8
    for clause, places in WHERE.items():
        assert set(places) == set(PLACES), clause
        for place, why in places.items():
            assert why is True or (isinstance(why, str) and len(why) > 20), (clause, place)


@pytest.mark.parametrize("lang", LANGS)
def test_every_reading_label_names_itself_as_a_reading(lang):
    with translation.override(lang):
        word = str(READING_WORD).lower()
        assert word and word != "reading" or lang == "en"
        for clause in INT:
            assert word in reading_label(clause).lower(), clause
        assert word in reading_label("INT-1", other=True).lower()


# --- the analyzer: answers panel and step explanations -----------------------------------------
def _answers(html: str) -> str:
    start = html.index('id="answers-title"')
    return html[start:html.index("</section>", start)]


@pytest.mark.django_db
@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("pos, clause, other", ANALYZER_CASES)
def test_analyzer_answers_label_the_reading(client, lang, pos, clause, other):
    assert WHERE[clause]["analyzer"] is True
    html = client.get(f"/{lang}/analyze/", {"pos": pos}).content.decode()
    with translation.override(lang):
        assert_labelled(visible(_answers(html)), clause, other=other, where=f"answers {pos}")


@pytest.mark.django_db
@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("pos, clause, other", ANALYZER_CASES)
def test_analyzer_steps_label_the_reading(client, lang, pos, clause, other):
    assert WHERE[clause]["steps"] is True
    situation = notation.parse(pos)
    walk = Walkthrough(situation)
    last = len(walk.steps) - 1
    html = client.get(f"/{lang}/analyze/", {"pos": pos, "view": "explain", "step": last}).content.decode()
    with translation.override(lang):
        assert any(e.interpretation == clause for e in walk.explanations(last)), (pos, clause)
        stage = html[html.index('id="analyzer-stage"'):html.index('id="answers-title"')]
        assert_labelled(visible(stage), clause, other=other, where=f"steps {pos}")


@pytest.mark.django_db
@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("rules", ["_rs", ""])
def test_a_whole_row_ends_dice_time_without_a_reading(client, lang, rules):
    """The control: a full row (strategy mode) or three cards of it (action mode) need no
    reading, so the answer names none."""
    pos = "Rbg_11R.12G.13B.14R-15.16.22.23-24.25.26.33-34.35.36.44" + rules
    answers = visible(_answers(client.get(f"/{lang}/analyze/", {"pos": pos}).content.decode()))
    with translation.override(lang):
        assert ("STRAT-3" if rules else "DICE-4") in answers
        assert "INT-3" not in answers and reading_label("INT-3") not in answers


def test_only_int_1_has_an_other_reading_to_choose():
    """The analyzer lets a user choose INT-1's other reading and no other; a reading that
    becomes selectable needs its own label in OTHER_READINGS (and a case above)."""
    page = AnalyzerPage.build(notation.parse(SEQUENTIAL))
    chosen = {t["clause"] for t in page.rule_toggles() if t["clause"].startswith("INT-")}
    assert chosen == set(OTHER_READINGS) == {"INT-1"}


@pytest.mark.django_db
@pytest.mark.parametrize("lang", LANGS)
def test_choosing_the_other_collection_says_the_answer_changed_with_it(client, lang):
    """Both readings change this answer: the box says which reading the answer used."""
    ours = visible(_answers(client.get(f"/{lang}/analyze/", {"pos": SEQUENTIAL}).content.decode()))
    chosen = visible(_answers(client.get(f"/{lang}/analyze/", {"pos": SEQUENTIAL + "_ri"}).content.decode()))
    with translation.override(lang):
        assert reading_label("INT-1") in ours and reading_label("INT-1", other=True) not in ours
        assert reading_label("INT-1", other=True) in chosen
    assert ours != chosen


# --- practice-game hints -------------------------------------------------------------------------
def _strategy_state(pos: str, claim: Position):
    """Strategy-mode Dice Time on the board of ``pos``, red on turn with dice that claim ``claim``."""
    situation = notation.parse(pos)
    game = new_game(situation.players, seed=1, start_player=situation.seating.start_player,
                    rules=RuleSet(mode=Mode.STRATEGY))
    game = apply(game, RingStartBell(situation.seating.start_player))
    faces = situation.board.at(claim).treasure.faces
    players = tuple(replace(p, dice=tuple(sorted((*faces, 6, 6))) if p.colour is Colour.RED else p.dice)
                    for p in game.players)
    return replace(game, board=situation.board, players=players, turn=Colour.RED)


@pytest.mark.parametrize("lang", LANGS)
def test_hint_that_fills_a_short_diagonal_says_it_is_the_sites_reading(lang):
    assert WHERE["INT-3"]["hints"] is True
    state = _strategy_state(SHORT_DIAGONAL.replace("12R", "12"), Position(0, 1))  # fills B1-C2-D3
    with translation.override(lang):
        move = Claim(Colour.RED, Position(0, 1))
        hints = hint_pair(state, move, move_facts(state, Colour.RED, move))
        page = SimpleNamespace(hints=hints, hint_level=2, page_url="/game/")
        html = render_to_string("play/_hints.html", {"page": page})
        word = str(READING_WORD).lower()
        for h in hints:
            assert "INT-3" in h.clauses and "STRAT-3" in h.clauses, h
            assert word in h.text.lower(), h.text
        # each clause link carries the reading's label as its statement
        assert htmllib.escape(clause_summary("INT-3"), quote=True) in html
        assert visible(html).count("INT-3") == len(hints)


@pytest.mark.parametrize("lang", LANGS)
def test_hint_that_fills_a_whole_row_cites_no_reading(lang):
    """The control: a full row needs no reading, so the hint cites none."""
    state = _strategy_state("Rbg_11.12R.13G.14B-15.16.22.23-24.25.26.33-34.35.36.44", Position(0, 0))
    with translation.override(lang):
        move = Claim(Colour.RED, Position(0, 0))
        hints = hint_pair(state, move, move_facts(state, Colour.RED, move))
        assert all("INT-3" not in h.clauses and "STRAT-3" in h.clauses for h in hints), hints


# --- example boards ----------------------------------------------------------------------------
@pytest.mark.django_db
@pytest.mark.parametrize("lang", LANGS)
def test_treasure_boards_label_the_collection_order(client, lang):
    assert WHERE["INT-1"]["boards"] is True
    html = client.get(f"/{lang}/tutorial/treasure-time/").content.decode()
    boards = re.findall(r'<section class="board-panel treasure-board.*?</section>', html, re.S)
    assert boards
    with translation.override(lang):
        for board in boards:
            assert_labelled(visible(board), "INT-1", where="treasure board")


@pytest.mark.django_db
@pytest.mark.parametrize("lang", LANGS)
def test_dice_board_labels_a_short_diagonal(lang):
    """Practice dice of blue, green and white on B1, C2 and D3: the bell may ring by INT-3."""
    assert WHERE["INT-3"]["boards"] is True
    board = DiceBoard("dice-time", moves=("s", "b0-1", "g1-2", "w2-3"))
    assert board.bell().may_ring
    with translation.override(lang):
        html = render_to_string("tutorials/_analyzer_explanation.html", {"ex": board.bell_explanation()})
        assert_labelled(visible(html), "INT-3", where="dice board")


# --- "when it comes up" cards (read only) ------------------------------------------------------
@pytest.mark.parametrize("lang", LANGS)
def test_reading_cards_name_their_clause_and_say_it_is_a_reading(lang):
    shown = {c for c in INT if WHERE[c]["comes_up"] is True}
    cards = [c for c in CARDS if c.reading]
    assert {c.clause for c in cards} == shown
    with translation.override(lang):
        for card in cards:
            assert card.clause.startswith("INT-"), card
            assert str(READING_WORD).lower() in card.say().lower(), (card.clause, card.say())


# --- printed sheets (read only) ----------------------------------------------------------------
@pytest.mark.parametrize("lang", LANGS)
def test_rules_sheet_lists_every_reading_with_its_label(lang):
    html = visible(sheet_html("rules", lang))
    with translation.override(lang):
        for clause in INT:
            assert WHERE[clause]["sheets"] is True
            assert f"{clause} {clause_summary(clause, in_section=True)}" in html, clause


@pytest.mark.parametrize("lang", LANGS)
def test_teach_sheet_prints_each_reading_card_with_its_clause(lang):
    html = visible(sheet_html("teach", lang))
    with translation.override(lang):
        cards = [c for c in context_for("teach")["comes_up"] if c.reading]
        assert cards
        for card in cards:
            assert f"{card.title} {card.clause}" in html, card.clause
            assert visible(card.say()) in html, card.clause


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("pos, clause, other", ANALYZER_CASES)
def test_position_sheet_labels_the_reading(lang, pos, clause, other):
    situation = notation.parse(pos)
    with translation.override(lang):
        html = render_to_string("sheets/position.html", {
            **position_context(situation), "paper": PAPERS["a4"], "lang": lang,
            "share_url": "https://example.org/", "qr_svg": ""})
        assert_labelled(visible(html), clause, other=other, where=f"position sheet {pos}")


@pytest.mark.parametrize("name", ("rules", "reference"))
def test_sheet_dice_time_sentences_label_the_short_diagonals(name):
    with translation.override("en"):
        html = visible(sheet_html(name, "en"))
        numbers = facts()
        sentences = [str(PHASES[0][1]) % numbers, str(STRATEGY[2]) % numbers]
        found = [s for s in sentences if s in html]
        assert found
        for sentence in found:
            after = html[html.index(sentence):][:len(sentence) + 200]
            assert "INT-3" in after, sentence


# --- the practice game's own explanations (Dice Time) ------------------------------------------
def _game_events():
    """Engine events of real games: a 2-player Dice Time where both ring falsely (INT-7), and
    random games in both modes (a short diagonal ending Dice Time, re-rolls with and without
    INT-8, INT-6 deadlocks)."""
    seen: dict[tuple[str, str | None, str], object] = {}

    def keep(events):
        for e in events:
            seen.setdefault((e.code, e.interpretation, e.clause), e)

    game = new_game((Colour.RED, Colour.BLUE), seed=1, start_player=Colour.RED)
    game = apply(game, RingStartBell(Colour.RED))
    game = apply(game, RingBell(Colour.RED))
    game = apply(game, RingBell(Colour.BLUE))
    keep(game.log)
    for seed in range(8):
        for mode in Mode:
            colours = tuple(Colour)[:3]
            rules = RuleSet(mode=mode)
            play_game(colours, {c: POLICIES["random"] for c in colours}, seed=seed, rules=rules,
                      on_step=lambda _b, _a, after: keep(after.log))
    return seen


@pytest.fixture(scope="module")
def game_events():
    return _game_events()


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("code, clause", [("bell.line", "INT-3"), ("dice.stuck", "INT-6"),
                                          ("dice.penalties_lifted", "INT-7"), ("dice.roll", "INT-8")])
def test_game_explanations_label_the_reading(game_events, lang, code, clause):
    assert WHERE[clause]["game"] is True
    events = [e for (c, i, _cl), e in game_events.items() if c == code and i == clause]
    assert events, (code, clause)
    with translation.override(lang):
        for event in events:
            html = render_to_string("tutorials/_analyzer_explanation.html", {"ex": explain(event)})
            assert_labelled(visible(html), clause, where=code)


@pytest.mark.parametrize("mode", ["DICE-3", "STRAT-2"])
def test_only_a_re_roll_with_no_pair_that_fits_carries_the_reading(game_events, mode):
    """INT-8 labels a re-roll made because no pair fitted any free card; an ordinary re-roll
    (a pair would have fitted) teaches nothing about it and carries no note."""
    rolls = [e for (c, _i, cl), e in game_events.items() if c == "dice.roll" and cl == mode]
    fruitless = [e for e in rolls if e.interpretation == "INT-8"]
    ordinary = [e for e in rolls if e.interpretation is None]
    assert fruitless and ordinary, mode
    assert all(explain(e).interpretation == "INT-8" for e in fruitless)
    assert all(explain(e).interpretation is None and "INT-8" not in explain(e).cited for e in ordinary)
