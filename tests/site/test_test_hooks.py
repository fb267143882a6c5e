"""The markers browser tests wait on come from one script that only a test setting loads:
the scripts every visitor gets set none of them."""

from __future__ import annotations

from pathlib import Path

import pytest

JS = Path(__file__).resolve().parents[2] / "static" / "js"
HOOKS = "js/test-hooks.js"
MARKERS = ("dataset.requests", "dataset.settled", "dataset.stepsShown", "dataset.busy", "dataset.ready")


@pytest.mark.parametrize("on", [False, True])
def test_the_hooks_script_is_loaded_only_under_the_test_setting(client, settings, on):
    settings.TEST_HOOKS = on
    for path in ("/en/", "/ja/analyze/", "/de/teach/"):
        html = client.get(path, follow=True).content.decode()
        assert (HOOKS in html) is on, path


def test_no_production_script_sets_a_marker():
    scripts = [p for p in JS.glob("*.js") if p.name != "test-hooks.js"]
    assert len(scripts) >= 5
    for script in scripts:
        text = script.read_text()
        for marker in MARKERS:
            assert marker not in text, f"{script.name} sets {marker}"
    hooks = (JS / "test-hooks.js").read_text()
    for marker in MARKERS:
        assert marker.removeprefix("dataset.") in hooks, marker
