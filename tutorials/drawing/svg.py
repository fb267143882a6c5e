"""The one board renderer: SVG for every board position, on screen and in print.

:func:`cell_svg` draws one position of a board view model
(:class:`tutorials.drawing.cells.CellView`: treasure faces as pips, dice, attack cards with
colour, letter *and* pattern, highlights). Web pages wrap these pictures in links;
the PDF sheets lay the very same pictures out with :func:`board_svg`. Everything is
drawn with presentation attributes (no CSS, no ``<defs>`` ids), so an SVG reads the
same in a browser, in WeasyPrint and on paper.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from captain.rules import AttackCard, Colour
from tutorials.wording.glossary import CARD_NAMES, COLOUR_LETTERS, COLUMN_LETTERS
from tutorials.wording.phrases import card_phrase, sentences

FILL = {Colour.RED: "#c0282d", Colour.BLUE: "#1f5fbf", Colour.GREEN: "#1c7c3a", Colour.WHITE: "#f4f4f4"}
INK = {Colour.RED: "#ffffff", Colour.BLUE: "#ffffff", Colour.GREEN: "#ffffff", Colour.WHITE: "#1d2430"}
TINT = {Colour.RED: "#f8d9da", Colour.BLUE: "#d8e4f7", Colour.GREEN: "#d6eedd", Colour.WHITE: "#ffffff"}
GOLD, DARK_RED, GREY, OK_GREEN, ACCENT = "#b07a00", "#9b1c1c", "#6b6b6b", "#2e7d32", "#0b5f7a"

PIPS = {
    1: ((2, 2),), 2: ((1, 3), (3, 1)), 3: ((1, 3), (2, 2), (3, 1)),
    4: ((1, 1), (1, 3), (3, 1), (3, 3)), 5: ((1, 1), (1, 3), (2, 2), (3, 1), (3, 3)),
    6: ((1, 1), (1, 3), (2, 1), (2, 3), (3, 1), (3, 3)),
}


def font_family() -> str:
    """Font stack for SVG text in the active language (Japanese needs a CJK font)."""
    if (get_language() or "").startswith("ja"):
        return "'Noto Sans CJK JP', 'Noto Sans JP', sans-serif"
    return "'DejaVu Sans', 'Noto Sans', 'Liberation Sans', sans-serif"


@lru_cache(maxsize=1024)  # a few placements × six faces × the dice colours
def _die(x: float, y: float, size: float, face: int, *, fill: str = "#ffffff",
         stroke: str = "#8a7f66", width: float = 1.5, dash: str = "") -> str:
    r = size * 0.105
    parts = [f'<rect x="{x:.1f}" y="{y:.1f}" width="{size:.1f}" height="{size:.1f}" '
             f'rx="{size * 0.17:.1f}" fill="{fill}" stroke="{stroke}" stroke-width="{width}"'
             + (f' stroke-dasharray="{dash}"' if dash else "") + "/>"]
    for px, py in PIPS[face]:
        parts.append(f'<circle cx="{x + px * size / 4:.1f}" cy="{y + py * size / 4:.1f}" '
                     f'r="{r:.1f}" fill="#1d2430"/>')
    return "".join(parts)


def _clipped_diagonals(x: float, y: float, w: float, h: float, step: float, slope: int) -> list[str]:
    """Segments of lines y = ±x + c clipped to the rectangle (for the red/white patterns)."""
    out = []
    c = -w if slope > 0 else 0
    while c < h + (w if slope < 0 else 0):
        pts = []
        for t in (0, w):  # intersections with left/right sides
            yy = c + (t if slope > 0 else -t)
            if 0 <= yy <= h:
                pts.append((t, yy))
        for yy in (0, h):  # with top/bottom
            t = (yy - c) if slope > 0 else (c - yy)
            if 0 <= t <= w:
                pts.append((t, yy))
        pts = sorted(set(pts))
        if len(pts) >= 2:
            (x1, y1), (x2, y2) = pts[0], pts[-1]
            out.append(f"M{x + x1:.1f} {y + y1:.1f}L{x + x2:.1f} {y + y2:.1f}")
        c += step
    return out


def pattern_marks(colour: Colour, x: float, y: float, w: float, h: float) -> str:
    """The colour's pattern inside a rectangle: red ╱ stripes, blue dots, green ─ stripes,
    white ╲ hatching. Patterns let colour-blind players and black-and-white print tell
    colours apart; the letter does too."""
    if colour is Colour.BLUE:
        dots = []
        for i in range(int(w // 8)):
            for j in range(int(h // 8)):
                dots.append(f'<circle cx="{x + 4 + i * 8:.1f}" cy="{y + 4 + j * 8:.1f}" r="1.5" '
                            f'fill="#ffffff" fill-opacity="0.35"/>')
        return "".join(dots)
    if colour is Colour.GREEN:
        lines = [f"M{x:.1f} {y + yy:.1f}H{x + w:.1f}" for yy in range(6, int(h), 7)]
        return (f'<path d="{"".join(lines)}" stroke="#ffffff" stroke-opacity="0.3" '
                f'stroke-width="2"/>')
    slope = 1 if colour is Colour.RED else -1
    lines = _clipped_diagonals(x, y, w, h, 9, slope)
    stroke = "#ffffff" if colour is Colour.RED else "#000000"
    opacity = "0.28" if colour is Colour.RED else "0.12"
    return f'<path d="{"".join(lines)}" stroke="{stroke}" stroke-opacity="{opacity}" stroke-width="2.5"/>'


@lru_cache(maxsize=1024)  # colours × values × how it is drawn × languages
def _card(card: AttackCard, *, face_down: bool = False, ghost: bool = False, hit: bool = False,
          font: str, language: str | None) -> str:  # language: part of the cache key (card names)
    x, y, w, h = 8, 38, 84, 56
    colour = card.colour
    stroke = "#1d2430" if colour is Colour.WHITE else "#00000088"
    css = "card" + (" face-down" if face_down else "") + (" ghost" if ghost else "")
    parts = [f'<g class="{css}"' + (' opacity="0.3"' if ghost else "") + ">",
             f'<rect x="{x}" y="{y}" width="{w}" height="{h}" rx="5" fill="{FILL[colour]}" '
             f'stroke="{stroke}" stroke-width="2"' + (' stroke-dasharray="4 3"' if ghost else "") + "/>",
             pattern_marks(colour, x + 2, y + 2, w - 4, h - 4),
             f'<circle cx="{x + 10}" cy="{y + 10}" r="7.5" fill="#ffffff" stroke="#1d2430" '
             f'stroke-width="1.2"/>',
             f'<text x="{x + 10}" y="{y + 13.5}" font-size="10" font-weight="700" text-anchor="middle" '
             f'fill="#1d2430" font-family="{font}" class="token-letter">'
             f'{escape(COLOUR_LETTERS[colour])}</text>']
    value = "?" if face_down else str(card.speed)
    parts.append(f'<text x="50" y="{y + 30}" font-size="24" font-weight="800" text-anchor="middle" '
                 f'fill="{INK[colour]}" font-family="{font}" class="token-value">{value}</text>')
    if not face_down:
        name = str(CARD_NAMES[card.kind])
        size = 9.5
        too_long = len(name) > (8 if _wide(name) else 14)
        fit = ' textLength="78" lengthAdjust="spacingAndGlyphs"' if too_long else ""
        parts.append(f'<text x="50" y="{y + 47}" font-size="{size}" font-weight="700" '
                     f'text-anchor="middle" fill="{INK[colour]}" font-family="{font}"{fit} '
                     f'class="token-name">{escape(name)}</text>')
    if hit:
        parts.append(f'<path d="M30 {y + 8}L70 {y + h - 8}M70 {y + 8}L30 {y + h - 8}" stroke="#1d2430" '
                     f'stroke-width="10" stroke-linecap="round"/>'
                     f'<path d="M30 {y + 8}L70 {y + h - 8}M70 {y + 8}L30 {y + h - 8}" stroke="#ffffff" '
                     f'stroke-width="5.5" stroke-linecap="round"/>')
    parts.append("</g>")
    return "".join(parts)


def _wide(text: str) -> bool:
    return any(ord(ch) > 0x2E80 for ch in text)


#: a five-pointed star in the bottom-right corner of a position (centre 84,84, radius 11)
_STAR = "M84 73L86.6 80.4L94.5 80.6L88.2 85.4L90.5 92.9L84 88.4L77.5 92.9L79.8 85.4L73.5 80.6L81.4 80.4Z"


def _frame(classes: set[str], has_treasure: bool, won) -> tuple[str, str, float, str]:
    """(fill, stroke, stroke width, dash) of the position's outline."""
    fill = "#f3ecdd" if has_treasure else "none"
    stroke, width, dash = "#cbbf9f", 2.0, "" if has_treasure else "5 4"
    if won is not None:
        fill, stroke, width = TINT[won], FILL[won] if won is not Colour.WHITE else "#1d2430", 4
    if classes & {"acting", "bell-line", "sandwich-end"}:
        stroke, width = GOLD, 6
    if classes & {"hit", "blocker"}:
        stroke, width = DARK_RED, 6
    if "skipped" in classes:
        stroke, width = GREY, 6
    if "immune" in classes:
        stroke, width = OK_GREEN, 5
    return fill, stroke, width, dash


