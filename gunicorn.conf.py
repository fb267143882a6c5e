"""gunicorn's settings for this site, read from the project folder (the command of docs/production.md).

Threads: a worker waiting for a PDF render (a child process at the lowest priority,
tutorials.sheets.pdf_worker) or for a slow client keeps answering other requests on its
other threads. Workers come
from ``WEB_CONCURRENCY`` (default 3), which the site also reads to check for a shared
cache (``check --deploy``). Each thread may hold a database connection: keep
``WEB_CONCURRENCY × GUNICORN_THREADS`` below PostgreSQL's ``max_connections`` (100 by
default).
"""

import os

worker_class = "gthread"
workers = int(os.environ.get("WEB_CONCURRENCY", "3"))
threads = int(os.environ.get("GUNICORN_THREADS", "16"))
# a worker that stops answering gunicorn for this long is restarted (with threads, a long
# request does not count: tutorials.sheets.render.render_pdf gives up on a render first)
timeout = 30
# an analyzer address carries the position and the Undo target (each up to 2000 characters,
# more once percent-encoded): gunicorn's default request line (4094 bytes) answered such
# links with its own English "414 URI Too Long"; at the largest it allows, the site says in
# the reader's language what is wrong with an over-long position
limit_request_line = 8190


def post_worker_init(worker):
    """Start the worker's PDF render children before the first request needs them."""
    from tutorials.sheets.render import warm_up

    warm_up()
