"""Saved analyzer positions (short links that never change), teaching tables and practice games.

Tables and games are :class:`VersionedRow`\\ s: rows that several requests change (two
presenter tabs, a learner's move racing the captains' catch-up), each change made from a
version that was read and written only if the row is still at it; and rows that expire.
Their secret (the presenter's key, the learner's key) is stored only as a hash
(:func:`hash_key`) and compared in constant time (:func:`key_opens`).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from datetime import datetime, timedelta
from typing import ClassVar

from django.db import IntegrityError, models, transaction
from django.dispatch import Signal
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from captain.rules.typed import normalize_typed

#: Letters of short codes: no look-alikes (0/O, 1/l/I).
CODE_ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz"
CODE_LENGTH = 7


def new_code() -> str:
    """A random short code, e.g. ``"k3m9xqa"``."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def normalize_code(text: str) -> str:
    """A code as people type it, made canonical: read as every typed text is
    (:func:`~captain.rules.typed.normalize_typed`: full-width characters folded, "３２ｐ８３"
    from a Japanese keyboard is "32p83"; invisible characters dropped), then lower case,
    spaces and hyphens dropped."""
    folded = normalize_typed(text, where="code").casefold()
    return "".join(ch for ch in folded if not ch.isspace() and ch not in "-‐‑‒–—―ー")[:64]


def hash_key(key: str) -> str:
    """What is stored of a secret key: its SHA-256, 64 hex digits. The key itself lives
    only in its holder's cookie (or API client), so a copy of the database opens nothing."""
    return hashlib.sha256(key.encode()).hexdigest()


def key_opens(stored_hash: str, key: str | None) -> bool:
    """Whether ``key`` is the secret whose hash is ``stored_hash``, compared in constant
    time (a wrong key's answer takes as long however much of it is right)."""
    return bool(key) and hmac.compare_digest(stored_hash.encode(), hash_key(key).encode())


def insert_with_free_code(row: models.Model, make_code, what: str) -> None:
    """Insert ``row`` under a code from ``make_code()``, trying another one when taken.

    Insert first and let the unique constraint judge: a check that the code is free
    followed by an insert would race with another worker inserting the same code in
    between. Any other integrity error is raised as it is; ``RuntimeError`` after ten
    taken codes in a row (``what`` names the kind of code in its message).
    """
    for _attempt in range(10):
        row.code = make_code()
        try:
            with transaction.atomic():
                models.Model.save(row, force_insert=True)
            return
        except IntegrityError:
            if type(row).objects.filter(code=row.code).exists():
                row.pk = None
                continue
            raise
    raise RuntimeError(f"could not find a free {what}")


class SavedPosition(models.Model):
    """A position saved from the analyzer, reachable at ``/p/<code>/``.

    Rows are written once and never changed (:meth:`save` refuses updates), so a
    shared link always shows what was shared. ``notation_version`` records the
    notation grammar the text was written in, so later grammars can still read it.
    """

    code = models.CharField(_("code"), max_length=16, unique=True, editable=False)
    notation = models.TextField(_("position"))
    notation_version = models.PositiveSmallIntegerField(default=1, editable=False)
    title = models.CharField(_("title"), max_length=120, blank=True)
    created_at = models.DateTimeField(_("saved at"), auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("saved position")
        verbose_name_plural = _("saved positions")

    def __str__(self) -> str:
        return f"{self.code}: {self.title or self.notation[:40]}"

    def save(self, *args, **kwargs) -> None:
        """Insert only. Raises ``ValueError`` when asked to change a saved row."""
        if self.pk is not None:
            raise ValueError("saved positions are never changed")
        insert_with_free_code(self, new_code, "short code")


# --- versioned rows: teaching tables and practice games -------------------------------------
class Stale(Exception):
    """A change was made from a version of a row (a table, a game) that is no longer
    current: another screen or request changed it first."""

    def __init__(self, row: VersionedRow, seen: int) -> None:
        super().__init__(f"{type(row).__name__} {row.code} is no longer at version {seen}")
        self.code = row.code
        self.seen = seen


def expiry(hours: int, start: datetime | None = None) -> datetime:
    """The moment ``hours`` after ``start`` (default: now)."""
    return (start or timezone.now()) + timedelta(hours=hours)


class VersionedRow(models.Model):
    """A row changed only from a version that was read, and that lives
    :attr:`LIFETIME_HOURS` from its start.

    ``version`` goes up by one with every change (:meth:`change`); a request that read the
    row at version ``seen`` either writes its change from ``seen`` or gets :class:`Stale`
    and writes nothing, so of two changes made from the same version neither is lost
    unnoticed. ``expires_at`` is given when the row is made (:meth:`lifetime_end`); rows
    past it are refused by their readers and deleted when the next row of their kind
    starts (:meth:`delete_expired`).
    """

    LIFETIME_HOURS: ClassVar[int]

    version = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)
    expires_at = models.DateTimeField()

    class Meta:
        abstract = True

    @classmethod
    def lifetime_end(cls, start: datetime | None = None) -> datetime:
        """When a row started at ``start`` (default: now) expires."""
        return expiry(cls.LIFETIME_HOURS, start)

    @classmethod
    def delete_expired(cls, now: datetime | None = None) -> None:
        """Delete the rows expired by ``now``: they are refused anyway, the table never
        grows without bound and their codes become free again."""
        cls.objects.filter(expires_at__lt=now or timezone.now()).delete()

    @property
    def expired(self) -> bool:
        return timezone.now() >= self.expires_at

    def expect(self, seen: int) -> None:
        """Raise :class:`Stale` unless this row, as read, is at version ``seen``: a
        change chosen on a screen that showed another version is not made at all (even
        one that would change nothing)."""
        if seen != self.version:
            raise Stale(self, seen)

    def change(self, seen: int, **fields) -> None:
        """Write ``fields`` (model field name -> new value) if the row is still at version
        ``seen``, and move the version on by one.

        One ``UPDATE … WHERE version = seen``: of two changes made from the same version,
        only the first is written. Raises :class:`Stale` (and changes nothing, in the row
        or in this object) when the row has moved on from ``seen`` or no longer exists.
        """
        now = timezone.now()
        updated = type(self).objects.filter(pk=self.pk, version=seen).update(
            version=seen + 1, updated_at=now, **fields)
        if not updated:
            raise Stale(self, seen)
        for name, value in fields.items():
            setattr(self, name, value)
        self.version, self.updated_at = seen + 1, now


