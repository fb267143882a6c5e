"""What the site says about the rules: each explanation cites the clause that
decided it, and statements on pages match RULES.md and the official text."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import unquote

import pytest
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.html import escape

from teach_options import teach_options, teach_refusals
from tutorials.sheets.render import sheet_html
from tutorials.tutorial.teaching import script_context
from tutorials.tutorial.teaching import sections as teach_sections
from tutorials.wording.clauses import CLAUSES, clause_summary
from tutorials.wording.glossary import CARD_EFFECTS, CARD_NAMES

ROOT = Path(__file__).resolve().parents[2]
TIE = "Rbgw_12r2.35.44.26b2-15g2.33.24.56w2-11.46.23b1.13-34.66w5.25.14"


def _explanations(html: str) -> list[str]:
    return re.findall(r'<li class="explanation[^"]*">(.*?)</li>', html, re.S)


def _cited(item: str) -> list[str]:
    return re.findall(r'<a class="clause"[^>]*>([A-Z]+-[0-9]+)</a>', item)


@pytest.mark.django_db
@pytest.mark.parametrize("lang, because", [
    ("en", "because red is the start player"),
    ("de", "weil Rot Startspieler ist"),
    ("ja", "赤が親プレイヤー"),
])
def test_a_tie_that_matters_cites_bat2_on_the_earlier_card(client, lang, because):
    """Item 1: red's and blue's [2] tie in row 1; red goes first as start player and removes
    blue's card. Red's step says so and cites BAT-2; no other step speaks of the tie."""
    html = client.get(f"/{lang}/analyze/", {"pos": TIE, "view": "explain", "step": "12"}).content.decode()
    items = _explanations(html)
    tie = [i for i in items if because in i]
    assert len(tie) == 1, items
    assert _cited(tie[0]) == ["BAT-4", "BAT-2"]
    assert not any("BAT-2" in _cited(i) for i in items if i is not tie[0])


@pytest.mark.django_db
def test_reversed_speed_cites_var1(client):
    """Item 2: under VAR-1 the order step cites VAR-1, and the order it states is reversed;
    no step cites BAT-1 for the order."""
    html = client.get("/en/analyze/", {"pos": TIE + "_rv1", "view": "explain", "step": "0"}).content.decode()
    reveal = _explanations(html)[0]
    assert "0 → 5 → 4 → 3 → 2 → 1" in reveal
    assert _cited(reveal) == ["VAR-1"]


STRATEGY_FULL_ROW = "Rbgw_11R.12B.13G.14W-15.16.22.23-24.25.26.33-34.35.36.44_rs"


def _answers(html: str) -> str:
    """The visible text of the answers panel."""
    section = re.search(r'<section class="panel answers".*?</section>', html, re.S)[0]
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", section))


@pytest.mark.django_db
@pytest.mark.parametrize("lang, bell, question, answer", [
    ("en", "bell", "Is Dice Time over?", "Dice Time is over: every card of the line A1, B1, C1 and D1"),
    ("de", "Glocke", "Ist die Würfelphase vorbei?", "Die Würfelphase ist vorbei"),
    ("ja", "ベル", "サイコロタイムは終わりましたか？", "サイコロタイムは終わりです"),
])
def test_strategy_mode_has_no_bell(client, lang, bell, question, answer):
    """Item 3: in strategy mode a full line ends Dice Time by itself (STRAT-1, STRAT-3);
    the question, the answer and the step title never speak of a bell."""
    html = client.get(f"/{lang}/analyze/", {"pos": STRATEGY_FULL_ROW}).content.decode()
    answers = _answers(html)
    assert question in answers and answer in answers, answers
    assert bell not in answers
    html = client.get(f"/{lang}/analyze/", {"pos": STRATEGY_FULL_ROW, "view": "explain",
                                            "step": "0"}).content.decode()
    assert bell not in _answers(html)
    # one card short: Dice Time goes on
    short = STRATEGY_FULL_ROW.replace("14W", "14")
    answers = _answers(client.get(f"/{lang}/analyze/", {"pos": short}).content.decode())
    assert bell not in answers and "STRAT-3" in answers


@pytest.mark.django_db
def test_bell_what_ifs_offer_no_start_player_changes(client):
    """Item 7: the bell does not depend on the start player, so no such what-if."""
    pos = "Rbgw_11R.12B.13G.14-15.16.22.23-24.25.26.33-34.35.36.44"
    html = client.get("/en/analyze/what-if/", {"pos": pos}).content.decode()
    panel = re.search(r'<section class="panel" id="what-ifs".*?</section>', html, re.S)[0]
    assert "as start player" not in panel and "First-edition bell rule" in panel


@pytest.mark.django_db
def test_dice_with_cards_is_refused_for_what_it_is(client):
    """Item 6: during Setting Time dice and cards do lie together (SET-1); the refusal says
    the analyzer answers positions before or after Setting Time, not that the rules forbid it."""
    pos = "rBg_11R.12b5.13.14-15.16.22.23-24.25.26.33-34.35.36.44"
    html = client.get("/en/analyze/", {"pos": pos}).content.decode()
    error = re.search(r'data-testid="analyzer-error">(.*?)</p>', html, re.S)[1]
    assert "cannot be on the board together" not in error
    assert "Setting Time" in error and "before" in error and "after" in error


@pytest.mark.django_db
def test_ja_next_round_turns_the_cards_face_down(client):
    """Item 8: after Battle Time the attack cards lie face up; they are turned face down
    onto the owner's discard pile (official text: 裏向きにして持ち主の手元に置きます)."""
    html = client.get("/ja/tutorial/next-round/").content.decode()
    assert "裏向きのまま" not in html
    assert "裏向きにして自分の捨て札の山に重ねます" in html


