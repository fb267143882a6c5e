"""Chips: the small links that choose a tool, a colour or a setting on a page.

A :class:`Chip` writes its own HTML (``{{ chip }}`` in a template), so a palette of twenty
chips costs one Python call each instead of a dozen template lookups.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe


@dataclass(frozen=True, slots=True)
class Chip:
    """One chip link, followed by htmx (``hx-get``) or, without JavaScript, as a link.

    Attributes:
        href: the URL the chip opens.
        inner: the chip's content, HTML already escaped (see :func:`text`).
        css: extra classes after ``chip``.
        active: the chip names the current choice (class ``active``, ``aria-current``).
        key: the keyboard shortcut the page's script binds (``data-key``), if any.
        title: tooltip text, if any.
    """

    href: str
    inner: SafeString
    css: str = ""
    active: bool = False
    key: str = ""
    title: str = ""

    def __html__(self) -> SafeString:
        url = escape(self.href)
        css = "chip" + (f" {self.css}" if self.css else "") + (" active" if self.active else "")
        attrs = [f'class="{escape(css)}"']
        if self.active:
            attrs.append('aria-current="true"')
        if self.key:
            attrs.append(f'data-key="{escape(self.key)}"')
        attrs.append(f'href="{url}" hx-get="{url}"')
        if self.title:
            attrs.append(f'title="{escape(self.title)}"')
        return mark_safe(f"<a {' '.join(attrs)}>{self.inner}</a>")  # parts escaped above

    def __str__(self) -> str:
        return self.__html__()


def text(value: object) -> SafeString:
    """Plain text as chip content (escaped)."""
    return escape(value)
