"""The teaching scripts: the quick start keeps its promise, every table hears the
rules in force where they are taught, and the presenter's times come from the text."""

from __future__ import annotations

import itertools
import re

import pytest
from django.core.management import call_command
from django.template.loader import render_to_string
from django.utils import translation

from conformance import CLAUSE_IDS
from teach_options import teach_options, teach_refusals
from tutorials.management.commands.teach_length import QUICK_LIMITS
from tutorials.models import Table
from tutorials.templatetags.captain import read_time
from tutorials.tutorial.comes_up import CARDS, cards_for
from tutorials.tutorial.reading import RATES, length_of, script_timing, taught_clauses
from tutorials.tutorial.teaching import script_context, sections

LANGS = ("ja", "en", "de")
QUICK_CORE = ("DICE-1", "DICE-2", "DICE-3", "DICE-4", "SET-1", "BAT-1", "BAT-2", "BAT-3", "BAT-4",
              "TRE-1", "TRE-2", "END-1", "END-2")
STRATEGY_CORE = ("STRAT-1", "STRAT-2", "STRAT-3", "DICE-2", "SET-1", "BAT-1", "BAT-2", "BAT-3", "BAT-4",
                 "TRE-1", "TRE-2", "END-1", "END-2")


def _options(**chosen) -> dict:
    return teach_options({k: (v if isinstance(v, list) else str(v)) for k, v in chosen.items()})


def _texts(options: dict, lang: str) -> dict[str, str]:
    """Every section's whole text (not only what is read aloud), tags removed, by slug."""
    with translation.override(lang):
        return {s.slug: " ".join(re.sub(r"<[^>]+>", " ", render_to_string(s.template,
                                                                          script_context(options))).split())
                for s in sections(options)}


def _every_table():
    for players, mode, script in itertools.product((2, 3, 4), ("action", "strategy"), ("quick", "full")):
        variants = [["v1", "v2", "v3"] if mode == "action" else ["v1", "v2"], []]
        for chosen in variants:
            yield {"players": players, "mode": mode, "script": script, "variants": chosen}


# --- 1. and 2.: the quick start's content and length --------------------------------------------
@pytest.mark.parametrize("lang", LANGS)
def test_quick_start_fits_its_limit(lang):
    """A 4-player action-mode table, no variants: at most ja 1,600 non-space characters,
    en 750 words, de 650 words read aloud (the length the presenter sees)."""
    timing = script_timing(_options(), lang)
    total = sum(t.length for t in timing)
    assert 0 < total <= QUICK_LIMITS[lang], (lang, total)
    assert sum(t.minutes for t in timing) == pytest.approx(total / RATES[lang][0])


def test_length_counts_what_is_read_aloud():
    assert length_of("Roll all six dice.", "en") == 4
    assert length_of("全員が 振ります。", "ja") == 8
    section = sections(_options())[1]  # Dice Time
    with translation.override("en"):
        html = render_to_string(section.template, script_context(_options()))
    read = script_timing(_options(), "en")[1].text
    assert "On the board below" in html and "On the board below" not in read  # screen-only hint
    assert "Hands-on" in html and "Hands-on" not in read                        # a label
    assert "Let’s try it" in read                                                # a hands-on prompt


@pytest.mark.parametrize("mode, core", [("action", QUICK_CORE), ("strategy", STRATEGY_CORE)])
@pytest.mark.parametrize("players", [2, 4])
def test_quick_start_teaches_the_core(mode, core, players):
    """Each core clause is read aloud by some quick-start section (its data-clause)."""
    options = _options(mode=mode, players=players)
    taught = taught_clauses(options)
    core = [c.replace("DICE-4", "DICE-5") if players == 2 else c for c in core]
    assert not set(core) - taught, sorted(set(core) - taught)
    first = script_timing(options, "en")[0]
    assert first.clauses[0] == "END-2"  # the goal, in the first sentence


