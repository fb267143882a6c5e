"""Kinds of wording mistake made impossible: no translated fragments
glued together in code, Japanese punctuation in Japanese output, plurals by ngettext."""

from __future__ import annotations

import ast
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.urls import reverse
from django.utils import translation

from tutorials.tutorial.script import LESSONS

ROOT = Path(__file__).resolve().parents[2]
TRANSLATE = {"_", "gettext", "ngettext", "pgettext", "npgettext", "gettext_lazy", "pgettext_lazy",
             "ngettext_lazy"}


def _translated(node: ast.AST) -> bool:
    """A call of a gettext function, or one formatted with ``%``."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
        node = node.left
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
            and node.func.id in TRANSLATE)


def _glued(tree: ast.AST) -> list[int]:
    """Lines where a translated message is added to another string (``+`` or ``+=``)."""
    lines = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            operands = (node.left, node.right)
        elif isinstance(node, ast.AugAssign) and isinstance(node.op, ast.Add):
            operands = (node.value,)
        else:
            continue
        if any(_translated(o) for o in operands):
            lines.add(node.lineno)
    return sorted(lines)


def test_no_translated_fragments_glued_in_code():
    """A sentence is one message: translators see it whole and may reorder it. Joining
    sentences or list items goes through the translatable separators (``sentences``,
    ``list_join``)."""
    found = {}
    for path in sorted((ROOT / "tutorials").rglob("*.py")):
        lines = _glued(ast.parse(path.read_text(encoding="utf-8")))
        if lines:
            found[str(path.relative_to(ROOT))] = lines
    assert not found, found


def test_the_check_finds_glue():
    """The check above can fail."""
    code = 'text = _("One.") + " " + _("Two.")\ntext += " " + _("Three %(x)s") % {"x": 1}\n'
    assert _glued(ast.parse(code)) == [1, 2]


class _Text(HTMLParser):
    """Visible text of a page, one string per text node (no script, style or SVG)."""

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style", "svg"):
            self._skip += 1

    def handle_endtag(self, tag):
        if tag in ("script", "style", "svg"):
            self._skip -= 1

    def handle_data(self, data):
        if not self._skip:
            self.parts.append(data)


def _ja_pages() -> list[str]:
    battle = "Rbgw_12r2.35.44.26b2-15g2.33.24.56w2-11.46.23b1.13-34.66w5.25.14"
    pages = [reverse("tutorials:lesson", args=[lesson.slug]) for lesson in LESSONS]
    pages += [reverse("tutorials:rules"), reverse("tutorials:sheets"), reverse("tutorials:teach"),
              f"{reverse('tutorials:analyze')}?pos={battle}&view=explain&step=99",
              f"{reverse('tutorials:analyze')}?pos={battle}&view=explain&step=12",
              f"{reverse('tutorials:analyze-what-if')}?pos={battle}"]
    return pages


@pytest.mark.django_db
def test_japanese_pages_use_japanese_punctuation(client):
    """No ASCII ": " and no space after 「。」 in the visible Japanese text (separators fixed
    in code could not be translated; every one is now part of a message)."""
    with translation.override("ja"):
        pages = _ja_pages()
    found = []
    for url in pages:
        parser = _Text()
        parser.feed(client.get(url).content.decode())
        text = "".join(parser.parts)
        # a space before a clause id is the gap before its badge, not a sentence gap
        for m in re.finditer(r"[^\x00-\x7f] ?: |。 +(?![A-Z]+-[0-9])\S", text):
            found.append((url, text[max(0, m.start() - 20):m.end() + 20]))
    assert not found, found


#: How a message would state one of the game's countable facts itself: component
#: counts, grid sizes, the bell's threshold, the end of the game, the speed orders.
COUNTABLE = re.compile("|".join([
    r"\b(6|six) dice\b", r"\b(9|7|nine|seven) attack cards\b", r"\b(42|16)\b", r"\d×\d",
    r"\b(four|4|two|2) \[5\]", r"\b(8|eight) or fewer\b", r"\b(3|three) (or more )?(of its )?cards\b",
    r"only three\b", r"\b3-card\b", r"\b10 (random )?treasure cards\b", r"\b12 of them\b",
    r"0, 1, 2, 3, 4, 5", r"\b0 to 5\b", r"0–5", r"first 0\b", r"0, 5, 4, 3, 2, 1",
    r"\bsix (kinds|attack cards|cards)\b", r"\bfour of them\b", r"\brows of four\b",
]), re.I)


def test_countable_facts_come_from_the_engine():
    """No message types a countable fact: each takes it from tutorials.wording.facts (the
    engine's numbers) through a placeholder, so a page cannot state a number the engine
    does not play by."""
    po = (ROOT / "locale" / "ja" / "LC_MESSAGES" / "django.po").read_text(encoding="utf-8")
    found = []
    for block in po.split("\n\n"):
        if block.startswith("#~"):
            continue
        m = re.search(r'^msgid ((?:".*"\n?)+)', block, re.M)
        msgid = "".join(re.findall(r'"(.*)"', m[1])) if m else ""
        if COUNTABLE.search(msgid):
            found.append(msgid)
    assert not found, found


def test_the_countable_check_can_fail():
    assert COUNTABLE.search("Take the 6 dice and the 9 attack cards of your colour.")
    assert COUNTABLE.search("until the grid is 4×4 again")
    assert not COUNTABLE.search("Take the %(dice)s dice and the %(hand)s attack cards.")
