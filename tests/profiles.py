"""Hypothesis profiles: how many examples each property test tries.

* ``ci`` — the count each test names with :func:`examples` (``bin/test`` and CI);
* ``dev`` — a tenth of each, at least one (``bin/test --quick``).

``HYPOTHESIS_PROFILE`` chooses (default ``ci``). A test says how many examples it wants
under ``ci``; the profile in force scales that, so one variable shortens every property
test at once. (Imported as ``profiles``; ``tests/conftest.py`` loads the profile before
any test module is collected.)
"""

from __future__ import annotations

import os

import pytest
from hypothesis import settings

#: examples of a test that names no count, under ``ci`` (Hypothesis's own default)
CI_EXAMPLES = 100

PROFILES = ("ci", "dev")
settings.register_profile("ci", max_examples=CI_EXAMPLES, deadline=None)
settings.register_profile("dev", max_examples=CI_EXAMPLES // 10, deadline=None)


def load() -> None:
    """Load the profile ``HYPOTHESIS_PROFILE`` names (``ci`` when unset or empty)."""
    name = os.environ.get("HYPOTHESIS_PROFILE") or "ci"
    if name not in PROFILES:
        raise pytest.UsageError(f"HYPOTHESIS_PROFILE must be one of {', '.join(PROFILES)}, not {name!r}")
    settings.load_profile(name)


def examples(ci_count: int) -> int:
    """``ci_count`` under the ``ci`` profile, scaled to the profile in force (at least 1)."""
    return max(1, ci_count * settings.default.max_examples // CI_EXAMPLES)
