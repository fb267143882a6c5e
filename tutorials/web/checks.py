"""System checks of the deployed configuration (``manage.py check --deploy``)."""

from __future__ import annotations

from django.conf import settings
from django.core import checks

#: Cache backends that keep their data inside one process (or nowhere).
PROCESS_LOCAL_CACHES = {
    "django.core.cache.backends.locmem.LocMemCache",
    "django.core.cache.backends.dummy.DummyCache",
}


@checks.register(checks.Tags.caches, deploy=True)
def shared_cache_for_several_workers(app_configs, **kwargs) -> list[checks.CheckMessage]:
    """``captain.E001`` when several workers would each keep their own cache.

    Rate-limit counters live in the ``default`` cache; with a
    process-local backend every gunicorn worker counts on its own, so the limits
    multiply by the number of workers. ``WEB_CONCURRENCY`` (gunicorn's own variable for
    its number of workers) tells how many there are; unset, production is assumed to
    run several, as docs/production.md does. Returns the problems found (empty when fine).
    """
    backend = settings.CACHES.get("default", {}).get("BACKEND", "")
    workers = settings.WEB_CONCURRENCY
    if backend in PROCESS_LOCAL_CACHES and (workers is None or workers > 1):
        several = f"{workers} workers" if workers else "several workers (WEB_CONCURRENCY is not set)"
        return [checks.Error(
            f"The cache is per process ({backend.rsplit('.', 1)[-1]}) but production runs "
            f"{several}: rate limits would not hold across them.",
            hint="Set REDIS_URL (e.g. redis://127.0.0.1:6379/0), or WEB_CONCURRENCY=1 for a "
                 "single worker.",
            id="captain.E001")]
    return []
