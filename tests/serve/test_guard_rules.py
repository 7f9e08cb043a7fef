"""The rules `quizapp serve` guards its websocket with, without a server: which origins may open a
session, how terminal sizes and messages are bounded, and when TLS options are refused
(tests/serve/test_serve_guard.py checks them against a real server)."""

from __future__ import annotations

import asyncio
import json
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from aiohttp import WSCloseCode, WSMsgType

from quizapp.serve.bounds import (
    MAX_HEIGHT,
    MAX_MESSAGE_BYTES,
    MAX_WIDTH,
    MIN_HEIGHT,
    MIN_WIDTH,
    TerminalSize,
    cells,
    envelope,
    process_messages,
    resize_size,
    url_size,
)
from quizapp.serve.origin import BadOrigin, OriginPolicy, parse_origin, shown
from quizapp.serve.tls import TlsProblem, server_tls_context

LOCAL = OriginPolicy.build(
    listen_host="127.0.0.1", public_url="http://127.0.0.1:8000", allowed_origins=()
)


@pytest.mark.parametrize(
    ("text", "origin"),
    [
        ("https://Class.Example", "https://class.example"),
        ("https://class.example:443", "https://class.example"),
        ("http://class.example:8443", "http://class.example:8443"),
        ("http://[::1]:8000", "http://[::1]:8000"),
    ],
)
def test_an_allowed_origin_is_normalized_as_browsers_send_it(text: str, origin: str) -> None:
    assert parse_origin(text) == origin


@pytest.mark.parametrize(
    "text",
    [
        "class.example",
        "ftp://class.example",
        "https://class.example/",
        "https://class.example/quiz",
        "https://class.example?x",
        "https://user@class.example",
        "https://class.example:0",
        "https://class.example:70000",
        "https://class example",
        "https://class.example\n",
        "",
    ],
)
def test_an_allowed_origin_that_is_not_scheme_host_port_is_refused(text: str) -> None:
    with pytest.raises(BadOrigin, match=r"scheme://host\[:port\]"):
        parse_origin(text)


def test_the_cli_refuses_a_malformed_allowed_origin_in_one_line(run_cli) -> None:
    result = run_cli("serve", "--allowed-origin", "https://class.example/quiz")
    assert result.returncode == 2
    assert result.stderr.startswith("quizapp serve: error: argument --allowed-origin: expected")
    assert len(result.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize(
    ("origin", "host"),
    [
        ("http://127.0.0.1:8000", "127.0.0.1:8000"),  # the page the server printed
        ("http://localhost:8000", "127.0.0.1:8000"),  # the same server by its other name
        ("http://127.0.0.1:8000", "localhost:8000"),
        ("http://10.0.0.5:8000", "10.0.0.5:8000"),  # reached at one of its addresses
        (None, "127.0.0.1:8000"),  # not a browser
    ],
)
def test_the_pages_own_origin_is_accepted(origin: str | None, host: str) -> None:
    assert LOCAL.refusal(origin, host, "http") is None


@pytest.mark.parametrize(
    ("origin", "host", "reason"),
    [
        ("https://evil.example", "127.0.0.1:8000", "another site"),
        ("http://127.0.0.1:8001", "127.0.0.1:8000", "another site"),  # another local server
        ("https://127.0.0.1:8000", "127.0.0.1:8000", "another site"),  # another scheme
        ("null", "127.0.0.1:8000", "not an http(s) origin"),  # a sandboxed frame, a file
        ("http://localhost:8000", "localhost:8001", "another site"),
        # DNS rebinding: evil.example resolved to this server, its page same-origin with Host.
        ("http://evil.example:8000", "evil.example:8000", "not a name of this server"),
        ("http://10.0.0.5:8000", None, "not a name of this server"),
    ],
)
def test_any_other_origin_is_refused(origin: str, host: str | None, reason: str) -> None:
    refusal = LOCAL.refusal(origin, host, "http")
    assert refusal is not None and reason in refusal


def test_behind_a_proxy_the_public_url_and_allowed_origins_are_the_pages_own() -> None:
    policy = OriginPolicy.build(
        listen_host="127.0.0.1",
        public_url="https://quiz.school.example",
        allowed_origins=["https://mirror.school.example:8443"],
    )
    # The proxy passes the browser's Host on; the hop from the proxy is plain HTTP.
    for origin in ("https://quiz.school.example", "https://mirror.school.example:8443"):
        assert policy.refusal(origin, "quiz.school.example", "http") is None
    assert policy.refusal("https://evil.example", "quiz.school.example", "http")


def test_a_logged_header_shows_its_control_characters_escaped() -> None:
    assert shown("https://evil.example\x1b[2J\u202e") == r"'https://evil.example\x1b[2J\u202e'"
    assert shown(None) == "(none)"
    assert len(shown("x" * 10_000)) < 250


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (120, 120),
        ("120", 120),
        (10**7, MAX_WIDTH),
        ("10000000", MAX_WIDTH),
        ("9" * 100_000, MAX_WIDTH),  # counted, not converted
        (10**400, MAX_WIDTH),
        (1e300, MAX_WIDTH),
        (3, MIN_WIDTH),
        (-5, MIN_WIDTH),
        ("-99999999999999", MIN_WIDTH),
        (80.7, 80),
        ("80.7", None),
        ("abc", None),
        ("", None),
        ("١٢٣", None),  # digits, but not ASCII ones
        (float("nan"), None),
        (float("inf"), None),
        (True, None),
        (None, None),
        ([80], None),
    ],
)
def test_a_width_is_clamped_and_a_non_number_ignored(value: object, expected: int | None) -> None:
    assert cells(value, MIN_WIDTH, MAX_WIDTH) == expected


