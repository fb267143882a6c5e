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
from django.core.management.base import CommandError

from tutorials.web.proxy_site import POOL_ANSWERS, REDIRECT_STATUS, STATUS_CODES, security_headers

LANGUAGES = ("ja", "en", "de")


NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
STREAM_MODULE = "/usr/lib/nginx/modules/ngx_stream_module.so"  # Debian's libnginx-mod-stream


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


def test_the_render_pools_answers_have_a_page_and_a_problem_in_every_language(site):
    english = {name: (site / "errors" / "en" / f"{name}.html").read_text() for name in POOL_ANSWERS}
    assert "try again in 5 seconds" in english["pdf-busy"]
    for lang in LANGUAGES:
        for name, (status, code, _retry_after) in POOL_ANSWERS.items():
            page = (site / "errors" / lang / f"{name}.html").read_text()
            assert f'<html lang="{lang}">' in page and f'data-status="{status}"' in page
            headline = re.search(r"<h1>(.+?)</h1>", page)[1]
            if lang != "en":
                assert headline not in english[name], (lang, name, headline)
            problem = json.loads((site / "errors" / lang / f"{name}.json").read_text())
            assert problem["detail"][0]["code"] == code and problem["message"]
    conf = (site / "site.conf").read_text()
    assert "error_page 503 /_captain_errors/pdf-busy;" in conf
    assert "error_page 502 504 =504 /_captain_errors/pdf-failed;" in conf


def test_nginx_answers_carry_the_headers_the_site_gives_its_own(client, site):
    response = client.get("/en/tutorial/", secure=True, headers={"X-Forwarded-Proto": "https"})
    for name, value in security_headers().items():
        assert re.sub(r" 'nonce-[^']+'", "", response[name]) == value, name
    included = (site / "security_headers.conf").read_text()
    assert included.count("add_header") == len(security_headers()) >= 6


def _certificate(folder):
    cert, key = folder / "tls.crt", folder / "tls.key"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(key),
                    "-out", str(cert), "-days", "1", "-subj", "/CN=dice.example.org"],
                   check=True, capture_output=True)
    return cert, key


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    folder = tmp_path_factory.mktemp("nginx-site")
    cert, key = _certificate(folder)
    call_command("nginx_site", str(folder / "site"), "--host", "dice.example.org", "--certificate", str(cert),
                 "--certificate-key", str(key))
    return folder / "site"


@pytest.fixture(scope="module")
def two_hosts(tmp_path_factory):
    folder = tmp_path_factory.mktemp("nginx-two-hosts")
    cert, key = _certificate(folder)
    call_command("nginx_site", str(folder / "site"), "--host", "dice.example.org", "--certificate", str(cert),
                 "--certificate-key", str(key), "--upstream", "10.0.0.1:8000", "--upstream", "10.0.0.2:8000",
                 "--stream-upstream", "10.0.0.1:8001", "--stream-upstream", "10.0.0.2:8001",
                 "--pdf-upstream", "10.0.0.1:8002=2", "--pdf-upstream", "10.0.0.2:8002=3")
    return folder / "site"


def _upstream(conf: str, name: str) -> list[str]:
    block = re.search(rf"^upstream {name} {{\n(.*?)^}}", conf, re.S | re.M)
    assert block, f"no upstream {name}"
    return [line.strip() for line in block[1].splitlines() if line.strip()]


def test_one_host_is_one_server_line_in_each_upstream(site):
    conf = (site / "site.conf").read_text()
    assert _upstream(conf, "captain_site") == ["server 127.0.0.1:8000 max_fails=1 fail_timeout=10s;",
                                               "keepalive 32;", "keepalive_timeout 50s;"]
    assert _upstream(conf, "captain_live") == ["server 127.0.0.1:8001 max_fails=1 fail_timeout=10s;"]
    # the render pool as many workers as this environment's render limit gives it
    assert _upstream(conf, "captain_pdf")[1:] == [
        f"server 127.0.0.1:8002 max_conns={settings.RENDER_LIMIT} max_fails=2 fail_timeout=10s;"]
    assert f"limit_conn captain_renders {settings.RENDER_LIMIT};" in conf


def test_each_host_is_a_server_line_and_a_post_is_never_sent_twice(two_hosts):
    conf = (two_hosts / "site.conf").read_text()
    assert _upstream(conf, "captain_site")[:2] == [f"server 10.0.0.{n}:8000 max_fails=1 fail_timeout=10s;"
                                                   for n in (1, 2)]
    assert _upstream(conf, "captain_live") == [f"server 10.0.0.{n}:8001 max_fails=1 fail_timeout=10s;"
                                               for n in (1, 2)]
    # every render pool takes no more than its workers, and all of them together no more
    # than their sum: one more PDF is answered 503 at once
    assert _upstream(conf, "captain_pdf")[1:] == [
        f"server 10.0.0.{n}:8002 max_conns={n + 1} max_fails=2 fail_timeout=10s;" for n in (1, 2)]
    assert "limit_conn captain_renders 5;" in conf
    # a host that cannot be reached is passed over; only what never reached it is sent again
    # (a render, once more at most)
    rules = re.findall(r"^\s*proxy_next_upstream\b[^;]*;", conf, re.M)
    assert rules == ["    proxy_next_upstream error timeout;", "        proxy_next_upstream error;"], rules
    assert "non_idempotent" not in re.sub(r"#.*", "", conf)


@pytest.mark.parametrize("options, message", [
    (["--upstream", "10.0.0.1:8000", "--upstream", "10.0.0.1:8000"], "given twice"),
    (["--upstream", "10.0.0.1:8000; evil"], "is not host:port"),
    (["--stream-upstream", "none", "--stream-upstream", "10.0.0.1:8001"], "'none'"),
    (["--pdf-upstream", "none", "--pdf-upstream", "10.0.0.1:8002"], "'none'"),
    (["--pdf-upstream", "10.0.0.1:8002=0"], "whole number"),
    (["--pdf-upstream", "10.0.0.1:8002", "--pdf-upstream", "10.0.0.1:8002=2"], "given twice"),
])
def test_a_doubtful_host_list_is_refused(site, tmp_path, options, message):
    with pytest.raises(CommandError, match=message):
        call_command("nginx_site", str(tmp_path / "site"), "--host", "dice.example.org",
                     "--certificate", str(site.parent / "tls.crt"),
                     "--certificate-key", str(site.parent / "tls.key"), *options)


@pytest.mark.skipif(not (os.path.exists(NGINX) and os.path.exists(STREAM_MODULE)),
                    reason="nginx and its stream module are not installed (bin/setup installs them)")
@pytest.mark.parametrize("which", ["site", "two_hosts"])
def test_nginx_reads_the_configuration_without_a_warning(which, request, tmp_path):
    site = request.getfixturevalue(which)
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
