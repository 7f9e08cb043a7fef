"""A real `quizapp serve` against real websocket clients: a foreign page's websocket is refused
before any app process starts, sizes and messages are bounded while memory stays flat, and the
server speaks TLS with a certificate made here (tests/serve/test_guard_rules.py: the rules)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import signal
import socket
import ssl
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import aiohttp
import pytest

from quizapp.serve.bounds import MAX_HEIGHT, MAX_MESSAGE_BYTES
from tests.conftest import REPO
from tests.serve.browser import child_pids, free_port, wait_until
from tests.serve.test_guard_rules import make_certificate

# A cursor move the app draws with: ESC [ row ; column H.
CURSOR_ROW = re.compile(rb"\x1b\[(\d+);\d+H")
# The app's own memory, and the server's, may grow by this much while a client asks for a
# screen of 10**7 x 10**7 cells or sends megabytes (unbounded, the app asked for gigabytes).
APP_GROWTH_KB = 256 * 1024
SERVER_GROWTH_KB = 32 * 1024


@dataclass
class Server:
    process: subprocess.Popen
    port: int
    log: Path

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def logged(self) -> str:
        return self.log.read_text()


@contextmanager
def serving(tmp_path: Path, *options: str) -> Iterator[Server]:
    """`quizapp serve` on a free loopback port, its log (stderr) in a file; stopped after."""
    port = free_port()
    log = tmp_path / "serve.log"
    env = {**os.environ, "QUIZAPP_CONFIG": str(tmp_path / "config.toml")}
    argv = [sys.executable, "-m", "quizapp", "serve", "--port", str(port), *options]
    argv += ["--db", str(tmp_path / "history.sqlite3")]
    with log.open("w") as errors:
        process = subprocess.Popen(
            argv, cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=errors, text=True
        )
    try:
        assert process.stdout is not None
        listening = process.stdout.readline()  # printed once it listens
        assert "quizapp serve: " in listening, log.read_text()
        yield Server(process, port, log)
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            process.kill()
            process.communicate()
            pytest.fail(f"serve did not end within 60 s of SIGTERM; its log:\n{log.read_text()}")
    assert process.returncode == 0, log.read_text()
    assert "Traceback" not in log.read_text()


def resident_kb(pid: int) -> int:
    """The process's resident memory (VmRSS), in kB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError(f"no VmRSS for process {pid}")


async def until_drawn(websocket: aiohttp.ClientWebSocketResponse, seen: bytes) -> bytes:
    """Receive the app's output until `seen` is in it; all of it, returned."""
    drawn = b""
    while seen not in drawn:
        message = await asyncio.wait_for(websocket.receive(), 120)
        assert message.type == aiohttp.WSMsgType.BINARY, message
        drawn += message.data
    return drawn


async def next_message_but_output(
    websocket: aiohttp.ClientWebSocketResponse,
) -> aiohttp.WSMessage:
    """The next message that is not the app's output (a reply, or the closing)."""
    while True:
        message = await asyncio.wait_for(websocket.receive(), 60)
        if message.type != aiohttp.WSMsgType.BINARY:
            return message


def rows_drawn(output: bytes) -> set[int]:
    return {int(row) for row in CURSOR_ROW.findall(output)}


def test_a_foreign_pages_websocket_is_refused_before_any_process_starts(tmp_path) -> None:
    async def connect(url: str, headers: dict[str, str]) -> int:
        async with aiohttp.ClientSession() as session:
            try:
                async with session.ws_connect(url, headers=headers):
                    return 101
            except aiohttp.WSServerHandshakeError as refused:
                return refused.status

    with serving(tmp_path) as server:
        url = f"ws://127.0.0.1:{server.port}/ws?width=80&height=24"
        foreign = {"Origin": "https://evil.example"}
        assert asyncio.run(connect(url, foreign)) == 403
        # DNS rebinding: evil.example pointed at this server, its page same-origin with Host.
        rebound = f"evil.example:{server.port}"
        assert asyncio.run(connect(url, {"Origin": f"http://{rebound}", "Host": rebound})) == 403
        assert child_pids(server.process.pid) == set()  # no app process, ever
        logged = server.logged()
        assert (
            f"refused a websocket from 127.0.0.1: its Origin is another site "
            f"(Origin 'https://evil.example', Host '127.0.0.1:{server.port}')" in logged
        )
        assert "its Host is not a name of this server" in logged

        # What the Origin holds is logged escaped, never acting on the terminal: an invisible
        # bidirectional override reaches the check; an escape character (ESC) does not even
        # reach it, aiohttp refuses the request.
        for origin, status in ((b"\xe2\x80\xae", b"403"), (b"\x1b[2J", b"400")):
            with socket.create_connection(("127.0.0.1", server.port), timeout=30) as raw:
                raw.sendall(
                    b"GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
                    b"Connection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
                    b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                    b"Origin: https://evil.example" + origin + b"\r\n\r\n"
                )
                assert raw.recv(100).split(b" ")[1] == status
        wait_until(lambda: r"\u202e" in server.logged(), 30, "the refusal to be logged")
        assert r"Origin 'https://evil.example\u202e'" in server.logged()
        assert "\x1b" not in server.logged() and "\u202e" not in server.logged()
        assert "refused a malformed request: Invalid header value char" in server.logged()
        assert child_pids(server.process.pid) == set()

        # The page's own origin opens a session.
        async def same_origin() -> bytes:
            async with aiohttp.ClientSession() as session:
                headers = {"Origin": server.origin}
                async with session.ws_connect(url, headers=headers) as websocket:
                    return await until_drawn(websocket, b"Decks")

        assert b"Decks" in asyncio.run(same_origin())


