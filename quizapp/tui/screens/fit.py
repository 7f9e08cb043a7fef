""" "Fit the scheduler to my history" (the palette): `quizapp optimize`, with progress, then its
report, in a modal.

The fit runs in a child process (`python -m quizapp optimize --json --progress-lines`),
watched by a thread worker. py-fsrs's optimizer cannot be interrupted, and a thread running it
would hold the app open until it finished (asyncio waits for its executor's threads at exit);
a child process is stopped at once when the modal is closed or the app quits. The child writes
the fit to the history beside the app's own writer (SQLite's WAL and busy timeout), and the app
then reads which parameters drills schedule with.
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import time
from collections.abc import Callable
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Label, ProgressBar, Static
from textual.worker import get_current_worker

from quizapp.srs.memory.optimize import PROGRESS_PREFIX
from quizapp.tui.text.literal import literal

if TYPE_CHECKING:
    from quizapp.srs.store.history import HistoryLocation
    from quizapp.tui.components.host import AppHost

TITLE = "Fit the scheduler to my history"
ERROR_PREFIX = "quizapp optimize: error: "


def fit_command(db: HistoryLocation) -> list[str]:
    """The child process: this interpreter running this copy of quizapp (tests replace it).

    A class store's URL is not on this command line: it may carry a password, and any user of
    the machine can read a process's arguments (`ps`). It goes in the child's environment."""
    where = ["--db", str(db)] if isinstance(db, Path) else []
    return [sys.executable, "-m", "quizapp", "optimize", *where, "--json"]


def child_environment(db: HistoryLocation) -> dict[str, str]:
    # The child imports the quizapp this app was started from, wherever it lives.
    import quizapp

    root = str(Path(quizapp.__file__).resolve().parent.parent)
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH", "")) if p)
    if not isinstance(db, Path):  # the class store, and whose history to fit
        env["QUIZAPP_DB"] = db.url
        env["QUIZAPP_STUDENT"] = db.student
    return env


def open_fit_screen(app: AppHost) -> None:
    history = app.history_writes
    if history.failure is not None or history.reader is None:
        app.notify(history.missing("Fitting the scheduler needs"), severity="warning", markup=False)
        return
    app.push_screen(
        FitScreen(
            history.path,
            on_fitted=history.reload_parameters,
            keeps_defaults=not history.use_fitted,
            exam_date=app.settings.exam_date,
        )
    )


class FitScreen(ModalScreen[None]):
    DEFAULT_CSS = """
    FitScreen .fit-dialog { width: 72; padding: 0 2; }
    FitScreen #fit-report { width: 100%; height: auto; margin-top: 1; }
    FitScreen #fit-report.failed { color: $error; }
    """
    BINDINGS = [Binding("escape", "close", "Close")]

    def __init__(
        self,
        db: HistoryLocation,
        on_fitted: Callable[[], None],
        *,
        keeps_defaults: bool = False,
        exam_date: date | None = None,
    ) -> None:
        super().__init__()
        self.db = db
        # The app's exam date (--exam-date, else config.toml): the optimal retention's horizon.
        self.exam_args = ["--exam-date", exam_date.isoformat()] if exam_date else []
        self.on_fitted = on_fitted  # the app reads which parameters drills use now
        self.keeps_defaults = keeps_defaults  # this run has --default-parameters
        self.running = True
        self.stage = "Reading the history…"  # until the child reports its first step
        self._started = time.monotonic()
        self._process: subprocess.Popen[str] | None = None

    def compose(self) -> ComposeResult:
        # Scrolls when the report is taller than the screen (80 x 24 holds it all).
        with VerticalScroll(classes="dialog fit-dialog"):
            yield Label(TITLE, classes="dialog-title")
            yield Static(literal(self.stage), id="fit-stage")
            yield ProgressBar(total=None, show_eta=False, id="fit-progress")
            yield Static("", id="fit-report")
            with Horizontal(classes="dialog-buttons"):
                yield Button("Cancel (Esc)", variant="primary", id="close")

    def on_mount(self) -> None:
        self.query_one("#close", Button).focus()
        self.set_interval(1.0, self._show_stage)
        self._fit()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "close":
            self.action_close()

    def action_close(self) -> None:
        self._stop()
        self.dismiss(None)

    def on_unmount(self) -> None:
        self._stop()  # the app quitting with the modal open: the child goes too

    def _stop(self) -> None:
        process, self._process = self._process, None
        if self.running and process is not None and process.poll() is None:
            process.kill()
        self.running = False

    # -- the child process (in the worker's thread) ---------------------------------------------

    @work(thread=True, exclusive=True, group="fit", exit_on_error=False)
    def _fit(self) -> None:
        worker = get_current_worker()
        try:
            process = subprocess.Popen(
                [*fit_command(self.db), *self.exam_args, "--progress-lines"],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                encoding="utf-8",
                errors="replace",
                env=child_environment(self.db),
            )
        except OSError as exc:
            self._post(self._finished, 1, "", [f"the fit could not start: {exc}"])
            return
        self._process = process
        problems = []
        assert process.stderr is not None and process.stdout is not None
        for line in process.stderr:
            if line.startswith(PROGRESS_PREFIX):
                self._post(self._progress, line[len(PROGRESS_PREFIX) :].strip())
            elif line.strip():
                problems.append(line.strip().removeprefix(ERROR_PREFIX))
        output = process.stdout.read()
        code = process.wait()
        if not worker.is_cancelled:
            self._post(self._finished, code, output, problems)

    def _post(self, callback: Callable[..., None], *args: Any) -> None:
        # RuntimeError: the app has gone, and there is no one to tell.
        with contextlib.suppress(RuntimeError):
            self.app.call_from_thread(callback, *args)

    # -- on the UI thread ------------------------------------------------------------------------

    def _progress(self, line: str) -> None:
        """`2/3 Checking the fit…` from the child."""
        counts, _, text = line.partition(" ")
        step, _, steps = counts.partition("/")
        if step.isdigit() and steps.isdigit():
            bar = self.query_one(ProgressBar)
            bar.update(total=int(steps), progress=int(step) - 1)
            self.stage = f"Step {step} of {steps}: {text}"
        self._show_stage()

    def _show_stage(self) -> None:
        if not self.running:
            return
        elapsed = time.monotonic() - self._started
        self.query_one("#fit-stage", Static).update(literal(f"{self.stage} ({elapsed:.0f} s)"))

    def _finished(self, code: int, output: str, problems: list[str]) -> None:
        if not self.running:
            return
        self.running = False
        self._process = None
        elapsed = time.monotonic() - self._started
        report = self.query_one("#fit-report", Static)
        bar = self.query_one(ProgressBar)
        lines = _report(output) if code == 0 else None
        if lines is None:
            why = problems[-1] if problems else f"the fit stopped (exit status {code})"
            self.query_one("#fit-stage", Static).update(literal(f"No fit ({elapsed:.0f} s)."))
            report.add_class("failed")
            report.update(literal(why))
        else:
            self.on_fitted()
            self.query_one("#fit-stage", Static).update(literal(f"Done in {elapsed:.0f} s."))
            if self.keeps_defaults:
                lines += ["", "This session keeps py-fsrs's defaults (--default-parameters)."]
            report.update(literal("\n".join(lines)))
        bar.display = False
        self.query_one("#close", Button).label = "Close (Esc)"


def _report(output: str) -> list[str] | None:
    try:
        data = json.loads(output)
        lines = data["report"]
    except (ValueError, KeyError, TypeError):
        return None
    return [str(line) for line in lines] if isinstance(lines, list) else None