@pytest.mark.parametrize("lang", ["en", "de", "ja"])
def test_rules_sheet_setup_says_deck_bell_and_start_player(lang):
    """Item 9: the setup says to shuffle the treasure cards into a face-down deck, to put
    the bell in the middle and to choose the first start player before any rule uses them."""
    html = sheet_html("rules", lang)
    with translation.override(lang):
        setup = clause_summary("SETUP-3")
    assert setup in html
    words = {"en": ("shuffle", "face down", "bell", "start player"),
             "de": ("misch", "verdeckt", "Glocke", "Startspieler"),
             "ja": ("シャッフル", "裏向き", "ベル", "親プレイヤー")}[lang]
    assert all(w.lower() in setup.lower() for w in words), setup
    assert html.index(setup) < html.index('<span class="cid">DICE-1</span>')


@pytest.mark.parametrize("lang", ["en", "de", "ja"])
def test_every_reading_says_it_is_one(lang):
    """Item 10: each INT statement says it is this site's reading and names the other
    reading, or (INT-4..8) what the official text says or that it is silent; the FAQ's
    gap answer is marked as INT-2, not stated as fact."""
    other = {"en": ("other reading", "official"),
             "de": ("andere Auslegung", "anderen Auslegung", "offiziell"),
             "ja": ("別の解釈", "公式")}[lang]
    with translation.override(lang):
        for cid in [c for c in CLAUSES if c.startswith("INT-")]:
            text = clause_summary(cid)
            assert any(word in text for word in other), (cid, text)
    html = sheet_html("rules", lang)
    faq = re.search(r'<dl class="faq">.*?</dl>', html, re.S)[0]
    gap = re.search(r"<dd>([^<]*INT-2[^<]*)</dd>", faq)
    assert gap, faq


