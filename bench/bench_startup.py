"""Time to the first screen: quizapp against a bare Textual app showing the same widgets.

Both run as fresh processes that exit the moment their first frame is up (Textual's Ready
event), so each timing covers interpreter start, imports, loading, and the first render.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import textwrap

from harness import Benchmark

QUIZAPP = textwrap.dedent(
    """
    from quizapp.bank import bundled_bank_path, load_bank_cached
    from quizapp.tui.app import AppOptions, QuizApp

    class FirstFrame(QuizApp):
        def on_ready(self):
            super().on_ready()
            self.exit()

    # warm_up=False: torch loads after the first frame anyway; leaving it out keeps the
    # process from waiting on the import thread before it can exit.
    # As `quizapp` itself does: the bank comes from the cache when no file has changed (the
    # warm-up run before timing fills it, as a student's first launch would).
    bank = load_bank_cached([bundled_bank_path()])
    FirstFrame(bank, AppOptions(warm_up=False)).run(headless=True, size=(100, 30))
    """
)

BARE = textwrap.dedent(
    """
    from textual.app import App
    from textual.containers import Horizontal, Vertical, VerticalScroll
    from textual.widgets import DataTable, Footer, Header, Input, Label, Static, Switch

    class Bare(App):
        def compose(self):
            yield Header()
            with Horizontal():
                with Vertical():
                    yield Label("Decks")
                    yield DataTable(cursor_type="row")
                with VerticalScroll():
                    yield Label("Session")
                    yield Input(placeholder="all", type="integer")
                    yield Switch(value=True)
                    yield Static("help")
            yield Footer()

        def on_mount(self):
            table = self.query_one(DataTable)
            table.add_columns("Deck", "Questions", "Weight", "Domain")
            for name in ("Multi-head attention", "Positional encoding", "Normalization", "All"):
                table.add_row(name, "25", "0.3", "LLM architecture")

        def on_ready(self):
            self.exit()

    Bare().run(headless=True, size=(100, 30))
    """
)


_cache: list[str] = []  # made in setup, not on import: `run.py store` imports this file too


def _setup() -> None:
    _cache.append(tempfile.mkdtemp(prefix="quizapp-bench-cache-"))


def _teardown() -> None:
    shutil.rmtree(_cache.pop(), ignore_errors=True)


def _run(code: str) -> None:
    env = {**os.environ, "QUIZAPP_CACHE_DIR": _cache[-1]}
    subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, env=env)


BENCHMARKS = [
    Benchmark(
        name="start-up to first screen",
        description="quizapp with the bundled bank vs a bare Textual app with the same widgets",
        candidate=lambda: _run(QUIZAPP),
        baseline=lambda: _run(BARE),
        baseline_label="a minimal Textual app: Header, DataTable, Input, Switch, Static, Footer",
        max_ratio=1.3,
        repeats=11,  # process start-up is noisy; more pairs give a steadier median
        setup=_setup,
        teardown=_teardown,
    )
]
