"""What nginx in front of gunicorn needs from the site (docs/production.md, "nginx in front").

nginx buffers every request and answer, holds slow clients, serves the static files and
slows or refuses clients that ask too often, so no gunicorn thread ever waits for a client.
Some requests it answers itself, before the site sees them: a request line, header or body
over its limits (400, 413, 414, 431), too many requests from one address (429), and
gunicorn not answering (502, 504). Those answers must read like the site's own: the page in
the reader's language with the site's header, or under ``/api/`` the API's problem JSON,
each with the security headers every answer of the site carries.

:func:`write_site` writes the configuration (``templates/deploy/nginx.conf``) and those
answers, one file per language and status, rendered here with the site's templates and
hashed static names; nginx picks the file by the address's language prefix, the language
cookie, then ``Accept-Language``. Run it after ``collectstatic``, on every release.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.middleware.clickjacking import XFrameOptionsMiddleware
from django.middleware.csp import ContentSecurityPolicyMiddleware
from django.middleware.security import SecurityMiddleware
from django.template.loader import render_to_string
from django.utils import formats, translation
from django.utils.translation import gettext_lazy as _
from django_permissions_policy import PermissionsPolicyMiddleware

from captain.rules.notation import MAX_LENGTH
from tutorials.web.problem_json import api_problem
from tutorials.web.render_pool import RENDER_POOL_HEADER, RENDER_POOL_LOCATION

#: The statuses nginx answers itself, and the problem code of each (the ``Problem-Code``
#: header an htmx request's notice reads, and the API's ``code``). 431 is nginx's 494
#: ("request header too large"), sent as what it is.
STATUS_CODES = {400: "bad-request", 405: "unknown-method", 413: "too-large", 414: "address-too-long",
                429: "rate-limited", 431: "headers-too-large", 502: "unavailable", 504: "unavailable"}

#: Plain HTTP's one answer, the redirect to HTTPS (308: a form's method and body are kept),
#: and its code: not a refusal, so no ``Problem-Code``; the page says what happens, in
#: case a client does not follow it.
REDIRECT_STATUS, REDIRECT_CODE = 308, "https-only"

#: What else nginx answers with one of those pages: 494 (a header too large) as the 431 it
#: is; a transfer encoding or HTTP version it does not know as a request it cannot read.
ANSWERED_AS = {400: "400 501 505", 431: "494 =431"}

#: Seconds after which a client may ask again (``Retry-After``), where waiting helps.
RETRY_AFTER = {429: 2, 502: 10, 504: 10}

#: What nginx answers itself on the addresses that answer a PDF, which go to the render pool
#: (gunicorn_pdf.conf.py), by the name of its files: ``(status, problem code, Retry-After)``.
#: ``pdf-busy``: more PDFs asked at once than the pools have workers (``limit_conn``);
#: ``pdf-failed``: a render the pool ended past ``RENDER_TIMEOUT`` (nginx's 502: the worker
#: dropped the connection) or that did not answer in time (504), sent as the 504 it is.
POOL_ANSWERS = {"pdf-busy": (503, "busy", 5), "pdf-failed": (504, "render-timeout", 60)}

#: What each page says: its headline, then what happened and what to do.
PAGES = {
    400: (_("The request could not be read"),
          _("Your browser sent a request the site could not read, so nothing was changed. Go back and "
            "try again.")),
    405: (_("The site does not take this kind of request"),
          _("Your browser or program sent a kind of request (its method) the site does not answer, so "
            "nothing was changed. Go back and use the site's own pages.")),
    413: (_("Too much was sent"),
          _("What you sent is larger than the site takes (at most %(limit)s KiB), so nothing was "
            "changed. A position or a title is never that long: check what was pasted, then send it "
            "again.")),
    414: (_("This address is too long"),
          _("The address of this page is longer than the site reads. This usually means that far too "
            "much was pasted as a position: a position has at most %(characters)s characters. Go back, "
            "shorten what you pasted, and try again.")),
    429: (_("Too many requests"),
          _("Too many requests came from your network in a short time. Please wait a few seconds, "
            "then try again.")),
    431: (_("Your browser sent too much"),
          _("Your browser sent more with this request than the site reads, usually too many or too "
            "large cookies. Delete this site's cookies in your browser, then try again.")),
    502: (_("The site is not answering"),
          _("The site cannot answer right now, perhaps because it is being restarted. Nothing you "
            "saved is lost. Please try again in a minute.")),
    REDIRECT_STATUS: (_("This site answers over HTTPS"),
                      _("The site answers only over a secure connection (HTTPS), so your browser was "
                        "sent to the same address there. If it does not go on by itself, type the "
                        "address again with https:// at its start.")),
    504: (_("The site took too long"),
          _("The site did not answer in time. Nothing you saved is lost. Please try again in a "
            "moment.")),
    "pdf-busy": (_("Busy making other PDFs"),
                 _("The server is busy making other PDFs right now. Please try again in "
                   "%(seconds)s seconds.")),
    "pdf-failed": (_("This PDF took too long"),
                   _("Making this PDF took longer than the server allows, so it was stopped. Nothing "
                     "you saved is lost. Please try again in a minute.")),
}

#: The longest request line and header line nginx reads at all (longer: 414 and 431 with
#: nothing of the request known, so in the default language). Lines that fit are read
#: whole, so that the answers below can be in the reader's language.
HEADER_BUFFER = "32k"

#: The longest address nginx passes on; longer ones answer the 414 page in the reader's
#: language. gunicorn takes request lines up to 8190 bytes (gunicorn.conf.py).
ADDRESS_LIMIT = 8000


def security_headers() -> dict[str, str]:
    """The security headers the site's middlewares give every answer over HTTPS, as they
    would give them to an answer without a script (no nonce): the same middlewares run
    over an empty response, so nginx's answers cannot drift from the site's."""
    request = HttpRequest()
    request.META = {"SERVER_NAME": "localhost", "SERVER_PORT": "443", "wsgi.url_scheme": "https",
                    "HTTP_X_FORWARDED_PROTO": "https"}

    def empty(_request):
        return HttpResponse()

    # outermost last, as in settings.MIDDLEWARE
    handler = empty
    for middleware in (PermissionsPolicyMiddleware, XFrameOptionsMiddleware,
                       ContentSecurityPolicyMiddleware, SecurityMiddleware):
        handler = middleware(handler)
    response = handler(request)
    names = ("Content-Security-Policy", "X-Frame-Options", "X-Content-Type-Options", "Referrer-Policy",
             "Cross-Origin-Opener-Policy", "Permissions-Policy", "Strict-Transport-Security")
    return {name: response[name] for name in names if response.has_header(name)}


def error_page(answer: int | str, lang: str) -> str:
    """The page nginx answers with, in ``lang``: ``templates/proxy_error.html``; ``answer``
    is the status, or the name of one of :data:`POOL_ANSWERS`."""
    status, _code, retry_after = (POOL_ANSWERS[answer] if isinstance(answer, str)
                                  else (answer, STATUS_CODES.get(answer), RETRY_AFTER.get(answer)))
    request = HttpRequest()
    request.path = request.path_info = f"/{lang}/"
    request.META = {"SERVER_NAME": "localhost", "SERVER_PORT": "443"}
    with translation.override(lang):
        headline, lead = PAGES[answer]
        lead = str(lead) % {"limit": settings.DATA_UPLOAD_MAX_MEMORY_SIZE // 1024,
                            "characters": formats.number_format(MAX_LENGTH, force_grouping=True),
                            "seconds": retry_after}
        return render_to_string("proxy_error.html", {
            "status": status, "headline": headline, "lead": lead, "page_url": f"/{lang}/",
            # the same file for every reader, with no form: no CSRF token
            "csrf_token": ""}, request=request)


def error_problem(answer: int | str, lang: str) -> str:
    """The API's problem JSON nginx answers with to a client that asks for JSON, in ``lang``;
    ``answer`` as for :func:`error_page`."""
    if isinstance(answer, str):
        status, code, _retry_after = POOL_ANSWERS[answer]
    else:
        status, code = answer, REDIRECT_CODE if answer == REDIRECT_STATUS else STATUS_CODES[answer]
    params = {"limit": settings.DATA_UPLOAD_MAX_MEMORY_SIZE // 1024} if status == 413 else {}
    with translation.override(lang):
        response = api_problem(HttpRequest(), status, code, **params)
    return json.dumps(json.loads(response.content), ensure_ascii=False, indent=1) + "\n"


@dataclass(frozen=True)
class PoolAddress:
    """A host's render pool: where it listens (host:port or unix:/path) and its workers."""

    address: str
    workers: int


