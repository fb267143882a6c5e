"""gunicorn's settings for the render pool: the site (``captain.wsgi``) in processes that make
its PDFs, read with ``--config`` by its unit (captain-pdf.service, docs/production.md). nginx
sends every render the site hands over here, never more at once than the pool has workers.

* ``RENDER_LIMIT`` sync workers, one render at a time each, so the host renders at most that
  many at once; a request beyond them waits in the listen queue (the release step's do,
  ``prerender_sheets``; nginx answers readers 503 before that).
* WeasyPrint is loaded, and the fonts warmed by one small render, in the arbiter before it
  forks: every worker shares those pages instead of loading its own. The site is loaded by
  each worker, before it takes a request, so that the unit's reload (``HUP``) brings a
  release's code as the site's own gunicorn does; the arbiter never loads it.
* The arbiter runs at the lowest CPU priority, and so does every worker it forks: a render
  keeps a core busy for seconds, and ordinary pages go first.
* A worker ends after a few answers (``max_requests``) and a fresh fork of the arbiter
  takes its place: no worker keeps for long what a large render made it grow to (freed
  memory is seldom given back).
* A render that takes longer than ``RENDER_TIMEOUT`` is ended with its worker at once; nginx then
  answers the reader in their language.

A release reloads the unit like the others: new workers with the new code take the
requests waiting in the listen queue while the old ones finish their renders, so no PDF is
refused for it.
"""

import os
import runpy
from pathlib import Path

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "captain.settings")

from django.conf import settings  # noqa: E402  (after the settings module is named)

#: A page in both fonts and both weights: rendered once by the arbiter, so that the
#: workers it forks find WeasyPrint and the fonts loaded (shared, not loaded again in each).
WARM_HTML = ('<html lang="en"><body style="font-family: \'Noto Sans\', \'Noto Sans CJK JP\'">'
             '<p>Captain Dice <b>キャプテンダイス</b></p><p lang="ja" style="font-family: '
             '\'Noto Sans CJK JP\'">サイコロ <b>バトル</b></p></body></html>')

#: Niceness of the arbiter and its workers: the lowest priority there is.
NICENESS = 19

worker_class = "sync"
workers = settings.RENDER_LIMIT
# the site is loaded by each worker (post_worker_init), never by the arbiter: see above
preload_app = False
# each fresh worker loads the site (about half a second of CPU at nice 19, before it takes
# a request, so no reader waits for it): a few answers per worker keep that small per PDF
# while no worker keeps for long what a large render made it grow to (bin/bench-pdf)
max_requests = 10
max_requests_jitter = 4
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
    fonts with one small render, before any worker is forked."""
    current = os.nice(0)
    if current < NICENESS:
        os.nice(NICENESS - current)
    import weasyprint

    weasyprint.HTML(string=WARM_HTML).write_pdf()


def post_worker_init(worker):
    """Load the URLconf and every language's catalogue once the worker has loaded the site
    and before it takes a request: Django loads them on a process's first request, which a
    reader would wait for."""
    from django.urls import resolve, reverse
    from django.utils import translation

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
