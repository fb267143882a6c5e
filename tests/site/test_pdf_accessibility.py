"""Accessible PDFs: every printable sheet and the analyzer's position PDF is a tagged PDF
with a title and a document language, and every diagram in it is a Figure with
alternative text in the sheet's language.

Each PDF is fetched once through the test client, from a fresh sheet cache (sheets: the
run's one render of each, ``sheet_renders``), and the HTML it was rendered from is kept
to count its diagrams. ``pdfinfo`` tells
whether it is tagged and its title, ``pdfinfo -struct`` lists its Figures. Neither prints a
Figure's ``/Alt`` nor the catalog's ``/Lang`` (poppler 22), so those two are read from the
PDF's object streams here (:func:`_pdf_text`, :func:`_dicts`).
"""

from __future__ import annotations

import codecs
import re
import subprocess
import zlib
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlencode

import pytest
from django.utils import translation
from django.utils.translation import gettext

from captain.rules import notation
from tutorials.drawing import svg
from tutorials.drawing.diagrams import all_diagrams
from tutorials.rendering.pdf import PDF_OPTIONS
from tutorials.sheets import render as sheets
from tutorials.sheets.render import SHEETS
from tutorials.walkthrough import Walkthrough
from tutorials.wording.glossary import CARD_NAMES, position_label
from tutorials.wording.phrases import card_phrase

LANGS = ("ja", "en", "de")
POSITIONS = {  # a position with a whole round to show, and one where nothing happens yet
    "battle": "Rbg_11.13r3.22.14-15.16b1.23.24r2-26.33.34g1.35-36g0.44.45.46",
    "setup": "Rbg_11.13.22.14-15.16.23.24-26.33.34.35-36.44.45.46",
}
#: (what, language, paper): every sheet and position in every language on A4, and every
#: sheet once on US Letter too (the other paper changes the layout, not the tagging).
CASES = ([(f"sheet:{name}", lang, "a4") for name in SHEETS for lang in LANGS]
         + [(f"sheet:{name}", "de", "letter") for name in SHEETS]
         + [(f"position:{name}", lang, "a4") for name in POSITIONS for lang in LANGS])
KINDS = sorted({what for what, _lang, _paper in CASES})


@dataclass(frozen=True)
class Fetched:
    """A PDF as served, the HTML it was rendered from, and what ``pdfinfo`` says of it."""

    data: bytes
    html: str
    info: str
    struct: str


def _run(*args: str | Path) -> str:
    return subprocess.run([str(a) for a in args], capture_output=True, text=True, check=True).stdout


@pytest.fixture(scope="module")
def fetch(tmp_path_factory, sheet_renders):
    """``fetch(client, what, lang, paper)`` → :class:`Fetched`: a sheet from the run's one
    render of it (``sheet_renders``), a position PDF rendered once per module."""
    folder = tmp_path_factory.mktemp("accessible-pdfs")
    done: dict[tuple[str, str, str], Fetched] = {}

    def position_pdf(client, name: str, lang: str, paper: str) -> tuple[bytes, str]:
        rendered: list[str] = []
        real_render = sheets.render_pdf

        def recording_render(html):
            rendered.append(html)
            return real_render(html)

        url = f"/{lang}/analyze/position.pdf?{urlencode({'pos': POSITIONS[name], 'paper': paper})}"
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(sheets, "render_pdf", recording_render)
            patch.setattr(sheets, "CACHE_DIR", folder / "cache")  # rendered here, whatever ran before
            response = client.get(url)
        assert response.status_code == 200 and response["Content-Type"] == "application/pdf", url
        assert len(rendered) == 1, "expected exactly one render"
        return response.content, rendered[0]

    def get(client, what: str, lang: str, paper: str) -> Fetched:
        if (what, lang, paper) not in done:
            kind, name = what.split(":")
            if kind == "sheet":
                sheet = sheet_renders.get(name, lang, paper)
                assert sheet.status == 200 and sheet.content_type == "application/pdf", what
                data, html = sheet.data, sheet.html
            else:
                data, html = position_pdf(client, name, lang, paper)
            path = folder / f"{kind}-{name}-{lang}-{paper}.pdf"
            path.write_bytes(data)
            done[what, lang, paper] = Fetched(data, html, _run("pdfinfo", path),
                                              _run("pdfinfo", "-struct", path))
        return done[what, lang, paper]

    return get


# --- reading the PDF ----------------------------------------------------------------------------
def _field(info: str, name: str) -> str:
    found = re.search(rf"^{name}:\s*(.*)$", info, re.MULTILINE)
    return found.group(1).strip() if found else ""


def _pdf_text(data: bytes) -> bytes:
    """The PDF's bytes followed by the decompressed content of each of its object streams
    (WeasyPrint keeps the catalog and the structure elements there)."""
    parts = [data]
    for match in re.finditer(rb"/Type\s*/ObjStm[^>]*>>\s*stream\r?\n", data):
        parts.append(zlib.decompressobj().decompress(data[match.end():]))
    return b"\n".join(parts)


def _skip_string(text: bytes, i: int) -> int:
    """Index after the PDF string starting at ``text[i]`` (``(literal)`` or ``<hex>``)."""
    if text[i:i + 1] == b"<":
        return text.index(b">", i) + 1
    depth = 0
    while True:
        char = text[i:i + 1]
        if char == b"\\":
            i += 2
            continue
        depth += {b"(": 1, b")": -1}.get(char, 0)
        i += 1
        if depth == 0:
            return i


