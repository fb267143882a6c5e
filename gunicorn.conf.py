"""gunicorn's settings for this site, read from the project folder (the README's command).

Threads: a worker waiting for a PDF render (a child process at the lowest priority,
tutorials.pdf_worker) or a slow client keeps answering other requests on its other
threads. Workers come from ``WEB_CONCURRENCY`` (default 3), which the site also reads to
check for a shared cache (``check --deploy``).
"""

import os

worker_class = "gthread"
workers = int(os.environ.get("WEB_CONCURRENCY", "3"))
threads = int(os.environ.get("GUNICORN_THREADS", "4"))
# a worker that stops answering gunicorn for this long is restarted (with threads, a long
# request does not count: tutorials.sheets.render_pdf gives up on a render first)
timeout = 30
