"""Printed sheets that must stay short or on one page.

* The quick start is a handout, the two sides of one sheet: for 4 players in action mode, on
  A4, its whole text as extracted from the PDF (headings and diagram labels included) stays
  within a word budget per language (Japanese: characters other than spaces).
* The analyzer's position sheet of a full 4 × 4 battle (every position holding an attack
  card) fits one page in every language, on A4 and Letter.
"""

from __future__ import annotations

import re
import subprocess

import pytest

from captain.rules import Board, Colour, Seating, Situation
from tutorials.sheets.content import LONG_ANSWER
from tutorials.sheets.render import position_pdf, render_sheet
from tutorials.tutorial.audience import Audience
from tutorials.walkthrough import Walkthrough

#: words (ja: non-space characters) of the 4-player action-mode quick start on A4
BUDGET = {"en": 1000, "de": 900, "ja": 2300}

#: A full 4 × 4 battle with the longest step-by-step answer found: a search over random
#: full grids, then a climb by swapping and changing cards, measured by the length of the
#: German answer (the longest language). Red and white hold most cards; [5]s that act
#: late and sandwiches on every line make it long.
FULL_BATTLE = ("23:r5 44:r1 56:g0 24:r2", "16:r5 22:w1 46:r3 25:w4", "15:g5 13:w0 12:w2 45:g2",
               "66:r4 35:w5 11:r5 55:r0")
SEATS = (Colour.RED, Colour.BLUE, Colour.GREEN, Colour.WHITE)


def _pdftotext(data: bytes, tmp_path) -> str:
    path = tmp_path / "sheet.pdf"
    path.write_bytes(data)
    return subprocess.run(["pdftotext", str(path), "-"], capture_output=True, text=True, check=True).stdout


def _pages(data: bytes, tmp_path) -> int:
    path = tmp_path / "sheet.pdf"
    path.write_bytes(data)
    info = subprocess.run(["pdfinfo", str(path)], capture_output=True, text=True, check=True).stdout
    return int(re.search(r"Pages:\s+(\d+)", info).group(1))


def length(text: str, lang: str) -> int:
    """Words, or for Japanese the characters that are not white space."""
    return len(re.sub(r"\s", "", text)) if lang == "ja" else len(text.split())


def test_length_counts_words_and_japanese_characters():
    assert length("Roll all six\ndice  now", "en") == 5
    assert length("全員が サイコロを\n振ります", "ja") == 12


@pytest.mark.parametrize("lang", ["en", "de", "ja"])
def test_quick_start_for_four_players_fits_two_sides(tmp_path, lang):
    rendered = render_sheet("quick-start", lang, "a4", audience=Audience(4, "action"))
    assert not rendered.warnings
    assert _pages(rendered.pdf, tmp_path) <= 2


# Not met: what the handout still carries is rules (the read-aloud script, the "when it comes
# up" cards, the battle example's steps, the variant boxes): en 1,205, de 1,204, ja 3,079.
# Meeting the budget needs a decision to drop some of them from the handout.
@pytest.mark.xfail(strict=True, reason="budget not met without cutting rules from the handout")
@pytest.mark.parametrize("lang", ["en", "de", "ja"])
def test_quick_start_for_four_players_stays_within_its_budget(tmp_path, lang):
    rendered = render_sheet("quick-start", lang, "a4", audience=Audience(4, "action"))
    text = _pdftotext(rendered.pdf, tmp_path)
    assert length(text, lang) <= BUDGET[lang], (lang, length(text, lang), BUDGET[lang])


def test_the_full_battle_fills_the_grid_and_answers_at_length():
    board = Board.parse(FULL_BATTLE)
    assert all(cell.card is not None for row in board.rows for cell in row)
    walk = Walkthrough(Situation(board, Seating(SEATS, Colour.RED)))
    assert len(walk.explanations(len(walk.steps) - 1)) > LONG_ANSWER


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("lang", ["ja", "en", "de"])
def test_the_full_battle_fits_one_page(tmp_path, lang, paper):
    situation = Situation(Board.parse(FULL_BATTLE), Seating(SEATS, Colour.RED))
    code = situation.to_notation()
    pdf = position_pdf(situation, lang=lang, paper=paper,
                       share_url=f"https://example.org/{lang}/analyze/?pos={code}")
    assert _pages(pdf, tmp_path) == 1, (lang, paper)
    text = _pdftotext(pdf, tmp_path)
    assert "TRE-2" in text and "BAT-4" in text  # the answer is printed, not just the boards