def cell_svg(cell, *, font: str | None = None, pixel: int | None = None) -> SafeString:
    """One position as a self-contained SVG (viewBox 0 0 100 100).

    ``cell`` is a :class:`tutorials.drawing.cells.CellView`. ``pixel`` sets width/height
    attributes (for print); on the web the SVG scales to its box. The picture depends only
    on what the position shows, the font and the language (card names), so it is drawn once
    per process for each of those (the same treasure cards, cards and dice recur on every
    board), and so are its dice and its card, which recur in other combinations.
    """
    return _cell_svg(cell.treasure, cell.card, cell.dice, cell.face_down, cell.ghost, cell.won_by,
                     frozenset(cell.classes), font or font_family(), pixel, get_language())


@lru_cache(maxsize=4096)
def _cell_svg(treasure, card, dice, face_down, ghost, won_by, classes, font, pixel,
              language) -> SafeString:  # language: part of the cache key (card names)
    fill, stroke, width, dash = _frame(classes, treasure is not None, won_by)
    size = f' width="{pixel}" height="{pixel}"' if pixel else ""
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"{size} '
             f'class="cell-svg" aria-hidden="true" focusable="false">',
             f'<rect x="3" y="3" width="94" height="94" rx="9" fill="{fill}" stroke="{stroke}" '
             f'stroke-width="{width}"' + (f' stroke-dasharray="{dash}"' if dash else "") + "/>"]
    if "in-range" in classes:
        lines = _clipped_diagonals(6, 6, 88, 88, 10, 1)
        parts.append(f'<path d="{"".join(lines)}" stroke="{GOLD}" stroke-opacity="0.35" stroke-width="4"/>')
    if "sandwiched" in classes or "blocked-between" in classes:
        colour = GOLD if "sandwiched" in classes else GREY
        parts.append(f'<rect x="11" y="11" width="78" height="78" rx="6" fill="none" stroke="{colour}" '
                     f'stroke-width="3" stroke-dasharray="7 5"/>')
    if "claimable" in classes:
        parts.append(f'<rect x="8" y="8" width="84" height="84" rx="7" fill="none" stroke="{ACCENT}" '
                     'stroke-width="3"/>')
    if "last-move" in classes:  # a star as well as the frame: the mark is not told by colour alone
        parts.append(f'<rect x="5" y="5" width="90" height="90" rx="8" fill="none" stroke="#1d2430" '
                     f'stroke-width="3" stroke-dasharray="2 4"/><path class="last-move-mark" d="{_STAR}" '
                     f'fill="{GOLD}" stroke="#1d2430" stroke-width="1.5"/>')
    occupied = card is not None or ghost is not None
    if treasure is not None and "faces-hidden" not in classes:
        low, high = treasure.faces
        if dice is not None:
            kw = {"fill": TINT[dice.colour], "stroke": FILL[dice.colour] if dice.colour is not Colour.WHITE
                  else "#1d2430", "width": 4.0, "dash": "5 3" if dice.colour is Colour.WHITE else ""}
        else:
            kw = {}
        if occupied:
            parts.append(_die(19, 7, 27, low, **kw) + _die(50, 7, 27, high, **kw))
        else:
            parts.append(_die(7, 29, 41, low, **kw) + _die(52, 29, 41, high, **kw))
        if dice is not None:
            parts.append(f'<g class="dice-mark"><circle cx="15" cy="16" r="10" fill="{FILL[dice.colour]}" '
                         f'stroke="#1d2430" stroke-width="1.5"/>'
                         f'<text x="15" y="20.5" font-size="12" font-weight="800" text-anchor="middle" '
                         f'fill="{INK[dice.colour]}" font-family="{font}">'
                         f'{escape(COLOUR_LETTERS[dice.colour])}</text></g>')
    if card is not None:
        parts.append(_card(card, face_down=face_down, hit="hit" in classes, font=font, language=language))
    elif ghost is not None:
        parts.append(_card(ghost, ghost=True, font=font, language=language))
    if won_by is not None:
        c = won_by
        parts.append(f'<g class="won-mark"><rect x="81" y="4" width="16" height="31" rx="4" fill="{FILL[c]}" '
                     f'stroke="#1d2430" stroke-width="1"/><text x="89" y="17" font-size="11" '
                     f'font-weight="800" text-anchor="middle" fill="{INK[c]}" font-family="{font}">'
                     f'{escape(COLOUR_LETTERS[c])}</text><text x="89" y="31" font-size="11" '
                     f'font-weight="800" text-anchor="middle" fill="{INK[c]}" '
                     f'font-family="{font}">✓</text></g>')
    parts.append("</svg>")
    return mark_safe("".join(parts))


