from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TutorialsConfig(AppConfig):
    """The tutorial app: script steps, example boards driven by the rules engine."""

    name = "tutorials"
    verbose_name = _("Tutorials")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # fix the sheet cache key to the code and catalogs this process starts with
        import tutorials.http.checks  # noqa: F401  (registers the deploy checks)

        from tutorials.sheets.render import code_version

        code_version()
