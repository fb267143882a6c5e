"""A URL configuration for tests only (``ROOT_URLCONF = "failing_urls"``): the site's own,
plus addresses whose view always fails, under a language prefix, without one and under
``/api/``. Production never loads this module, so no address there can be made to fail."""

from django.conf.urls.i18n import i18n_patterns
from django.urls import path

from captain import urls as site


def fail(request, *args, **kwargs):
    raise RuntimeError("this view fails on purpose (tests only)")


urlpatterns = [
    path("api/v1/fail", fail),
    path("p/fail/now/", fail),
    *i18n_patterns(path("fail/", fail, name="test-fail"), prefix_default_language=True),
    *site.urlpatterns,
]

handler400 = site.handler400
handler404 = site.handler404
handler500 = site.handler500
