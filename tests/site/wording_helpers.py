"""Readers of the site's wording, shared by the site tests."""

from __future__ import annotations

import re
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
