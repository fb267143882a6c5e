"""gunicorn's settings for the render pool: the site (``captain.wsgi``) in processes that make
its PDFs, read with ``--config`` by its unit (captain-pdf.service, docs/production.md). nginx
sends every address that answers a PDF here, never more at once than the pool has workers.

* ``RENDER_LIMIT`` sync workers, one render at a time each, so the host renders at most that
  many at once; a request beyond them waits in the listen queue (the release step's do,
  ``prerender_sheets``; nginx answers readers 503 before that).
* The site and WeasyPrint are loaded, and the fonts warmed by one small render, in the
  arbiter before it forks: every worker shares those pages instead of loading its own.
* The arbiter runs at the lowest CPU priority, and so does every worker it forks: a render
  keeps a core busy for seconds, and ordinary pages go first.
* A worker ends after a few answers (``max_requests``) and a fresh fork of the arbiter
  takes its place: no worker keeps for long what a large render made it grow to (freed
  memory is seldom given back).
* A render that takes longer than ``RENDER_TIMEOUT`` is ended with its worker at once; nginx then
  answers the reader in their language.

The code is loaded once, in the arbiter: a release restarts the unit (its reload only forks
fresh workers from the same arbiter).
"""

import os
import runpy
from pathlib import Path

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "captain.settings")

from django.conf import settings  # noqa: E402  (after the settings module is named)

#: A page in both fonts and both weights: rendered once by the arbiter, so that the
#: workers it forks find the fonts loaded (shared, not loaded again in each).
WARM_HTML = ('<html lang="en"><body style="font-family: \'Noto Sans\', \'Noto Sans CJK JP\'">'
             '<p>Captain Dice <b>キャプテンダイス</b></p><p lang="ja" style="font-family: '
             '\'Noto Sans CJK JP\'">サイコロ <b>バトル</b></p></body></html>')

#: Niceness of the arbiter and its workers: the lowest priority there is.
NICENESS = 19

worker_class = "sync"
workers = settings.RENDER_LIMIT
preload_app = True
# bin/bench-pdf, two workers: with a fresh fork per request (1) a kept PDF took ~180 ms
# instead of ~2 ms (the fork and the worker's start on every request) and the pool's PSS
# peaked at 431 MB; with 4 (and jitter, so the workers do not end together) ~2 ms and
# 468 MB; with 20, ~1.5 ms and 524 MB
max_requests = 4
max_requests_jitter = 2
# the sync worker tells the arbiter it lives only between requests: a render past this is
# ended (SIGABRT, then SIGKILL) and nginx answers the reader with its own page
timeout = settings.RENDER_TIMEOUT
# a stop or reload lets the renders in hand finish
graceful_timeout = settings.RENDER_TIMEOUT
# the request limits of the site's own gunicorn: a position PDF's address is as long as
# the analyzer's
_site = runpy.run_path(str(Path(__file__).with_name("gunicorn.conf.py")))
limit_request_line = _site["limit_request_line"]
limit_request_field_size = _site["limit_request_field_size"]
limit_request_fields = _site["limit_request_fields"]
# systemd is what controls the process (systemctl reload, stop); gunicorn's control socket
# would be one path for every gunicorn of the same user
control_socket_disable = True


def on_starting(server):
    """Lower the arbiter's priority (its workers inherit it) and warm WeasyPrint and the
    fonts with one small render, after the site was loaded (``preload_app``) and before any
    worker is forked; load the URLconf and every language's catalogue too, which Django
    loads on a process's first request: each worker answers one, so each would load them."""
    current = os.nice(0)
    if current < NICENESS:
        os.nice(NICENESS - current)
    from django.urls import resolve, reverse
    from django.utils import translation

    from tutorials.rendering.pdf import render_pdf

    render_pdf(WARM_HTML)
    for lang, _name in settings.LANGUAGES:
        with translation.override(lang):
            resolve(reverse("tutorials:sheets"))


def worker_abort(worker):
    """End a worker whose render ran past ``timeout`` at once. gunicorn's own way, an
    exception raised wherever the render is, may be caught inside WeasyPrint (which carries on
    without the image it was drawing) and the half-made PDF served; the render is not worth
    finishing, and the arbiter forks a fresh worker in its place."""
    worker.log.warning("render ended past the render timeout (%s s)", timeout)
    os._exit(1)
