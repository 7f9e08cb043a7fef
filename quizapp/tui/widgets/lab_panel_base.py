"""The lab panel's plumbing: its status line, its error lines, and the worker's body.

Split from quizapp/tui/widgets/lab_panel.py, which keeps what the panel does (show, rerun,
cancel, and what each message from a run means); these are the parts that only draw or run,
kept on a base class so that LabPanel stays one readable file.
"""

from __future__ import annotations

import time
import traceback

from textual.containers import Vertical
from textual.widgets import Button, ProgressBar, Static
from textual.worker import get_current_worker

from quizapp.experiments.context import Cancelled
from quizapp.experiments.spec import ArgValue
from quizapp.tui.components.lab_service import LabService
from quizapp.tui.text.literal import literal
from quizapp.tui.widgets.args_form import ArgsForm
from quizapp.tui.widgets.claims_view import ClaimsView
from quizapp.tui.widgets.lab_messages import CachedResult, RunEnded, RunProgress, RunStarted
from quizapp.tui.widgets.result_view import ResultView

NO_COMPUTATION = "No live computation for this question."
WARMING_UP = "warming up the lab (loading PyTorch)…"
FIX_ARGUMENT = "fix the argument to run"
TYPING = "edited: reruns when you pause (Enter: now)"
CACHED = "cached result"
CACHED_RUNNING_LIVE = f"{CACHED} — running live…"
CACHED_CANCELLED = f"cancelled — showing a {CACHED}"


def describe_error(error: BaseException, limit: int = 2) -> str:
    """Type and message, at most `limit` lines: a traceback belongs in the log, not the panel."""
    lines = f"{type(error).__name__}: {error}".strip().splitlines() or [type(error).__name__]
    return "\n".join(line[:200] for line in lines[:limit])


def format_elapsed(seconds: float) -> str:
    if seconds < 1:
        return f"{seconds * 1000:.0f} ms"
    return f"{seconds:.2f} s"


# LabPanel's DEFAULT_CSS (assigned there, so that it is scoped to LabPanel as before).
LAB_PANEL_CSS = """
    LabPanel {
        height: auto;
        border: round $primary;
        border-title-color: $primary;
        border-title-style: bold;
        padding: 0 1;

        #lab-status-row {
            height: 1;
        }
        #lab-status {
            width: 1fr;
            color: $text-muted;
            &.-waiting { color: $warning; }
            &.-done { color: $success; }
            &.-failed { color: $error; }
        }
        #lab-progress {
            width: auto;
            Bar { width: 20; }
        }
        #lab-form-holder {
            height: auto;
        }
        #lab-error {
            color: $error;
            display: none;
            &.-shown { display: block; }
        }
        #lab-actions {
            height: auto;
            Button { margin-right: 1; }
        }
        #lab-arg-error {
            width: 1fr;
            color: $error;
        }
        ResultView {
            margin-top: 1;
        }
        &.-stale ResultView, &.-stale ClaimsView {
            opacity: 60%;
        }
        &.-empty {
            #lab-status-row, #lab-actions, ArgsForm, ResultView, ClaimsView { display: none; }
        }
    }
"""


class LabPanelBase(Vertical):
    """What LabPanel draws with and runs in; the state itself is LabPanel's."""

    lab: LabService
    _token: int
    _form: ArgsForm | None
    _cached_for: int | None

    def _work(self, token: int, name: str, args: dict[str, ArgValue | None]) -> None:
        """In the worker thread. Never raises: every outcome becomes a RunEnded message."""
        worker = get_current_worker()

        def is_cancelled() -> bool:
            return worker.is_cancelled

        def on_progress(fraction: float, text: str) -> None:
            self.post_message(RunProgress(token, fraction, text))

        try:
            if not self.lab.ready.is_set():
                stored = self.lab.stored(name, args)  # a small file read: no torch needed
                if stored is not None and stored.cached:
                    self.post_message(CachedResult(token, stored))
            # Wait here rather than inside lab.run, so the status can say when computing begins.
            self.lab.wait_until_ready(is_cancelled)
            self.post_message(RunStarted(token))
            start = time.perf_counter()
            result = self.lab.run(name, args, on_progress=on_progress, is_cancelled=is_cancelled)
            elapsed = time.perf_counter() - start
            if is_cancelled():  # finished after all, but nobody wants it any more
                raise Cancelled
        except Cancelled:
            self.post_message(RunEnded(token, cancelled=True))
        except Exception as error:  # the app must outlive any computation
            self.post_message(RunEnded(token, error=error, trace=traceback.format_exc()))
        else:
            self.post_message(RunEnded(token, result=result, elapsed=elapsed))

    # -- display helpers ---------------------------------------------------------------------

    def _device(self) -> str:
        return self.lab.resolved_device or self.lab.device

    def _show_computing(self, fraction: float, text: str) -> None:
        if self._cached_for == self._token:  # the status goes on saying what is on show
            status = CACHED_RUNNING_LIVE
            if fraction > 0:
                status += f" {fraction * 100:.0f}%"
        else:
            status = f"computing on {self._device()}…"
            if fraction > 0 or text:
                status += f" {fraction * 100:.0f}% {text}".rstrip()
        self._set_status(status, "-waiting")
        self._set_progress(fraction * 100, visible=True)

    def _set_status(self, text: str, state: str) -> None:
        status = self.query_one("#lab-status", Static)
        status.update(literal(text))  # may quote an error, and so the computation's arguments
        status.remove_class("-waiting", "-done", "-failed")
        if state:
            status.add_class(state)

    def _set_progress(self, percent: float | None, *, visible: bool) -> None:
        bar = self.query_one("#lab-progress", ProgressBar)
        bar.display = visible
        if percent is None:
            bar.update(total=None)
        else:
            bar.update(total=100, progress=percent)

    def _set_error(self, text: str | None) -> None:
        error = self.query_one("#lab-error", Static)
        error.update(literal(text or ""))
        error.set_class(bool(text), "-shown")

    def _set_arg_error(self, argument: str | None, text: str | None) -> None:
        # Lead with the argument's name (a rule's message may name two arguments), unless
        # the message already does: `d_model must be at most 65,536`, not `d_model: d_model…`.
        named = bool(argument and text and text.startswith(f"{argument} "))
        shown = f"{argument}: {text}" if argument and text and not named else text or ""
        self.query_one("#lab-arg-error", Static).update(literal(shown))
        if self._form is not None:
            self._form.mark_invalid(argument if text else None)

    @property
    def showing_cached(self) -> bool:
        """The result on show was stored by an earlier run, not computed now."""
        return self._cached_for is not None

    def _set_cached(self, token: int | None) -> None:
        self._cached_for = token
        self.set_class(token is not None, "-cached")

    def _set_running_ui(self, running: bool) -> None:
        self.query_one("#lab-cancel", Button).disabled = not running

    def _results(self) -> ResultView:
        return self.query_one("#lab-results", ResultView)

    def _claims(self) -> ClaimsView:
        return self.query_one("#lab-claims", ClaimsView)
