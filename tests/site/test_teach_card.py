"""The printable table card: one A4 page of four A6 cards, one per language of the site and
a spare in the presenter's, each with the table code, the QR code of the token link and
the short address; the presenter's alone, and a table that is gone answers as elsewhere."""

from __future__ import annotations

import re
import subprocess
from datetime import timedelta
from pathlib import Path

import pytest
import zxingcpp
from django.core.management import call_command
from django.test import Client, override_settings
from django.utils import timezone
from PIL import Image

from tutorials.models import Table
from tutorials.teach import card
from tutorials.web.link_tokens import PARAMETER as LINK_TOKEN

pytestmark = pytest.mark.django_db


def _start(client: Client, lang: str = "en") -> str:
    response = client.post(f"/{lang}/teach/", {"players": "4", "mode": "action", "script": "quick"})
    assert response.status_code == 302
    return response["Location"].rstrip("/").split("/")[-1]


def _run(*args: str | Path) -> str:
    return subprocess.run([str(a) for a in args], capture_output=True, text=True, check=True).stdout


@pytest.fixture
def printed(client, tmp_path, monkeypatch):
    """A table started in German and its card as served, with the render's warnings."""
    warnings = []
    real_render = card.render_pdf

    def recording_render(html):
        result = real_render(html)
        warnings.extend(result.warnings)
        return result

    monkeypatch.setattr(card, "render_pdf", recording_render)
    code = _start(client, "de")
    response = client.get(f"/de/teach/{code}/card.pdf")
    pdf = tmp_path / "card.pdf"
    pdf.write_bytes(response.content)
    return code, response, pdf, warnings, client


def _guest_link(client: Client, lang: str, code: str) -> str:
    """The link behind the QR code of the presenter's screen."""
    html = client.get(f"/{lang}/teach/{code}/").content.decode()
    return re.search(r'href="([^"]+)" data-testid="guest-link"', html).group(1).replace("&amp;", "&")


def test_card_has_the_code_on_each_card_in_each_language(printed):
    code, response, pdf, warnings, _client = printed
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert not warnings, warnings
    assert re.search(r"^Pages:\s+1$", _run("pdfinfo", pdf), re.M)
    assert card.card_languages("de") == ["de", "ja", "en", "de"]
    text = _run("pdftotext", pdf, "-")
    assert text.count(code) >= card.CARDS_PER_PAGE * 2  # the code and the address on each card
    # each card in its own language: German twice (the presenter's and the spare); the
    # labels are spaced out and in capitals, which pdftotext gives letter by letter
    squeezed = re.sub(r"\s+", "", text)
    assert squeezed.count("TISCHCODE") == 2 and squeezed.count("TABLECODE") == 1
    assert squeezed.count("AufdemHandymitlesen") == 2 and squeezed.count("スマートフォンで一緒に進もう") == 1
    assert "Noto Sans CJK JP" in _run("pdffonts", pdf).replace("-", " ")


def test_card_qr_codes_open_the_table_with_its_token(printed, tmp_path):
    code, _response, pdf, _warnings, presenter = printed
    _run("pdftoppm", "-r", "200", "-png", pdf, tmp_path / "page")
    found = zxingcpp.read_barcodes(Image.open(next(tmp_path.glob("page*.png"))))
    urls = {barcode.text for barcode in found if barcode.format == zxingcpp.BarcodeFormat.QRCode}
    assert len([b for b in found if b.format == zxingcpp.BarcodeFormat.QRCode]) == card.CARDS_PER_PAGE
    assert len(urls) == 1  # every card links the same table
    url = urls.pop()
    bare = f"http://testserver/t/{code}/"
    assert url != bare and url.startswith(bare) and f"?{LINK_TOKEN}=" in url
    assert url == _guest_link(presenter, "de", code)  # the presenter's screen's QR code
    guest = Client()  # no cookies: the phone that scanned the card
    opened = guest.get(url, follow=True)
    assert opened.status_code == 200
    # the phone opens the table in its own language (English: it sends no Accept-Language)
    assert opened.redirect_chain[-1][0].startswith(f"/en/t/{code}/?{LINK_TOKEN}=")
    assert code in opened.content.decode()


def test_presenter_page_links_the_card(client):
    code = _start(client)
    html = client.get(f"/en/teach/{code}/").content.decode()
    assert f'href="/en/teach/{code}/card.pdf"' in html and "Print a table card (PDF)" in html


def test_only_the_presenter_gets_the_card(client, monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("a PDF was rendered")

    monkeypatch.setattr(card, "render_pdf", refuse)
    code = _start(client)
    guest = Client()
    refused = guest.get(f"/en/teach/{code}/card.pdf")
    # as the presenter's other endpoints answer a guest
    assert refused.status_code == guest.get(f"/en/teach/{code}/poll/?v=1").status_code == 403
    assert refused["Problem-Code"] == "not-presenter"
    # HEAD answers what GET would, and renders nothing
    head = client.head(f"/en/teach/{code}/card.pdf")
    assert head.status_code == 200 and head["Content-Type"] == "application/pdf" and head.content == b""


def test_a_table_that_is_gone_answers_as_its_other_pages(client, monkeypatch):
    monkeypatch.setattr(card, "render_pdf", lambda *a, **k: pytest.fail("a PDF was rendered"))
    unknown = client.get("/en/teach/nosuch/card.pdf")
    assert unknown.status_code == client.get("/en/teach/nosuch/").status_code == 404
    code = _start(client)
    Table.objects.filter(code=code).update(expires_at=timezone.now() - timedelta(minutes=1))
    ended = client.get(f"/en/teach/{code}/card.pdf")
    assert ended.status_code == client.get(f"/en/teach/{code}/").status_code == 410
    assert "no-store" in ended["Cache-Control"] or "no-cache" in ended["Cache-Control"]


def test_card_renders_with_the_hashed_static_names_of_production(client, tmp_path, monkeypatch):
    """Production's manifest storage gives ``{% static %}`` hashed names: the card's
    stylesheet must still reach the render (a warning would say it did not)."""
    warnings = []
    real_render = card.render_pdf

    def recording_render(html):
        assert "/static/css/sheet.css" not in html  # the hashed name, not the source's
        result = real_render(html)
        warnings.extend(result.warnings)
        return result

    monkeypatch.setattr(card, "render_pdf", recording_render)
    code = _start(client)
    storages = {"default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
                "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.ManifestStaticFilesStorage"}}
    with override_settings(STATIC_ROOT=tmp_path / "static", STORAGES=storages, DEBUG=False):
        call_command("collectstatic", "--noinput", verbosity=0)
        response = client.get(f"/ja/teach/{code}/card.pdf")
    assert response.status_code == 200 and response.content.startswith(b"%PDF")
    assert not warnings, warnings