@dataclass(frozen=True)
class ProxySite:
    """Where nginx listens and what it passes on: see ``manage.py nginx_site --help``."""

    #: gunicorn's address on each application host, host:port or unix:/path
    upstreams: tuple[str, ...]
    public_host: str            # the site's host name (and port, if not 443) in its links
    #: the ASGI stream process's address on each host (tables' live streams, /live/); none:
    #: gunicorn, which refuses them, and the pages poll
    stream_upstreams: tuple[str, ...] = ()
    #: the render pool of each host (gunicorn_pdf.conf.py): its address and how many
    #: workers it has (its RENDER_LIMIT); none: the site's gunicorn renders, unlimited
    pdf_upstreams: tuple[PoolAddress, ...] = ()
    https_port: int = 443
    http_port: int | None = 80  # answers only with a redirect to HTTPS; None: no such server
    certificate: str = ""
    certificate_key: str = ""
    requests_per_second: int = 100
    #: an address's requests for PDFs (and sheet previews) a second before they wait
    renders_per_second: int = 2
    connections_per_address: int = 256
    ipv6: bool = True           # listen on [::] too

    @property
    def render_slots(self) -> int:
        """How many PDFs every render pool together renders at once."""
        return sum(pool.workers for pool in self.pdf_upstreams)

    @property
    def server_name(self) -> str:
        return self.public_host.rsplit(":", 1)[0] if self.public_host.count(":") == 1 else self.public_host


