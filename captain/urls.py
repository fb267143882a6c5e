"""URL configuration: language-prefixed pages (/ja/, /en/, /de/); `/` redirects by Accept-Language.

Outside the language prefixes: the JSON API (`/api/`, see tutorials/api/) and the short
links to saved positions (`/p/<code>/`) and table codes (`/t/<code>/`), which pick the
language per request.
"""
from django.conf.urls.i18n import i18n_patterns
from django.urls import include, path

from tutorials.api.endpoints import api
from tutorials.analyzer.short_links import short_link
from tutorials.teach.views import teach_join

urlpatterns = [
    path("api/", api.urls),
    path("p/<str:code>/", short_link, name="short-link"),
    path("t/<str:code>/", teach_join, name="teach-join"),
]
urlpatterns += i18n_patterns(
    path("", include("tutorials.urls")),
    prefix_default_language=True,
)