def board_description(rows: Sequence[Sequence[object]], caption: str = "") -> str:
    """A board in words, in the active language, for its SVG ``<title>`` (a PDF's alternative
    text): ``caption`` if any, the size, then every position as the web board tells screen
    readers (:attr:`tutorials.drawing.cells.CellView.description`), with a removed card that
    is drawn faded named too. ``rows`` are the same ``CellView`` rows :func:`board_svg` draws;
    items without a ``description`` raise ``AttributeError``."""
    n_cols = max((len(r) for r in rows), default=0)
    size = {"columns": n_cols, "rows": len(rows), "first": COLUMN_LETTERS[0],
            "last": COLUMN_LETTERS[max(n_cols - 1, 0)]}
    if caption:
        head = _("%(caption)s: a board of %(columns)s×%(rows)s positions (columns %(first)s–%(last)s, "
                 "rows 1–%(rows)s).") % {**size, "caption": caption}
    else:
        head = _("A board of %(columns)s×%(rows)s positions (columns %(first)s–%(last)s, "
                 "rows 1–%(rows)s).") % size
    return sentences(head, *(_("%(board_position)s.") % {"board_position": _position_text(item)}
                             for row in rows for item in row))


def _position_text(item) -> str:
    ghost = getattr(item, "ghost", None)
    if ghost is not None and getattr(item, "card", None) is None:
        return _("%(description)s; drawn faded: %(card)s") % {"description": item.description,
                                                              "card": card_phrase(ghost.token)}
    return str(item.description)


