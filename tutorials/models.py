"""Saved analyzer positions: short links that never change."""

from __future__ import annotations

import secrets

from django.db import IntegrityError, models, transaction
from django.utils.translation import gettext_lazy as _

#: Letters of short codes: no look-alikes (0/O, 1/l/I).
CODE_ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz"
CODE_LENGTH = 7


def new_code() -> str:
    """A random short code, e.g. ``"k3m9xqa"``."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


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
        for _attempt in range(10):
            self.code = new_code()
            try:
                with transaction.atomic():
                    super().save(*args, **kwargs)
                return
            except IntegrityError:
                if SavedPosition.objects.filter(code=self.code).exists():
                    self.pk = None
                    continue
                raise
        raise RuntimeError("could not find a free short code")


def default_expiry():
    from datetime import timedelta

    from django.utils import timezone

    return timezone.now() + timedelta(hours=TeachSession.LIFETIME_HOURS)


class TeachSession(models.Model):
    """A table being taught: the presenter's position in the script, followed by guests.

    ``code`` is what guests type or scan (``/t/<code>/``); ``presenter_key`` lives in
    a signed cookie on the presenter's device only, so guests can follow but never
    steer. ``version`` goes up with every change; guests poll with the version they
    have and get an answer only when it moved.
    """

    LIFETIME_HOURS = 4

    code = models.CharField(max_length=16, unique=True)
    presenter_key = models.CharField(max_length=64)
    options = models.JSONField(default=dict)
    section = models.PositiveSmallIntegerField(default=0)
    board_states = models.JSONField(default=dict)
    version = models.PositiveIntegerField(default=1)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    expires_at = models.DateTimeField(default=default_expiry)

    class Meta:
        verbose_name = _("teaching session")

    def __str__(self) -> str:
        return self.code

    @property
    def expired(self) -> bool:
        from django.utils import timezone

        return timezone.now() >= self.expires_at

    @classmethod
    def start(cls, options: dict) -> TeachSession:
        """Create a session with a fresh short code and presenter key.

        Sessions that have expired are deleted on the way (they are refused anyway), so
        the table never grows without bound and old codes become free again.
        """
        from django.utils import timezone

        cls.objects.filter(expires_at__lt=timezone.now()).delete()
        for _attempt in range(10):
            code = new_code()[:5]
            if not cls.objects.filter(code=code).exists():
                return cls.objects.create(code=code, presenter_key=secrets.token_urlsafe(32),
                                          options=options)
        raise RuntimeError("could not find a free table code")
