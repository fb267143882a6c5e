"""PDF sheets: every sheet in every language, fonts, words, pages, no warnings, not blank."""

from __future__ import annotations

import re
import subprocess

import pytest

from tutorials.sheets import render as sheets
from tutorials.sheets.render import SHEETS

WORDS = {
    "ja": ["サイコロタイム", "バトルタイム", "トレジャータイム"],
    "de": ["Würfelphase", "Kampfphase", "Schatzphase"],
    "en": ["Dice Time", "Battle Time", "Treasure Time"],
}
EX_BATTLE = "Rbg_11.13r3.22.14-15.16b1.23.24r2-26.33.34g1.35-36g0.44.45.46"


def _tool(*args: str, data: bytes | None = None, tmp) -> str:
    pdf = tmp / "sheet.pdf"
    if data is not None:
        pdf.write_bytes(data)
    return subprocess.run([*args, str(pdf), "-"] if args[0] == "pdftotext" else [*args, str(pdf)],
                          capture_output=True, text=True, check=True).stdout


def _family(pdffonts_line: str) -> str:
    """``Noto-Sans`` of ``ABCDEF+Noto-Sans-Bold  CID TrueType …``: the font without its
    subset prefix and weight."""
    name = pdffonts_line.split()[0].split("+")[-1]
    return re.sub(r"-(Bold|Italic|BoldItalic|Regular)$", "", name)


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("lang", ["ja", "en", "de"])
@pytest.mark.parametrize("name", list(SHEETS))
def test_sheet(sheet_renders, tmp_path, lang, name, paper):
    response = sheet_renders.get(name, lang, paper)
    assert response.status == 200
    assert response.content_type == "application/pdf"
    assert not response.warnings, response.warnings[:5]
    data = response.data
    text = _tool("pdftotext", "-layout", data=data, tmp=tmp_path)
    for word in WORDS[lang]:
        assert word in text, (word, name, lang)
    if lang == "de":
        assert re.search("[äöüß]", text)
    fonts = _tool("pdffonts", tmp=tmp_path).splitlines()[2:]
    assert fonts, "no fonts listed"
    for line in fonts:
        cols = line.split()
        assert "yes" in cols[-5:-2], f"font not embedded: {line}"
    if lang == "ja":
        assert any("CJK" in line for line in fonts), fonts
    else:  # Latin text in the Latin font: the CJK font only for the few kana printed
        assert any(_family(line) == "Noto-Sans" for line in fonts), fonts
    pages = int(re.search(r"Pages:\s+(\d+)", _tool("pdfinfo", tmp=tmp_path)).group(1))
    low, high = SHEETS[name].pages
    assert low <= pages <= high, (name, lang, paper, pages)
    # page 1 is not blank: count dark pixels of a small grey rendering
    pgm = subprocess.run(["pdftoppm", "-gray", "-r", "40", "-f", "1", "-l", "1", str(tmp_path / "sheet.pdf")],
                         capture_output=True, check=True).stdout
    pixels = pgm.split(b"\n", 3)[3]
    inked = sum(1 for b in pixels if b < 200) / len(pixels)
    assert inked > 0.02, f"page 1 looks blank: {inked:.1%} of it is inked"


def test_letter_paper_is_letter_sized(sheet_renders, tmp_path):
    info = _tool("pdfinfo", data=sheet_renders.get("reference", "en", "letter").data, tmp=tmp_path)
    assert "612 x 792 pts" in info  # US Letter
    info = _tool("pdfinfo", data=sheet_renders.get("reference", "en", "a4").data, tmp=tmp_path)
    assert "595.276 x 841.89 pts" in info or "595.28 x 841.89 pts" in info  # A4


def test_second_request_is_served_from_cache(client, tmp_path, monkeypatch):
    # a cache of its own: the fake PDF written below must not reach the other tests
    monkeypatch.setattr(sheets, "CACHE_DIR", tmp_path / "cache")
    client.get("/de/sheets/reference.pdf")
    cached = list((tmp_path / "cache").glob("*/reference-de-a4.pdf"))
    assert cached
    cached[0].write_bytes(b"%PDF-cached")
    assert client.get("/de/sheets/reference.pdf").content == b"%PDF-cached"


def test_sheets_list_and_previews(client, sheet_renders, monkeypatch):
    sheet_renders.get("reference", "ja", "a4")  # the preview is drawn from the cached PDF
    monkeypatch.setattr(sheets, "CACHE_DIR", sheet_renders.cache_dir)
    html = client.get("/ja/sheets/").content.decode()
    for name in SHEETS:
        assert f"/ja/sheets/{name}.pdf" in html and f"/ja/sheets/{name}.png" in html
    png = client.get("/ja/sheets/reference.png")
    assert png.status_code == 200 and png.content.startswith(b"\x89PNG")


