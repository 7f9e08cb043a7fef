"""`quizapp serve` in headless Chromium against the same app in a pseudo-terminal.

- page to home screen: from opening a tab to the home screen's deck list in the browser, vs
  `python -m quizapp` spawned in a terminal to its first frame (bench_startup_terminal.py);
- key to redraw: from pressing `?` on the home screen to the help screen's text, in the
  browser (read through xterm.js, polled every few milliseconds: an upper bound) vs in the
  terminal (read from the pseudo-terminal as it is written);
- the first lab result: from opening to the lab's panel after answering the first question,
  and the memory of that app process then (torch loaded), in the browser and the terminal,
  beside a served app that never loads torch (the same app with its warm-up left out).

Each tab's process is gone before the next run starts: a tab closed during torch's import
ends only once the import is done, and would otherwise slow the next run.
Needs Chromium (/usr/bin/chromium) and Playwright, as the browser tests do.
"""

from __future__ import annotations

import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

from harness import Benchmark
from terminal import NoFrame, Terminal, terminal_env

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from tests.serve.browser import (  # noqa: E402
    CHROMIUM,
    CHROMIUM_ARGS,
    HOOK,
    child_pids,
    free_port,
    screen_text,
    wait_until,
)

HOME = "Multi-head attention"
HELP = "grade a revealed flashcard"  # on the help screen `?` opens
FIRST_QUESTION = "Multi-head attention exists primarily to"
LAB = "done in "  # the lab's status once its computation has run live
SIZE = (120, 36)  # the terminal; the browser's viewport below gives about the same
VIEWPORT = {"width": 1100, "height": 700}
SECONDS = 180

# The served app without the torch warm-up: the same argument list, the same app.
NO_TORCH = textwrap.dedent(
    """
    import dataclasses, sys
    import quizapp.tui.app as app_module

    class WithoutTorch(app_module.QuizApp):
        def __init__(self, bank, options):
            super().__init__(bank, dataclasses.replace(options, warm_up=False))

    app_module.QuizApp = WithoutTorch
    from quizapp.cli import main
    raise SystemExit(main(sys.argv[1:]))
    """
)
NO_TORCH_SERVER = textwrap.dedent(
    """
    import sys
    from quizapp.serve.server import QuizServer
    from quizapp.serve.session import session_environment
    import os
    argv = [sys.executable, "-c", sys.argv[2]]
    QuizServer(argv, host="127.0.0.1", port=int(sys.argv[1]), max_sessions=4,
               environment=session_environment(dict(os.environ))).serve()
    """
)

_state: dict = {}


def memory_mb(pid: int) -> dict[str, float]:
    """Resident, proportional and private memory of a process, in MiB (Linux)."""
    fields = {}
    for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines()[1:]:
        name, value, *_ = line.split()
        fields[name.rstrip(":")] = int(value) / 1024
    return {
        "rss": fields["Rss"],
        "pss": fields["Pss"],
        "private": fields["Private_Clean"] + fields["Private_Dirty"],
    }


def _cpu_ticks(pid: int) -> int:
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    return int(fields[11]) + int(fields[12])  # utime + stime


def wait_idle(pid: int, quiet: float = 1.0, seconds: float = SECONDS) -> None:
    """Until the process has used no CPU for `quiet` seconds: its torch warm-up is over, so a
    key is timed against the app alone, not against an import holding the GIL."""
    deadline = time.monotonic() + seconds
    ticks, since = _cpu_ticks(pid), time.monotonic()
    while time.monotonic() - since < quiet:
        if time.monotonic() > deadline:
            raise RuntimeError(f"process {pid} still busy after {seconds:g} s")
        time.sleep(0.1)  # how often to look
        if (now := _cpu_ticks(pid)) != ticks:
            ticks, since = now, time.monotonic()


def _wait_text(read, text: str, seconds: float = SECONDS, poll: float = 0.005) -> float:
    """Poll `read()` until it holds `text`; the time that took."""
    start = time.perf_counter()
    while text not in read():
        if time.perf_counter() - start > seconds:
            raise RuntimeError(f"no {text!r} after {seconds:g} s:\n{read()}")
        time.sleep(poll)  # how often to look
    return time.perf_counter() - start