def board_svg(rows: Sequence[Sequence[object]], *, cell: int = 100, gap: int = 8,
              labels: bool = True, font: str | None = None, title: str | None = None) -> SafeString:
    """A whole board as one SVG: the same cell pictures as the web, with A-D / 1-4 labels.

    ``title`` is the picture's text alternative, its ``<title>`` (which a tagged PDF takes as
    the Figure's ``/Alt``) and ``aria-label``: by default :func:`board_description` of
    ``rows``; ``""`` leaves both out."""

    font = font or font_family()
    if title is None:
        title = board_description(rows)
    n_cols = max((len(r) for r in rows), default=0)
    margin = 26 if labels else 0
    width = margin + n_cols * cell + (n_cols - 1) * gap
    height = margin + len(rows) * cell + (len(rows) - 1) * gap
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
             f'class="board-svg" role="img"' + (f' aria-label="{escape(title)}"' if title else "") + ">"]
    if title:
        parts.append(f"<title>{escape(title)}</title>")
    if labels:
        for c in range(n_cols):
            parts.append(f'<text x="{margin + c * (cell + gap) + cell / 2:.0f}" y="17" font-size="16" '
                         f'font-weight="700" text-anchor="middle" fill="#5a6472" '
                         f'font-family="{font}">{COLUMN_LETTERS[c]}</text>')
        for r in range(len(rows)):
            parts.append(f'<text x="10" y="{margin + r * (cell + gap) + cell / 2 + 6:.0f}" font-size="16" '
                         f'font-weight="700" text-anchor="middle" fill="#5a6472" '
                         f'font-family="{font}">{r + 1}</text>')
    for r, row in enumerate(rows):
        for c, item in enumerate(row):
            inner = cell_svg(item, font=font)
            x = margin + c * (cell + gap)
            y = margin + r * (cell + gap)
            placed = f'<svg x="{x}" y="{y}" width="{cell}" height="{cell}" viewBox="0 0 100 100"'
            parts.append(inner.replace('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"',
                                       placed, 1))
    parts.append("</svg>")
    return mark_safe("".join(parts))


