"""Link tokens: the part of a shared link that proves the site wrote it.

A table's QR code and a saved position's short link carry ``?k=<token>``, a keyed hash
(HMAC-SHA256 under ``SECRET_KEY`` and a salt of each kind of link) of the code, cut to 96
bits and written url-safe in 16 characters. The site can check a token without a
database row, and nobody can make one without the secret key, so a request with the right
token for its code was given the link and is no guess: it is neither refused by nor
counted in the failed-lookup limits (``table-miss``, ``code-miss``,
:mod:`tutorials.web.limits`). A wrong token is no token: that request is limited like a
code typed by hand, which keeps scanning bounded and the limit no oracle.

The code people type by hand stays short; only the links carry the token.
"""

from __future__ import annotations

import base64
from urllib.parse import urlencode

from django.http import HttpRequest
from django.utils.crypto import constant_time_compare, salted_hmac

#: the query parameter that carries a link's token
PARAMETER = "k"
#: bytes of the keyed hash kept: 96 bits, 16 url-safe characters
_BYTES = 12


class LinkToken:
    """The tokens of one kind of link, bound to the code they open by ``salt``: a token of
    a table never opens a position, and a table's token never opens another table."""

    def __init__(self, salt: str) -> None:
        self.salt = f"tutorials.web.link_tokens.{salt}"

    def of(self, code: str) -> str:
        """The token of ``code`` (its canonical form)."""
        digest = salted_hmac(self.salt, code, algorithm="sha256").digest()[:_BYTES]
        return base64.urlsafe_b64encode(digest).decode("ascii")

    def url(self, path: str, code: str) -> str:
        """``path`` with the token of ``code`` in its query."""
        return f"{path}?{urlencode({PARAMETER: self.of(code)})}"

    def opens(self, request: HttpRequest, code: str) -> bool:
        """Whether ``request`` carries the right token for ``code`` (exactly one ``k``)."""
        given = request.GET.getlist(PARAMETER)
        return len(given) == 1 and constant_time_compare(given[0], self.of(code))

    def carried(self, request: HttpRequest, path: str, code: str) -> str:
        """``path`` with the token for ``code`` when ``request`` carries it (a redirect
        that must keep the link's token), else ``path`` alone: a wrong token is dropped."""
        return self.url(path, code) if self.opens(request, code) else path


#: the guest link of a teaching table (its QR code on the presenter's screen)
TABLE_LINK = LinkToken("table")
#: the short link ``/p/<code>/`` of a saved position, as the site gives it for sharing
SHORT_LINK = LinkToken("short-link")
