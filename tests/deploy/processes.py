"""Processes as Linux's /proc shows them, and waiting for a condition on them: the deploy
tests and their harness."""

from __future__ import annotations

import time
from pathlib import Path


def children(pid: int) -> list[int]:
    """The process ids of ``pid``'s children (none once it is gone)."""
    try:
        return [int(child) for child in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except FileNotFoundError:
        return []


def alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie does not)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def cpu_seconds(pid: int) -> float:
    """CPU time ``pid`` has used so far, all its threads (a gthread worker answers in a thread
    of its pool), in seconds to the nanosecond: each thread's ``schedstat`` (time on a CPU),
    not ``stat``'s clock ticks, which are too coarse for one request. A thread that ended
    no longer counts; 0.0 once the process is gone."""
    total = 0
    try:
        tasks = list(Path(f"/proc/{pid}/task").iterdir())
    except FileNotFoundError:
        return 0.0
    for task in tasks:
        try:
            total += int((task / "schedstat").read_text().split()[0])
        except (FileNotFoundError, ProcessLookupError):
            continue  # the thread ended meanwhile
    return total / 1e9


def wait_for(condition, seconds: float, what: str):
    """``condition()``'s first true value within ``seconds``; fails the test with ``what``."""
    deadline = time.monotonic() + seconds
    while not (found := condition()):
        assert time.monotonic() < deadline, what
        time.sleep(0.05)
    return found


def in_session(sid: int) -> list[int]:
    """The live processes of session ``sid`` (started by a process of its own session, as
    the harness starts each unit's process): its descendants, and any reparented after their
    parent died, unless one left the session itself (setsid)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except (FileNotFoundError, ProcessLookupError):
                continue
            if int(fields[3]) == sid and fields[0] != "Z":
                found.append(int(entry.name))
    return found