def _setup() -> None:
    from playwright.sync_api import sync_playwright

    folder = Path(tempfile.mkdtemp(prefix="quizapp-bench-serve-"))
    env = terminal_env(
        QUIZAPP_CACHE_DIR=str(folder / "cache"),
        QUIZAPP_DB=str(folder / "history.sqlite3"),
        QUIZAPP_CONFIG=str(folder / "config.toml"),
        PYTHONPYCACHEPREFIX=str(folder / "bytecode"),
    )
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    port, bare_port = free_port(), free_port()
    servers = [
        subprocess.Popen(
            [sys.executable, "-m", "quizapp", "serve", "--port", str(port)],
            cwd=REPO,
            env=env,
            stdout=subprocess.DEVNULL,
        ),
        subprocess.Popen(
            [sys.executable, "-c", NO_TORCH_SERVER, str(bare_port), NO_TORCH],
            cwd=REPO,
            env=env,
            stdout=subprocess.DEVNULL,
        ),
    ]
    playwright = sync_playwright().start()
    browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
    _state.update(
        folder=folder,
        env=env,
        servers=servers,
        url=f"http://127.0.0.1:{port}/",
        bare_url=f"http://127.0.0.1:{bare_port}/",
        playwright=playwright,
        context=browser.new_context(viewport=VIEWPORT),
        browser=browser,
        memory={"browser": [], "terminal": []},
    )
    wait_until(lambda: _answers(port) and _answers(bare_port), 60, "the servers to listen")


def _answers(port: int) -> bool:
    import socket

    with socket.socket() as probe:
        return probe.connect_ex(("127.0.0.1", port)) == 0


def _teardown() -> None:
    _state["browser"].close()
    _state["playwright"].stop()
    for server in _state["servers"]:
        server.send_signal(signal.SIGTERM)
        server.wait(60)
    shutil.rmtree(_state["folder"], ignore_errors=True)


def _open_tab(url: str):
    page = _state["context"].new_page()
    page.add_init_script(HOOK)
    page.goto(url)
    return page


def _close_tab(page, server: subprocess.Popen) -> None:
    page.close()
    wait_until(lambda: not child_pids(server.pid), 60, "the tab's app process to end")


def _terminal() -> Terminal:
    command = [sys.executable, "-m", "quizapp", "--no-shuffle"]
    return Terminal(command, env=_state["env"], cwd=REPO, size=SIZE)


def browser_home() -> float:
    start = time.perf_counter()
    page = _open_tab(_state["url"])
    _wait_text(lambda: screen_text(page), HOME)
    elapsed = time.perf_counter() - start
    _close_tab(page, _state["servers"][0])
    return elapsed


def terminal_home() -> float:
    with _terminal() as terminal:
        return terminal.wait_for(HOME)


def _keys(page, *keys: str) -> None:
    page.focus("textarea.xterm-helper-textarea")
    for key in keys:
        page.keyboard.press(key)


def browser_key() -> float:
    page = _state.get("key_page")
    if page is None:
        page = _state["key_page"] = _open_tab(_state["url"])
        _wait_text(lambda: screen_text(page), HOME)
        (pid,) = child_pids(_state["servers"][0].pid)
        wait_idle(pid)
    _keys(page, "?")
    elapsed = _wait_text(lambda: screen_text(page), HELP)
    _keys(page, "Escape")
    wait_until(lambda: HELP not in screen_text(page), 30, "the help screen to close")
    return elapsed


def terminal_key() -> float:
    terminal = _state.get("key_terminal")
    if terminal is None:
        terminal = _state["key_terminal"] = _terminal()
        terminal.wait_for(HOME)
        wait_idle(terminal.process.pid)
    terminal.output = b""
    start = time.perf_counter()
    os.write(terminal._master, b"?")
    terminal.wait_for(HELP)
    elapsed = time.perf_counter() - start
    terminal.output = b""
    os.write(terminal._master, b"\x1b")
    terminal.wait_for("Decks")  # the home screen, drawn again
    return elapsed


