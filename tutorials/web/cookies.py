"""A secret per object in a signed cookie: the presenter's key of a table, a guest's mark
that the browser follows a table, the learner's key of a practice game.

Each kind is one :class:`SignedCookie`: a name prefix (the object's code follows it), a
salt of its own (a cookie of one kind never reads as another), and the object's lifetime,
which is both the cookie's ``max_age`` and the oldest signature it still accepts. The
cookie is HttpOnly (no script reads the key), ``SameSite=Lax`` (sent when a guest opens a
link, not with another site's POST) and ``Secure`` over HTTPS.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.core import signing
from django.http import HttpRequest, HttpResponse


@dataclass(frozen=True)
class SignedCookie:
    """One kind of per-object cookie: ``<prefix><code>``, signed with ``salt``, kept for
    ``hours``; a browser holds at most ``keep`` of the kind (the newest)."""

    prefix: str
    salt: str
    hours: int
    keep: int = 12

    @property
    def max_age(self) -> int:
        return self.hours * 3600

    def name(self, code: str) -> str:
        return f"{self.prefix}{code}"

    def read(self, request: HttpRequest, code: str) -> str | None:
        """The value this browser holds for ``code``; ``None`` when it has none, or one
        whose signature is wrong or older than :attr:`hours`."""
        return request.get_signed_cookie(self.name(code), default=None, salt=self.salt,
                                         max_age=self.max_age)

    def give(self, request: HttpRequest, response: HttpResponse, code: str, value: str) -> None:
        """Set the cookie of ``code`` to ``value`` on ``response``; a new one makes the
        oldest of its kind go, past :attr:`keep` (:meth:`_forget_oldest`)."""
        if self.name(code) not in request.COOKIES:
            self._forget_oldest(request, response)
        response.set_signed_cookie(self.name(code), value, salt=self.salt, max_age=self.max_age,
                                   httponly=True, samesite="Lax", secure=request.is_secure())

    def _forget_oldest(self, request: HttpRequest, response: HttpResponse) -> None:
        """Delete the oldest cookies of this kind, so that with one more set on
        ``response`` at most :attr:`keep` remain (oldest by the time in their signature,
        unreadable ones first). Each cookie goes with every request: without a bound,
        someone opening object after object would pass the servers' header limit."""
        def signed_at(value: str) -> int:
            try:
                return signing.b62_decode(value.rsplit(":", 2)[1])
            except (IndexError, ValueError):
                return -1

        names = sorted((n for n in request.COOKIES if n.startswith(self.prefix)),
                       key=lambda n: signed_at(request.COOKIES[n]))
        for name in names[:max(0, len(names) - self.keep + 1)]:
            response.delete_cookie(name, samesite="Lax")
