"""Renders handed to the render pool through nginx: the site, asked for a PDF address by
nginx (:data:`RENDER_POOL_HEADER`), answers what is kept itself and hands each render back
with ``X-Accel-Redirect`` to nginx's internal :data:`RENDER_POOL_LOCATION`, which passes it
to the pool (templates/deploy/nginx.conf, docs/production.md "Render limit")."""

from __future__ import annotations

#: The header nginx gives a reader's request for a PDF address (templates/deploy/nginx.conf),
#: and only that one: a render is the render pool's, below :data:`RENDER_POOL_LOCATION`.
RENDER_POOL_HEADER = "X-Captain-Render-Pool"
#: nginx's internal address of the render pool: what follows it is the address the reader
#: asked for. Only what comes there counts against the pool's workers, so a kept PDF or
#: preview is never refused because others are rendering.
RENDER_POOL_LOCATION = "/_captain_render"


class RenderInPool(Exception):
    """A render asked for through nginx, which the render pool makes: the site answers it
    with ``X-Accel-Redirect`` to :attr:`location`
    (:class:`~tutorials.web.middleware.RenderPoolMiddleware`)."""

    def __init__(self, location: str) -> None:
        super().__init__(location)
        self.location = location