def _key_teardown() -> None:
    if "key_terminal" in _state:
        _state.pop("key_terminal").close()
    _state.pop("key_page", None)
    _teardown()


def browser_lab() -> float:
    start = time.perf_counter()
    page = _open_tab(_state["url"])
    read = lambda: screen_text(page)  # noqa: E731
    _wait_text(read, HOME)
    _keys(page, "Enter")
    _wait_text(read, FIRST_QUESTION)
    while "1. (•)" not in read():  # a key before the options are mounted is lost
        _keys(page, "1")
        time.sleep(0.05)
    _keys(page, "Enter")
    _wait_text(read, LAB)
    elapsed = time.perf_counter() - start
    (pid,) = child_pids(_state["servers"][0].pid)
    _state["memory"]["browser"].append(memory_mb(pid))
    _close_tab(page, _state["servers"][0])
    return elapsed


def terminal_lab() -> float:
    with _terminal() as terminal:
        terminal.wait_for(HOME)
        os.write(terminal._master, b"\r")
        terminal.wait_for(FIRST_QUESTION)
        while True:  # a key before the options are mounted is lost: again until picked
            os.write(terminal._master, b"1")
            try:
                terminal.wait_for("(•)", timeout=1)
                break
            except NoFrame:
                continue
        os.write(terminal._master, b"\r")
        elapsed = terminal.wait_for(LAB, SECONDS)
        _state["memory"]["terminal"].append(memory_mb(terminal.process.pid))
        return elapsed


def _lab_setup() -> None:
    _setup()
    page = _open_tab(_state["bare_url"])
    _wait_text(lambda: screen_text(page), HOME)
    (pid,) = child_pids(_state["servers"][1].pid)
    _state["without_torch"] = memory_mb(pid)
    _close_tab(page, _state["servers"][1])


def _memory_notes(_result: object = None) -> list[str]:
    def line(label: str, runs: list[dict[str, float]]) -> str:
        median = {key: statistics.median(run[key] for run in runs) for key in runs[0]}
        return (
            f"memory, {label}: {median['rss']:.0f} MiB resident, {median['pss']:.0f} MiB "
            f"proportional, {median['private']:.0f} MiB private"
        )

    memory = _state["memory"]
    return [
        line("a browser session, torch loaded", memory["browser"]),
        line("the terminal app, torch loaded", memory["terminal"]),
        line("a browser session, no torch (warm-up left out)", [_state["without_torch"]]),
    ]


BENCHMARKS = [
    Benchmark(
        name="serve: page to home screen",
        description="a new tab on `quizapp serve` until the deck list is on the page, vs "
        "`python -m quizapp` in a pseudo-terminal until its first frame",
        candidate=browser_home,
        baseline=terminal_home,
        baseline_label="the same app started in a terminal",
        # The page, textual.js (500 kB) and a websocket come before the app's process starts:
        # an absolute budget for a student waiting on a busy 2-core machine.
        max_ratio=None,
        max_seconds=3.0,
        setup=_setup,
        teardown=_teardown,
        repeats=5,
        self_timed=True,
    ),
    Benchmark(
        name="serve: key to redraw",
        description="`?` on the home screen until the help screen's text is on the page "
        "(polled through xterm.js: an upper bound), vs in the terminal",
        candidate=browser_key,
        baseline=terminal_key,
        baseline_label="the same key in the terminal app",
        max_ratio=None,
        max_seconds=0.5,
        setup=_setup,
        teardown=_key_teardown,
        repeats=9,
        self_timed=True,
    ),
    Benchmark(
        name="serve: first lab result",
        description="open, start the first deck, answer, until the lab's panel shows (torch "
        "loaded and one computation run), vs the same in the terminal",
        candidate=browser_lab,
        baseline=terminal_lab,
        baseline_label="the same steps in the terminal app",
        max_ratio=2.0,
        setup=_lab_setup,
        teardown=_teardown,
        repeats=3,
        self_timed=True,
        notes=_memory_notes,
    ),
]