def test_huge_sizes_are_clamped_and_a_huge_message_closes_only_its_session(tmp_path) -> None:
    """One tab asks for a screen of 10**7 x 10**7 cells in its URL, another in a resize; then
    the first sends a message of a megabyte. The apps draw at 200 rows at most, the first
    session is closed with a logged reason, the second carries on, and neither the server's
    memory nor the apps' grows past a bound."""
    huge = 10**7

    async def scenario(server: Server) -> tuple[set[int], set[int], aiohttp.WSMessage, object]:
        base = f"ws://127.0.0.1:{server.port}/ws"
        headers = {"Origin": server.origin}
        async with aiohttp.ClientSession() as session:
            first = await session.ws_connect(f"{base}?width={huge}&height={huge}", headers=headers)
            first_rows = rows_drawn(await until_drawn(first, b"Decks"))
            first_apps = child_pids(server.process.pid)

            second = await session.ws_connect(f"{base}?width=80&height=24", headers=headers)
            await until_drawn(second, b"Decks")
            (app_pid,) = child_pids(server.process.pid) - first_apps
            app_before = resident_kb(app_pid)
            await second.send_json(["resize", {"width": huge, "height": huge}])
            # Drawn again at the clamped size: its last row is MAX_HEIGHT.
            redrawn = await until_drawn(second, f"\x1b[{MAX_HEIGHT};".encode())
            app_growth = resident_kb(app_pid) - app_before
            assert app_growth < APP_GROWTH_KB, f"the app grew by {app_growth} kB"

            server_before = resident_kb(server.process.pid)
            # The server closes on reading the frame's length, and may have done so before
            # the client wrote the whole megabyte: the write then fails here.
            with contextlib.suppress(ConnectionResetError):
                await first.send_str('["stdin", "' + "x" * (1024 * 1024) + '"]')
            closed = await next_message_but_output(first)
            server_growth = resident_kb(server.process.pid) - server_before
            assert server_growth < SERVER_GROWTH_KB, f"the server grew by {server_growth} kB"

            await second.send_json(["ping", "still here"])
            pong = await next_message_but_output(second)
            await second.close()
            return first_rows, rows_drawn(redrawn), closed, pong.data

    with serving(tmp_path, "--max-sessions", "2") as server:
        first_rows, second_rows, closed, pong = asyncio.run(scenario(server))
        assert max(first_rows) == MAX_HEIGHT and max(second_rows) == MAX_HEIGHT
        # The closing frame says why, unless the connection went before the client read it
        # (the write above failed); the server's log says why in every case (below).
        ending = (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSING, aiohttp.WSMsgType.CLOSED)
        assert closed.type in ending, closed
        if closed.type == aiohttp.WSMsgType.CLOSE:
            assert closed.data == aiohttp.WSCloseCode.MESSAGE_TOO_BIG
        assert pong == '["pong", "still here"]'
        wait_until(lambda: "closed session" in server.logged(), 30, "the closing to be logged")
        assert f"exceeds limit {MAX_MESSAGE_BYTES}" in server.logged()


@pytest.mark.parametrize("insecure", [False, True])
def test_plain_http_beyond_the_loopback_needs_insecure_http(tmp_path, insecure: bool) -> None:
    port = free_port()
    env = {**os.environ, "QUIZAPP_CONFIG": str(tmp_path / "config.toml")}
    argv = [sys.executable, "-m", "quizapp", "serve", "--host", "0.0.0.0", "--port", str(port)]
    argv += ["--db", str(tmp_path / "h.sqlite3")] + (["--insecure-http"] if insecure else [])
    process = subprocess.Popen(
        argv, cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    if insecure:
        assert process.stdout is not None
        assert f"http://0.0.0.0:{port}" in process.stdout.readline()
        process.send_signal(signal.SIGTERM)
    _out, err = process.communicate(timeout=120)
    if insecure:
        assert process.returncode == 0
        assert "warning: plain HTTP on 0.0.0.0 (--insecure-http)" in err
    else:
        assert process.returncode == 2
        assert err.startswith("quizapp serve: error: --host 0.0.0.0: plain HTTP beyond")
        assert len(err.strip().splitlines()) == 1


def test_with_a_certificate_it_serves_https_and_wss(tmp_path) -> None:
    cert, key = make_certificate(tmp_path)
    trusting = ssl.create_default_context(cafile=str(cert))
    with serving(tmp_path, "--certfile", str(cert), "--keyfile", str(key)) as server:
        origin = f"https://127.0.0.1:{server.port}"
        with urllib.request.urlopen(f"{origin}/", timeout=30, context=trusting) as response:
            page = response.read().decode()
        assert f"wss://127.0.0.1:{server.port}/ws" in page

        async def tls_session() -> bytes:
            async with aiohttp.ClientSession() as session:
                url = f"wss://127.0.0.1:{server.port}/ws?width=80&height=24"
                headers = {"Origin": origin}
                async with session.ws_connect(url, headers=headers, ssl=trusting) as websocket:
                    return await until_drawn(websocket, b"Decks")

        assert b"Decks" in asyncio.run(tls_session())
        # Plain HTTP on the TLS port gets no page.
        with pytest.raises(OSError):
            urllib.request.urlopen(f"http://127.0.0.1:{server.port}/", timeout=30).read()
