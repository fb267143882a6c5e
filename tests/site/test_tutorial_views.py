"""Tutorial pages in every language: status, <html lang>, navigation, no English left."""

from __future__ import annotations

import gettext
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.urls import reverse
from django.utils import translation

from tutorials.tutorial.script import LESSONS
from wording_helpers import english_messages

ROOT = Path(__file__).resolve().parents[2]
LANGS = ["ja", "en", "de"]


class _TextExtractor(HTMLParser):
    """Visible text of a page (no script/style), with title attributes."""

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style"):
            self._skip += 1
        for name, value in attrs:
            if name in ("title", "aria-label") and value:
                self.parts.append(value)

    def handle_endtag(self, tag):
        if tag in ("script", "style"):
            self._skip -= 1

    def handle_data(self, data):
        if not self._skip:
            self.parts.append(data)


def visible_text(html: str) -> str:
    parser = _TextExtractor()
    parser.feed(html)
    return re.sub(r"\s+", " ", " ".join(parser.parts))


@pytest.mark.django_db
@pytest.mark.parametrize("lang", LANGS)
def test_index_lists_every_step(client, lang):
    response = client.get(f"/{lang}/tutorial/")
    assert response.status_code == 200
    html = response.content.decode()
    assert f'<html lang="{lang}">' in html
    for step in LESSONS:
        assert f'/{lang}/tutorial/{step.slug}/' in html


@pytest.mark.django_db
@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("step", [s.slug for s in LESSONS])
def test_every_step_renders(client, lang, step):
    response = client.get(f"/{lang}/tutorial/{step}/")
    assert response.status_code == 200
    html = response.content.decode()
    assert f'<html lang="{lang}">' in html
    assert "(text to come)" not in html
    # the language switcher keeps the page (marked as a choice: stored, then the clean URL)
    for other in LANGS:
        assert f'href="/{other}/tutorial/{step}/?language={other}"' in html


@pytest.mark.django_db
@pytest.mark.parametrize("lang", ["ja", "de"])
@pytest.mark.parametrize("step", [s.slug for s in LESSONS])
def test_no_untranslated_english(client, lang, step):
    messages = english_messages()
    assert len(messages) > 50, "the catalog should hold the site's sentences"
    text = visible_text(client.get(f"/{lang}/tutorial/{step}/").content.decode())
    leftovers = [m for m in messages if m in text]
    assert not leftovers, f"English left on /{lang}/tutorial/{step}/: {leftovers[:5]}"


@pytest.mark.django_db
def test_hands_on_moments_are_marked(client):
    marked = [s.slug for s in LESSONS
              if 'class="hands-on"' in client.get(f"/en/tutorial/{s.slug}/").content.decode()]
    # the official script has hands-on moments in setup, dice, bell, setting, battle,
    # treasure and refilling
    assert len(marked) >= 6, marked


@pytest.mark.django_db
def test_previous_and_next_links(client):
    html = client.get("/en/tutorial/round/").content.decode()
    assert 'rel="prev" href="/en/tutorial/setup/"' in html
    assert 'rel="next" href="/en/tutorial/dice-time/"' in html


@pytest.mark.django_db
def test_unknown_step_is_404(client):
    assert client.get("/en/tutorial/no-such-step/").status_code == 404


@pytest.mark.django_db
@pytest.mark.parametrize("accept,expected", [("ja,en;q=0.8", "/ja/"), ("de-DE,de;q=0.9", "/de/"),
                                             ("fr", "/en/"), ("", "/en/")])
def test_root_redirects_by_accept_language(client, accept, expected):
    headers = {"HTTP_ACCEPT_LANGUAGE": accept} if accept else {}
    response = client.get("/", **headers)
    assert response.status_code == 302
    assert response["Location"] == expected


@pytest.mark.django_db
def test_language_prefix_home_goes_to_tutorial(client):
    response = client.get("/de/")
    assert response.status_code == 302
    assert response["Location"] == "/de/tutorial/"