#: Sent (``sender=Table``, ``code=``) when a table changed in a way some screen
#: following it shows: a move (a new version), a seat taken or freed, a card a player
#: entered. The live streams pass it on (tutorials.teach.live).
table_changed = Signal()


class Table(VersionedRow):
    """A table being taught: the presenter's position in the script, followed by guests.

    ``code`` is what guests type or scan (``/t/<code>/``); the presenter's key lives in a
    signed cookie on the presenter's device only and is stored as its :func:`hash_key`
    (``presenter_key_hash``), so guests can follow but never steer. Guests poll with the
    version they have and get an answer only when it moved.
    """

    LIFETIME_HOURS = 4

    code = models.CharField(max_length=16, unique=True)
    presenter_key_hash = models.CharField(max_length=64)
    options = models.JSONField(default=dict)
    section = models.PositiveSmallIntegerField(default=0)
    board_states = models.JSONField(default=dict)
    #: a new table is at version 1 (the screens' first version; 0 is never shown)
    version = models.PositiveIntegerField(default=1)
    created_at = models.DateTimeField(auto_now_add=True)
    #: when the presenter first moved on (the whole-teach timer starts there) and when the
    #: current section was reached; both survive reloads and show on every screen
    started_at = models.DateTimeField(null=True, blank=True)
    section_since = models.DateTimeField(null=True, blank=True)
    #: the round the table's seats enter cards for, whether its cards are revealed, and
    #: whether the last seated player's entry reveals them (:mod:`tutorials.teach.seats`)
    round = models.PositiveSmallIntegerField(default=1)
    revealed = models.BooleanField(default=False)
    reveal_when_all = models.BooleanField(default=False)
    #: goes up with every change of a seat (taken, freed, a card entered): the screens'
    #: polls ask for it beside ``version``, but no move or board action is refused for it,
    #: so guests entering cards never make the presenter's Next stale
    seating = models.PositiveIntegerField(default=0)
    #: a presenter handover link's key, hashed, and until when it opens
    handover_key_hash = models.CharField(max_length=64, blank=True, default="")
    handover_until = models.DateTimeField(null=True, blank=True)
    #: the screen of the current section a projector shows (:mod:`tutorials.teach.screen`;
    #: 0 again at every section move), and when a projector last asked for the table: the
    #: presenter's Next and Back step through the screens only while one is open
    screen = models.PositiveSmallIntegerField(default=0)
    projector_seen_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("teaching session")

    def __str__(self) -> str:
        return self.code

    @classmethod
    def start(cls, options: dict) -> tuple[Table, str]:
        """Create a session with a fresh short code and presenter key; returns the row and
        the key (given once, to the presenter's cookie; the row keeps only its hash).

        The code is inserted first and replaced when taken (:func:`insert_with_free_code`).
        Sessions that have expired are deleted on the way (:meth:`delete_expired`).
        """
        cls.delete_expired()
        key = secrets.token_urlsafe(32)
        now = timezone.now()
        # both timers run from the table's first section: the teach starts with it
        session = cls(presenter_key_hash=hash_key(key), options=options, expires_at=cls.lifetime_end(now),
                      started_at=now, section_since=now)
        insert_with_free_code(session, lambda: new_code()[:5], "table code")
        return session, key

    def change(self, seen: int, **fields) -> None:
        super().change(seen, **fields)
        table_changed.send(Table, code=self.code)

    def projector_asked(self) -> None:
        """Note that a projector shows this table now; not a change of the table (no new
        version: the presenter's screen, made from the version it shows, stays current)."""
        now = timezone.now()
        type(self).objects.filter(pk=self.pk).update(projector_seen_at=now)
        self.projector_seen_at = now

    def presented_by(self, key: str | None) -> bool:
        """Whether ``key`` (from the presenter's cookie) is this table's presenter key."""
        return key_opens(self.presenter_key_hash, key)

    #: how long a handover link opens after the presenter made it
    HANDOVER_MINUTES = 10

    def offer_handover(self) -> str | None:
        """A fresh handover key (given once, for the link; the row keeps only its hash),
        open for :attr:`HANDOVER_MINUTES`; a newer one replaces an older one.

        Written only while the presenter key is the one read with this row: a device whose
        role was taken in between makes no link. ``None`` then.
        """
        key = secrets.token_urlsafe(24)
        until = timezone.now() + timedelta(minutes=self.HANDOVER_MINUTES)
        offered = type(self).objects.filter(pk=self.pk, presenter_key_hash=self.presenter_key_hash).update(
            handover_key_hash=hash_key(key), handover_until=until)
        if not offered:
            return None
        self.handover_key_hash, self.handover_until = hash_key(key), until
        return key

    def hand_over(self, key: str) -> str | None:
        """Give the presenter role to the holder of the handover key ``key``: a new
        presenter key (returned, for the new device's cookie; the old device's key no
        longer opens) and no handover key any more, so the link works once.

        One ``UPDATE`` whose condition is the handover key itself, still open: of two
        devices taking the same link at once, only one is written. ``None`` for the other,
        and when the link has closed or was replaced meanwhile.
        """
        new_key = secrets.token_urlsafe(32)
        now = timezone.now()
        taken = type(self).objects.filter(pk=self.pk, handover_key_hash=hash_key(key),
                                          handover_until__gt=now).update(
            presenter_key_hash=hash_key(new_key), handover_key_hash="", handover_until=None, updated_at=now)
        if not taken:
            return None
        self.presenter_key_hash, self.handover_key_hash, self.handover_until = hash_key(new_key), "", None
        self.updated_at = now
        return new_key


