"""The /proc readings the deploy tests and benchmarks rely on."""

from __future__ import annotations

import os
import threading
import time

from processes import cpu_seconds


def _spin(seconds: float) -> None:
    """Use ``seconds`` of this thread's CPU time."""
    until = time.thread_time() + seconds
    while time.thread_time() < until:
        pass


def test_cpu_seconds_counts_the_work_of_every_thread_finely():
    """A gthread worker answers in a thread of its pool, not its main thread: what that
    thread spends counts, to well under a clock tick (10 ms)."""
    spun, release = threading.Event(), threading.Event()

    def answer() -> None:
        _spin(0.004)
        spun.set()
        release.wait(30)

    before = cpu_seconds(os.getpid())
    thread = threading.Thread(target=answer)
    thread.start()
    try:
        assert spun.wait(30)
        spent = cpu_seconds(os.getpid()) - before
    finally:
        release.set()
        thread.join()
    assert 0.004 <= spent < 0.1


def test_cpu_seconds_of_a_process_that_is_gone_is_zero():
    assert cpu_seconds(2 ** 22 + 12345) == 0.0
