"""ASGI entry point: the tables' live streams in production (the stream process), and the
whole site in development (``bin/serve``), where it serves the static files too, from
their sources, as Django's development server does."""
import os

from django.conf import settings
from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler
from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "captain.settings")
application = get_asgi_application()
if settings.DEBUG:
    application = ASGIStaticFilesHandler(application)
