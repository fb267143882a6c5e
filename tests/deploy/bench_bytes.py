"""Bytes on the wire of the analyzer's first load: ``bin/bench-bytes`` (prints figures).

Runs the release steps of docs/production.md, gunicorn with the production settings (DEBUG
off) and nginx in front as ``manage.py nginx_site`` configures it, then loads the analyzer
page of a full 4x4 battle as a browser does, every request saying
``Accept-Encoding: gzip, br``: the HTML, then everything it loads (stylesheets, scripts,
icons and images, what the stylesheets name in ``url()``, and the fragments htmx asks for
on load, ``hx-trigger="load"``). Prints each answer's body as sent (compressed where the
answer is), its headers, and the totals (goals: the HTML at most 12 KB, the whole first
load at most 60 KB; KB = 1,000 bytes), then the load average at the start and the end, with
a warning when the machine was busy (tests/deploy/bench_figures.py); the bytes do not depend on it.
"""

from __future__ import annotations

import gzip
import html
import os
import re
import sys
from pathlib import Path
from urllib.parse import urljoin

import brotli

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "captain.settings")

from bench_analyzer import PAGE  # noqa: E402
from bench_figures import load, load_line, verdict  # noqa: E402
from harness import bench_release, serve_behind_nginx  # noqa: E402

BROWSER = {"Accept-Encoding": "gzip, br", "Accept-Language": "en",
           "Accept": "text/html,application/xhtml+xml,*/*;q=0.8"}

_TAGS = re.compile(r"<(?:link|script|img)\b[^>]*>", re.I)
_ATTR = re.compile(r'\b(href|src|rel|hx-get|hx-trigger)="([^"]*)"', re.I)
_LOADED = re.compile(r"<[a-z]+\b[^>]*\bhx-trigger=\"load\"[^>]*>", re.I)
_CSS_URL = re.compile(r"url\(\s*['\"]?([^'\")]+)['\"]?\s*\)")


def loads(page: str, body: str) -> list[tuple[str, bool]]:
    """What an HTML document of address ``page`` loads: ``(address, by htmx)``."""
    found = []
    for tag in _TAGS.findall(body):
        attrs = {k.lower(): html.unescape(v) for k, v in _ATTR.findall(tag)}
        if tag[1:5].lower() == "link":
            if attrs.get("rel", "").lower() in ("stylesheet", "icon", "preload", "modulepreload"):
                found.append((urljoin(page, attrs["href"]), False))
        elif attrs.get("src"):
            found.append((urljoin(page, attrs["src"]), False))
    for tag in _LOADED.findall(body):
        attrs = {k.lower(): html.unescape(v) for k, v in _ATTR.findall(tag)}
        if attrs.get("hx-get"):
            found.append((urljoin(page, attrs["hx-get"]), True))
    return found


def header_bytes(status: int, headers) -> int:
    """The status line and header block as HTTP/1.1 sends them."""
    return len(f"HTTP/1.1 {status} OK\r\n") + len(str(headers).replace("\n", "\r\n").encode())


def main() -> None:
    with bench_release() as release, serve_behind_nginx(release, workers=1) as proxy:
        started = load()
        rows, queue, seen = [], [(PAGE, False)], set()
        while queue:
            address, by_htmx = queue.pop(0)
            if address in seen:
                continue
            seen.add(address)
            sent = {**BROWSER, **({"HX-Request": "true"} if by_htmx else {})}
            status, headers, body = proxy.get(address, headers=sent)
            assert status == 200, (address, status, body[:200])
            encoding = headers.get("Content-Encoding", "identity")
            rows.append((address, encoding, len(body), header_bytes(status, headers)))
            kind = headers.get("Content-Type", "")
            if kind.startswith("text/html"):
                text = _decoded(body, encoding)
                queue += loads(address, text)
            elif kind.startswith("text/css"):
                text = _decoded(body, encoding)
                queue += [(urljoin(address, url), False) for url in _CSS_URL.findall(text)
                          if not url.startswith("data:")]
        ended = load()
    width = max(len(row[0]) for row in rows)
    for address, encoding, body, head in rows:
        shown = address if len(address) <= 70 else address[:67] + "..."
        print(f"{shown:<{min(width, 70)}}  {encoding:<8} body {body:7,d} B  headers {head:5,d} B")
    html_body = rows[0][2]
    bodies = sum(row[2] for row in rows)
    heads = sum(row[3] for row in rows)
    print(f"HTML of the page: {html_body / 1000:.1f} KB (goal: at most 12 KB)")
    print(f"first load, {len(rows)} answers: bodies {bodies / 1000:.1f} KB, with headers "
          f"{(bodies + heads) / 1000:.1f} KB (goal: at most 60 KB)")
    print(load_line(started, ended))
    print("\n".join(verdict(started, None, again=False,
                            holds="The bytes do not depend on the load; only the time the run took does.")))


def _decoded(body: bytes, encoding: str) -> str:
    """``body`` as text, undoing the answer's content encoding."""
    if encoding == "gzip":
        body = gzip.decompress(body)
    elif encoding == "br":
        body = brotli.decompress(body)
    return body.decode()


if __name__ == "__main__":
    main()
