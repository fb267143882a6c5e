"""WSGI entry point (gunicorn captain.wsgi)."""
import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "captain.settings")
application = get_wsgi_application()
