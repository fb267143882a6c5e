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
