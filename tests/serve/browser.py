"""Driving `quizapp serve` in headless Chromium (Debian's, through Playwright's
`executable_path`; nothing downloads a browser build of its own).

textual-serve draws the terminal with xterm.js on a canvas, so the page has no text to read.
The page script keeps its xterm.js `Terminal` in a property named `terminal`; HOOK, run before
the page's own scripts, catches that assignment and keeps the terminal in
`window.__quizappTerminals`, and SCREEN_TEXT reads the visible rows through xterm.js's public
buffer API (`buffer.active.getLine(row).translateToString()`).
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.conftest import REPO

CHROMIUM = os.environ.get("QUIZAPP_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
# Headless, as root, on a machine with no network but the loopback: without these Chromium
# refuses to start as root, or spends its time on connections that are refused.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]

HOOK = """
window.__quizappTerminals = [];
Object.defineProperty(Object.prototype, "terminal", {
  configurable: true,
  set(value) {
    Object.defineProperty(this, "terminal", {
      value, writable: true, configurable: true, enumerable: true,
    });
    if (value && value.buffer) window.__quizappTerminals.push(value);
  },
});
"""

SCREEN_TEXT = """() => {
  const terminal = window.__quizappTerminals[0];
  if (!terminal) return "";
  const buffer = terminal.buffer.active, rows = [];
  for (let row = 0; row < terminal.rows; row++) {
    const line = buffer.getLine(buffer.viewportY + row);
    rows.push(line ? line.translateToString(true) : "");
  }
  return rows.join("\\n");
}"""


def require_chromium() -> str:
    """The Chromium to drive; skips the test where there is none (fails under CI=true, where
    .ci/run installs it)."""
    problem = None
    if not Path(CHROMIUM).exists():
        problem = f"no Chromium at {CHROMIUM} (apt-get install chromium)"
    else:
        try:
            import playwright.sync_api  # noqa: F401
        except ImportError:
            problem = "Playwright is not installed (pip install -e '.[dev]')"
    if problem is None:
        return CHROMIUM
    if os.environ.get("CI") == "true":
        pytest.fail(f"browser tests: {problem}")
    pytest.skip(f"browser tests: {problem}")


def screen_text(page) -> str:
    return page.evaluate(SCREEN_TEXT)


def wait_for_text(page, *texts: str, seconds: float = 60) -> str:
    """Poll the terminal until it shows one of `texts`; fail with the screen after `seconds`."""
    deadline = time.monotonic() + seconds
    while True:
        screen = screen_text(page)
        if any(text in screen for text in texts):
            return screen
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {seconds:g}s to see {texts}; the screen:\n{screen}")
        page.wait_for_timeout(100)  # how often to look, not how long to wait


def open_app(context, url: str, requests: list[str] | None = None):
    """A new tab on the served app, with its terminal readable and focused for keys; every URL
    the tab requests is added to `requests`."""
    page = context.new_page()
    if requests is not None:
        page.on("request", lambda request: requests.append(request.url))
    page.add_init_script(HOOK)
    page.goto(url)
    return page


def press(page, *keys: str) -> None:
    page.focus("textarea.xterm-helper-textarea")
    for key in keys:
        page.keyboard.press(key)


def choose(page, option: int, seconds: float = 60) -> None:
    """Pick a choice question's option by its number key, pressed again until the screen shows
    it picked: a key that arrives while Textual is still mounting the question's options (the
    hint under them can already be drawn) goes to the screen and is lost."""
    picked = f"{option}. (•)"
    deadline = time.monotonic() + seconds
    while True:
        press(page, str(option))
        try:
            wait_for_text(page, picked, seconds=1)
            return
        except AssertionError:
            if time.monotonic() > deadline:
                raise


def option_number(page, text: str, seconds: float = 60) -> int:
    """The number the option starting `text` is shown under: options are shuffled in every
    served session, so a test picks the right one by its words, as a student does."""
    deadline = time.monotonic() + seconds
    while True:
        for line in screen_text(page).splitlines():
            shown = re.search(r"(\d+)\. \(.\) (.*)", line)
            if shown and shown.group(2).startswith(text):
                return int(shown.group(1))
        if time.monotonic() > deadline:
            raise AssertionError(f"no option {text!r} on the screen:\n{screen_text(page)}")
        time.sleep(0.1)  # how often to look, not how long to wait


def wait_until(condition, seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {seconds:g}s for {what}")
        time.sleep(0.1)  # how often to look, not how long to wait


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def child_pids(parent: int) -> set[int]:
    """The processes whose parent is `parent` (Linux: read from /proc)."""
    children = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat.read_text()
        except OSError:
            continue
        # pid (comm) state ppid ...: comm may hold spaces, so split after its closing ")".
        if int(text.rpartition(")")[2].split()[1]) == parent:
            children.add(int(stat.parent.name))
    return children


def is_running(pid: int) -> bool:
    """Whether `pid` is still a live quizapp process (not gone, not a zombie)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0]
        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return False
    return state != "Z" and b"quizapp" in cmdline