@pytest.mark.django_db
def test_switcher_keeps_board_state(client):
    html = client.get("/en/tutorial/battle-time/?battle=3").content.decode()
    assert 'href="/ja/tutorial/battle-time/?battle=3&amp;language=ja"' in html


def test_catalogs_are_complete():
    """ja and de: every message translated, nothing fuzzy (compiled .mo matches .po)."""
    for lang in ("ja", "de"):
        po = (ROOT / "locale" / lang / "LC_MESSAGES" / "django.po").read_text(encoding="utf-8")
        assert "#, fuzzy" not in po.split("\n\n", 1)[1], f"fuzzy entries in {lang}"
        entries = po.split("\n\n")[1:]
        empty = []
        for entry in entries:
            if entry.lstrip().startswith("#~"):
                continue
            strs = re.findall(r'^msgstr(?:\[\d\])? ((?:".*"\n?)+)', entry, re.M)
            for s in strs:
                if not "".join(re.findall(r'"(.*)"', s)):
                    empty.append(entry.strip().splitlines()[-2:])
        assert not empty, f"untranslated in {lang}: {empty[:5]}"
        with open(ROOT / "locale" / lang / "LC_MESSAGES" / "django.mo", "rb") as compiled:
            mo = gettext.GNUTranslations(compiled)
        assert len(mo._catalog) > 50


def test_glossary_terms_follow_rules_md():
    from captain.rules import AttackKind
    from tutorials.wording.glossary import CARD_NAMES, PHASE_NAMES

    with translation.override("ja"):
        assert str(CARD_NAMES[AttackKind.KRAKENS_WRATH]) == "大王烏賊の怒り"
        assert str(PHASE_NAMES["dice"]) == "サイコロタイム"
    with translation.override("de"):
        assert str(CARD_NAMES[AttackKind.BOARDING_MELEE]) == "Enterkampf"
        assert str(PHASE_NAMES["treasure"]) == "Schatzphase"


def test_step_urls_reverse():
    with translation.override("de"):
        assert reverse("tutorials:lesson", args=["battle-time"]) == "/de/tutorial/battle-time/"


@pytest.mark.parametrize("name, args, current", [
    ("tutorials:index", [], "tutorials:index"),
    ("tutorials:lesson", [LESSONS[1].slug], "tutorials:index"),
    ("tutorials:rules", [], "tutorials:rules"),
    ("tutorials:analyze", [], "tutorials:analyze"),
    ("tutorials:teach", [], "tutorials:teach"),
    ("tutorials:sheets", [], "tutorials:sheets"),
])
@pytest.mark.django_db
def test_main_navigation_marks_the_current_section(client, name, args, current):
    """Every page says where the reader is (a lesson belongs to the tutorial)."""
    with translation.override("en"):
        url, expected = reverse(name, args=args), reverse(current)
    html = client.get(url).content.decode()
    nav = re.search(r'<nav class="site-nav".*?</nav>', html, re.S)
    marked = re.findall(r'<a href="([^"]+)" aria-current="page"', nav[0] if nav else html)
    assert marked == [expected]


@pytest.mark.parametrize("lang", LANGS)
def test_contents_give_each_lesson_its_measured_reading_time(client, lang):
    """The contents show what the one reading measure gives (the teaching scripts' too):
    each lesson's time and their sum, not numbers written by hand."""
    from tutorials.templatetags.captain import read_time
    from tutorials.tutorial.reading import lesson_reading

    page = client.get(f"/{lang}/tutorial/").content.decode()
    with translation.override(lang):
        times = [lesson_reading(lesson.slug, lang).minutes for lesson in LESSONS]
        items = re.findall(r"<li><a href=\"[^\"]+\">[^<]+</a>.*?</li>", page, re.S)
        assert len(items) == len(LESSONS)
        for item, minutes in zip(items, times, strict=True):
            assert read_time(minutes) in item, item
        total = re.search(r'data-testid="total-minutes">([^<]*)<', page)[1]
        assert read_time(sum(times)) in total
    assert all(t > 0.3 for t in times)  # every lesson reads aloud something
