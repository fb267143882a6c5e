"""Django settings for the Captain Dice site.

Development works with no environment at all (SQLite in ``var/``, DEBUG on).
Production reads everything from the environment:

``DJANGO_DEBUG``            "0" (default when ``DJANGO_SECRET_KEY`` is set) or "1"
``DJANGO_SECRET_KEY``       required in production
``DJANGO_ALLOWED_HOSTS``    comma-separated host names
``DJANGO_CSRF_TRUSTED_ORIGINS`` comma-separated origins (https://example.org)
``DJANGO_SECURE``           "1" turns on HTTPS-only cookies, HSTS and the SSL redirect
``DJANGO_HSTS_INCLUDE_SUBDOMAINS`` "1": HSTS covers every subdomain too (default "0")
``DJANGO_HSTS_PRELOAD``     "1": HSTS asks to be preloaded into browsers (default "0"; needs
                            ``DJANGO_HSTS_INCLUDE_SUBDOMAINS=1``)
``DATABASE_URL``            e.g. postgres://user:pass@host/db (default: SQLite)
``DJANGO_STATIC_ROOT``      where ``collectstatic`` puts files (default: ``staticfiles/``)
``DJANGO_SHEET_CACHE_DIR``  where rendered PDF sheets are kept (default: ``var/sheets/``)
``REDIS_URL``               the shared cache (rate limits, live updates), e.g.
                            redis://127.0.0.1:6379/0; without it each process keeps its own
                            local-memory cache (fine for the one-process development server)
``WEB_CONCURRENCY``         gunicorn's number of workers (gunicorn reads it too); ``check
                            --deploy`` refuses several workers without ``REDIS_URL``
``DJANGO_TRUSTED_PROXY_HOPS`` proxies in front of the server that append to
                            ``X-Forwarded-For`` (default 0: the client is ``REMOTE_ADDR``)
``DJANGO_RENDER_LIMIT``     concurrent PDF renders per host: the render pool's workers
                            (default: one per CPU)
``DJANGO_RENDER_TIMEOUT``   seconds a PDF render may take before the render pool ends it
                            (default 45)
``RENDER_POOL_URL``         the host's render pool (``gunicorn_pdf.conf.py``), e.g.
                            http://127.0.0.1:8002, which ``prerender_sheets`` asks for each
                            sheet; without it (development) it renders in its own process
``DJANGO_RATE_LIMITS``      overrides of :data:`RATE_LIMITS`, e.g. ``save=30/m,pdf=10/m``
``DJANGO_SHARED_CACHE_RETRY_SECONDS`` how long a process leaves the shared cache alone after
                            it failed before asking it again (default 5)
"""

import os
import re
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.csp import CSP
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent


def _env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def _env_int(name: str, default: int | None, minimum: int = 0) -> int | None:
    value = os.environ.get(name, "").strip()
    if not value:
        return default
    try:
        number = int(value)
    except ValueError:
        number = None
    if number is None or number < minimum:
        raise ImproperlyConfigured(f"{name} must be a whole number >= {minimum}, not {value!r}")
    return number


def _env_list(name: str, default: list[str]) -> list[str]:
    value = os.environ.get(name)
    if not value:
        return default
    return [item.strip() for item in value.split(",") if item.strip()]


SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY") or "dev-only-insecure-key-do-not-use-in-production"
DEBUG = _env_bool("DJANGO_DEBUG", default="DJANGO_SECRET_KEY" not in os.environ)
ALLOWED_HOSTS = _env_list("DJANGO_ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]", "testserver"])
CSRF_TRUSTED_ORIGINS = _env_list("DJANGO_CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "django.contrib.contenttypes",
    "django.contrib.staticfiles",
    "django_htmx",
    "ninja",  # serves Swagger UI for /api/docs from its own static files (no CDN)
    "tutorials",
]