def test_full_script_teaches_everything_the_quick_start_does():
    for mode in ("action", "strategy"):
        quick = taught_clauses(_options(mode=mode))
        full = taught_clauses(_options(mode=mode, script="full"))
        assert quick - {"SETUP-3"} <= full, sorted(quick - full)


# --- say later: only what the script does not say --------------------------------------------------
@pytest.mark.parametrize("table", list(_every_table()), ids=lambda t: "-".join(map(str, t.values())))
def test_say_later_holds_only_what_the_script_does_not_say(table):
    options = _options(**table)
    said = taught_clauses(options)
    later = cards_for(options, said)
    assert not {c.clause for c in later} & said
    if table["script"] == "quick":
        # the quick start says how the hand comes back (and, in action mode, the false bell)
        # before the first bell, as the official script does; the rest waits for its moment
        assert {"SET-2", "TRE-3", "END-3"} <= {c.clause for c in later}
        assert {"DICE-7", "SET-4", "TRE-4"} <= said
        assert ("DICE-6" in said) == (table["mode"] == "action")
    else:
        assert not {"DICE-7", "SET-2", "SET-4", "TRE-3", "END-3"} & {c.clause for c in later}
    if table["mode"] == "strategy":
        assert "DICE-6" not in {c.clause for c in later}  # no bell, no false bell


def test_every_card_names_a_clause_and_readings_say_so():
    ids = set(CLAUSE_IDS)
    for card in CARDS:
        assert card.clause in ids, card.clause
        for lang, mark in (("en", "Our reading"), ("de", "Auslegung"), ("ja", "解釈")):
            with translation.override(lang):
                assert (mark in card.say()) == card.reading, (card.clause, lang)


# --- 4.: rules in place -----------------------------------------------------------------------------
@pytest.mark.parametrize("script", ["quick", "full"])
@pytest.mark.parametrize("mode", ["action", "strategy"])
def test_two_player_tables_never_hear_the_three_or_four_player_numbers(script, mode):
    options = _options(players=2, mode=mode, script=script)
    text = " ".join(_texts(options, "en").values())
    for wrong in ("4×4", "4 by 4", "16 ", "9 attack cards", "all 9", "3 or 4 players", "some row, column "
                  "or diagonal has dice on", "With two players, it is"):
        assert wrong not in text, wrong
    assert "3 by 3" in text or "3×3" in text
    assert "7 attack cards" in text
    for lang, box in (("en", "Two players"), ("de", "Zu zweit"), ("ja", "2人で遊ぶとき")):
        html = " ".join(_texts(options, lang).values())
        assert "aside-title" not in html  # no correction box after the fact
        assert box not in html or lang != "en"


def _changed_sections(base: dict, **change) -> set[str]:
    before, after = _texts(_options(**base), "en"), _texts(_options(**{**base, **change}), "en")
    assert before.keys() == after.keys()
    return {slug for slug in before if before[slug] != after[slug]}


