"""Cross-site websocket hijacking, tried in a real headless Chromium: a page on another site
opens a websocket to `quizapp serve`, as a site a student visits could. Chromium sends the
page's own Origin, which the page cannot change; serve refuses it before any app process
starts, and the served page itself still works in the same browser."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from tests.serve.browser import open_app, served_app, wait_for_text, wait_until

pytestmark = [pytest.mark.browser, pytest.mark.slow]

# The foreign page: it opens a websocket to the class server and says how it ended.
FOREIGN_PAGE = """<!DOCTYPE html><html><body><script>
window.outcome = "pending";
const socket = new WebSocket(%r);
socket.onopen = () => { window.outcome = "open"; };
socket.onclose = (event) => { if (window.outcome === "pending") window.outcome = "refused"; };
</script></body></html>"""


@contextmanager
def foreign_site(page: str) -> Iterator[str]:
    """Another site on this machine (another port, so another origin) serving `page`. On the
    loopback like the server, so Chromium's own guard against public pages reaching local
    addresses (Private Network Access) stays out of the way: only serve's check is tested."""

    class Page(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            body = page.encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: object) -> None:
            """Quiet: the test reads serve's log, not this one."""

    server = ThreadingHTTPServer(("127.0.0.1", 0), Page)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://localhost:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


def test_a_page_on_another_site_cannot_open_a_session(browser, tmp_path: Path) -> None:
    with served_app(tmp_path) as served:
        websocket_url = served.url.replace("http://", "ws://") + "ws?width=80&height=24"
        context = browser.new_context()
        with foreign_site(FOREIGN_PAGE % websocket_url) as foreign_url:
            page = context.new_page()
            page.goto(foreign_url)
            wait_until(
                lambda: page.evaluate("window.outcome") != "pending", 60, "the websocket to end"
            )
            assert page.evaluate("window.outcome") == "refused"
        assert served.app_pids() == set()  # no app process started for it
        foreign_origin = foreign_url.rstrip("/")
        logged = served.log.read_text()
        assert "refused a websocket from 127.0.0.1: its Origin is another site" in logged
        assert f"(Origin '{foreign_origin}'," in logged

        # The class's own page, in the same browser, opens its session.
        own = open_app(context, served.url)
        wait_for_text(own, "Multi-head attention")
        assert served.app_pids()
        context.close()
