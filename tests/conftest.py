"""Shared fixtures: browser tests use Debian's chromium through Playwright."""

from __future__ import annotations

import shutil

import pytest

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    """Launch Debian's chromium (Playwright cannot download its own browser here)."""
    return {
        **browser_type_launch_args,
        "executable_path": CHROMIUM,
        "args": ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    }


@pytest.fixture(autouse=True)
def fresh_cache():
    """Every test starts with an empty cache: no rate-limit counts or render leases left by
    another test (the cache is Redis under bin/test, local memory otherwise)."""
    from django.core.cache import cache

    cache.clear()