class TableGuest(models.Model):
    """One browser following a table: its key (in the guest's cookie; stored hashed) and
    when it last asked for the table, so the presenter sees how many follow."""

    session = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="guests")
    key_hash = models.CharField(max_length=64)
    seen_at = models.DateTimeField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["session", "key_hash"], name="one_guest_per_key")]


class TableSeat(models.Model):
    """One colour at a table: who sits there (a guest, or nobody: a player without a
    phone) and that player's cards as the phone keeps them.

    ``cards`` are the cards laid face down this round, by position (``"1-2": 3``), which
    nobody but the seat's own guest sees before the table's reveal; ``discard`` the speeds
    in the discard pile. ``locked`` closes the entries at the reveal: an entry is written
    with ``locked = false`` in its condition, so none slips in after the cards were read.
    ``ready`` says the player has laid every card of this round; ``version`` goes up with
    every change (two taps at once never lose one).
    """

    session = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    colour = models.CharField(max_length=8)
    guest = models.ForeignKey(TableGuest, on_delete=models.SET_NULL, null=True, blank=True,
                              related_name="seats")
    cards = models.JSONField(default=dict)
    discard = models.JSONField(default=list)
    locked = models.BooleanField(default=False)
    #: the player said every card of theirs is down (the reveal can come when all are)
    ready = models.BooleanField(default=False)
    version = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["session", "colour"], name="one_seat_per_colour"),
            models.UniqueConstraint(fields=["guest"], condition=models.Q(guest__isnull=False),
                                    name="one_seat_per_guest"),
        ]


class PracticeGame(VersionedRow):
    """A practice game: one learner against computer captains.

    ``setup`` holds what deals the game and drives the captains (seats, the learner's
    colour, rules, strengths, pace, the game's seed and the captains' own seed);
    ``log`` every action so far as ``[seconds since the start, action JSON, by the
    learner]``; ``clocks`` the captains' bookkeeping (see
    :class:`captain.rules.captains.practice.Practice`); ``marks[v]`` how many log entries
    version ``v`` had, so a client asks for the events since the version it has;
    ``takebacks`` the moves the learner took back (strategy mode), each as ``{"round",
    "after", "action"}``: the round, how many log entries stayed, the move's JSON.
    Replaying ``log`` through the engine from the deal gives the game exactly (played
    with ``engine_version``). The learner's key is stored only as its :func:`hash_key`;
    the share token shows the finished game read-only. Games expire after
    :attr:`LIFETIME_HOURS`.
    """

    LIFETIME_HOURS = 24

    code = models.CharField(max_length=16, unique=True)
    key_hash = models.CharField(max_length=64)
    share_token = models.CharField(max_length=32, unique=True)
    setup = models.JSONField(default=dict)
    log = models.JSONField(default=list)
    clocks = models.JSONField(default=dict)
    marks = models.JSONField(default=list)
    takebacks = models.JSONField(default=list)
    engine_version = models.PositiveSmallIntegerField()
    started_at = models.DateTimeField(default=timezone.now)

    class Meta:
        verbose_name = _("practice game")

    def __str__(self) -> str:
        return self.code
