"""Start-up in a real terminal: `python -m quizapp` against a bare Textual app with the same
widgets, each spawned in a pseudo-terminal and timed until its first frame has been written.

Where bench_startup.py runs both headless, this goes through the real entry point (argument
parsing, the config, the bank cache, the history and the torch warm-up threads) and through
Textual's output thread, as a student in a terminal would.

The bare app builds the home screen's widget tree (Header, status bar, deck table with the
same columns and rows, the session options, help, problems, Footer with the same keys) with
Textual's default styles and nothing behind it. Both sides run with a bytecode cache in a
temporary folder, as an installed package has (PYTHONDONTWRITEBYTECODE would otherwise make
only quizapp's modules compile on every run), and quizapp with an empty history, no config,
and its bank cache filled by the warm-up run, as on a student's second launch.
"""

from __future__ import annotations

import json
import shutil
import sys
import tempfile
import textwrap
from pathlib import Path

from harness import Benchmark
from terminal import first_frame_seconds, terminal_env

REPO = Path(__file__).resolve().parent.parent
SIZE = (100, 30)
# The first frame holds the deck table; the first deck's title is in both apps' table.
FIRST_FRAME_TEXT = "Multi-head attention"

BARE_HOME = textwrap.dedent(
    """
    import json, sys
    from textual.app import App
    from textual.binding import Binding
    from textual.containers import Horizontal, Vertical, VerticalScroll
    from textual.screen import Screen
    from textual.widgets import DataTable, Footer, Header, Input, Label, Static, Switch

    rows, subtitle = json.loads(sys.argv[1])
    HELP = (
        "[b]Enter[/] quiz the highlighted deck · [b]d[/] drill it (due + new) · "
        "[b]a[/] everything · [b]t[/] pick tags · [b]S[/] stats\\n"
        "[b]?[/] every key · [b]ctrl+p[/] commands · [b]q[/] quit"
    )

    class Home(Screen):
        BINDINGS = [
            Binding("enter", "noop", "Start deck"),
            Binding("d", "noop", "Drill"),
            Binding("S", "noop", "Stats"),
            Binding("a", "noop", "Everything"),
            Binding("t", "noop", "By tags"),
        ]

        def compose(self):
            yield Header()
            status = Static("")  # the history's status bar: hidden while nothing waits
            status.display = False
            yield status
            with Horizontal():
                with Vertical():
                    yield Label("Decks")
                    yield DataTable(cursor_type="row", zebra_stripes=True)
                with VerticalScroll():
                    yield Label("Session")
                    with Horizontal():
                        yield Label("Questions (blank = all)")
                        yield Input("", placeholder="all", type="integer", max_length=4)
                    with Horizontal():
                        yield Label("Shuffle")
                        yield Switch(value=True)
                    yield Static(HELP)
                    problems_title = Label("Problems in bank files (0)")
                    problems = Static("", markup=False)
                    problems_title.display = problems.display = False
                    yield problems_title
                    yield problems
            yield Footer()

        def on_mount(self):
            self.sub_title = subtitle
            table = self.query_one(DataTable)
            table.add_columns("Due", "New", "Questions", "Deck", "Weight", "Domain")
            for row in rows:
                table.add_row(*row)
            table.focus()

    class Bare(App):
        TITLE = "quizapp"
        BINDINGS = [Binding("q", "quit", "Quit"), Binding("question_mark", "noop", "Keys")]

        def get_default_screen(self):
            return Home()

    Bare().run()
    """
)


def _home_rows() -> str:
    """The home screen's deck rows and subtitle, for the bare app to show as they are."""
    from quizapp.bank import bundled_bank_path, load_bank

    bank = load_bank([bundled_bank_path()])
    rows = [
        ["", "", str(len(d.questions)), d.title, f"{d.exam_weight:g}", d.domain] for d in bank.decks
    ]
    rows.append(["", "", str(len(bank.questions)), "All decks", "", ""])
    return json.dumps([rows, f"{len(bank.questions)} questions in {len(bank.decks)} decks"])


_state: dict[str, object] = {}


def _setup() -> None:
    folder = Path(tempfile.mkdtemp(prefix="quizapp-bench-terminal-"))
    env = terminal_env(
        QUIZAPP_CACHE_DIR=str(folder / "cache"),
        QUIZAPP_DB=str(folder / "history.sqlite3"),
        QUIZAPP_CONFIG=str(folder / "config.toml"),  # absent: the defaults
        PYTHONPYCACHEPREFIX=str(folder / "bytecode"),
    )
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    _state.update(folder=folder, env=env, rows=_home_rows())


def _teardown() -> None:
    shutil.rmtree(_state["folder"], ignore_errors=True)  # type: ignore[arg-type]


def quizapp() -> float:
    # From the repository root, so `-m quizapp` runs this checkout's code.
    return first_frame_seconds(
        [sys.executable, "-m", "quizapp"],
        FIRST_FRAME_TEXT,
        env=_state["env"],  # type: ignore[arg-type]
        cwd=REPO,
        size=SIZE,
    )


def bare() -> float:
    return first_frame_seconds(
        [sys.executable, "-c", BARE_HOME, _state["rows"]],  # type: ignore[list-item]
        FIRST_FRAME_TEXT,
        env=_state["env"],  # type: ignore[arg-type]
        size=SIZE,
    )


BENCHMARKS = [
    Benchmark(
        name="start-up in a real terminal",
        description="`python -m quizapp` in a pseudo-terminal, until the home screen's first "
        "frame is written, vs a bare Textual app with the home screen's widgets",
        candidate=quizapp,
        baseline=bare,
        baseline_label="the home screen's widget tree in a bare Textual app, default styles",
        max_ratio=1.3,
        setup=_setup,
        teardown=_teardown,
        repeats=11,
        self_timed=True,
    )
]
