"""`quizapp serve`'s command line, its sessions' command line and its default limit, without
a browser (tests/serve/test_browser.py drives the served app in Chromium)."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from quizapp.cli import build_parser
from quizapp.cli.serve import is_loopback
from quizapp.serve.capacity import RESERVED_MB, SESSION_MB_WITH_TORCH, default_max_sessions
from quizapp.serve.session import SessionOptions, session_argv, session_environment
from tests.conftest import REPO
from tests.serve.browser import free_port, wait_until


def test_a_session_runs_the_app_with_the_options_given_even_hostile_paths(tmp_path) -> None:
    hostile = ["-x; rm -rf ~", "$(touch pwned)", "two words/bank.yaml"]
    options = SessionOptions(
        bank=tuple(hostile),
        no_default_bank=True,
        db="--db",
        device="cpu",
        theme="nord",
        length=3,
        default_parameters=True,
    )
    argv = session_argv(options)
    assert argv[:3] == [sys.executable, "-m", "quizapp"]
    parsed = build_parser().parse_args(argv[3:])
    assert parsed.command is None  # the app itself
    assert parsed.bank == hostile
    assert (parsed.db, parsed.device, parsed.theme, parsed.length) == ("--db", "cpu", "nord", 3)
    assert parsed.no_default_bank and parsed.default_parameters
    assert not parsed.no_shuffle  # an authoring aid: never a student's session


def test_the_defaults_pass_nothing_but_the_device_and_torch_on_first_use() -> None:
    parsed = build_parser().parse_args(session_argv(SessionOptions())[3:])
    assert (parsed.bank, parsed.db, parsed.theme, parsed.length) == ([], None, None, None)
    assert parsed.device == "auto" and parsed.load_torch == "first-use"
    assert not (parsed.no_default_bank or parsed.no_shuffle or parsed.default_parameters)


def test_a_signed_in_session_runs_as_its_student() -> None:
    options = SessionOptions(db="postgresql://ada@db/class", student="ada")
    parsed = build_parser().parse_args(session_argv(options)[3:])
    assert (parsed.db, parsed.student) == ("postgresql://ada@db/class", "ada")
    assert not parsed.ask_student


def test_serve_refuses_a_student_on_a_shared_store_in_one_line(tmp_path) -> None:
    env = {**os.environ, "QUIZAPP_CONFIG": str(tmp_path / "config.toml")}
    argv = [sys.executable, "-m", "quizapp", "serve", "--student", "ada", "--port", "1"]
    url = "postgresql://ada:secret@db.example.org/class"
    result = subprocess.run(
        [*argv, "--db", url], cwd=REPO, env=env, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 2
    assert result.stderr == (
        "quizapp serve: error: --student: on a shared history each browser signs in as its "
        "student; serve it without --student\n"
    )


def test_sessions_import_the_quizapp_the_server_runs() -> None:
    environment = session_environment({"PYTHONPATH": "/elsewhere"})
    first, second = environment["PYTHONPATH"].split(":")
    assert (Path(first) / "quizapp" / "__init__.py").is_file() and second == "/elsewhere"


def test_sessions_compute_on_one_thread_unless_the_instructor_says_otherwise() -> None:
    assert session_environment({})["OMP_NUM_THREADS"] == "1"
    assert session_environment({"OMP_NUM_THREADS": "4"})["OMP_NUM_THREADS"] == "4"


def test_the_default_limit_is_what_the_memory_holds_with_torch_loaded() -> None:
    assert default_max_sessions(24 * 1024) == (24 * 1024 - RESERVED_MB) // SESSION_MB_WITH_TORCH
    assert default_max_sessions(24 * 1024) > 20  # a class on a 24 GiB machine
    assert default_max_sessions(512) == 1  # never 0: a small machine still serves one tab
    assert default_max_sessions() >= 1


@pytest.mark.parametrize(
    ("host", "loopback"),
    [
        ("127.0.0.1", True),
        ("localhost", True),
        ("::1", True),
        ("127.0.0.2", True),
        ("0.0.0.0", False),
        ("::", False),
        ("example.org", False),
    ],
)
def test_which_hosts_are_this_machine_only(host: str, loopback: bool) -> None:
    assert is_loopback(host) is loopback


def _serve(*args: str, tmp_path: Path) -> subprocess.Popen:
    env = {**os.environ, "QUIZAPP_CONFIG": str(tmp_path / "config.toml")}
    return subprocess.Popen(
        [sys.executable, "-m", "quizapp", "serve", *args, "--db", str(tmp_path / "h.sqlite3")],
        cwd=REPO,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def test_serving_beyond_the_loopback_warns_and_sigterm_stops_it(tmp_path) -> None:
    port = free_port()
    server = _serve("--host", "0.0.0.0", "--port", str(port), "--insecure-http", tmp_path=tmp_path)
    try:
        assert server.stdout is not None
        line = server.stdout.readline()  # printed once it listens
        assert f"quizapp serve: http://0.0.0.0:{port} (up to" in line
        with socket.create_connection(("127.0.0.1", port), timeout=10):
            pass
    finally:
        server.send_signal(signal.SIGTERM)
        _out, err = server.communicate(timeout=60)
    assert server.returncode == 0
    assert "warning: listening on 0.0.0.0: anyone who can reach port" in err
    assert "Traceback" not in err


def test_a_taken_port_is_one_line_and_exit_1(tmp_path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        server = _serve("--port", str(port), tmp_path=tmp_path)
        _out, err = server.communicate(timeout=60)
    assert server.returncode == 1
    assert err.startswith(f"quizapp serve: error: cannot listen on 127.0.0.1:{port}: ")
    assert len(err.strip().splitlines()) == 1


def test_bad_app_options_are_refused_before_serving(tmp_path, run_cli) -> None:
    result = run_cli("serve", "--db", str(tmp_path))
    assert result.returncode == 2
    assert result.stderr.strip() == (
        f"quizapp: error: --db {tmp_path} is a folder; give the path of a file"
    )
    result = run_cli("serve", "--max-sessions", "none")
    assert result.returncode == 2 and "--max-sessions" in result.stderr
    assert "Traceback" not in result.stderr


def test_wait_until_fails_at_its_deadline() -> None:
    with pytest.raises(AssertionError, match=r"waited 0\.1s for nothing"):
        wait_until(lambda: False, 0.1, "nothing")


def test_a_websocket_beyond_the_limit_is_told_the_server_is_full(tmp_path) -> None:
    """A tab whose page was served while a slot was free, connecting after another tab took
    it: its terminal says so and closes, and no process starts for it."""
    import asyncio

    import aiohttp

    port = free_port()
    server = _serve("--port", str(port), "--max-sessions", "1", tmp_path=tmp_path)

    async def connect_two() -> tuple[str, int]:
        url = f"ws://127.0.0.1:{port}/ws?width=80&height=24"
        async with aiohttp.ClientSession() as session, session.ws_connect(url) as first:
            # The first tab holds its slot: its home screen is drawn.
            drawn = b""
            while b"Decks" not in drawn:
                message = await asyncio.wait_for(first.receive(), 120)
                assert message.type == aiohttp.WSMsgType.BINARY, message
                drawn += message.data
            async with session.ws_connect(url) as second:
                told = await asyncio.wait_for(second.receive(), 30)
                closed = await asyncio.wait_for(second.receive(), 30)
                return told.data.decode(), closed.type

    try:
        assert server.stdout is not None
        server.stdout.readline()  # listening
        text, closed = asyncio.run(connect_two())
    finally:
        server.send_signal(signal.SIGTERM)
        server.communicate(timeout=60)
    assert "quizapp is full." in text and "The one session this server allows is in use" in text
    assert closed in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED)
    assert server.returncode == 0


def test_the_page_fetches_nothing_from_another_site(tmp_path) -> None:
    """textual-serve's page asks Google for its font; the served one uses the copy textual-serve
    ships, from this server."""
    import re
    import urllib.request

    import textual_serve

    statics = Path(textual_serve.__file__).parent / "static"
    port = free_port()
    server = _serve("--port", str(port), tmp_path=tmp_path)
    try:
        assert server.stdout is not None
        server.stdout.readline()  # listening
        origin = f"http://127.0.0.1:{port}"
        with urllib.request.urlopen(f"{origin}/", timeout=30) as response:
            page = response.read().decode()
            assert response.url == f"{origin}/"  # on SQLite: the app at once, no sign-in
        fetched = re.findall(r"""(?:src|href)="([^"]+)"|url\("([^"]+)"\)""", page)
        urls = [a or b for a, b in fetched]
        assert "fonts.googleapis.com" not in page
        assert urls and all(url.startswith(f"{origin}/static/") for url in urls), urls
        fonts = [url for url in urls if "/fonts/" in url]
        assert len(fonts) == 2
        for url in fonts:
            with urllib.request.urlopen(url, timeout=30) as response:
                served = response.read()
            assert served == (statics / url.removeprefix(f"{origin}/static/")).read_bytes()
    finally:
        server.send_signal(signal.SIGTERM)
        server.communicate(timeout=60)
    assert server.returncode == 0


def test_a_page_that_would_fetch_from_elsewhere_is_refused(tmp_path) -> None:
    from quizapp.serve.server import ThirdPartyPage, local_index_page

    (tmp_path / "app_index.html").write_text(
        '<link rel="stylesheet" href="https://fonts.googleapis.com/css?family=X" />'
        '<script src="https://cdn.example.org/x.js"></script>'
    )
    with pytest.raises(ThirdPartyPage, match=r"cdn\.example\.org"):
        local_index_page(tmp_path)
    (tmp_path / "app_index.html").write_text(
        '<link rel="stylesheet" href="https://fonts.googleapis.com/css?family=X" />'
    )
    assert "googleapis" not in local_index_page(tmp_path)


def test_a_tab_closed_as_soon_as_it_opened_ends_its_app_without_a_signal(tmp_path) -> None:
    """Closed before its home screen has mounted, the app is asked to quit mid-mount: it ends
    at once rather than raising and waiting for serve's SIGTERM (QUIT_SECONDS later)."""
    import asyncio

    import aiohttp

    from quizapp.serve.server import QUIT_SECONDS
    from tests.serve.browser import child_pids, is_running

    port = free_port()
    server = _serve("--port", str(port), tmp_path=tmp_path)

    async def open_and_close() -> set[int]:
        url = f"ws://127.0.0.1:{port}/ws?width=80&height=24"
        async with aiohttp.ClientSession() as session, session.ws_connect(url) as tab:
            message = await asyncio.wait_for(tab.receive(), 120)  # the app has started
            assert message.type == aiohttp.WSMsgType.BINARY, message
            return child_pids(server.pid)

    try:
        assert server.stdout is not None
        server.stdout.readline()  # listening
        apps = asyncio.run(open_and_close())
        assert apps
        wait_until(
            lambda: not any(is_running(pid) for pid in apps),
            QUIT_SECONDS - 5,
            "the app to end before serve would signal it",
        )
    finally:
        server.send_signal(signal.SIGTERM)
        _out, err = server.communicate(timeout=60)
    assert "did not quit" not in err and "Traceback" not in err, err
    assert server.returncode == 0