@pytest.mark.parametrize("script", ["quick", "full"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_each_variant_changes_the_section_that_teaches_its_rule(script, players):
    """VAR-1 changes Battle Time only; VAR-2 the hand (setup) and the card list; VAR-3 and
    the first-edition bell the section on the bell; no variants section anywhere."""
    base = {"players": players, "script": script}
    setup = "goal" if script == "quick" else "setup"
    cards = "battle-time" if script == "quick" else "setting-time"
    bell = "bell" if script == "quick" else "ending-dice-time"
    assert _changed_sections(base, variants=["v1"]) == {"battle-time"}
    # VAR-2: the hand, the card list, and (full script, 3-4 players) the sandwich example,
    # which the official text shows with a [5]
    no_scouts_example = {"treasure-time"} if script == "full" and players > 2 else set()
    assert _changed_sections(base, variants=["v2"]) == {setup, cards} | no_scouts_example
    assert _changed_sections(base, variants=["v3"]) == {bell}
    if players > 2:
        assert _changed_sections(base, first_edition=1) == {bell}
    assert "variants" not in {s.slug for s in sections(_options(**base, variants=["v1", "v2", "v3"]))}


def test_reversed_speed_shows_the_example_resolved_in_that_order():
    full = _texts(_options(script="full", variants=["v1"]), "en")["battle-time"]
    assert "0, 5, 4, 3, 2, 1" in full
    assert "Red [3] Cannon at B1 acts and sends blue [1] Boarding Melee (B2) to the discard pile" in full
    assert "Blue sits before green, so blue acts first" not in full  # the ascending walkthrough


@pytest.mark.parametrize("script", ["quick", "full"])
def test_strategy_mode_teaches_the_optional_rule(script):
    for lang, word in (("en", "optional rule"), ("de", "Zusatzregel"), ("ja", "選択ルール")):
        text = " ".join(_texts(_options(mode="strategy", script=script), lang).values())
        assert word in text, lang
    assert "STRAT-4" in taught_clauses(_options(mode="strategy", script=script))


# --- the start form ---------------------------------------------------------------------------------
@pytest.mark.parametrize("chosen, field", [
    ({"mode": "strategy", "variants": ["v3"]}, "variants"),
    ({"mode": "strategy", "first_edition": "1"}, "first_edition"),
    ({"players": "2", "first_edition": "1"}, "first_edition"),
    ({"variants": ["v3"], "first_edition": "1"}, "first_edition"),
])
def test_meaningless_combinations_are_refused_with_a_reason(chosen, field):
    assert list(teach_refusals(chosen)) == [field]


@pytest.mark.django_db
@pytest.mark.parametrize("lang, reason", [("en", "Strategy mode has no bell"),
                                          ("de", "Der Strategiemodus hat keine Glocke"),
                                          ("ja", "戦略モードにはベルがありません")])
def test_start_form_refuses_and_keeps_every_choice(client, lang, reason):
    before = Table.objects.count()
    response = client.post(f"/{lang}/teach/", {"players": "3", "mode": "strategy", "script": "full",
                                               "variants": ["v1", "v3"]})
    html = response.content.decode()
    assert response.status_code == 422 and reason in html
    assert Table.objects.count() == before
    for name, value in (("players", "3"), ("mode", "strategy"), ("script", "full"), ("variants", "v1"),
                        ("variants", "v3")):
        assert re.search(rf'name="{name}" value="{value}" checked', html), (name, value)
    assert 'id="error-variants"' in html and 'aria-describedby="error-variants"' in html


# --- 3.: honest times on the presenter screen ---------------------------------------------------------
@pytest.mark.django_db
@pytest.mark.parametrize("lang", LANGS)
def test_presenter_shows_times_from_the_text_and_the_timer_survives_reloads(client, lang):
    response = client.post(f"/{lang}/teach/", {"players": "4", "mode": "action", "script": "quick"})
    code = response["Location"].rstrip("/").split("/")[-1]
    page = client.get(f"/{lang}/teach/{code}/").content.decode()
    timing = script_timing(_options(), lang)
    with translation.override(lang):
        total, first = read_time(sum(t.minutes for t in timing)), read_time(timing[1].minutes)
    assert re.search(rf'data-testid="total-minutes">[^<]*{re.escape(total)}', page), total
    assert "target 3–5 min" not in page
    opened = Table.objects.get(code=code)  # both timers run from the first section
    assert opened.started_at == opened.section_since is not None
    assert f'data-section-started="{opened.section_since.timestamp():.3f}"' in page
    client.post(f"/{lang}/teach/{code}/go/", {"to": "1", "v": "1"})
    session = Table.objects.get(code=code)
    assert session.started_at == opened.started_at and session.section_since > opened.section_since
    again = client.get(f"/{lang}/teach/{code}/").content.decode()
    assert f'data-started="{session.started_at.timestamp():.3f}"' in again
    assert first in re.search(r'data-testid="section-minutes">([^<]*)<', again)[1]
    client.post(f"/{lang}/teach/{code}/go/", {"to": "2", "v": "2"})
    later = Table.objects.get(code=code)
    assert later.started_at == session.started_at and later.section_since > session.section_since


@pytest.mark.django_db
def test_presenter_shows_the_cards_of_the_current_phase(client):
    response = client.post("/en/teach/", {"players": "4", "mode": "action", "script": "quick"})
    code = response["Location"].rstrip("/").split("/")[-1]
    client.post(f"/en/teach/{code}/go/", {"to": "3", "v": "1"})  # goal, Dice Time, bell, Setting Time
    page = client.get(f"/en/teach/{code}/").content.decode()
    now = re.search(r'<aside class="come-up-now".*?</aside>', page, re.S)[0]
    assert "SET-2" in now and "SET-4" not in now and "DICE-6" not in now  # SET-4 is read aloud


@pytest.mark.parametrize("lang, minutes, said", [("en", 4.42, "4 min 25 s"), ("de", 0.4, "25 s"),
                                                   ("ja", 3.0, "3分"), ("ja", 1.51, "1分30秒")])
def test_reading_times_are_said_as_people_say_them(lang, minutes, said):
    with translation.override(lang):
        assert read_time(minutes) == said


def test_length_command_prints_every_table(capsys):
    call_command("teach_length", lang=["en"])
    out = capsys.readouterr().out
    assert "150 words/min" in out and "OVER" not in out
    rows = [line for line in out.splitlines() if re.match(r"\s+[234]p ", line)]
    assert len(rows) == 12  # 3 player counts × 2 modes × without/with variants


# --- 5.: both scripts printed, with the examples drawn by the boards' renderer ----------------------
@pytest.mark.parametrize("name, script", [("quick-start", "quick"), ("teach", "full")])
@pytest.mark.parametrize("lang", LANGS)
def test_printed_scripts_draw_the_battle_and_the_sandwich(name, script, lang):
    from tutorials.sheets.render import sheet_html

    html = sheet_html(name, lang)
    assert html.count('class="board-svg') >= 3  # battle revealed and after, the sandwich
    options = _options(script=script)
    said = taught_clauses(options)
    later = re.findall(r'<dt>.*?<span class="cid">([A-Z]+-\d+)</span></dt>', html)
    assert later and not set(later) & said
    if name == "quick-start":  # the handout leaves out the cards whose rule it states elsewhere
        from tutorials.sheets.content import QUICK_STATED

        said |= {c for c, modes in QUICK_STATED.items() if "action" in modes}
    assert {c.clause for c in cards_for(options, said)} == set(later)
    assert 'class="web-only"' not in html or ".web-only { display: none; }" in (
        pytest.importorskip("pathlib").Path(__file__).resolve().parents[2] / "static" / "css" / "sheet.css"
    ).read_text(encoding="utf-8")


@pytest.mark.django_db
@pytest.mark.parametrize("players, variants, side, colours", [
    ("2", [], 3, {"red", "blue"}), ("2", ["v2"], 3, {"red", "blue"}), ("4", ["v2"], 4, None)])
def test_example_boards_are_those_of_the_table(client, players, variants, side, colours):
    """A two-player table's battle and treasure examples are 3 × 3 with two colours; a
    table without scouts (VAR-2) sees no [5] card in any example."""
    response = client.post("/en/teach/", {"players": players, "mode": "action", "script": "full",
                                          "variants": variants})
    code = response["Location"].rstrip("/").split("/")[-1]
    table = Table.objects.get(code=code)
    slugs = [s.slug for s in sections(table.options)]
    for slug in ("battle-time", "treasure-time"):
        table.refresh_from_db()
        client.post(f"/en/teach/{code}/go/", {"to": str(slugs.index(slug)), "v": str(table.version)})
        html = client.get(f"/en/teach/{code}/").content.decode()
        assert f"grid cols-{side}" in html and f"grid cols-{7 - side}" not in html, slug
        assert "Scout Ship" not in html or "v2" not in variants, slug
        assert 'data-pos="' in html
        if colours:
            found = {c.lower() for c in re.findall(r"\b(red|blue|green|white) \[\d\]", html, re.I)}
            assert found and found <= colours, (slug, found)
        assert "quiz" not in html  # the checks are built on the 3-4 player examples with [5]s
