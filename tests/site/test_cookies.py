"""The per-object signed cookies (tutorials.web.cookies): one kind never reads as another,
a cookie of one object never as another's, and none outlives its object."""

from __future__ import annotations

import time
from unittest import mock

import pytest
from django.http import HttpResponse
from django.test import RequestFactory

from tutorials.models import PracticeGame, Table
from tutorials.play.views import LEARNER
from tutorials.teach.access import GUEST, PRESENTER

KINDS = [(PRESENTER, Table.LIFETIME_HOURS), (GUEST, Table.LIFETIME_HOURS),
         (LEARNER, PracticeGame.LIFETIME_HOURS)]


def _given(cookie, code: str, value: str, *, secure: bool = False):
    """A request that carries the cookie ``cookie`` gives for ``code``, and that cookie."""
    request = RequestFactory().get("/", secure=secure)
    response = HttpResponse()
    cookie.give(request, response, code, value)
    morsel = response.cookies[cookie.name(code)]
    holder = RequestFactory().get("/")
    holder.COOKIES[morsel.key] = morsel.value
    return holder, morsel


@pytest.mark.parametrize("cookie, hours", KINDS)
def test_each_kind_is_httponly_lax_and_lives_as_long_as_its_object(cookie, hours):
    holder, morsel = _given(cookie, "abcde", "secret", secure=True)
    assert morsel["httponly"] and morsel["samesite"] == "Lax" and morsel["secure"]
    assert morsel["max-age"] == hours * 3600
    assert morsel.value != "secret" and cookie.read(holder, "abcde") == "secret"
    assert cookie.read(holder, "abcdf") is None  # another object's cookie opens nothing
    assert not _given(cookie, "abcde", "secret")[1]["secure"]  # plain HTTP (the dev server)


def test_a_cookie_of_one_kind_never_reads_as_another():
    holder, morsel = _given(GUEST, "abcde", "1")
    holder.COOKIES[PRESENTER.name("abcde")] = morsel.value  # a guest's mark renamed
    assert PRESENTER.read(holder, "abcde") is None


def test_a_signature_older_than_the_object_is_refused():
    holder, _morsel = _given(PRESENTER, "abcde", "secret")
    later = time.time() + Table.LIFETIME_HOURS * 3600 + 5
    with mock.patch("django.core.signing.time.time", return_value=later):
        assert PRESENTER.read(holder, "abcde") is None


@pytest.mark.django_db
def test_a_browser_holds_a_bounded_number_of_table_cookies(client, settings):
    """Presenting or following table after table forgets the oldest table's cookie, as the
    practice games do: every cookie goes with every request, and past the servers' header
    limit the browser would be locked out of the whole site."""
    settings.RATE_LIMITS = {group: "1000/m" for group in settings.RATE_LIMITS}
    for _ in range(PRESENTER.keep + 3):
        started = client.post("/en/teach/", {"players": "3", "mode": "action", "script": "quick"})
        assert started.status_code == 302
    followed = [Table.start({"players": 3, "mode": "action", "script": "quick"})[0]
                for _ in range(GUEST.keep + 3)]
    for table in followed:
        assert client.get(f"/en/t/{table.code}/").status_code == 200
    held = [name for name, c in client.cookies.items() if c.value]
    assert sum(name.startswith(PRESENTER.prefix) for name in held) == PRESENTER.keep
    assert sum(name.startswith(GUEST.prefix) for name in held) == GUEST.keep
    # the table opened last is kept, and reopening a kept table forgets nothing
    assert GUEST.name(followed[-1].code) in held
    client.get(f"/en/t/{followed[-1].code}/")
    assert sum(name.startswith(GUEST.prefix) for name, c in client.cookies.items() if c.value) == GUEST.keep
