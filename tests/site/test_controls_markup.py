"""The controls written in Python (tutorials.drawing.controls): every value escaped as a
template escapes it, posted chips and cells carry the CSRF token and the action, and the
grid numbers its rows and letters its columns."""

from __future__ import annotations

import re

import pytest
from django.template import Context, engines
from django.utils import translation
from django.utils.safestring import mark_safe
from django.utils.translation import gettext_lazy

from captain.rules import notation
from tutorials.analyzer.page import AnalyzerPage
from tutorials.drawing import controls
from tutorials.drawing.cells import BoardAction

ENGINE = engines["django"].engine
POSITION = ("Rbgw_11r1.12g2.13g5.14w4-15w1.16b0.22w2.23b4-24r0.25g4.26r5.33w5"
            "-34b1.35b2.36g1.44r2")


@pytest.fixture(autouse=True)
def english():
    """Words in English whatever the request before left active."""
    with translation.override("en"):
        yield


def test_a_chip_escapes_what_it_writes_and_keeps_markup_marked_safe():
    html = controls.chip(url="/x?a=1&b=2", label="Kraken's <Wrath>", title='say "hi"', key="<",
                         colour="red", css="c", active=True, focus_id="f", letter="R")
    assert 'href="/x?a=1&amp;b=2"' in html and "Kraken&#x27;s &lt;Wrath&gt;" in html
    assert 'title="say &quot;hi&quot;"' in html and 'data-key="&lt;"' in html
    assert 'class="chip token-chip colour-red c active" aria-current="true"' in html
    assert "<b>" in controls.chip(url="/", label=mark_safe("<b>x</b>"))
    assert ">Board<" in controls.chip(url="/", label=gettext_lazy("Board"))
    numbered = controls.chip(url="/", label="Cannon", number=0)
    assert "<strong>0</strong> <span class=\"chip-name\">Cannon</span>" in numbered


def test_a_chip_on_a_board_whose_moves_are_posted_is_a_form_with_the_token():
    template = ENGINE.from_string('{% include "tutorials/_chip.html" with url=action label="Red" %}')
    html = template.render(Context({"board": {"posts": True, "post_url": "/en/play/g/act/"},
                                    "action": BoardAction("start", "red"), "csrf_token": "t<k"}))
    assert html.startswith('<form class="control-form" method="post" action="/en/play/g/act/" '
                           'hx-post="/en/play/g/act/">')
    assert '<input type="hidden" name="csrfmiddlewaretoken" value="t&lt;k">' in html
    assert '<input type="hidden" name="do" value="start"><input type="hidden" name="at" value="red">' in html
    assert "<button type=\"submit\" class=\"chip\">Red</button></form>" in html


def test_chips_are_parted_by_white_space():
    html = ENGINE.from_string('{% include "tutorials/_chips.html" %}').render(Context(
        {"chips": [{"url": "/a", "label": "A"}, {"url": "/b", "label": "B"}]}))
    assert re.fullmatch(r'<a [^>]+>A</a>\n<a [^>]+>B</a>\n\n', html)


def test_the_grid_letters_columns_numbers_rows_and_posts_its_cells():
    page = AnalyzerPage.build(notation.parse(POSITION))
    rows = [list(row) for row in page.cells]
    rows[1] = rows[1][:2]  # ragged: the widest row sets the columns
    for row in rows:
        for cell in row:
            cell.href = BoardAction("place", cell.label) if row is rows[0] else None
    template = ENGINE.from_string("{% load captain %}{% board_grid rows post_url=post_url %}")
    html = template.render(Context({"rows": rows, "post_url": "/p/", "csrf_token": "tok"}))
    width = max(len(row) for row in rows)
    assert f'<div class="grid cols-{width}" role="group" aria-label="Board">' in html
    assert re.findall(r'<span class="row-label" aria-hidden="true">(\d+)</span>', html) == \
        [str(n) for n in range(1, len(rows) + 1)]
    assert len(re.findall(r'class="col-label"', html)) == width
    assert html.count('<form class="control-form"') == len(rows[0])
    assert html.count('name="csrfmiddlewaretoken" value="tok"') == len(rows[0])
    plain = template.render(Context({"rows": rows, "post_url": None, "csrf_token": "tok"}))
    assert "csrfmiddlewaretoken" not in plain and "<form" not in plain


@pytest.mark.parametrize("lang", ["en", "de", "ja"])
def test_the_what_if_items_are_what_the_template_loop_wrote(lang):
    """The what-if panel's items, written in Python, as the loop they replace wrote them:
    every value escaped, the language's colon and list separator."""
    loop = ENGINE.from_string(
        '{% load i18n captain %}{% for w in what_ifs %}<li><a href="{{ w.href }}" hx-get="{{ w.href }}">'
        '{{ w.label }}</a>{% translate ": " context "before a description" %}<span class="muted">'
        '{% for c in w.changes %}{{ c }}{% if not forloop.last %}{% list_separator %}{% endif %}'
        '{% endfor %}</span></li>{% endfor %}')
    tag = ENGINE.from_string("{% load captain %}{% what_if_items what_ifs %}")
    what_ifs = [{"label": "Kraken's <Wrath> [5]", "href": "/en/analyze/edit/?pos=a&op=whatif&arg=\"b\"",
                 "changes": ("red: 3 → 1 cards", "blue & green <tie>")},
                {"label": "No change", "href": "/x", "changes": ()},
                {"label": mark_safe("<bdi>R</bdi>"), "href": "/y", "changes": (gettext_lazy("Board"),)}]
    with translation.override(lang):
        expected = loop.render(Context({"what_ifs": what_ifs}))
        written = tag.render(Context({"what_ifs": what_ifs}))
    assert written == expected
    assert "Kraken&#x27;s &lt;Wrath&gt;" in written and "blue &amp; green &lt;tie&gt;" in written
    assert written.count("<li>") == 3
