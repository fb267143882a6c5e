"""``python manage.py systemd_units <folder>``: the install step that writes the site's systemd units.

Writes one unit per process of the site (``captain-site.service``: gunicorn ``captain.wsgi``;
``captain-streams.service``: the ASGI stream process; ``captain-pdf.service``: the render pool,
gunicorn ``captain.wsgi`` with ``gunicorn_pdf.conf.py``) and ``captain-dice.target``, which starts,
restarts and stops them together, from ``templates/deploy/systemd/``, for this project folder
and the virtual environment of the Python that runs the command. Run it once at install, and
again after moving the project or changing an option; docs/production.md shows the whole
set-up. The deploy tests start the processes with the written units' own ``ExecStart`` and
``ExecReload`` (tests/deploy/harness.py).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.template.loader import render_to_string

TEMPLATES = Path(settings.BASE_DIR) / "templates" / "deploy" / "systemd"

#: what a unit file cannot hold unquoted in a path or a name: white space splits its
#: command lines, ``%`` starts systemd's specifiers, ``$`` a variable, quotes and ``\`` quote
UNSAFE = re.compile(r"[\s%$\"'\\]")


class Command(BaseCommand):
    help = "Write the site's systemd units (one per process, and captain-dice.target for them all)."

    def add_arguments(self, parser):
        parser.add_argument("folder", type=Path, help="where to write the units (/etc/systemd/system)")
        parser.add_argument("--user", default="captain",
                            help="the user the processes run as (default captain); run the release "
                                 "steps as this user too, so that each can read what the other wrote")
        parser.add_argument("--group", help="their group (default: the user's name)")
        parser.add_argument("--environment-file", type=Path, default=Path("/etc/captain/site.env"),
                            help="the settings (DJANGO_SECRET_KEY=…, one a line; default "
                                 "/etc/captain/site.env)")
        parser.add_argument("--site-bind", default="127.0.0.1:8000",
                            help="gunicorn's address, nginx_site's --upstream (default 127.0.0.1:8000; "
                                 "SITE_BIND in the environment file overrides it)")
        parser.add_argument("--stream-bind", default="127.0.0.1:8001",
                            help="the stream process's address, nginx_site's --stream-upstream (default "
                                 "127.0.0.1:8001; STREAM_BIND in the environment file overrides it)")
        parser.add_argument("--pdf-bind", default="127.0.0.1:8002",
                            help="the render pool's address, nginx_site's --pdf-upstream and the release "
                                 "step's RENDER_POOL_URL (default 127.0.0.1:8002; PDF_BIND in the "
                                 "environment file overrides it)")

    def handle(self, *args, folder: Path, **options):
        gunicorn = Path(sys.prefix) / "bin" / "gunicorn"
        if not gunicorn.is_file():
            raise CommandError(f"no {gunicorn}: run this with the Python of the virtual environment "
                               "that has the project installed (.venv/bin/python manage.py …)")
        context = {
            "user": options["user"], "group": options["group"] or options["user"],
            "environment_file": options["environment_file"].absolute(),
            "site_bind": options["site_bind"], "stream_bind": options["stream_bind"],
            "pdf_bind": options["pdf_bind"],
            "project": Path(settings.BASE_DIR).absolute(), "bin": gunicorn.parent,
        }
        for name, value in context.items():
            if not str(value) or UNSAFE.search(str(value)):
                raise CommandError(f"{name.replace('_', '-')}: {str(value)!r} cannot stand in a unit file "
                                   "(empty, or white space, quotes, %, $ or \\ in it)")
        # a render in hand may take RENDER_TIMEOUT seconds before the pool stops
        context["render_timeout"] = settings.RENDER_TIMEOUT
        names = sorted(path.name for path in TEMPLATES.iterdir())
        context["services"] = [name for name in names if name.endswith(".service")]
        folder.mkdir(parents=True, exist_ok=True)
        for name in names:
            (folder / name).write_text(render_to_string(f"deploy/systemd/{name}", context), encoding="utf-8")
        self.stdout.write(f"wrote {', '.join(names)} to {folder}: then systemctl daemon-reload, "
                          "and systemctl enable --now captain-dice.target")
