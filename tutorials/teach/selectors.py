"""What the teaching views read from the database: a table by the code guests type.

The views decide what a missing or ended table means for the visitor (a page, a count of
failed lookups); the queries are here, so a view never builds one itself.
"""

from __future__ import annotations

from tutorials.models import Table


def table_by_code(code: str) -> Table | None:
    """The table under ``code`` (already canonical: :func:`~tutorials.models.normalize_code`),
    expired or not; ``None`` when no table has it, or none could (not letters and digits,
    or longer than a code)."""
    if not (code.isalnum() and len(code) <= 16):
        return None
    return Table.objects.filter(code=code).first()
