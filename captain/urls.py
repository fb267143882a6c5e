"""URL configuration: language-prefixed pages (/ja/, /en/, /de/); `/` redirects by the language
cookie (a choice made in the language switcher), else Accept-Language; `/healthz` answers
`ok` (tutorials.web.health), the yardstick of the site benchmarks.

Outside the language prefixes: the JSON API (`/api/`, see tutorials/api/) and the short
links to saved positions (`/p/<code>/`) and table codes (`/t/<code>/`), which pick the
language per request (tutorials.web.language), and the live streams of a table
(`/live/<code>/`), with no words in them.
Not-found pages say what was not found (tutorials.web.not_found); a view that fails answers
the site's 500 page (tutorials.web.server_error).
"""
from django.conf.urls.i18n import i18n_patterns
from django.urls import include, path

from tutorials.analyzer.short_links import short_link
from tutorials.api.endpoints import api
from tutorials.teach.live import table_stream
from tutorials.teach.views import teach_join
from tutorials.web.health import healthz
from tutorials.web.language import language_home

urlpatterns = [
    path("", language_home, name="language-home"),
    path("healthz", healthz, name="healthz"),
    path("api/", api.urls),
    path("p/<str:code>/", short_link, name="short-link"),
    path("t/<str:code>/", teach_join, name="teach-join"),
    # a table's live stream: served by the ASGI stream process behind nginx
    path("live/<str:code>/", table_stream, name="live-table"),
]
urlpatterns += i18n_patterns(
    path("", include("tutorials.urls")),
    prefix_default_language=True,
)

handler404 = "tutorials.web.not_found.page_not_found"
handler400 = "tutorials.web.refused.bad_request"
# a view that failed: the site's page in the reader's language, problem JSON under /api/
handler500 = "tutorials.web.server_error.server_error"
