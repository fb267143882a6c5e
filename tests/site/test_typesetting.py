"""Japanese sheets: consecutive punctuation squeezed, no paragraph ending on a line of one
or two characters, and nothing marked up where markup would show."""

from __future__ import annotations

import re

from tutorials.sheets.render import printed_html, sheet_html
from tutorials.sheets.typesetting import typeset_japanese


def test_meeting_marks_are_squeezed_and_paragraph_ends_kept_together():
    html = typeset_japanese("<p>空きマスです。（この解釈です。）そして次へ進みます。</p>")
    assert '<span class="squeeze">。</span>（' in html          # 。（ : the first is half width
    assert '<span class="keep-end">みます。</span></p>' in html   # the last four stay together
    assert re.sub(r"<[^>]+>", "", html) == "空きマスです。（この解釈です。）そして次へ進みます。"


def test_text_where_markup_would_show_is_left_alone():
    html = ("<head><title>早見表。（版）</title><style>p::after{content:'。（'}</style></head>"
            "<svg><title>QRコード。（リンク）</title></svg><p title=\"注意。（説明）\">a</p>")
    assert typeset_japanese(html) == html


def test_latin_only_text_is_untouched():
    html = "<p>Dice Time ends. (BAT-4)</p>"
    assert typeset_japanese(html) == html


def test_the_japanese_sheets_are_typeset_and_the_others_not():
    ja = printed_html(sheet_html("reference", "ja"), "ja")
    de = printed_html(sheet_html("reference", "de"), "de")
    assert 'class="keep-end"' in ja and 'class="squeeze"' in ja
    assert "keep-end" not in de and "squeeze" not in de