@pytest.mark.django_db
@pytest.mark.parametrize("lang", ["en", "de", "ja"])
def test_int6_in_either_mode_and_var4_is_the_first_edition(client, lang):
    """Item 11: INT-6 applies in both modes (RULES.md); VAR-4 is the superseded
    first-edition rule, listed apart from the variants on the rules page and sheet."""
    with translation.override(lang):
        int6 = clause_summary("INT-6")
    assert {"en": "either mode", "de": "in beiden Modi", "ja": "どちらのモードでも"}[lang] in int6
    html = client.get(f"/{lang}/rules/").content.decode()
    variants = re.search(r'id="variants".*?(?=<section|id="first-edition")', html, re.S)[0]
    assert "VAR-3" in variants and "VAR-4" not in variants
    assert 'id="first-edition"' in html
    sheet = sheet_html("rules", lang)
    assert sheet.index("VAR-3") < sheet.index("VAR-4")
    first = {"en": "First edition", "de": "Erste Auflage", "ja": "初版"}[lang]
    between = sheet[sheet.index("VAR-3"):sheet.index("VAR-4")]
    assert first in between


@pytest.mark.django_db
def test_de_setting_time_says_cards_in_hand(client):
    """Item 12: "more cards than you hold" means attack cards in hand, not cards in general."""
    html = client.get("/de/tutorial/setting-time/").content.decode()
    assert "als du Karten hast" not in html
    assert "mehr Karten belegen, als du Angriffskarten auf der Hand hast" in html


@pytest.mark.django_db
@pytest.mark.parametrize("lang, first", [
    ("en", "Play Battle Time first"),
    ("de", "Zuerst wird die Kampfphase gespielt"),
    ("ja", "先にバトルタイムを"),
])
def test_treasure_quiz_says_battle_time_comes_first(client, lang, first):
    """Item 4: the worked examples above the quiz show boards after Battle Time; the quiz
    shows the cards as placed, so it says plainly that Battle Time is played first, and
    its answer explains the battle steps that removed something."""
    url = f"/{lang}/tutorial/treasure-time/"
    html = client.get(url).content.decode()
    quiz = re.search(r'<section class="board-panel quiz-board".*?</section>', html, re.S)[0]
    assert first in quiz
    checked = client.get(url, {"quiz-treasure": "0__c"}).content.decode()
    quiz = re.search(r'<section class="board-panel quiz-board".*?</section>', checked, re.S)[0]
    assert "BAT-4" in quiz and "TRE-" in quiz


@pytest.mark.django_db
def test_ja_quiz_result_says_right_once(client):
    """Item 7: 「正解！ 正解：…」 said "right" twice; the result is one sentence."""
    html = client.get("/ja/tutorial/treasure-time/", {"quiz-treasure": "0__c"}).content.decode()
    result = re.search(r'data-testid="quiz-result">(.*?)</p>', html, re.S)[1]
    assert result.count("正解") <= 1, result


def _board(html: str, board_id: str) -> str:
    return re.search(rf'<section class="board-panel[^"]*" id="board-{board_id}".*?</section>', html, re.S)[0]


def _act(client, url: str, board_id: str, do: str, at: str = "", state: str = "") -> tuple[str, str]:
    """Follow one board action as a browser without JavaScript does: (new state, its board)."""
    response = client.get(f"{url}board/{board_id}/", {"state": state, "do": do, "at": at})
    assert response.status_code == 302, response.status_code
    new_state = unquote(re.search(rf"[?&]{board_id}=([^&#]+)", response["Location"])[1])
    return new_state, _board(client.get(response["Location"]).content.decode(), board_id)


@pytest.mark.django_db
def test_bell_exercise_rings_and_a_false_bell_never_says_may_ring(client):
    """Item 5: on the "Can the bell ring?" board, green's practice dice on B1 complete row 1;
    ringing then ends Dice Time. After a false bell the status no longer says the bell may
    ring, even when the practice dice complete a line."""
    url = "/en/tutorial/ending-dice-time/"
    state, _ = _act(client, url, "bell", "paint", "g")
    state, board = _act(client, url, "bell", "claim", "01", state)
    assert 'class="bell-status yes"' in board
    _, board = _act(client, url, "bell", "ring", "", state)
    assert "Dice Time is over" in board and "has not begun" not in board
    # a false bell first, then the line completed
    false, _ = _act(client, url, "bell", "ring")
    false, _ = _act(client, url, "bell", "paint", "g", false)
    false, board = _act(client, url, "bell", "claim", "01", false)
    assert "DICE-6" in board and "The bell may ring" not in board


