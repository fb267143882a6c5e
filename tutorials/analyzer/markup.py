"""The analyzer's longest lists, written in Python: the seats, the rule switches and the
what-ifs (template tags ``seat_items``, ``rule_toggle_items`` and ``what_if_items``).

Written through the template engine, one loop body per item with a translated word or two
in each, these lists took most of what the analyzer renders afresh for a position after
its board. Here each item is one string, every value escaped as ``{{ value }}`` escapes
it, the words translated as the template translated them; white space between the tags
is what a browser makes of the template's (one space where it had some).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

from django.utils.html import conditional_escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import pgettext


def what_if_items(what_ifs: Iterable[Mapping]) -> SafeString:
    """The what-if panel's items (``page.what_ifs``): each alternative a link, then what
    changes under it, in a list."""
    colon = conditional_escape(pgettext("before a description", ": "))
    separator = conditional_escape(pgettext("list separator", ", "))
    return mark_safe("".join(
        format_html('<li><a href="{0}" hx-get="{0}">{1}</a>{2}<span class="muted">{3}</span></li>',
                    w["href"], w["label"], colon,
                    mark_safe(separator.join(conditional_escape(change) for change in w["changes"])))
        for w in what_ifs))


def rule_toggle_items(toggles: Iterable[Mapping], refused: bool,
                      clause_link: Callable[[str], str]) -> SafeString:
    """The "Rules in force" switches (``page.rule_toggles``), each with its clause's link;
    ``refused``: the panel shows why a rule change was refused, and each switch points to it."""
    described = mark_safe(' aria-describedby="rules-error"') if refused else ""
    return mark_safe("\n".join(
        format_html('<li><a class="toggle{}" role="switch" aria-checked="{}" href="{}#rules-title" '
                    'hx-get="{}" data-focus-id="{}"{}><span class="switch" aria-hidden="true"></span> {}</a> '
                    '{}</li>', " on" if t["on"] else "", "true" if t["on"] else "false", t["href"], t["href"],
                    t["focus_id"], described, t["label"], clause_link(t["clause"]))
        for t in toggles))


def seat_items(seats: Iterable[Mapping], undo_url: str) -> SafeString:
    """The "Players" rows (``page.seat_buttons``): each colour, its seat, the links that seat
    or remove it and make it start player, what removing it takes away, and right after a
    removal what went with it and a way back (``undo_url``)."""
    return mark_safe("\n".join(_seat_item(seat, undo_url) for seat in seats))


def _seat_item(s: Mapping, undo_url: str) -> str:
    colour, seated, note = s["colour"].value, s["seated"], s["note"]
    # the translation is the template's markup, only the number in it escaped
    seat = mark_safe(_(" (seat %(n)s)") % {"n": conditional_escape(s["seat"])}) if seated else ""
    parts: list[str] = [format_html('<li class="{}">', "seated" if seated else ""),
             format_html('<span class="mini-dot colour-{}" aria-hidden="true">{}</span>', colour,
                         s["letter"]),
             format_html('<span class="seat-name">{}{}</span>', s["name"],
                         format_html('<span class="muted">{}</span>', seat) if seated else ""),
             format_html('<a class="chip small" href="{0}#seats-title" hx-get="{0}" '
                         'data-focus-id="seat-{1}-toggle"{2}>{3}</a>', s["toggle"], colour,
                         format_html(' title="{}" aria-describedby="seat-{}-note"', note, colour)
                         if note else "",
                         _("Remove") if seated else _("Seat"))]
    if seated:
        start = _("start player")
        parts.append(format_html('<span class="badge start-badge">{}</span>', start) if s["start"]
                     else format_html('<a class="chip small" href="{0}#seats-title" hx-get="{0}" '
                                      'data-focus-id="seat-{1}-start">{2}</a>', s["make_start"], colour,
                                      _("Make start player")))
    if note:
        parts.append(format_html('<span class="seat-note" id="seat-{}-note">{}</span>', colour, note))
    if s["removed"]:
        parts.append(format_html('<p class="status-box" role="status" data-testid="seat-removed">{0} '
                                 '<a class="chip" href="{1}" hx-get="{1}" hx-push-url="true" '
                                 'data-action="undo" data-focus-id="seat-undo">{2}</a></p>', s["removed"],
                                 undo_url, _("Undo")))
    parts.append("</li>")
    return "\n".join(parts)
