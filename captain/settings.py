"""Django settings for the Captain Dice site.

Development works with no environment at all (SQLite in ``var/``, DEBUG on).
Production reads everything from the environment:

``DJANGO_DEBUG``            "0" (default when ``DJANGO_SECRET_KEY`` is set) or "1"
``DJANGO_SECRET_KEY``       required in production
``DJANGO_ALLOWED_HOSTS``    comma-separated host names
``DJANGO_CSRF_TRUSTED_ORIGINS`` comma-separated origins (https://example.org)
``DJANGO_SECURE``           "1" turns on HTTPS-only cookies, HSTS and the SSL redirect
``DATABASE_URL``            e.g. postgres://user:pass@host/db (default: SQLite)
``DJANGO_STATIC_ROOT``      where ``collectstatic`` puts files (default: ``staticfiles/``)
``DJANGO_SHEET_CACHE_DIR``  where rendered PDF sheets are kept (default: ``var/sheets/``)
"""

import os
from pathlib import Path

import dj_database_url
from django.utils.csp import CSP
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent


def _env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


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
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # 413 for /api/ bodies over 64 KiB, from Content-Length, before anything reads them
    "captain.middleware.APIBodySizeLimitMiddleware",
    "captain.middleware.APIJsonErrorsMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "tutorials.middleware.VaryOnHtmxMiddleware",
]

ROOT_URLCONF = "captain.urls"

# The site takes no uploads; the largest bodies are JSON API cases (≤ 64 KiB, see
# captain.middleware.API_MAX_BODY). Reading a larger body raises RequestDataTooBig.
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
    )
}
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

# Rendered PDF sheets, one folder per code version (tutorials.sheets.code_version);
# ``manage.py prerender_sheets`` fills it at release time.
SHEET_CACHE_DIR = Path(os.environ.get("DJANGO_SHEET_CACHE_DIR") or BASE_DIR / "var" / "sheets")

# --- Security ----------------------------------------------------------------
SECURE = _env_bool("DJANGO_SECURE", default=not DEBUG)
SESSION_COOKIE_SECURE = SECURE
CSRF_COOKIE_SECURE = SECURE
SECURE_SSL_REDIRECT = SECURE
SECURE_HSTS_SECONDS = 60 * 60 * 24 * 365 if SECURE else 0
SECURE_HSTS_INCLUDE_SUBDOMAINS = SECURE
SECURE_HSTS_PRELOAD = SECURE
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

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": "WARNING"},
}

# Tests that run a live server (browser tests) need a file-backed SQLite database.
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # one file per test process, so parallel runs on one machine never share it
    DATABASES["default"]["TEST"] = {"NAME": str(BASE_DIR / "var" / f"test-db-{os.getpid()}.sqlite3")}
