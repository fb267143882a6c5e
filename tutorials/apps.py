from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TutorialsConfig(AppConfig):
    """The site's one app: tutorial, analyzer, teaching, sheets and the JSON API."""

    name = "tutorials"
    verbose_name = _("Tutorials")
    default_auto_field = "django.db.models.BigAutoField"
    #: the digest of the code and catalogs this process started with (``ready``): the key of
    #: what is cached of the site's own rendering (sheets, the analyzer's fragments, a
    #: table's shared section)
    code_version = ""

    def ready(self) -> None:
        # Imported here, not at the top: these modules use the app registry, which is
        # ready only now (Django's documented place for it).
        import tutorials.teach.live  # noqa: F401  (passes table changes on to the live streams)
        import tutorials.web.checks  # noqa: F401  (registers the deploy checks)
        from tutorials.sheets.render import code_version  # (see above)

        # fix the sheet cache key to the code and catalogs this process starts with; the
        # shared cache's rendered fragments are keyed by it too (tutorials.web.fragments)
        self.code_version = code_version()
