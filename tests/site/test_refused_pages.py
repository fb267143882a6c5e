"""Requests refused before any view answers get the site's page in the page's language,
saying what was refused: a request too
large to read (400), a form without its CSRF token (403), the address a form posts to
opened as a page (405), a POST to an address without its trailing slash (307, the form
kept), and a 404 that shows the address's code without control characters."""

from __future__ import annotations

import re

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


def _h1(response) -> str:
    return re.search(r"<h1>(.*?)</h1>", response.content.decode(), re.S).group(1).strip()


@pytest.mark.parametrize("lang", ["ja", "en", "de"])
def test_refused_requests_get_a_page_in_the_pages_language(lang):
    from django.utils import translation

    with translation.override(lang):
        method = translation.gettext("This address receives forms only")
        csrf = translation.gettext("The form could not be sent")
        bad = translation.gettext("The request could not be read")
    assert lang == "en" or method != "This address receives forms only"

    response = Client().get(f"/{lang}/analyze/save/")
    assert response.status_code == 405 and response["Allow"] == "POST"
    assert _h1(response) == method and f'lang="{lang}"' in response.content.decode()

    response = Client(enforce_csrf_checks=True).post(f"/{lang}/play/", {"players": "2"})
    assert response.status_code == 403 and _h1(response) == csrf

    response = Client().post(f"/{lang}/analyze/save/", {f"f{i}": "x" for i in range(1200)})
    assert response.status_code == 400 and _h1(response) == bad


def test_a_post_without_its_trailing_slash_keeps_its_form():
    for path in ("/en/play", "/de/analyze/save"):
        response = Client().post(path, {"players": "2"})
        assert response.status_code == 307 and response["Location"] == path + "/"


def test_not_found_pages_show_the_code_without_control_characters():
    html = Client().get("/p/%E2%80%AEab%00c/").content.decode()
    assert "\x00" not in html and "\u202e" not in html
    assert "<bdi>abc</bdi>" in html
