"""``python manage.py nginx_site <folder>``: the release step that writes nginx's part.

Writes ``<folder>/site.conf`` and ``<folder>/stream.conf``, to be included in nginx's
``http`` and ``stream`` blocks, the two files site.conf includes (``front.conf``,
``security_headers.conf``), and the pages and API problems nginx answers with itself
below ``<folder>/errors/``
(:mod:`tutorials.web.proxy_site`). Run it after ``collectstatic`` on every release, then
``nginx -s reload``; docs/production.md shows the whole set-up. With several application
hosts, ``--upstream``, ``--stream-upstream`` and ``--pdf-upstream`` are given once per host.
"""

from __future__ import annotations

from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from tutorials.web.proxy_site import PoolAddress, ProxySite, write_site


class Command(BaseCommand):
    help = "Write nginx's configuration for the site and the pages nginx answers with itself."

    def add_arguments(self, parser):
        parser.add_argument("folder", type=Path, help="where to write site.conf and errors/")
        parser.add_argument("--upstream", action="append", metavar="ADDRESS",
                            help="gunicorn's address on an application host: host:port or unix:/path; "
                                 "once per host, for several hosts (default 127.0.0.1:8000)")
        parser.add_argument("--stream-upstream", action="append", metavar="ADDRESS",
                            help="the ASGI stream process's address (gunicorn captain.asgi), which "
                                 "holds the tables' live streams; once per host, for several hosts "
                                 "(default 127.0.0.1:8001); 'none': the pages poll")
        parser.add_argument("--pdf-upstream", action="append", metavar="ADDRESS[=WORKERS]",
                            help="the render pool's address (gunicorn_pdf.conf.py), which makes every PDF, "
                                 "and its workers (default: DJANGO_RENDER_LIMIT of this environment); "
                                 "once per host, for several hosts (default 127.0.0.1:8002); 'none': "
                                 "the site's gunicorn renders, with no limit (development only)")
        parser.add_argument("--host", required=True,
                            help="the site's host name as its links show it, with :port if not 443")
        parser.add_argument("--certificate", required=True, help="the TLS certificate (chain) file")
        parser.add_argument("--certificate-key", required=True, help="the TLS certificate's key file")
        parser.add_argument("--https-port", type=int, default=443)
        parser.add_argument("--http-port", type=int, default=80,
                            help="plain HTTP, which only redirects to HTTPS; 0: none")
        parser.add_argument("--requests-per-second", type=int, default=100,
                            help="per client address before requests wait (a guest's phone asks "
                                 "once a second; default 100)")
        parser.add_argument("--renders-per-second", type=int, default=2,
                            help="per client address, of the PDF and sheet preview addresses, before "
                                 "they wait (a reader opens a few at once; default 2)")
        parser.add_argument("--connections-per-address", type=int, default=256,
                            help="connections one client address may hold at once (default 256)")
        parser.add_argument("--no-ipv6", action="store_true", help="listen on IPv4 only")

    def handle(self, *args, folder: Path, **options):
        for name in ("requests_per_second", "renders_per_second", "connections_per_address"):
            if options[name] < 1:
                raise CommandError(f"--{name.replace('_', '-')} must be at least 1")
        for name in ("certificate", "certificate_key"):
            if not Path(options[name]).is_file():
                raise CommandError(f"--{name.replace('_', '-')}: no file {options[name]}")
        upstreams = _addresses("--upstream", options["upstream"] or ["127.0.0.1:8000"])
        streams = options["stream_upstream"] or ["127.0.0.1:8001"]
        if "none" in streams and len(streams) > 1:
            raise CommandError("--stream-upstream: 'none' (the pages poll) cannot go with an address")
        stream_upstreams = () if streams == ["none"] else _addresses("--stream-upstream", streams)
        pools = options["pdf_upstream"] or ["127.0.0.1:8002"]
        if "none" in pools and len(pools) > 1:
            raise CommandError("--pdf-upstream: 'none' (the site renders) cannot go with an address")
        pdf_upstreams = () if pools == ["none"] else _pools(pools)
        site = ProxySite(upstreams=upstreams, public_host=options["host"], stream_upstreams=stream_upstreams,
                         pdf_upstreams=pdf_upstreams,
                         https_port=options["https_port"], http_port=options["http_port"] or None,
                         certificate=str(Path(options["certificate"]).resolve()),
                         certificate_key=str(Path(options["certificate_key"]).resolve()),
                         requests_per_second=options["requests_per_second"],
                         renders_per_second=options["renders_per_second"],
                         connections_per_address=options["connections_per_address"],
                         ipv6=not options["no_ipv6"])
        written = write_site(site, folder)
        self.stdout.write(f"wrote {len(written)} files to {folder}: include {folder / 'site.conf'} "
                          f"in nginx's http block and {folder / 'stream.conf'} in its stream block")


def _addresses(option: str, given: list[str]) -> tuple[str, ...]:
    """The hosts' addresses for nginx's upstream block, each once: a second line for one
    address would send it twice its share and try it twice when it is down."""
    addresses = tuple(address.strip() for address in given)
    for address in addresses:
        if not address or any(c.isspace() or c in ";{}" for c in address):
            raise CommandError(f"{option}: {address!r} is not host:port or unix:/path")
    if len(set(addresses)) < len(addresses):
        raise CommandError(f"{option}: an address is given twice ({', '.join(addresses)})")
    return addresses


def _pools(given: list[str]) -> tuple[PoolAddress, ...]:
    """The render pools of ``--pdf-upstream``: each address once, with its workers (after
    ``=``; default ``RENDER_LIMIT``, what a pool started with this environment has)."""
    addresses, workers = [], []
    for value in given:
        address, equals, count = value.strip().rpartition("=")
        if not equals:
            address, count = value.strip(), str(settings.RENDER_LIMIT)
        if not (count.isdigit() and int(count) >= 1):
            raise CommandError(f"--pdf-upstream: {value!r}: the workers after = must be a whole number >= 1")
        addresses.append(address)
        workers.append(int(count))
    return tuple(PoolAddress(address, count)
                 for address, count in zip(_addresses("--pdf-upstream", addresses), workers, strict=True))