MIDDLEWARE = [
    # a plain-HTTP POST (PUT, …) is sent to HTTPS with 308, method and body kept (Django's
    # below would answer 301, which clients follow with an empty GET)
    "tutorials.web.middleware.KeepMethodSSLRedirectMiddleware",
    "django.middleware.security.SecurityMiddleware",
    # The header middlewares sit outside everything that can answer early (static files,
    # the API's 413/404/405 problems), so every response carries them.
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_permissions_policy.PermissionsPolicyMiddleware",
    # Vary: Accept-Language, Cookie wherever the request (not the URL) chose the language
    "tutorials.web.middleware.LanguageVaryMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # gzip for what the views write (static files come compressed): below WhiteNoise, above
    # every middleware that writes or replaces a body
    "tutorials.web.compression.CompressionMiddleware",
    # /api/: an explicit Accept-Language wins over the language cookie
    "tutorials.api.middleware.APILanguageMiddleware",
    # HEAD under /api/: the GET answer without its body (ninja would answer 405)
    "tutorials.api.middleware.APIHeadMiddleware",
    # 413 for /api/ bodies over 64 KiB, from Content-Length, before anything reads them
    "tutorials.api.middleware.APIBodySizeLimitMiddleware",
    "tutorials.api.middleware.APIJsonErrorsMiddleware",
    # Django's, but a POST to an address without its trailing slash gets 307, not 301
    "tutorials.web.middleware.CommonMiddleware",
    # ?language=<code> from the language switcher: stored in the language cookie
    "tutorials.web.language.LanguageChoiceMiddleware",
    # Django's, but unsafe requests to unprefixed addresses are redirected with 307
    "tutorials.web.language.LocaleMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # 405 without a body (GET of an address forms post to): the site's page, not an empty one
    "tutorials.web.refused.MethodPageMiddleware",
    # 429 over a rate limit (pages)
    "tutorials.web.middleware.WaitPagesMiddleware",
    # a render asked for through nginx: handed to the render pool (X-Accel-Redirect)
    "tutorials.web.middleware.RenderPoolMiddleware",
    # 503 with Retry-After for a view that could not reach the database
    "tutorials.web.database.DatabaseOutageMiddleware",
    "tutorials.web.middleware.VaryOnHtmxMiddleware",
]

ROOT_URLCONF = "captain.urls"

# The site takes no uploads; the largest bodies are JSON API cases (≤ 64 KiB, see
# tutorials.api.middleware.API_MAX_BODY). Reading a larger body raises RequestDataTooBig.
DATA_UPLOAD_MAX_MEMORY_SIZE = 64 * 1024

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.template.context_processors.csp",
            ],
        },
    },
]

WSGI_APPLICATION = "captain.wsgi.application"

DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'var' / 'db.sqlite3'}",
        conn_max_age=60,
        # a kept connection the database closed (a restart) is replaced before a request
        # uses it, instead of failing that request
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # a database host that does not answer at all (the network to it down) costs a request
    # these seconds before it gets its 503, not the kernel's minutes of TCP retries
    DATABASES["default"].setdefault("OPTIONS", {}).setdefault("connect_timeout", 5)
(BASE_DIR / "var").mkdir(exist_ok=True)

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Internationalisation ----------------------------------------------------
LANGUAGE_CODE = "en"
LANGUAGES = [
    ("ja", _("Japanese")),
    ("en", _("English")),
    ("de", _("German")),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
USE_TZ = True
TIME_ZONE = "UTC"
LANGUAGE_COOKIE_NAME = "captain_language"
# Written only when the visitor picks a language in the switcher (tutorials.web.language);
# read on addresses without a language prefix. Secure with the other cookies (below).
LANGUAGE_COOKIE_AGE = 60 * 60 * 24 * 365
LANGUAGE_COOKIE_SAMESITE = "Lax"
LANGUAGE_COOKIE_HTTPONLY = True

# --- Static files ------------------------------------------------------------
STATIC_URL = "/static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(os.environ.get("DJANGO_STATIC_ROOT") or BASE_DIR / "staticfiles")
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
        if not DEBUG
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}

