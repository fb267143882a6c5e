"""The printable table card: ``/<lang>/teach/<code>/card.pdf``, presenter only.

One A4 page cut into four A6 cards to lay on the table, one in each language of the site
(the presenter's first, then the others in the site's order) and a spare in the
presenter's: the table code in large type, the QR code with the same token link as the
presenter's screen, the short address to type, and how to join, take a seat and how long
the code works. Each card is rendered in its own language; the page goes through the same
render as the rule sheets (:mod:`tutorials.rendering.pdf`: fonts, static files, no network).
"""

from __future__ import annotations

import logging

import segno
from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from tutorials.models import Table
from tutorials.rendering.pdf import pdf_quota, render_pdf
from tutorials.teach.access import forbidden, is_presenter, live_session, table_view
from tutorials.teach.views import guest_addresses

logger = logging.getLogger(__name__)

#: A4 holds exactly four A6 cards (2 × 2)
CARDS_PER_PAGE = 4


def card_languages(first: str) -> list[str]:
    """The cards' languages: ``first``, the others in the site's order, and ``first``
    again on the spare that fills the page."""
    others = [code for code, _name in settings.LANGUAGES if code != first]
    cards = [first, *others]
    return (cards * CARDS_PER_PAGE)[:CARDS_PER_PAGE] if len(cards) < CARDS_PER_PAGE else cards


def _card(lang: str, session: Table, addresses: dict, qr) -> str:
    """One card in ``lang``: every text on it, the QR code's alternative text among them."""
    with translation.override(lang):
        # its <title> is the QR code's text alternative (the Figure's /Alt in the tagged PDF)
        svg = qr.svg_inline(scale=4, dark="#11394a", light=None,
                            title=_("QR code: follow this table, %(url)s") % {"url": addresses["qr_url"]})
        return render_to_string("teach/card.html#card", {
            "lang": lang, "session": session, "qr_svg": svg, **addresses,
            "hours": Table.LIFETIME_HOURS})


def card_html(request: HttpRequest, session: Table) -> str:
    """The page the cards are printed from, in the request's language around them."""
    addresses = guest_addresses(request, session)
    qr = segno.make(addresses["qr_url"], error="m")
    cards = [_card(lang, session, addresses, qr) for lang in card_languages(get_language())]
    return render_to_string("teach/card.html", {"cards": cards, "session": session, "lang": get_language()})


@require_safe
@table_view
def teach_card(request: HttpRequest, code: str) -> HttpResponse:
    """The table's cards as a PDF, rendered on each request (a table lives four hours: no
    cache would be read twice); ``HEAD`` answers the headers and renders nothing."""
    session = live_session(request, code)
    if not is_presenter(request, session):
        return forbidden(_("Only the person teaching can print the table's card."))
    if request.method == "HEAD":
        response = HttpResponse(content_type="application/pdf")
    else:
        pdf_quota(request)()  # before the page is made: a render handed over makes none here
        rendered = render_pdf(card_html(request, session))
        if rendered.warnings:
            logger.error("table card rendered with warnings: %s", "; ".join(rendered.warnings))
        response = HttpResponse(rendered.pdf, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="captain-dice-table-{session.code}.pdf"'
    return response