def write_site(site: ProxySite, folder: Path) -> list[Path]:
    """Write ``folder/site.conf`` (for nginx's ``http`` block), ``folder/stream.conf`` (for
    its ``stream`` block: the ports clients connect to), the files site.conf includes
    (``front.conf``, ``security_headers.conf``) and the answers it serves below
    ``folder/errors/``; returns the files written. nginx makes its sockets in ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    errors = folder / "errors"
    written = []
    languages = [code for code, _name in settings.LANGUAGES]
    for lang in languages:
        (errors / lang).mkdir(parents=True, exist_ok=True)
        for status in (*STATUS_CODES, REDIRECT_STATUS, *POOL_ANSWERS):
            for name, text in ((f"{status}.html", error_page(status, lang)),
                               (f"{status}.json", error_problem(status, lang))):
                path = errors / lang / name
                path.write_text(text, encoding="utf-8")
                written.append(path)
    headers = folder / "security_headers.conf"
    headers.write_text("".join(f'add_header {name} "{value}" always;\n'
                               for name, value in security_headers().items()), encoding="utf-8")
    written.append(headers)
    answers = [{"status": status, "code": code, "retry_after": RETRY_AFTER.get(status),
                "from": ANSWERED_AS.get(status, str(status))} for status, code in STATUS_CODES.items()]
    # the render pool's own, answered only on the PDF addresses (site.conf)
    pool_answers = [{"status": name, "code": code, "retry_after": retry_after, "from": ""}
                    for name, (_status, code, retry_after) in POOL_ANSWERS.items()]
    front = folder / "front.conf"
    front.write_text(render_to_string("deploy/nginx_front.conf", {
        "errors": errors.resolve(), "headers": headers.resolve(), "answers": [*answers, *pool_answers],
        "default_language": settings.LANGUAGE_CODE.split("-")[0],
        "body_limit": f"{settings.DATA_UPLOAD_MAX_MEMORY_SIZE // 1024}k",
        "header_buffer": HEADER_BUFFER, "address_limit": ADDRESS_LIMIT,
        "redirect_status": REDIRECT_STATUS}), encoding="utf-8")
    written.append(front)
    sockets = folder.resolve()
    stream = folder / "stream.conf"
    stream.write_text(render_to_string("deploy/nginx_stream.conf", {"site": site, "sockets": sockets}),
                      encoding="utf-8")
    written.append(stream)
    conf = folder / "site.conf"
    conf.write_text(render_to_string("deploy/nginx.conf", {
        "site": site, "errors": errors.resolve(), "static_root": Path(settings.STATIC_ROOT).resolve(),
        "static_url": settings.STATIC_URL, "languages": languages,
        "default_language": settings.LANGUAGE_CODE.split("-")[0],
        "language_cookie": settings.LANGUAGE_COOKIE_NAME,
        "headers": headers.resolve(), "front": front.resolve(), "sockets": sockets,
        # ten seconds of requests may queue; the first two seconds' worth pass at once
        "burst": site.requests_per_second * 10, "delay": site.requests_per_second * 2,
        # on the PDF addresses, twenty seconds' worth may wait; the first four seconds' pass
        "pdf_burst": site.renders_per_second * 20, "pdf_delay": site.renders_per_second * 4,
        "address_limit": ADDRESS_LIMIT, "redirect_status": REDIRECT_STATUS,
        # a render may take RENDER_TIMEOUT seconds before the pool ends it
        "read_timeout": settings.RENDER_TIMEOUT + 15,
        # on the PDF addresses, every answer of the server's but the pool's own 502 and 504
        "pdf_answers": [answer for answer in answers if answer["status"] not in (502, 504)],
        "pool_header": RENDER_POOL_HEADER, "pool_location": RENDER_POOL_LOCATION,
        "pdf_busy": POOL_ANSWERS["pdf-busy"][0], "pdf_failed": POOL_ANSWERS["pdf-failed"][0],
    }), encoding="utf-8")
    written.append(conf)
    return written
