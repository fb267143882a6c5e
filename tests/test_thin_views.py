"""Views stay thin: a form parses, a service or selector reads and decides, a template
renders. No view module (nor the API's endpoints) builds a database query itself."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
QUERY = re.compile(r"\.objects\b|\.raw\(|connection\.cursor")


def test_no_view_queries_the_database_itself():
    views = sorted([*ROOT.glob("tutorials/**/views.py"), *ROOT.glob("tutorials/api/*.py")])
    assert len(views) >= 5, "the scan found too few view modules: is the pattern still right?"
    found = [f"{path.relative_to(ROOT)}:{n}: {line.strip()}"
             for path in views
             for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if QUERY.search(line)]
    assert not found, "move these lookups into a selector or service:\n" + "\n".join(found)
