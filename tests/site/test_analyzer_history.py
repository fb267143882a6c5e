"""Undo and Redo of many steps, without JavaScript: every link carries the edit history."""

from __future__ import annotations

import html as html_lib
import re
from urllib.parse import parse_qs, urlsplit

import pytest

from tutorials.analyzer.edit_links import MAX_HISTORY_CHARS, MAX_HISTORY_STEPS, read_history

EX_BATTLE = "Rbg_11.13r3.22.14-15.16b1.23.24r2-26.33.34g1.35-36g0.44.45.46"


def _control(page: str, action: str) -> str:
    found = re.search(rf'<(a|button)\b[^>]*data-action="{action}"[^>]*>', page)
    assert found, f"no {action} control"
    return found.group(0)


def _href(tag: str) -> str:
    return html_lib.unescape(re.search(r'\bhref="([^"]*)"', tag).group(1))


def _pos(page: str) -> str:
    return html_lib.unescape(re.search(r'<input[^>]*name="pos" value="([^"]*)"', page).group(1))


def _cell_link(page: str, label: str) -> str:
    found = re.search(rf'<a [^>]*href="([^"]*)"[^>]*data-pos="{label}"', page)
    assert found, label
    return html_lib.unescape(found.group(1))


def _follow(client, url: str) -> str:
    response = client.get(url)
    if response.status_code == 302:
        response = client.get(response["Location"])
    assert response.status_code == 200, url
    return response.content.decode()


@pytest.mark.django_db
def test_several_edits_undo_three_times_redo_twice(client):
    page = _follow(client, "/en/analyze/?" + "pos=" + EX_BATTLE)
    seen = [_pos(page)]
    for label in ("A1", "B1", "C1", "D1"):  # four placements of the default tool
        page = _follow(client, _cell_link(page, label))
        seen.append(_pos(page))
    assert len(set(seen)) == 5
    for back in (3, 2, 1):
        page = _follow(client, _href(_control(page, "undo")))
        assert _pos(page) == seen[back]
    for forward in (2, 3):
        page = _follow(client, _href(_control(page, "redo")))
        assert _pos(page) == seen[forward]
    # the history is still there both ways, and a new edit drops what was ahead
    assert _control(page, "undo").startswith("<a ") and _control(page, "redo").startswith("<a ")
    page = _follow(client, _cell_link(page, "A2"))
    assert _control(page, "redo").startswith("<button") and "disabled" in _control(page, "redo")
    page = _follow(client, _href(_control(page, "undo")))
    assert _pos(page) == seen[3]


@pytest.mark.django_db
def test_choosing_a_tool_keeps_undo_and_redo(client):
    page = _follow(client, "/en/analyze/?pos=" + EX_BATTLE)
    page = _follow(client, _cell_link(page, "A1"))
    page = _follow(client, _cell_link(page, "B1"))
    page = _follow(client, _href(_control(page, "undo")))
    colour = re.search(r'<a [^>]*href="([^"]*op=colour&amp;arg=g[^"]*)"', page).group(1)
    page = _follow(client, html_lib.unescape(colour))
    assert "tool=g5" in _href(_control(page, "undo"))
    redo = parse_qs(urlsplit(_href(_control(page, "redo"))).query)
    undo = parse_qs(urlsplit(_href(_control(page, "undo"))).query)
    assert redo["pos"][0].count("r5") == 2 and undo["pos"][0] == EX_BATTLE


def test_history_is_bounded_and_stops_at_an_unreadable_entry():
    long = "~".join([EX_BATTLE] * (MAX_HISTORY_STEPS + 5))
    kept = read_history(long, "")
    assert len(kept) <= MAX_HISTORY_STEPS and sum(len(k) + 1 for k in kept) <= MAX_HISTORY_CHARS
    assert read_history(f"{EX_BATTLE}~garbage~{EX_BATTLE}", "") == (EX_BATTLE,)
    assert read_history(EX_BATTLE, EX_BATTLE) == ()
