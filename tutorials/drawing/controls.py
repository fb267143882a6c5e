"""The markup of the boards' controls: a chip (``tutorials/_chip.html``), a posted
action's fields (``tutorials/_action_fields.html``) and the whole board grid, written in
Python.

A board and its palettes are dozens of controls on every analyzer page, tutorial board and
game page: written through the template engine, one include or loop body per control,
they took most of the analyzer page's time. Here each control is one ``format_html``; the
templates above call these (template tags ``chip``, ``chips`` and ``board_grid``), so
this module is the one place for their markup.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from django.utils.html import conditional_escape, format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe

from tutorials.drawing.svg import cell_svg


def csrf_field(csrf_token: object) -> SafeString:
    """What ``{% csrf_token %}`` writes for ``csrf_token`` (the context's, read only here:
    reading it is what asks Django to set the CSRF cookie)."""
    if not csrf_token or csrf_token == "NOTPROVIDED":
        return mark_safe("")
    return format_html('<input type="hidden" name="csrfmiddlewaretoken" value="{}">', csrf_token)


def action_fields(action, csrf_token: object) -> SafeString:
    """The hidden fields of a posted board action (a :class:`~tutorials.drawing.cells.BoardAction`):
    the CSRF token, ``do`` and ``at``; an action of another kind posts empty ones, as a
    template would."""
    do, at = getattr(action, "do", ""), getattr(action, "at", "")
    at_field = format_html('<input type="hidden" name="at" value="{}">', at) if at else ""
    return format_html('{}<input type="hidden" name="do" value="{}">{}', csrf_field(csrf_token), do, at_field)


def chip(*, url: object = "", label: object = "", focus_id: object = "", active: object = False,
         css: object = "", key: object = "", title: object = "", letter: object = "",
         colour: object = "", number: object = None, post_url: object = "",
         csrf_token: object = "") -> SafeString:
    """One chip: a link to ``url``, or with ``post_url`` (a board whose moves are posted) a
    one-button form posting the action ``url`` there."""
    classes = "chip"
    if colour:
        classes += f" token-chip colour-{conditional_escape(colour)}"
    if css:
        classes += f" {conditional_escape(css)}"
    if active:
        classes += " active"
    attrs = format_html(' data-focus-id="{}"', focus_id) if focus_id else ""
    attrs += format_html(' class="{}"', mark_safe(classes))
    if active:
        attrs += ' aria-current="true"'
    if key:
        attrs += format_html(' data-key="{}"', key)
    if title:
        attrs += format_html(' title="{}"', title)
    text = format_html('<span class="token-letter" aria-hidden="true">{}</span> ', letter) if letter else ""
    if number is not None:
        text += format_html('<strong>{}</strong> <span class="chip-name">{}</span>', number, label)
    else:
        text += conditional_escape(label)
    if post_url:
        return format_html('<form class="control-form" method="post" action="{}" hx-post="{}">{}\n'
                           '<button type="submit"{}>{}</button></form>', post_url, post_url,
                           action_fields(url, csrf_token), mark_safe(attrs), mark_safe(text))
    return format_html('<a href="{}" hx-get="{}"{}>{}</a>', url, url, mark_safe(attrs), mark_safe(text))


def chips(items: Iterable[Mapping], *, post_url: object = "", csrf_token: object = "") -> SafeString:
    """Chips one after another, each from a mapping of :func:`chip`'s arguments, each
    followed by a line break: the white space that parts inline chips."""
    return mark_safe("".join(chip(**item, post_url=post_url, csrf_token=csrf_token) + "\n"
                             for item in items))


def _cell(cell, post_url: object, csrf_token: object) -> SafeString:
    """One position of the grid: a one-button form, a link or a plain box."""
    inner = format_html('<span class="visually-hidden">{}</span>{}{}', cell.description, cell_svg(cell),
                        format_html('<span class="cell-mark" aria-hidden="true">{}</span>', cell.mark)
                        if cell.mark else "")
    if cell.href and post_url:
        guide = ' data-guide-target aria-describedby="guide-move"' if cell.guide else ""
        return format_html('<form class="control-form" method="post" action="{}" hx-post="{}">{}'
                           '<button type="submit" class="{}" data-pos="{}"{}>{}</button></form>',
                           post_url, post_url, action_fields(cell.href, csrf_token), cell.css,
                           cell.label, mark_safe(guide), inner)
    if cell.href:
        return format_html('<a href="{}" hx-get="{}" hx-push-url="false" class="{}" data-pos="{}">{}</a>',
                           cell.href, cell.href, cell.css, cell.label, inner)
    return format_html('<div class="{}" data-pos="{}">{}</div>', cell.css, cell.label, inner)


def grid(rows, *, columns: Iterable[str], board_label: str, post_url: object = "",
         csrf_token: object = "") -> SafeString:
    """The board: column letters, row numbers and every cell (rows may be ragged)."""
    columns = list(columns)
    head = format_html_join("", '<span class="col-label" aria-hidden="true">{}</span>',
                            ((letter,) for letter in columns))
    body = mark_safe("".join(
        format_html('<span class="row-label" aria-hidden="true">{}</span>', number)
        + "".join(_cell(cell, post_url, csrf_token) for cell in row)
        for number, row in enumerate(rows, start=1)))
    return format_html('<div class="grid-wrap"><div class="grid cols-{}" role="group" aria-label="{}">'
                       '<span class="corner" aria-hidden="true"></span>{}{}</div></div>',
                       len(columns), board_label, head, body)
