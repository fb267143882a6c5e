"""URL configuration: language-prefixed pages (/ja/, /en/, /de/); `/` redirects by Accept-Language."""
from django.conf.urls.i18n import i18n_patterns
from django.urls import include, path

urlpatterns = [
]
urlpatterns += i18n_patterns(
    path("", include("tutorials.urls")),
    prefix_default_language=True,
)