def _dict_at(text: bytes, start: int) -> bytes:
    """The dictionary ``<< … >>`` starting at ``start``, nested dictionaries included."""
    depth, i = 0, start
    while True:
        if text.startswith(b"<<", i):
            depth, i = depth + 1, i + 2
        elif text.startswith(b">>", i):
            depth, i = depth - 1, i + 2
            if depth == 0:
                return text[start:i]
        elif text[i:i + 1] in (b"(", b"<"):
            i = _skip_string(text, i)
        else:
            i += 1


def _dicts(text: bytes, kind: bytes) -> list[bytes]:
    """Every dictionary whose ``/S`` or ``/Type`` is ``kind`` (``/Figure``, ``/Catalog``)."""
    out = []
    for match in re.finditer(rb"/(?:S|Type)\s*" + re.escape(kind) + rb"(?![A-Za-z])", text):
        out.append(_dict_at(text, text.rfind(b"<<", 0, match.start())))
    return out


_STRING = rb"(\((?:\\.|[^\\()])*\)|<[0-9A-Fa-f\s]*>)"


def _string(token: bytes) -> str:
    if token.startswith(b"<"):
        raw = bytes.fromhex(token[1:-1].decode())
        return raw.decode("utf-16") if raw.startswith(codecs.BOM_UTF16_BE) else raw.decode("latin-1")
    return re.sub(rb"\\(.)", rb"\1", token[1:-1]).decode("latin-1")


def _key(dictionary: bytes, key: str) -> str | None:
    found = re.search(rb"/" + key.encode() + rb"\s*" + _STRING, dictionary)
    return _string(found.group(1)) if found else None


def figure_alts(data: bytes) -> list[str | None]:
    """The ``/Alt`` of each ``/Figure`` structure element, in document order (``None``: none)."""
    return [_key(figure, "Alt") for figure in _dicts(_pdf_text(data), b"/Figure")]


def catalog_lang(data: bytes) -> str | None:
    """The catalog's ``/Lang``."""
    catalogs = _dicts(_pdf_text(data), b"/Catalog")
    assert len(catalogs) == 1, catalogs
    return _key(catalogs[0], "Lang")


def diagrams_in(html: str) -> int:
    """How many SVG pictures the HTML holds (an SVG inside another one is part of it)."""
    count = depth = 0
    for match in re.finditer(r"<svg\b|</svg>", html):
        if match.group() == "</svg>":
            depth -= 1
        else:
            count += depth == 0
            depth += 1
    return count


# --- the tests ----------------------------------------------------------------------------------
@pytest.mark.parametrize("what,lang,paper", CASES)
def test_pdf_is_tagged_with_a_title_and_language(client, fetch, what, lang, paper):
    got = fetch(client, what, lang, paper)
    assert _field(got.info, "Tagged") == "yes", got.info
    kind, name = what.split(":")
    with translation.override(lang):
        expected = str(SHEETS[name].title) if kind == "sheet" else gettext("What happens here?")
    title = _field(got.info, "Title")
    assert expected in title, (title, expected)
    assert catalog_lang(got.data) == lang


@pytest.mark.parametrize("what,lang,paper", CASES)
def test_every_diagram_is_a_figure_with_alt_text(client, fetch, what, lang, paper):
    got = fetch(client, what, lang, paper)
    diagrams = diagrams_in(got.html)
    assert diagrams > 0
    struct_figures = [line for line in got.struct.splitlines() if line.strip().startswith("Figure")]
    alts = figure_alts(got.data)
    assert len(struct_figures) == len(alts) == diagrams, (len(struct_figures), len(alts), diagrams)
    assert all(alts), f"Figures without /Alt: {alts}"
    with translation.override(lang):
        names = [str(name) for name in CARD_NAMES.values()]
    for alt in alts:
        # it says what the picture shows: a card (its range), board positions, or the link
        shows = (any(name in alt for name in names) or re.search(r"(?<![A-Za-z0-9])[A-L][1-9]", alt)
                 or "http" in alt)
        assert shows and len(alt) > 20, alt


@pytest.mark.parametrize("what", KINDS)
def test_alt_texts_follow_the_language(client, fetch, what):
    alts = {lang: figure_alts(fetch(client, what, lang, "a4").data) for lang in LANGS}
    assert alts["en"] and all(alts["en"]), alts["en"]
    for lang in ("ja", "de"):
        for ours, english in zip(alts[lang], alts["en"], strict=True):
            assert ours != english, (lang, ours)


# --- the descriptions come from what is drawn ---------------------------------------------------
@pytest.mark.parametrize("lang", LANGS)
def test_board_description_names_every_position_and_card(lang):
    walk = Walkthrough(notation.parse(POSITIONS["battle"]))
    with translation.override(lang):
        for index in range(len(walk.steps)):
            cells = walk.cells(index, ghost_collected=False)
            text = svg.board_description(cells, "Caption")
            assert text.startswith("Caption")
            for cell in (c for row in cells for c in row):
                assert position_label(cell.pos) in text
                for card in (cell.card, cell.ghost):
                    if card is not None and not cell.face_down:
                        assert card_phrase(card.token) in text, (index, cell.pos)


def test_range_descriptions_count_what_is_drawn():
    with translation.override("en"):
        for diagram in all_diagrams():
            hits = sum(row.count("hit") for row in diagram.cells)
            size = len(diagram.cells)
            assert f"{size}×{size}" in diagram.description and diagram.name in diagram.description
            assert (f" {hits} positions" in diagram.description) == (hits > 0), diagram.description


def test_tagging_is_part_of_the_sheet_cache_key(settings):
    """Cached PDFs are keyed by a digest of the code (render.code_version): the module that
    asks for tags is an input, so untagged PDFs cached before are never served."""
    assert PDF_OPTIONS.get("pdf_tags") is True
    worker = settings.BASE_DIR / "tutorials/rendering/pdf.py"
    assert worker in sheets.sheet_input_files(settings.BASE_DIR)
