"""URL configuration: language-prefixed pages (/ja/, /en/, /de/); `/` redirects by Accept-Language.

Outside the language prefixes: the JSON API (`/api/`, see captain/api.py) and the short
links to saved positions (`/p/<code>/`) and table codes (`/t/<code>/`), which pick the
language per request.
"""
from django.conf.urls.i18n import i18n_patterns
from django.urls import include, path

from captain.api import api
from tutorials.short_links import short_link
from tutorials.teach_views import teach_join

urlpatterns = [
    path("api/", api.urls),
    path("p/<str:code>/", short_link, name="short-link"),
    path("t/<slug:code>/", teach_join, name="teach-join"),
]
urlpatterns += i18n_patterns(
    path("", include("tutorials.urls")),
    prefix_default_language=True,
)
