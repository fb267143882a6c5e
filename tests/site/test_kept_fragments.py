"""The site's header, navigation and footer, kept per process, language and route
(``{% kept_fragment %}``), are byte for byte what each page would render afresh: the link of
the page's own section marked current, the language's own words, and no reader's token."""

from __future__ import annotations

import re

import pytest

from tutorials.templatetags.captain import _KeptFragment

PAGES = ("/{lang}/tutorial/", "/{lang}/rules/", "/{lang}/analyze/?pos=Rb_11r1.12b2", "/{lang}/play/",
         "/{lang}/teach/", "/{lang}/sheets/", "/{lang}/no-such-page/")
LANGUAGES = ("en", "de", "ja")
#: what each reader's answer holds of their own: the CSRF token, masked afresh each time
_TOKEN = re.compile(r'(csrfmiddlewaretoken" value="|"X-CSRFToken": ")[^"]+')


def _answers(client) -> list[tuple[int, str]]:
    out = []
    for lang in LANGUAGES:
        for page in PAGES:
            response = client.get(page.format(lang=lang))
            out.append((response.status_code, _TOKEN.sub(r"\1…", response.content.decode())))
    return out


@pytest.mark.django_db
def test_kept_header_and_footer_are_what_each_page_renders_afresh(client, monkeypatch):
    with monkeypatch.context() as afresh:
        afresh.setattr(_KeptFragment, "render", lambda node, context: node.nodelist.render(context))
        expected = _answers(client)
    assert {status for status, _ in expected} == {200, 404}
    kept = _answers(client)  # fills the kept copies, route by route and language by language
    assert kept == expected
    assert _answers(client) == expected  # and serves them
    rules = expected[PAGES.index("/{lang}/rules/") + len(PAGES)]  # in German
    assert re.search(r'<a href="/de/rules/" aria-current="page">Regeln</a>', rules[1]), rules[1][:3000]


@pytest.mark.django_db
def test_nothing_kept_holds_a_token_or_a_pages_own_address(client):
    from django.template.loader import get_template

    _answers(client)
    kept = get_template("base.html").template.nodelist.get_nodes_by_type(_KeptFragment)
    copies = [html for node in kept for html in node.kept.values()]
    assert len(kept) >= 3 and len(copies) >= len(LANGUAGES) * len(PAGES)
    for html in copies:  # the CSRF token, the language links (this page in other languages)
        assert _TOKEN.search(html) is None and "csrfmiddlewaretoken" not in html
        assert "lang-switch" not in html and "?pos=" not in html
