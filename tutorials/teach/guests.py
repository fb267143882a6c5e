"""The guests of a table: who follows it, told apart by the key in their cookie (kept only
as its hash), counted from their second request on, and how recently each asked. Their
seats and hands: :mod:`tutorials.teach.seats`."""

from __future__ import annotations

import re
import secrets
from datetime import timedelta
from typing import TypeGuard

from django.utils import timezone

from tutorials.models import Table, TableGuest, hash_key

#: a guest counts as following while they asked for the table this recently
FOLLOWING_SECONDS = 30
#: a guest's last visit is written at most this often (every poll would be a write)
SEEN_EVERY_SECONDS = 10
#: at most this many guests are counted at one table; past it, guests who left make room
GUESTS_KEPT = 64


def new_guest_key() -> str:
    return secrets.token_urlsafe(24)


def _is_key(key: str | None) -> TypeGuard[str]:
    return key is not None and re.fullmatch(r"[A-Za-z0-9_-]{32}", key) is not None


def guest_by_key(session: Table, key: str | None) -> TableGuest | None:
    """The guest of ``session`` whose cookie holds ``key`` (looked up by its hash), made
    when a browser first comes back with the key the table gave it.

    A guest is counted only from their second request on, the first that carries the
    cookie: a client that keeps no cookies then never fills the table. Past
    :data:`GUESTS_KEPT` guests, the watcher seen longest ago makes room; a seated guest
    never does, so a phone can always take a free seat."""
    if not _is_key(key):
        return None
    key_hash = hash_key(key)
    guest = TableGuest.objects.filter(session=session, key_hash=key_hash).first()
    if guest is not None:
        return guest
    excess = TableGuest.objects.filter(session=session).count() - GUESTS_KEPT + 1
    if excess > 0:
        oldest = (TableGuest.objects.filter(session=session, seats__isnull=True)
                  .order_by("seen_at").values_list("pk", flat=True)[:excess])
        TableGuest.objects.filter(pk__in=list(oldest)).delete()
    guest, _made = TableGuest.objects.get_or_create(session=session, key_hash=key_hash,
                                                   defaults={"seen_at": timezone.now()})
    return guest


def follow(session: Table, key: str | None) -> tuple[TableGuest | None, str]:
    """The guest a page view comes from (``None`` on a browser's first visit) and the key
    for the browser's cookie, a new one when it brought none. Marks the guest as seen now."""
    guest = guest_by_key(session, key)
    if guest is None:
        return None, new_guest_key()
    seen(guest)
    return guest, key or ""


def seen(guest: TableGuest) -> None:
    """Note that ``guest`` asked for the table now (written at most every few seconds)."""
    now = timezone.now()
    if (now - guest.seen_at).total_seconds() >= SEEN_EVERY_SECONDS:
        TableGuest.objects.filter(pk=guest.pk).update(seen_at=now)
        guest.seen_at = now


def still_here(session: Table, key: str | None) -> None:
    """:func:`seen` for the guest whose cookie holds ``key``, told by their open stream (a
    key the table does not know counts no one)."""
    if _is_key(key):
        now = timezone.now()
        TableGuest.objects.filter(session=session, key_hash=hash_key(key),
                                  seen_at__lt=now - timedelta(seconds=SEEN_EVERY_SECONDS)).update(seen_at=now)


def following(session: Table) -> int:
    """How many guests asked for the table in the last :data:`FOLLOWING_SECONDS`."""
    since = timezone.now() - timedelta(seconds=FOLLOWING_SECONDS)
    return TableGuest.objects.filter(session=session, seen_at__gte=since).count()
