"""The development server as ``bin/serve`` starts it (``--no-setup``: the set-up is the
suite's already): uvicorn with DEBUG on and no Redis answers a page, a static file from its
sources, and a table's live stream, which hears a move made on a page of the same server
(the bus within its one process)."""

from __future__ import annotations

import subprocess
import time

from harness import BASE_DIR, Browser, Server, base_env, free_port, wait_for_port
from live_clients import Follower


def test_bin_serve_answers_a_page_a_static_file_and_a_live_stream(bare_release, tmp_path):
    port = free_port()
    # the release's database (migrated); DEBUG, since no secret key is set; the forms come
    # from the address Server.request names, as through the HTTPS proxy
    env = {**base_env(), "DATABASE_URL": bare_release.env["DATABASE_URL"],
           "DJANGO_CSRF_TRUSTED_ORIGINS": "https://127.0.0.1"}
    log = tmp_path / "serve.log"
    with log.open("wb") as out:
        process = subprocess.Popen([str(BASE_DIR / "bin" / "serve"), "--no-setup", f"127.0.0.1:{port}"],
                                   cwd=tmp_path, env=env, stdout=out, stderr=subprocess.STDOUT,
                                   start_new_session=True)
    server = Server(f"http://127.0.0.1:{port}", port, log, process, env)
    try:
        wait_for_port(port, process, "bin/serve", log)
        status, headers, script = server.get("/static/js/live.js")
        assert status == 200 and "javascript" in headers["Content-Type"], status
        assert script == (BASE_DIR / "static" / "js" / "live.js").read_bytes()

        presenter = Browser(server, "127.0.0.1")
        code = presenter.start_table()
        status, _headers, page = presenter.request("GET", f"/en/teach/{code}/")
        assert status == 200 and f'data-live-stream="/live/{code}/"'.encode() in page

        follower = Follower(server, code).start()
        try:
            deadline = time.monotonic() + 10
            while not follower.events and time.monotonic() < deadline:
                time.sleep(0.02)
            assert follower.events, (follower.statuses, log.read_text(errors="replace")[-3000:])
            version = int(follower.events[0].id.split(".")[0])
            status, _headers, body = presenter.request("POST", f"/en/teach/{code}/go/",
                                                       {"to": "1", "v": str(version)})
            assert status == 302, body[-2000:]
            moved = follower.wait_for(f"{version + 1}.0.0", timeout=5)
            assert moved is not None, [(e.kind, e.id) for e in follower.events]
            assert follower.statuses == [200]  # heard on the stream it had, not by reconnecting
        finally:
            follower.stop()
        assert "Traceback" not in log.read_text(errors="replace")
    finally:
        server.stop()
