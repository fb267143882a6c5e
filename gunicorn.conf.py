"""gunicorn's settings for the site, read from the project folder (captain-site.service, docs/production.md).

Threads: a worker keeps answering requests on its other threads while one waits on the
database; slow clients are nginx's to hold, and PDFs are the render pool's to make
(gunicorn_pdf.conf.py, docs/production.md). Workers come from ``WEB_CONCURRENCY``
(default 3), which the site also reads to check for a shared cache (``check --deploy``).
Each thread may hold a database connection: keep ``WEB_CONCURRENCY × GUNICORN_THREADS``
below PostgreSQL's ``max_connections`` (100 by default).
"""

import os

worker_class = "gthread"
workers = int(os.environ.get("WEB_CONCURRENCY", "3"))
threads = int(os.environ.get("GUNICORN_THREADS", "16"))
# a worker that stops answering gunicorn for this long is restarted (with threads, a long
# request does not count)
timeout = 30
# seconds an idle connection from nginx stays open for its next request: longer than nginx
# keeps one (keepalive_timeout in templates/deploy/nginx.conf), so nginx is the one to close it
keepalive = 60
# an analyzer address carries the position and the Undo target (each up to 2000 characters,
# more once percent-encoded): gunicorn's default request line (4094 bytes) answered such
# links with its own English "414 URI Too Long"; at the largest it allows, the site says in
# the reader's language what is wrong with an over-long position
limit_request_line = 8190
# nginx in front (docs/production.md) reads header lines of up to 32 KiB, so that it can
# answer a request it refuses in the reader's language, and joins repeated fields (HTTP/2
# sends each cookie as one) into one line: what it passes on must not be refused again
# here, in gunicorn's own English, so these are above anything nginx passes on
limit_request_field_size = 256 * 1024
limit_request_fields = 32768
# systemd is what controls the process (systemctl reload, stop); gunicorn's control socket
# would be one path for every gunicorn of the same user, the stream process's included
control_socket_disable = True


def leaves_body_unread(headers: list[tuple[str, str]], limit: int) -> bool:
    """Whether a request with these headers (gunicorn's: names upper case) may leave more
    of its body unread than gunicorn drains before the next request on the connection (64
    KiB; past that it drops the connection): a declared length over the site's ``limit``,
    which the site refuses (413, 400) without reading, or a chunked body, whose length no
    one knows before reading it."""
    for name, value in headers:
        if name == "TRANSFER-ENCODING" and "chunked" in value.lower():
            return True
        if name == "CONTENT-LENGTH" and value.strip().isdigit() and int(value) > limit:
            return True
    return False


def pre_request(worker, req):
    """Answer a request that may leave its body unread with ``Connection: close``, so the
    client opens a new connection for its next request instead of losing it on this one.
    gunicorn drops a ``Connection`` header of the site's answer (hop-by-hop under WSGI),
    so only gunicorn itself can announce the close."""
    from django.conf import settings

    from tutorials.api.middleware import API_MAX_BODY

    if leaves_body_unread(req.headers, min(settings.DATA_UPLOAD_MAX_MEMORY_SIZE, API_MAX_BODY)):
        req.force_close()