@pytest.mark.django_db
def test_wording_kinds_in_answers(client):
    """Item 7: the noun agrees with the number shown; the other-reading box lists only the
    players it changes; German lists end with „und"."""
    whatifs = client.get("/en/analyze/what-if/", {"pos": TIE}).content.decode()
    assert "→ 1 cards" not in whatifs and "blue: 1 → 2 cards" in whatifs
    ex = "Rbgw_11r1.12g2.13g5.14w4-15w1.16b0.22w2.23b4-24r0.25g4.26r5.33w5-34b1.35b2.36g1.44r2"
    single = client.get("/en/analyze/what-if/", {"pos": ex}).content.decode()
    assert "red: 3 → 1 card<" in single or "red: 3 → 1 card," in single
    assert "→ 1 cards" not in single
    reading = client.get("/en/analyze/", {"pos": "rB_11.12.13.14-15r5.16b0.22.23r5-24.25.26.33-34.35.36.44"})
    box = re.search(r'<div class="interpretation-box">.*?</div>', reading.content.decode(), re.S)[0]
    items = re.findall(r"<li>(.*?)</li>", box, re.S)
    assert items and all("(now" in i for i in items)
    assert not any(re.search(r": (\d+) cards? \(now \1\)", i) for i in items), items
    de = client.get("/de/analyze/", {"pos": TIE, "view": "explain", "step": "2"}).content.decode()
    assert "die [2] Breitseite von Weiß (D2) und das [5] Späherschiff von Weiß (B4)" in de


@pytest.mark.parametrize("lang, bell", [("en", "rings"), ("de", "klingelt"), ("ja", "鳴らし")])
def test_strategy_script_never_rings_to_begin(lang, bell):
    """Item 3: the teaching script's strategy Dice Time begins without a bell (STRAT-1)."""
    with translation.override(lang):
        text = "".join(render_to_string(f"tutorials/lessons/strategy/{slug}.html", {"tutorial": True})
                       for slug in ("dice-time", "ending-dice-time"))
    assert bell not in text


@pytest.mark.django_db
def test_start_player_priority_is_not_called_a_tie(client):
    """Item 13: "the start player wins ties" reads as winning a tied game (END-3). Speak of
    equal speed (BAT-2) and overlapping sandwiches (TRE-3); German „Gleichstand" and
    Japanese 「順番が並んだ」 only ever for a tied game."""
    panel = {"en": "wins ties", "de": "Gleichstand", "ja": "順番が並んだ"}
    for lang, word in panel.items():
        html = client.get(f"/{lang}/analyze/").content.decode()
        assert word not in html, lang
    po = (ROOT / "locale" / "de" / "LC_MESSAGES" / "django.po").read_text(encoding="utf-8")
    for block in po.split("\n\n"):
        if block.startswith("#~"):
            continue
        msgstr = "".join(re.findall(r'"(.*)"', block.partition("msgstr")[2]))
        if "Gleichstand" in msgstr:
            assert "Pasch" in msgstr, msgstr  # END-3: a tied game is broken by doubles


def test_german_house_style():
    """Item 14: one verb for the bell (klingeln), „Einführung" for the tutorial. What the
    analyzer answers is a „Spielsituation" (docs/style/de.md forbids the chess term
    „Stellung")."""
    po = (ROOT / "locale" / "de" / "LC_MESSAGES" / "django.po").read_text(encoding="utf-8")
    live = "\n".join(b for b in po.split("\n\n") if not b.startswith("#~"))
    msgstrs = " ".join("".join(re.findall(r'"(.*)"', b.partition("msgstr")[2])) for b in live.split("\n\n"))
    for word in ("läut", "auf die Glocke", "Anleitung", "Stellung"):
        assert word not in msgstrs, word