def has_torch_loaded(pid: int) -> bool:
    """Whether the process has PyTorch's shared library mapped (Linux: /proc/PID/maps)."""
    return "libtorch" in Path(f"/proc/{pid}/maps").read_text()


@dataclass
class Served:
    url: str
    process: subprocess.Popen
    history: Path
    log: Path
    seen_apps: set[int] = field(default_factory=set)

    def app_pids(self) -> set[int]:
        pids = child_pids(self.process.pid)
        self.seen_apps |= pids
        return pids

    def reviews(self) -> list[tuple[str, int]]:
        import sqlite3

        if not self.history.exists():
            return []
        with sqlite3.connect(self.history) as db:
            return db.execute("SELECT question_id, correct FROM reviews ORDER BY id").fetchall()


@contextmanager
def served_app(
    tmp_path: Path,
    *options: str,
    stop: signal.Signals = signal.SIGTERM,
    environment: dict[str, str] | None = None,
) -> Iterator[Served]:
    """`python -m quizapp serve` on a free loopback port with a history and config of its own
    (`environment` can name others); stopped with `stop` afterwards (SIGINT: a Ctrl+C), and no
    app process it started may outlive it."""
    port = free_port()
    history, log = tmp_path / "history.sqlite3", tmp_path / "serve.log"
    env = {
        **os.environ,
        "QUIZAPP_DB": str(history),
        "QUIZAPP_CONFIG": str(tmp_path / "config.toml"),
        **(environment or {}),
    }
    argv = [sys.executable, "-m", "quizapp", "serve", "--port", str(port), *options]
    with log.open("w") as output:
        process = subprocess.Popen(argv, cwd=REPO, env=env, stdout=output, stderr=subprocess.STDOUT)
    served = Served(f"http://127.0.0.1:{port}/", process, history, log)
    try:
        wait_until(lambda: _listening(port) or process.poll() is not None, 60, "serve to listen")
        assert process.poll() is None, f"serve exited: {log.read_text()}"
        yield served
    finally:
        served.app_pids()
        process.send_signal(stop)
        try:
            code = process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            process.kill()
            raise
        left = sorted(pid for pid in served.seen_apps if is_running(pid))
        assert not left, f"app processes left running after serve stopped: {left}"
        assert code == 0, log.read_text()


def _listening(port: int) -> bool:
    with socket.socket() as probe:
        return probe.connect_ex(("127.0.0.1", port)) == 0


def sign_in(page, student: str, password: str) -> None:
    """Fill in and send the sign-in form a class server answers with (quizapp/serve/
    sign_in.py), as a student does; returns once the server has answered it."""
    page.wait_for_selector("#student")
    page.fill("#student", student)
    page.fill("#password", password)
    with page.expect_navigation():
        page.click("button[type=submit]")