def range_svg(diagram, *, size: int = 56) -> SafeString:
    """A card's range diagram (:class:`tutorials.drawing.diagrams.RangeDiagram`) as SVG, its
    ``description`` as the ``<title>`` (the text alternative on the web and in a tagged PDF)."""
    n = len(diagram.cells)
    step = 10
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {n * step + 2} {n * step + 2}" '
             f'width="{size}" height="{size}" class="range-diagram" role="img">',
             f"<title>{escape(diagram.description)}</title>"]
    for r, row in enumerate(diagram.cells):
        for c, kind in enumerate(row):
            fill = {"self": "#11394a", "hit": "#c0282d"}.get(kind, "#efe8d8")
            stroke = {"self": "#11394a", "hit": "#7a1010"}.get(kind, "#c9bda0")
            parts.append(f'<rect x="{1 + c * step}" y="{1 + r * step}" width="{step - 1}" '
                         f'height="{step - 1}" rx="1.5" fill="{fill}" stroke="{stroke}" stroke-width="0.6"/>')
            if kind == "hit":
                cx, cy = 1 + c * step + (step - 1) / 2, 1 + r * step + (step - 1) / 2
                parts.append(f'<path d="M{cx - 2.2:.1f} {cy - 2.2:.1f}L{cx + 2.2:.1f} {cy + 2.2:.1f}'
                             f'M{cx + 2.2:.1f} {cy - 2.2:.1f}L{cx - 2.2:.1f} {cy + 2.2:.1f}" '
                             f'stroke="#ffffff" stroke-width="1.2"/>')
    if diagram.value == 0:
        centre = 1 + (n // 2) * step + (step - 1) / 2
        parts.append(f'<circle cx="{centre:.1f}" cy="{centre:.1f}" r="{step * 0.9:.1f}" fill="none" '
                     f'stroke="{OK_GREEN}" stroke-width="1.6"/>')
    parts.append("</svg>")
    return mark_safe("".join(parts))