# Source maps (several MB, fetched only by developer tools) are served uncompressed:
# compressing them took most of collectstatic's 30 s.
WHITENOISE_SKIP_COMPRESS_EXTENSIONS = (
    "jpg", "jpeg", "png", "gif", "webp", "zip", "gz", "tgz", "bz2", "tbz", "xz", "br", "swf", "flv",
    "woff", "woff2", "3gp", "3gpp", "asf", "avi", "m4v", "mov", "mp4", "mpeg", "mpg", "webm", "wmv",
    "map",
)

# Rendered PDF sheets, one folder per code version (tutorials.sheets.render.code_version);
# ``manage.py prerender_sheets`` fills it at release time.
SHEET_CACHE_DIR = Path(os.environ.get("DJANGO_SHEET_CACHE_DIR") or BASE_DIR / "var" / "sheets")

# --- Security ----------------------------------------------------------------
SECURE = _env_bool("DJANGO_SECURE", default=not DEBUG)
SESSION_COOKIE_SECURE = SECURE
CSRF_COOKIE_SECURE = SECURE
LANGUAGE_COOKIE_SECURE = SECURE
SECURE_SSL_REDIRECT = SECURE
SECURE_HSTS_SECONDS = 60 * 60 * 24 * 365 if SECURE else 0
# Both commit more than this site for a long time (every subdomain; browsers' built-in
# lists, slow to leave), so each is the operator's choice, off unless set; check --deploy's
# warnings about them (security.W005, W021) would only repeat that choice.
SECURE_HSTS_INCLUDE_SUBDOMAINS = SECURE and _env_bool("DJANGO_HSTS_INCLUDE_SUBDOMAINS", default=False)
SECURE_HSTS_PRELOAD = SECURE and _env_bool("DJANGO_HSTS_PRELOAD", default=False)
if SECURE_HSTS_PRELOAD and not SECURE_HSTS_INCLUDE_SUBDOMAINS:
    raise ImproperlyConfigured("DJANGO_HSTS_PRELOAD=1 needs DJANGO_HSTS_INCLUDE_SUBDOMAINS=1: browsers "
                               "preload only a policy that covers every subdomain")
SILENCED_SYSTEM_CHECKS = ([] if SECURE_HSTS_INCLUDE_SUBDOMAINS else ["security.W005"]) + (
    [] if SECURE_HSTS_PRELOAD else ["security.W021"])
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https") if SECURE else None
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"

# Django's built-in Content-Security-Policy: only our own files, no inline script
# or style; htmx is configured (meta tag) not to inject its indicator styles.
SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF, CSP.NONCE],
    "style-src": [CSP.SELF],
    "img-src": [CSP.SELF, "data:"],
    "font-src": [CSP.SELF],
    "connect-src": [CSP.SELF],
    "object-src": [CSP.NONE],
    "base-uri": [CSP.SELF],
    "form-action": [CSP.SELF],
    "frame-ancestors": [CSP.NONE],
}

# --- Shared cache, client identity, rate and render limits --------------------------
# Rate-limit counters must be shared by every worker: Redis in
# production (Django's built-in backend). Without REDIS_URL each process has its own
# local-memory cache, which only the single-process development server may use;
# ``check --deploy`` fails when WEB_CONCURRENCY says several workers share none
# (tutorials.web.checks).
REDIS_URL = os.environ.get("REDIS_URL", "").strip()
if REDIS_URL:
    # A Redis that stops answering costs a request at most these seconds; the site then
    # goes on without it for a while (tutorials.web.shared_cache).
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache",
                          "LOCATION": REDIS_URL, "KEY_PREFIX": "captain",
                          "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1}}}
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
WEB_CONCURRENCY = _env_int("WEB_CONCURRENCY", None, minimum=1)
# After the shared cache failed, a process goes on without it (rate limits let requests
# through) and asks it again after this many seconds.
SHARED_CACHE_RETRY_SECONDS = _env_int("DJANGO_SHARED_CACHE_RETRY_SECONDS", 5, minimum=0)

# How many proxies in front of gunicorn append the address they saw to X-Forwarded-For
# (the HTTPS proxy of docs/production.md: 1). The client is the address that many entries from the
# right; anything further left was written by the client and is not trusted.
TRUSTED_PROXY_HOPS = _env_int("DJANGO_TRUSTED_PROXY_HOPS", 0)
RATELIMIT_IP_META_KEY = "tutorials.web.clients.client_ip"
RATELIMIT_USE_CACHE = "default"

