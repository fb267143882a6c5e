"""Readers of the site's wording, shared by the site tests."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def english_messages() -> list[str]:
    """Every English source message of the site longer than a few words."""
    po = (ROOT / "locale" / "ja" / "LC_MESSAGES" / "django.po").read_text(encoding="utf-8")
    msgids = []
    for block in po.split("\n\n"):
        m = re.search(r'^msgid ((?:".*"\n?)+)', block, re.M)
        if not m:
            continue
        text = "".join(re.findall(r'"(.*)"', m.group(1))).replace('\\"', '"')
        plain = re.sub(r"%\(\w+\)s|<[^>]+>|\{\{.*?\}\}", "|", text)
        # the longest literal stretch of the message must not appear on the page
        longest = max(plain.split("|"), key=len).strip()
        if len(longest.split()) >= 4:
            msgids.append(longest)
    return msgids


@dataclass(frozen=True)
class Entry:
    """One message of a catalogue: its source texts, its translations and its state."""

    context: str
    msgid: str
    plural: str
    msgstrs: tuple[str, ...]
    fuzzy: bool
    sources: tuple[str, ...]

    @property
    def translated(self) -> bool:
        return not self.fuzzy and all(self.msgstrs)


def _po_text(block: str, key: str) -> str:
    m = re.search(rf'^{key} ((?:".*"\n?)+)', block, re.M)
    return "".join(re.findall(r'"(.*)"', m.group(1))).replace('\\"', '"') if m else ""


@cache
def catalogue(lang: str) -> tuple[Entry, ...]:
    """The live messages (no header, nothing obsolete) of ``lang``'s catalogue."""
    po = (ROOT / "locale" / lang / "LC_MESSAGES" / "django.po").read_text(encoding="utf-8")
    out = []
    for block in po.split("\n\n"):
        msgid = _po_text(block, "msgid")
        if not msgid or block.lstrip().startswith("#~"):
            continue
        forms = len(re.findall(r"^msgstr\[", block, re.M))
        msgstrs = [_po_text(block, re.escape(f"msgstr[{n}]")) for n in range(forms)] if forms else [
            _po_text(block, "msgstr")]
        sources = tuple(ref.rsplit(":", 1)[0] for line in re.findall(r"^#: (.*)$", block, re.M)
                        for ref in line.split())
        out.append(Entry(_po_text(block, "msgctxt"), msgid, _po_text(block, "msgid_plural"),
                         tuple(msgstrs), bool(re.search(r"^#,.*\bfuzzy\b", block, re.M)), sources))
    return tuple(out)


def source_messages(source: str) -> tuple[Entry, ...]:
    """The messages ``source`` (a path from the project root) uses, as the Japanese
    catalogue lists them."""
    return tuple(e for e in catalogue("ja") if source in e.sources)


def message_pattern(message: str) -> re.Pattern[str]:
    """A pattern matching exactly the texts ``message`` gives, each ``%(name)s`` a named
    group (the same name twice must read the same both times, but for a capital letter
    at the start of a sentence)."""
    parts, seen = [], set()
    for literal, name in re.findall(r"((?:[^%]|%%)*)(?:%\((\w+)\)s|$)", message):
        parts.append(re.escape(literal.replace("%%", "%")))
        if name:
            parts.append(f"(?i:(?P={name}))" if name in seen else f"(?P<{name}>.+?)")
            seen.add(name)
    return re.compile("".join(parts) + r"\Z", re.S)


def translated_everywhere(english: str, langs: tuple[str, ...] = ("ja", "de")) -> list[str]:
    """The languages of ``langs`` whose catalogue lacks a finished translation of the
    English source message ``english`` (singular or plural)."""
    return [lang for lang in langs
            if not any(english in (e.msgid, e.plural) and e.translated for e in catalogue(lang))]


def english_forms(entry: Entry) -> tuple[str, ...]:
    """What the English site shows for ``entry``: the English catalogue's own wording
    where it has one, else the source message (singular and plural)."""
    for e in catalogue("en"):
        if (e.context, e.msgid) == (entry.context, entry.msgid) and any(e.msgstrs):
            return tuple(e.msgstrs)
    return tuple(filter(None, (entry.msgid, entry.plural)))