def test_the_urls_size_is_clamped_with_the_default_for_a_non_number() -> None:
    assert url_size({"width": "10000000", "height": "0"}) == TerminalSize(MAX_WIDTH, MIN_HEIGHT)
    assert url_size({"width": "wide", "height": "50"}) == TerminalSize(80, 50)
    assert url_size({}) == TerminalSize(80, 24)


def test_a_resize_is_clamped_and_one_without_a_size_ignored() -> None:
    huge = {"width": 10**7, "height": 10**7}
    assert resize_size(huge) == TerminalSize(MAX_WIDTH, MAX_HEIGHT)
    assert resize_size({"width": 100, "height": "x"}) is None
    assert resize_size({"width": 100}) is None
    assert resize_size([100, 30]) is None


@pytest.mark.parametrize(
    "text",
    ["not json", "{}", "[]", "[1, 2]", "[" * 100_000, "[" + "9" * 5000 + "]", '"stdin"'],
)
def test_what_is_not_an_envelope_is_ignored(text: str) -> None:
    assert envelope(text) is None


@dataclass
class FakeApp:
    """Records what the messages asked of the app."""

    calls: list[tuple[object, ...]] = field(default_factory=list)

    async def send_bytes(self, data: bytes) -> bool:
        self.calls.append(("stdin", data))
        return True

    async def set_terminal_size(self, width: int, height: int) -> None:
        self.calls.append(("resize", width, height))

    async def blur(self) -> None:
        self.calls.append(("blur",))

    async def focus(self) -> None:
        self.calls.append(("focus",))


@dataclass
class FakeMessage:
    type: WSMsgType
    data: object


@dataclass
class FakeWebsocket:
    """Yields `messages`, then ends; records what the server sent and how it closed."""

    messages: list[FakeMessage]
    sent: list[object] = field(default_factory=list)
    closed_with: int | None = None

    def __aiter__(self) -> FakeWebsocket:
        return self

    async def __anext__(self) -> FakeMessage:
        if not self.messages or self.closed_with is not None:
            raise StopAsyncIteration
        return self.messages.pop(0)

    async def send_json(self, data: object) -> None:
        self.sent.append(data)

    async def close(self, *, code: int, message: bytes) -> None:
        self.closed_with = code


def _text(*envelope_parts: object) -> FakeMessage:
    return FakeMessage(WSMsgType.TEXT, json.dumps(list(envelope_parts), ensure_ascii=False))


def _run(messages: list[FakeMessage]) -> tuple[FakeApp, FakeWebsocket]:
    app, websocket = FakeApp(), FakeWebsocket(messages)
    asyncio.run(process_messages(websocket, app, "under test"))  # type: ignore[arg-type]
    return app, websocket


def test_messages_reach_the_app_bounded_and_junk_is_ignored() -> None:
    app, websocket = _run(
        [
            _text("stdin", "a"),
            _text("stdin", {"not": "text"}),
            _text("resize", {"width": 10**7, "height": 10**7}),
            _text("resize", {"width": "x", "height": 30}),
            FakeMessage(WSMsgType.TEXT, "[[[[[["),
            FakeMessage(WSMsgType.BINARY, b"\x00"),
            _text("ping", "t1"),
            _text("focus"),
            _text("blur"),
            _text("unknown", 1),
        ]
    )
    assert app.calls == [
        ("stdin", b"a"),
        ("resize", MAX_WIDTH, MAX_HEIGHT),
        ("focus",),
        ("blur",),
    ]
    assert websocket.sent == [["pong", "t1"]] and websocket.closed_with is None


def test_a_message_over_the_limit_closes_the_session_and_is_logged(caplog) -> None:
    big = _text("stdin", "é" * (MAX_MESSAGE_BYTES // 2))
    size = len(str(big.data).encode("utf-8"))
    assert len(str(big.data)) < MAX_MESSAGE_BYTES < size  # over the limit in bytes only
    app, websocket = _run([_text("stdin", "a"), big, _text("stdin", "b")])
    assert app.calls == [("stdin", b"a")]
    assert websocket.closed_with == WSCloseCode.MESSAGE_TOO_BIG
    assert f"closed session under test: a message of {size} bytes" in caplog.text


def test_tls_needs_both_files_and_says_what_is_wrong_with_them(tmp_path: Path) -> None:
    assert server_tls_context(None, None) is None
    with pytest.raises(TlsProblem, match="go together"):
        server_tls_context(str(tmp_path / "cert.pem"), None)
    with pytest.raises(TlsProblem, match=r"--keyfile .*key\.pem: no such file"):
        server_tls_context(__file__, str(tmp_path / "key.pem"))
    with pytest.raises(TlsProblem, match="not a PEM certificate and its private key"):
        server_tls_context(__file__, __file__)


def make_certificate(folder: Path) -> tuple[Path, Path]:
    """A self-signed certificate for 127.0.0.1 and localhost, made with `openssl req`; skips
    where there is no openssl."""
    openssl = shutil.which("openssl")
    if openssl is None:
        pytest.skip("no openssl to make a self-signed certificate with")
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(
        [
            *(openssl, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1"),
            *("-subj", "/CN=localhost", "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost"),
            *("-keyout", str(key), "-out", str(cert)),
        ],
        check=True,
        capture_output=True,
        timeout=60,
    )
    return cert, key


def test_a_certificate_with_another_key_is_refused(tmp_path: Path) -> None:
    cert, _key = make_certificate(tmp_path)
    other = tmp_path / "other"
    other.mkdir()
    _other_cert, other_key = make_certificate(other)
    assert server_tls_context(str(cert), str(_key)) is not None
    with pytest.raises(TlsProblem, match="not a PEM certificate and its private key"):
        server_tls_context(str(cert), str(other_key))
