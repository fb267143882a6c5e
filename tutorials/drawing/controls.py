"""The markup of the boards' controls: a chip (``tutorials/_chip.html``), a posted
action's fields (``tutorials/_action_fields.html``) and the whole board grid, written in
Python.

A board and its palettes are dozens of controls on every analyzer page, tutorial board and
game page: written through the template engine, one include or loop body per control,
they took most of the analyzer page's time. Here each control is one string, every value
in it escaped as ``{{ value }}`` escapes it; the templates above call these (template tags
``chip``, ``chips``, ``action_fields`` and ``board_grid``), so this module is the one place
for their markup.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from html import escape

from django.utils.safestring import SafeString, mark_safe

from tutorials.drawing.svg import cell_svg


def _text(value: object) -> str:
    """``value`` as a template writes it: markup marked safe as it is, anything else
    (lazy translations too) as text with ``& < > " '`` escaped."""
    if hasattr(value, "__html__"):
        return value.__html__()
    return escape(str(value))


def csrf_field(csrf_token: object) -> str:
    """What ``{% csrf_token %}`` writes for ``csrf_token`` (the context's, read only here:
    reading it is what asks Django to set the CSRF cookie)."""
    if not csrf_token or csrf_token == "NOTPROVIDED":
        return ""
    return f'<input type="hidden" name="csrfmiddlewaretoken" value="{_text(csrf_token)}">'


def action_fields(action, csrf_token: object) -> SafeString:
    """The hidden fields of a posted board action (a :class:`~tutorials.drawing.cells.BoardAction`):
    the CSRF token, ``do`` and ``at``; an action of another kind posts empty ones, as a
    template would."""
    do, at = getattr(action, "do", ""), getattr(action, "at", "")
    at_field = f'<input type="hidden" name="at" value="{_text(at)}">' if at else ""
    return mark_safe(f'{csrf_field(csrf_token)}<input type="hidden" name="do" value="{_text(do)}">{at_field}')


def chip(*, url: object = "", label: object = "", focus_id: object = "", active: object = False,
         css: object = "", key: object = "", title: object = "", letter: object = "",
         colour: object = "", number: object = None, post_url: object = "",
         csrf_token: object = "") -> SafeString:
    """One chip: a link to ``url``, or with ``post_url`` (a board whose moves are posted) a
    one-button form posting the action ``url`` there."""
    classes = "chip"
    if colour:
        classes += f" token-chip colour-{_text(colour)}"
    if css:
        classes += f" {_text(css)}"
    if active:
        classes += " active"
    attrs = f' data-focus-id="{_text(focus_id)}"' if focus_id else ""
    attrs += f' class="{classes}"'
    if active:
        attrs += ' aria-current="true"'
    if key:
        attrs += f' data-key="{_text(key)}"'
    if title:
        attrs += f' title="{_text(title)}"'
    text = f'<span class="token-letter" aria-hidden="true">{_text(letter)}</span> ' if letter else ""
    if number is not None:
        text += f'<strong>{_text(number)}</strong> <span class="chip-name">{_text(label)}</span>'
    else:
        text += _text(label)
    if post_url:
        target = _text(post_url)
        fields = action_fields(url, csrf_token)
        return mark_safe(f'<form class="control-form" method="post" action="{target}" hx-post="{target}">'
                         f'{fields}\n<button type="submit"{attrs}>{text}</button></form>')
    href = _text(url)
    return mark_safe(f'<a href="{href}" hx-get="{href}"{attrs}>{text}</a>')


def chips(items: Iterable[Mapping], *, post_url: object = "", csrf_token: object = "") -> SafeString:
    """Chips one after another, each from a mapping of :func:`chip`'s arguments, each
    followed by a line break: the white space that parts inline chips."""
    return mark_safe("".join(chip(**item, post_url=post_url, csrf_token=csrf_token) + "\n"
                             for item in items))


def _cell(cell, post_url: object, csrf_token: object) -> str:
    """One position of the grid: a one-button form, a link or a plain box."""
    mark = f'<span class="cell-mark" aria-hidden="true">{_text(cell.mark)}</span>' if cell.mark else ""
    inner = f'<span class="visually-hidden">{_text(cell.description)}</span>{_text(cell_svg(cell))}{mark}'
    at = f'class="{_text(cell.css)}" data-pos="{_text(cell.label)}"'
    if cell.href and post_url:
        target = _text(post_url)
        guide = ' data-guide-target aria-describedby="guide-move"' if cell.guide else ""
        fields = action_fields(cell.href, csrf_token)
        return (f'<form class="control-form" method="post" action="{target}" hx-post="{target}">'
                f'{fields}<button type="submit" {at}{guide}>{inner}</button></form>')
    if cell.href:
        href = _text(cell.href)
        return f'<a href="{href}" hx-get="{href}" hx-push-url="false" {at}>{inner}</a>'
    return f'<div {at}>{inner}</div>'


def grid(rows, *, columns: Iterable[str], board_label: str, post_url: object = "",
         csrf_token: object = "") -> SafeString:
    """The board: column letters, row numbers and every cell (rows may be ragged)."""
    columns = list(columns)
    head = "".join(f'<span class="col-label" aria-hidden="true">{_text(letter)}</span>' for letter in columns)
    body = "".join(f'<span class="row-label" aria-hidden="true">{number}</span>'
                   + "".join(_cell(cell, post_url, csrf_token) for cell in row)
                   for number, row in enumerate(rows, start=1))
    return mark_safe(f'<div class="grid-wrap"><div class="grid cols-{len(columns)}" role="group" '
                     f'aria-label="{_text(board_label)}"><span class="corner" aria-hidden="true"></span>'
                     f'{head}{body}</div></div>')
