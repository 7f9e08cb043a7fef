"""The real app in a real terminal: `python -m quizapp` in a detached tmux session at 80×24.

What Pilot cannot show: the terminal start-up, keys arriving as a terminal sends them, and the
process ending with exit status 0. Each step waits on the captured pane with a deadline;
the answer given must be in the SQLite history afterwards. Without tmux the test skips;
under CI=true it fails, since CI must run it.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from quizapp.bank import load_bank
from quizapp.bank.discovery import bundled_bank_path
from tests.conftest import REPO

WIDTH, HEIGHT = 80, 24
SESSION = "quizapp"
# The highlighted deck is the first in file order (modern-attention.yaml), and --no-shuffle
# asks its first question with its options as the file writes them.
PROMPT = "A layer with 32 query heads uses grouped-query attention"
RIGHT_OPTION = "One key head and one value head"
# A loaded machine is slow and a deadline costs nothing when the screen is quick.
DEADLINE_SECONDS = 90.0


class Terminal:
    """One tmux server of our own (its own socket), so no user's sessions are touched."""

    def __init__(self, folder: Path) -> None:
        self.socket = str(folder / "tmux.sock")
        config = folder / "tmux.conf"
        # Kept after the app exits, so its exit status can be read.
        config.write_text("set -g remain-on-exit on\n")
        self.config = str(config)

    def tmux(self, *args: str) -> str:
        result = subprocess.run(
            ["tmux", "-S", self.socket, "-f", self.config, *args],
            capture_output=True,
            text=True,
            timeout=30,
            check=True,
        )
        return result.stdout

    def start(self, command: list[str]) -> None:
        size = ["-x", str(WIDTH), "-y", str(HEIGHT)]
        self.tmux("new-session", "-d", "-s", SESSION, *size, "-c", str(REPO), shlex.join(command))

    def screen(self) -> str:
        return self.tmux("capture-pane", "-p", "-t", SESSION)

    def keys(self, *keys: str) -> None:
        self.tmux("send-keys", "-t", SESSION, *keys)

    def pane(self, what: str) -> str:
        return self.tmux("display-message", "-p", "-t", SESSION, what).strip()

    def wait_until(self, condition: Callable[[], bool], what: str) -> None:
        deadline = time.monotonic() + DEADLINE_SECONDS
        while not condition():
            if time.monotonic() > deadline:
                pytest.fail(
                    f"waited {DEADLINE_SECONDS:.0f}s for {what}; the pane:\n{self.screen()}"
                )
            time.sleep(0.1)  # how often to look, not how long to wait

    def expect(self, text: str) -> None:
        self.wait_until(lambda: text in self.screen(), f"{text!r} on screen")

    def close(self) -> None:
        subprocess.run(
            ["tmux", "-S", self.socket, "kill-server"], capture_output=True, timeout=30, check=False
        )


def pick(terminal: Terminal, number: str, picked: re.Pattern[str]) -> bool:
    terminal.keys(number)
    deadline = time.monotonic() + 2.0
    while time.monotonic() < deadline:
        if picked.search(terminal.screen()):
            return True
        time.sleep(0.1)
    return False


@pytest.fixture
def terminal(tmp_path: Path) -> Iterator[Terminal]:
    if shutil.which("tmux") is None:
        message = "tmux is not installed"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(message + ": CI must run the real app in a terminal")
        pytest.skip(message)
    opened = Terminal(tmp_path)
    yield opened
    opened.close()


def test_the_real_app_answers_a_question_quits_with_0_and_the_answer_is_saved(
    terminal: Terminal, tmp_path: Path, own_cache_folder: Path
) -> None:
    history = tmp_path / "history.sqlite3"
    home = tmp_path / "home"
    home.mkdir()
    fresh = {
        "HOME": str(home),
        "XDG_DATA_HOME": str(home / "data"),
        "QUIZAPP_CONFIG": str(tmp_path / "config.toml"),  # none: the defaults
        "QUIZAPP_DB": str(history),
        "QUIZAPP_CACHE_DIR": str(own_cache_folder),
        "PYTHONPATH": str(REPO),  # this checkout's quizapp
        "TERM": "xterm-256color",
    }
    environment = ["env", *(f"{name}={value}" for name, value in fresh.items())]
    app = [*environment, sys.executable, "-m", "quizapp", "--no-shuffle", "--length", "3"]
    # The exit status as the shell that started the app saw it (128 + n: killed by signal n),
    # written to a file: tmux 3.3 can mark the pane dead before it has reaped the process and
    # then leave #{pane_dead_status} empty (the race fixed upstream in tmux PR #4841).
    status_file = tmp_path / "exit-status"
    record = f'"$@"; echo $? > {shlex.quote(str(status_file))}'
    terminal.start(["sh", "-c", record, "sh", *app])

    terminal.expect("Modern attention")  # the home screen lists the decks
    terminal.expect("Positional encoding")
    terminal.keys("Enter")  # the highlighted deck
    terminal.expect("Question 1 of 3")
    terminal.expect(PROMPT)
    # The bank spreads its keys over the positions: read the number the screen shows.
    shown = re.search(rf"^\s*(\d)\. \( \) {RIGHT_OPTION}", terminal.screen(), re.MULTILINE)
    assert shown is not None, terminal.screen()
    # A key sent before the answer list has the keys is lost, as a person's would be; they
    # would press it again once they saw nothing happen. Picking an option twice keeps it.
    picked = re.compile(rf"^\s*{shown.group(1)}\. \(•\) {RIGHT_OPTION}", re.MULTILINE)
    terminal.wait_until(lambda: pick(terminal, shown.group(1), picked), "the option to be picked")
    terminal.keys("Enter")
    terminal.expect("✓ Correct")
    terminal.expect("Score 1/1")
    terminal.keys("q")  # in the middle of a session: asks first
    terminal.expect("Quit in the middle of a session?")
    terminal.keys("y")
    terminal.wait_until(lambda: terminal.pane("#{pane_dead}") == "1", "the app to exit")
    terminal.wait_until(status_file.exists, "the app's exit status")
    assert status_file.read_text().strip() == "0", terminal.screen()

    asked = next(
        q
        for q in load_bank([bundled_bank_path()]).questions.values()
        if q.prompt.startswith(PROMPT)
    )
    db = sqlite3.connect(history)
    try:
        saved = db.execute("SELECT question_id, correct FROM reviews").fetchall()
    finally:
        db.close()
    assert saved == [(asked.id, 1)]
