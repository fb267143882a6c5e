"""gunicorn's settings for the ASGI stream process (``captain.asgi``: the tables' live streams,
docs/production.md), read with ``--config`` by its unit (templates/deploy/systemd/).

gunicorn's own asyncio worker holds thousands of streams on one event loop per worker. Its
arbiter restarts a worker that dies, swaps them all on ``HUP`` (the unit's reload) while
keeping the port open, and its workers end when the arbiter goes, even killed: each checks
its parent every second, so none keeps the port after a ``SIGKILL`` of the arbiter.
"""

import os

worker_class = "asgi"
workers = int(os.environ.get("STREAM_WORKERS", "2"))
# the site's ASGI application has no startup or shutdown to run
asgi_lifespan = "off"
# a stream never ends by itself within a stop or a reload: its worker closes it after this
# many seconds, and the browser opens it again at once with its last event's id
graceful_timeout = 3
# systemd is what controls the process (systemctl reload, stop); gunicorn's control socket
# would be one path for every gunicorn of the same user
control_socket_disable = True