def test_bad_sheet_is_404_and_bad_paper_says_why(client):
    assert client.get("/en/sheets/nope.pdf").status_code == 404
    response = client.get("/de/sheets/rules.pdf?paper=a3")
    assert response.status_code == 400 and "letter" in response.content.decode()


@pytest.mark.django_db
def test_position_pdf_has_answer_and_qr(client, tmp_path):
    response = client.get("/de/analyze/position.pdf", {"pos": EX_BATTLE})
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    text = _tool("pdftotext", "-layout", data=response.content, tmp=tmp_path)
    assert "BAT-3" in text and "Enterkampf" in text
    bad = client.get("/de/analyze/position.pdf", {"pos": "Rbg_11.1"})
    assert bad.status_code == 422


@pytest.mark.django_db
def test_a_saved_positions_pdf_carries_its_title_and_short_link(client, tmp_path):
    from tutorials.services import save_position

    saved, _situation = save_position(EX_BATTLE, "Regelheft, Seite 6")
    page = client.get("/en/analyze/", {"pos": EX_BATTLE, "saved": saved.code}).content.decode()
    link = re.search(r'href="([^"]*position\.pdf[^"]*)"', page)[1].replace("&amp;", "&")
    assert f"saved={saved.code}" in link
    text = _tool("pdftotext", "-layout", data=client.get(link).content, tmp=tmp_path)
    assert "Regelheft, Seite 6" in text and f"/p/{saved.code}/" in text and "?pos=" not in text
    # the code of another position is ignored: the sheet keeps the long address, no title
    other = client.get("/en/analyze/position.pdf", {"pos": "Rb_11.12-13.14", "saved": saved.code})
    text = _tool("pdftotext", "-layout", data=other.content, tmp=tmp_path)
    assert "Regelheft" not in text and f"/p/{saved.code}/" not in text


def test_fetcher_refuses_the_network():
    from tutorials.rendering.pdf import make_fetcher, static_resources

    fetcher = make_fetcher(static_resources('<link href="/static/css/sheet.css">'))
    with pytest.raises(ValueError):
        fetcher.fetch("https://example.org/x.css")
    response = fetcher.fetch("file:///static/css/sheet.css")
    assert b"@page" in response.read()


# --- the quick reference and the phase list ----------------------------------------------------
@pytest.mark.parametrize("lang", ["ja", "en", "de"])
def test_reference_covers_two_players_and_strategy_mode(lang):
    from django.utils import translation

    from tutorials.sheets.render import sheet_html

    html = sheet_html("reference", lang)
    for cid in ("SETUP-4", "DICE-5", "STRAT-1", "STRAT-2", "STRAT-3", "STRAT-4", "DICE-4", "END-1"):
        assert html.count(f'<span class="cid">{cid}</span>') == 1, cid  # one idea, one place
    with translation.override(lang):
        from tutorials.wording.clauses import clause_summary

        no_bell = clause_summary("STRAT-1", in_section=True)  # "…There is no bell in strategy mode."
        assert no_bell in html and no_bell.count(".") + no_bell.count("。") >= 2
        assert translation.gettext("With 2 players") in html


#: How each language says that the phase list's Dice Time is the action mode one and that
#: strategy mode has no bell (STRAT-1).
ACTION_ONLY = {"en": ("Action mode:", "Strategy mode has no bell"),
               "de": ("Aktionsmodus:", "Der Strategiemodus hat keine Glocke"),
               "ja": ("アクションモード：", "戦略モードにはベルがなく")}


@pytest.mark.parametrize("name", ["reference", "rules"])
@pytest.mark.parametrize("lang", ["ja", "en", "de"])
def test_phase_list_says_its_dice_time_is_action_mode(name, lang):
    from tutorials.sheets.render import sheet_html

    html = sheet_html(name, lang)
    for said in ACTION_ONLY[lang]:
        assert said in html, (name, lang, said)


def test_phase_list_treasure_line_states_every_treasure_clause():
    from django.utils import translation

    from tutorials.sheets.content import PHASES
    from tutorials.wording.facts import facts

    with translation.override("en"):
        treasure = str(PHASES[3][1]) % facts()
    for clause, said in {"TRE-1": "wins the treasure card under it",
                         "TRE-2": "also win every card between them, unless another player's card lies",
                         "TRE-3": "the start player comes first, then clockwise",
                         "TRE-4": "every attack card left goes to its owner's discard pile",
                         "TRE-5": "refills the grid from the deck"}.items():
        assert said in treasure, clause
    assert "square" in treasure  # TRE-5: a deck too short to fill the grid