def test_japanese_house_style():
    """Item 15: 挟み is not a noun; 他プレイヤー throughout (the official term); no 「例の盤面」;
    です/ます throughout (no 「気をつけて。」)."""
    po = (ROOT / "locale" / "ja" / "LC_MESSAGES" / "django.po").read_text(encoding="utf-8")
    live = [b for b in po.split("\n\n") if not b.startswith("#~")]
    msgstrs = " ".join("".join(re.findall(r'"(.*)"', b.partition("msgstr")[2])) for b in live)
    assert not re.search(r"挟み[をはがのにで]", msgstrs)
    for word in ("ほかのプレイヤー", "他のプレイヤー", "例の盤面", "気をつけて。"):
        assert word not in msgstrs, word


@pytest.mark.parametrize("script", ["quick", "full"])
@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("lang, bell", [("en", r"\bbell\b|\bring(s|ing)?\b|\brang\b"),
                                        ("de", r"glocke|klingel"), ("ja", r"ベル|鳴ら")])
def test_strategy_teaching_never_speaks_of_the_bell(lang, bell, players, script):
    """Item 3 at the café table: a strategy-mode teaching script has no bell anywhere, not
    even to say there is none (STRAT-1), and the bell variants are refused for it."""
    assert teach_refusals({"mode": "strategy", "variants": ["v3"]})["variants"].code == "bell-in-strategy"
    refused = teach_refusals({"mode": "strategy", "first_edition": "1"})
    assert refused["first_edition"].code == "bell-in-strategy"
    options = teach_options({"players": str(players), "mode": "strategy", "variants": ["v1", "v2"],
                             "script": script})
    with translation.override(lang):
        texts = [render_to_string(section.template, script_context(options))
                 for section in teach_sections(options)]
    plain = [re.sub(r"<[^>]+>", " ", t).lower() for t in texts]
    found = [m for t in plain for m in re.finditer(bell, t)]
    assert not found, [m.string[max(0, m.start() - 80):m.end() + 40] for m in found][:3]


@pytest.mark.django_db
@pytest.mark.parametrize("lang, wrong", [
    ("en", ("for the rest of the round", "Ringing too early", "everyone rolls once")),
    ("de", ("Rest der Runde", "Zu frühes Klingeln", "Alle würfeln einmal")),
    ("ja", ("このラウンドの残り", "早すぎる", "1回だけ振り")),
])
def test_native_readers_rule_findings(client, lang, wrong):
    """Rule statements the native readers found wrong: the ringer is start player until the
    next Dice Time ends (DICE-4), a false bell is ringing while the condition does not hold
    (DICE-6), strategy mode rolls at the start and re-rolls on turns (STRAT-1/2), and the
    game ends only once the deck is empty (END-1)."""
    pages = [f"/{lang}/tutorial/ending-dice-time/", f"/{lang}/tutorial/round/", f"/{lang}/rules/"]
    text = " ".join(client.get(url).content.decode() for url in pages) + sheet_html("rules", lang)
    for phrase in wrong:
        assert phrase not in text, phrase
    deck = {"en": "the deck is empty", "de": "Nachziehstapel leer", "ja": "山札がなくなり"}[lang]
    assert deck in client.get(f"/{lang}/tutorial/round/").content.decode()


@pytest.mark.parametrize("lang", ["ja", "en", "de"])
def test_the_rules_reference_says_what_each_attack_card_hits(client, lang):
    """BAT-4 says "in its range": the reference must say what each card's range is (a fresh
    learner found it only in the tutorial)."""
    html = client.get(f"/{lang}/rules/").content.decode()
    row = html[html.index('id="BAT-4"'):]
    row = row[:row.index('class="clause-row"')]
    with translation.override(lang):
        for kind, effect in CARD_EFFECTS.items():
            assert escape(str(CARD_NAMES[kind])) in row and escape(str(effect)) in row, kind
    assert row.count("<svg") >= len(CARD_EFFECTS)
