"""A board on a web page: the grid of positions, each a link, a button or a plain box.

One function writes the whole grid (the analyzer, the tutorial boards, the presenter's
boards): a board of 16 positions is drawn in one pass instead of 16 template includes,
which made the grid most of the analyzer's rendering time.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from tutorials.drawing.cells import CellView
from tutorials.drawing.svg import cell_svg
from tutorials.wording.glossary import COLUMN_LETTERS


def _cell_classes(cell: CellView) -> str:
    css = ["cell", cell.css] if cell.classes else ["cell"]
    if cell.treasure is None:
        css.append("no-treasure")
    if cell.dice:
        css.append(f"has-dice colour-{cell.dice.colour.value}")
    if cell.card or cell.ghost:
        css.append("occupied")
    return " ".join(css)


def cell_html(cell: CellView, *, post_url: str | None = None, csrf_token: str = "") -> str:
    """One position as HTML (a string already escaped).

    Without ``cell.href`` the position is a ``<div>``. With it, a link that htmx follows
    (``hx-get``) — or, when ``post_url`` is given (a presenter's board, whose actions
    change a stored table), a one-button form posting ``do`` and ``at`` (``cell.href`` is
    then an :class:`~tutorials.tutorial.boards.ActionLink`) with the CSRF token.
    """
    inner = (f'<span class="visually-hidden">{escape(cell.description)}</span>'
             f"{cell_svg(cell)}")
    attrs = f'class="{escape(_cell_classes(cell))}" data-pos="{escape(cell.label)}"'
    href = cell.href
    if href and post_url is not None:
        at = (f'<input type="hidden" name="at" value="{escape(href.at)}">'  # type: ignore[attr-defined]
              if href.at else "")  # type: ignore[attr-defined]
        url = escape(post_url)
        return (f'<form class="control-form" method="post" action="{url}" hx-post="{url}">'
                f'<input type="hidden" name="csrfmiddlewaretoken" value="{escape(csrf_token)}">'
                f'<input type="hidden" name="do" value="{escape(href.do)}">{at}'  # type: ignore[attr-defined]
                f'<button type="submit" {attrs}>{inner}</button></form>')
    if href:
        url = escape(href)
        return f'<a href="{url}" hx-get="{url}" hx-push-url="false" {attrs}>{inner}</a>'
    return f"<div {attrs}>{inner}</div>"


def grid_html(rows: Sequence[Sequence[CellView]], *, post_url: str | None = None,
              csrf_token: str = "") -> SafeString:
    """The board: column letters A, B, …, row numbers 1, 2, …, and every position
    (:func:`cell_html`), row by row. ``rows`` may be ragged; the widest row sets the
    columns."""
    width = max((len(row) for row in rows), default=0)
    parts = ['<div class="grid-wrap">',
             f'<div class="grid cols-{width}" role="group" aria-label="{escape(_("Board"))}">',
             '<span class="corner" aria-hidden="true"></span>']
    parts.extend(f'<span class="col-label" aria-hidden="true">{letter}</span>'
                 for letter in COLUMN_LETTERS[:width])
    for number, row in enumerate(rows, start=1):
        parts.append(f'<span class="row-label" aria-hidden="true">{number}</span>')
        parts.extend(cell_html(cell, post_url=post_url, csrf_token=csrf_token) for cell in row)
    parts.append("</div></div>")
    return mark_safe("".join(parts))  # every piece above is escaped or fixed markup
