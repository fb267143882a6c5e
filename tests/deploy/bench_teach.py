"""Teaching-table latency in the deployed configuration: ``bin/bench-teach`` (prints
figures; no goal is asserted, the browser tests only use a generous timeout).

gunicorn with three workers and Redis, as docs/production.md deploys it. A presenter moves a
quick-start table on every 2.5 s; guests in ja/en/de poll once a second, as the guest page
does (htmx ``every 1s``). For each move and guest: the time from the presenter's answer to
the first poll that shows the new section. Prints the median and the maximum (the poll
interval, 1 s, is most of it), how many moves reached every guest, and the poll errors; and
the same for the projector view opened in the presenter's browser, which polls once a second
too (while it is open, a move may step its screens rather than the sections: every move is
a new version of the table all the same).
"""

from __future__ import annotations

import os
import re
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "captain.settings")

import django  # noqa: E402

django.setup()  # the test module below imports the site's models

from harness import release_steps, serve, start_redis  # noqa: E402
from test_shared_limits import Browser  # noqa: E402

MOVES, GUESTS, MOVE_EVERY = 20, 9, 2.5


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        (folder / "redis").mkdir()
        with start_redis(folder / "redis") as redis_base:
            database = f"sqlite:///{folder / 'db.sqlite3'}"
            release = release_steps(folder / "production", redis_base, database, prerender=False)
            with serve(release, workers=3, name="bench-teach") as server:
                presenter = Browser(server, "198.18.20.1", lang="ja")
                code = presenter.start_table()
                moved_at: dict[int, float] = {}   # version -> when the presenter's answer came
                # the guests', then the projector's
                seen: list[dict[int, float]] = [dict() for _ in range(GUESTS + 1)]
                errors = []
                done = threading.Event()

                def guest(i: int) -> None:
                    if i == GUESTS:  # the projector: the presenter's cookies, its own poll
                        browser = Browser(server, "198.18.20.1", lang="ja")
                        browser.cookies = dict(presenter.cookies)
                        page = f"/ja/teach/{code}/screen/"
                    else:
                        browser = Browser(server, f"198.18.21.{i + 1}", lang=("ja", "en", "de")[i % 3])
                        page = f"/{browser.lang}/t/{code}/"
                    browser.request("GET", page)
                    version = 1
                    while not done.is_set():
                        started = time.monotonic()
                        poll = (f"{page}?v={version}" if i == GUESTS
                                else f"/{browser.lang}/t/{code}/poll/?v={version}")
                        status, _h, body = browser.request("GET", poll, **{"HX-Request": "true"})
                        if status not in (200, 204):
                            errors.append(status)
                        found = re.search(rb'data-version="(\d+)"', body)
                        if status == 200 and found:
                            version = int(found[1])
                            seen[i].setdefault(version, time.monotonic())
                        time.sleep(max(0.0, 1 - (time.monotonic() - started)))

                threads = [threading.Thread(target=guest, args=(i,)) for i in range(GUESTS + 1)]
                for thread in threads:
                    thread.start()
                time.sleep(2)
                for n in range(MOVES):
                    to = n % 8 + 1  # the script before the round, whose cards must be entered
                    status, _h, _b = presenter.request("POST", f"/ja/teach/{code}/go/",
                                                       {"to": str(to), "v": str(n + 1)})
                    moved_at[n + 2] = time.monotonic()
                    assert status == 302, status
                    time.sleep(MOVE_EVERY)
                time.sleep(2)
                done.set()
                for thread in threads:
                    thread.join()
    guests, projector = seen[:GUESTS], seen[GUESTS]
    delays = [s[v] - t for s in guests for v, t in moved_at.items() if v in s]
    reached = sum(all(v in s for s in guests) for v in moved_at)
    projected = [projector[v] - t for v, t in moved_at.items() if v in projector]
    print(f"gunicorn workers: 3; {GUESTS} guests polling once a second; "
          f"{MOVES} moves, one every {MOVE_EVERY} s")
    print(f"move -> guest shows it: median {statistics.median(delays):.2f} s, max {max(delays):.2f} s "
          f"({len(delays)} move x guest pairs)")
    print(f"moves that reached every guest: {reached}/{MOVES}; poll errors: {len(errors)}")
    print(f"move -> projector shows it: median {statistics.median(projected):.2f} s, "
          f"max {max(projected):.2f} s ({len(projected)}/{MOVES} moves)")


if __name__ == "__main__":
    main()
