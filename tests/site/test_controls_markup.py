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


_SEATS_LOOP = """{% load i18n captain %}{% for s in page.seat_buttons %}
          <li class="{% if s.seated %}seated{% endif %}">
            <span class="mini-dot colour-{{ s.colour.value }}" aria-hidden="true">{{ s.letter }}</span>
            <span class="seat-name">{{ s.name }}{% if s.seated %}<span class="muted">{% blocktranslate with n=s.seat %} (seat {{ n }}){% endblocktranslate %}</span>{% endif %}</span>
            <a class="chip small" href="{{ s.toggle }}#seats-title" hx-get="{{ s.toggle }}" data-focus-id="seat-{{ s.colour.value }}-toggle"{% if s.note %} title="{{ s.note }}" aria-describedby="seat-{{ s.colour.value }}-note"{% endif %}>{% if s.seated %}{% translate "Remove" %}{% else %}{% translate "Seat" %}{% endif %}</a>
            {% if s.seated %}{% if s.start %}<span class="badge start-badge">{% translate "start player" %}</span>{% else %}<a class="chip small" href="{{ s.make_start }}#seats-title" hx-get="{{ s.make_start }}" data-focus-id="seat-{{ s.colour.value }}-start">{% translate "Make start player" %}</a>{% endif %}{% endif %}
            {% if s.note %}<span class="seat-note" id="seat-{{ s.colour.value }}-note">{{ s.note }}</span>{% endif %}
            {% if s.removed %}<p class="status-box" role="status" data-testid="seat-removed">{{ s.removed }} <a class="chip" href="{{ page.undo_url }}" hx-get="{{ page.undo_url }}" hx-push-url="true" data-action="undo" data-focus-id="seat-undo">{% translate "Undo" %}</a></p>{% endif %}
          </li>
          {% endfor %}"""  # noqa: E501  (the loop the tag replaced, as the template had it)
_RULES_LOOP = """{% load captain %}{% for t in page.rule_toggles %}
          <li><a class="toggle{% if t.on %} on{% endif %}" role="switch" aria-checked="{% if t.on %}true{% else %}false{% endif %}" href="{{ t.href }}#rules-title" hx-get="{{ t.href }}" data-focus-id="{{ t.focus_id }}"{% if refused %} aria-describedby="rules-error"{% endif %}><span class="switch" aria-hidden="true"></span> {{ t.label }}</a> {% clause_link t.clause %}</li>
          {% endfor %}"""  # noqa: E501


def _as_shown(html: str) -> str:
    """HTML as a browser lays it out: every run of white space one space."""
    return re.sub(r"\s+", " ", html).strip()


@pytest.mark.parametrize("lang", ["en", "de", "ja"])
@pytest.mark.parametrize("refused", [False, True])
def test_the_seats_and_rule_switches_are_what_the_template_loops_wrote(lang, refused):
    """The seats (one just removed with its card, a note on what removing takes away) and
    the rule switches (some on, a refusal beside them or not), written in Python, lay out
    as the loops they replace: the same tags, attributes, words and spaces."""
    with translation.override(lang):
        page = AnalyzerPage.build(notation.parse("Rbw_11r1.12b2.13r5_rv1i"),
                                  prev="Rbgw_11r1.12b2.13r5.14g3_rv1i")
        context = Context({"page": page, "refused": refused})
        seats = ENGINE.from_string("{% load captain %}{% seat_items page.seat_buttons page.undo_url %}")
        rules = ENGINE.from_string("{% load captain %}{% rule_toggle_items page.rule_toggles refused %}")
        pairs = [(seats.render(context), ENGINE.from_string(_SEATS_LOOP).render(context)),
                 (rules.render(context), ENGINE.from_string(_RULES_LOOP).render(context))]
    for written, looped in pairs:
        assert _as_shown(written) == _as_shown(looped)
    seats_html, rules_html = pairs[0][0], pairs[1][0]
    assert 'data-testid="seat-removed"' in seats_html and 'class="seat-note"' in seats_html
    assert seats_html.count("<li") == 4 and rules_html.count("<li>") == len(page.rule_toggles())
    assert rules_html.count('aria-checked="true"') == 2
    assert rules_html.count('aria-describedby="rules-error"') == (len(page.rule_toggles()) if refused else 0)