#: Requests per client (IP address; IPv6 by /64) and period, per group; see docs/production.md.
#: Only failed lookups count towards ``table-miss`` and ``code-miss``.
RATE_LIMITS = {
    "pdf": "20/m",         # position PDFs, and sheets not in the sheet cache (renders)
    "save": "30/m",        # saved positions, through the form or the API
    "game": "30/m",        # practice games started, through the play page or the API
    "table": "10/m",       # teaching tables started
    "table-miss": "30/10m",  # table codes looked up that do not exist
    "code-miss": "60/10m",   # saved short codes looked up that do not exist
    "game-miss": "60/10m",   # practice games opened with a wrong key (the right key still works)
}
for _item in _env_list("DJANGO_RATE_LIMITS", []):
    _group, _sep, _rate = _item.partition("=")
    if _group.strip() not in RATE_LIMITS or not re.fullmatch(r"[1-9][0-9]*/[0-9]*[smhd]", _rate.strip()):
        raise ImproperlyConfigured(
            f"DJANGO_RATE_LIMITS: {_item!r} is not <group>=<count>/<period> with a group of "
            f"{', '.join(RATE_LIMITS)} and a period like 30s, m, 10m, h or d")
    RATE_LIMITS[_group.strip()] = _rate.strip()

# At most this many PDF renders at once per host: the render pool's workers
# (gunicorn_pdf.conf.py), one render each; nginx answers 503 past them (nginx_site).
RENDER_LIMIT = _env_int("DJANGO_RENDER_LIMIT", os.cpu_count() or 1, minimum=1)
# Seconds a render may take: the render pool ends a worker that renders longer, and nginx
# answers the reader in their language.
RENDER_TIMEOUT = _env_int("DJANGO_RENDER_TIMEOUT", 45, minimum=1)
# The host's render pool, which the release step asks for each sheet, so that its renders
# wait their turn behind the site's; empty: render in this process (development).
RENDER_POOL_URL = os.environ.get("RENDER_POOL_URL", "").strip().rstrip("/")

# The browser tests wait on markers a page's scripts leave (requests in flight, swaps
# settled, steps shown, keys ready): static/js/test-hooks.js, served only when this is on.
TEST_HOOKS = _env_bool("CAPTAIN_TEST_HOOKS", default=False)

# The site uses none of these browser features; nor may anything it embeds.
PERMISSIONS_POLICY: dict[str, list[str]] = {feature: [] for feature in (
    "accelerometer", "autoplay", "camera", "display-capture", "encrypted-media", "geolocation",
    "gyroscope", "hid", "magnetometer", "microphone", "midi", "payment", "publickey-credentials-get",
    "screen-wake-lock", "serial", "usb", "xr-spatial-tracking")}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    # a presenter handover link's key is in its address: never in the log
    "filters": {"hide_link_keys": {"()": "tutorials.web.log_filters.HideLinkKeys"},
                "hide_database_outage_requests": {
                    "()": "tutorials.web.log_filters.HideDatabaseOutageRequests"}},
    "handlers": {"console": {"class": "logging.StreamHandler",
                             "filters": ["hide_link_keys", "hide_database_outage_requests"]}},
    "root": {"handlers": ["console"], "level": "WARNING"},
}

if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # a transaction that reads before it writes takes the write lock when it begins, so two
    # at once wait for each other instead of one failing with "database is locked"
    DATABASES["default"].setdefault("OPTIONS", {}).update(transaction_mode="IMMEDIATE", timeout=10)
    # Tests that run a live server (browser tests) need a file-backed SQLite database.
    # one file per test process, so parallel runs on one machine never share it
    DATABASES["default"]["TEST"] = {"NAME": str(BASE_DIR / "var" / f"test-db-{os.getpid()}.sqlite3")}

# a form sent without its CSRF token: the site's page, in the page's language
CSRF_FAILURE_VIEW = "tutorials.web.refused.csrf_failure"
