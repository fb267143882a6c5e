"""``manage.py nginx_site``: nginx's configuration and the answers nginx gives itself
(tutorials.web.proxy_site); nginx itself serves them in tests/deploy/test_proxy.py."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess

import pytest
from django.conf import settings
from django.core.management import call_command

from tutorials.web.proxy_site import REDIRECT_STATUS, STATUS_CODES, security_headers

LANGUAGES = ("ja", "en", "de")


NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
STREAM_MODULE = "/usr/lib/nginx/modules/ngx_stream_module.so"  # Debian's libnginx-mod-stream


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    folder = tmp_path_factory.mktemp("nginx-site")
    cert, key = folder / "tls.crt", folder / "tls.key"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(key),
                    "-out", str(cert), "-days", "1", "-subj", "/CN=dice.example.org"],
                   check=True, capture_output=True)
    call_command("nginx_site", str(folder / "site"), "--host", "dice.example.org", "--certificate", str(cert),
                 "--certificate-key", str(key))
    return folder / "site"


def test_every_status_has_a_page_and_a_problem_in_every_language(site):
    english = {status: (site / "errors" / "en" / f"{status}.html").read_text() for status in STATUS_CODES}
    for lang in LANGUAGES:
        for status, code in STATUS_CODES.items():
            page = (site / "errors" / lang / f"{status}.html").read_text()
            assert f'<html lang="{lang}">' in page and f'data-status="{status}"' in page
            headline = re.search(r"<h1>(.+?)</h1>", page)[1]
            if lang != "en":  # translated, not the English text
                assert headline not in english[status], (lang, status, headline)
            problem = json.loads((site / "errors" / lang / f"{status}.json").read_text())
            assert problem["detail"][0]["code"] == code and problem["message"]
    # the page names the largest body and the longest position the site takes
    assert "64 KiB" in english[413] and "2,000" in english[414]


def test_nginx_answers_carry_the_headers_the_site_gives_its_own(client, site):
    response = client.get("/en/tutorial/", secure=True, headers={"X-Forwarded-Proto": "https"})
    for name, value in security_headers().items():
        assert re.sub(r" 'nonce-[^']+'", "", response[name]) == value, name
    included = (site / "security_headers.conf").read_text()
    assert included.count("add_header") == len(security_headers()) >= 6


@pytest.mark.skipif(not (os.path.exists(NGINX) and os.path.exists(STREAM_MODULE)),
                    reason="nginx and its stream module are not installed (bin/setup installs them)")
def test_nginx_reads_the_configuration_without_a_warning(site, tmp_path):
    main = tmp_path / "nginx.conf"
    main.write_text(f"load_module {STREAM_MODULE};\npid {tmp_path}/nginx.pid;\nevents {{}}\n"
                    f"stream {{ include {site}/stream.conf; }}\n"
                    f"http {{ include /etc/nginx/mime.types; include {site}/site.conf; }}\n")
    proc = subprocess.run([NGINX, "-t", "-p", str(tmp_path), "-e", str(tmp_path / "error.log"),
                           "-c", str(main)], capture_output=True, text=True)
    assert proc.returncode == 0 and "[warn]" not in proc.stderr, proc.stderr


def test_the_redirect_to_https_has_a_page_and_a_problem_in_every_language(site):
    for lang in LANGUAGES:
        page = (site / "errors" / lang / f"{REDIRECT_STATUS}.html").read_text()
        assert f'<html lang="{lang}">' in page and "https://" in page
        problem = json.loads((site / "errors" / lang / f"{REDIRECT_STATUS}.json").read_text())
        assert problem["detail"][0]["code"] == "https-only" and "HTTPS" in problem["message"]


def test_the_deployment_doc_names_every_file_nginx_site_writes(site):
    doc = (settings.BASE_DIR / "docs" / "production.md").read_text()
    section = doc.split("## nginx in front", 1)[1].split("\n## ", 1)[0]
    written = {path.name + ("/" if path.is_dir() else "") for path in site.iterdir()
               if not path.name.endswith(".sock")}
    assert written >= {"site.conf", "stream.conf", "errors/"}
    missing = [name for name in sorted(written) if f"`<folder>/{name}" not in section]
    assert not missing, f"docs/production.md does not name {missing}"
