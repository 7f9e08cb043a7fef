"""The live computation panel: a question's computation, its arguments, and what it found.

A lab, not a picture: the student changes an argument and sees PyTorch's answer. Every change
reruns (a tick or a pick at once, a typed number once typing settles); until the new result
lands, the old one stays dimmed under a label naming the arguments it was computed with.
Runs happen in a thread worker so the UI stays live while torch loads or computes; the
worker talks back only through messages, each tagged with the run it belongs to, so a late
message from a cancelled or superseded run can never overwrite a newer one.

While PyTorch is still loading, a result an earlier run kept on disk is shown at once, marked
as cached in the status line and above the values, and the live run replaces it. "done in …"
is said only of a result computed live in this process.
"""

from __future__ import annotations

import traceback
from collections.abc import Mapping
from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Button, Input, ProgressBar, Static

from quizapp.bank.model import ComputeSpec
from quizapp.experiments.registry import get_spec
from quizapp.experiments.result import Result
from quizapp.experiments.spec import ArgumentError, ArgValue, ComputationSpec
from quizapp.tui.components.lab_service import LabService
from quizapp.tui.text.literal import literal
from quizapp.tui.widgets.args_form import ArgsForm
from quizapp.tui.widgets.claims_view import ClaimsView
from quizapp.tui.widgets.device_notice import DeviceNotice
from quizapp.tui.widgets.field_focus import leave_field, release_focus
from quizapp.tui.widgets.lab_messages import CachedResult, RunEnded, RunProgress, RunStarted
from quizapp.tui.widgets.lab_panel_base import (
    CACHED,
    CACHED_CANCELLED,
    CACHED_RUNNING_LIVE,
    FIX_ARGUMENT,
    LAB_PANEL_CSS,
    NO_COMPUTATION,
    TYPING,
    WARMING_UP,
    LabPanelBase,
    describe_error,
    format_elapsed,
)
from quizapp.tui.widgets.result_view import ResultView
from quizapp.tui.widgets.stale_note import StaleNote


class LabPanel(LabPanelBase):
    """Runs a question's computation live; the student may change its arguments and rerun."""

    DEFAULT_CSS = LAB_PANEL_CSS

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("r", "rerun", "Rerun"),
        # Not ctrl+c: Textual 8 uses it for copy.
        Binding("x", "cancel", "Cancel run"),
        # With the Rerun or Cancel button focused (or a wide table), Escape goes back one
        # level, to the page the lab is on, as it does from a field of the form: it must not
        # reach the screen's own Escape, which leaves the session or the screen.
        Binding("escape", "leave_lab", "Leave lab"),
    ]

    class Completed(Message):
        """A run finished; `args` are the bound arguments it ran with."""

        def __init__(
            self,
            name: str,
            args: Mapping[str, ArgValue | None],
            result: Result,
            *,
            elapsed: float = 0.0,
            panel: LabPanel | None = None,
        ) -> None:
            super().__init__()
            self.name = name
            self.args = dict(args)
            self.result = result
            self.elapsed = elapsed
            self.panel = panel

        @property
        def control(self) -> LabPanel | None:
            return self.panel

    class Failed(Message):
        """A run raised. Not posted for a bad argument (nothing ran) nor for a cancel."""

        def __init__(
            self, name: str, error: BaseException, *, panel: LabPanel | None = None
        ) -> None:
            super().__init__()
            self.name = name
            self.error = error
            self.panel = panel

        @property
        def text(self) -> str:
            return describe_error(self.error)

        @property
        def control(self) -> LabPanel | None:
            return self.panel

    def __init__(
        self,
        lab: LabService,
        compute: ComputeSpec | None = None,
        *,
        autorun: bool = True,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(id=id, classes=classes)
        self.lab = lab
        self.compute: ComputeSpec | None = None
        self.spec: ComputationSpec | None = None
        # The last arguments that passed `bind`; a programmatic rerun changes these.
        self.args: dict[str, ArgValue | None] = {}
        self.running = False
        self._shown_args: dict[str, ArgValue | None] | None = None  # the result on screen's
        self._shown_status = ""  # its "done in …" line
        self._token = 0  # bumped by every start and cancel; stale worker messages carry old ones
        # Held, not queried: a replaced form lingers in the DOM until its removal completes.
        self._form: ArgsForm | None = None
        self._initial = (compute, autorun)
        self._ready = False  # show() before mount just remembers what to show
        # The token of the run whose cached result is on show (stored by an earlier run), if any.
        self._cached_for: int | None = None

    def compose(self) -> ComposeResult:
        yield Static(NO_COMPUTATION, id="lab-empty")
        with Horizontal(id="lab-status-row"):
            yield Static("", id="lab-status")
            yield ProgressBar(total=100, show_percentage=False, show_eta=False, id="lab-progress")
        yield DeviceNotice(self.lab, id="lab-device")
        yield Static("", id="lab-error")
        yield Vertical(id="lab-form-holder")
        with Horizontal(id="lab-actions"):
            yield Button("Rerun (r)", id="lab-rerun", compact=True, variant="primary")
            yield Button("Cancel (x)", id="lab-cancel", compact=True, disabled=True)
            yield Static("", id="lab-arg-error")
        yield StaleNote(id="lab-stale-note")
        yield ClaimsView(id="lab-claims")
        yield ResultView(id="lab-results")

    def on_mount(self) -> None:
        self._ready = True
        compute, autorun = self._initial
        self.show(compute, autorun=autorun)

    # -- public API ------------------------------------------------------------------------

    def show(self, compute: ComputeSpec | None, autorun: bool = True) -> None:
        """Switch to another computation (None: none), cancelling any run in progress."""
        if not self._ready:
            self._initial = (compute, autorun)
            return
        self.cancel(quiet=True)
        self.compute = compute
        self.spec = None
        self.args = {}
        self._set_error(None)
        self._set_arg_error(None, None)
        self._results().clear_result()
        self._set_cached(None)
        self._claims().clear_claims()
        holder = self.query_one("#lab-form-holder", Vertical)
        holder.remove_children()
        self._form = None
        self.set_class(compute is None, "-empty")
        self._shown_args = None
        self._refresh_staleness()
        if compute is None:
            self.border_title = "lab"
            self.query_one("#lab-empty", Static).display = True
            return
        self.query_one("#lab-empty", Static).display = False
        self._set_progress(None, visible=False)
        try:
            spec = get_spec(compute.name)
        except ArgumentError as error:  # an unknown name: nothing to build a form from
            self.border_title = literal(f"lab · {compute.name}")
            self._set_status("cannot run", "-failed")
            self._set_error(str(error))
            return
        self.spec = spec
        self.border_title = literal(f"lab · {spec.title}")
        raw: dict[str, object] = dict(compute.args)
        bound: dict[str, ArgValue | None] | None
        try:
            bound = spec.bind(raw)
        except ArgumentError as error:
            bound = None
            shown: dict[str, object] = {a.name: a.default for a in spec.args} | raw
            invalid = error
        else:
            shown = dict(bound)
            self.args = bound
            invalid = None
        self._form = ArgsForm(spec, shown)
        holder.mount(self._form)
        if invalid is not None:
            self._set_arg_error(invalid.argument, str(invalid))
        if bound is None:
            self._set_status(FIX_ARGUMENT, "-failed")
        elif autorun:
            self._start(bound)
        else:
            self._set_status("press r to run", "")

    def rerun(self, args: Mapping[str, object] | None = None) -> bool:
        """Run again. `args` override the current arguments; None reads the form.

        Returns False, running nothing, when the arguments do not bind (the error is shown).
        """
        spec = self.spec
        if spec is None or not self._ready:
            return False
        form = self._form
        if args is None:
            raw: dict[str, object] = form.read() if form is not None else dict(self.args)
        else:
            # Before a first good bind (the bank's arguments were bad) start from the bank's.
            base = self.args or dict(self.compute.args if self.compute else {})
            raw = {**base, **args}
        try:
            bound = spec.bind(raw)
        except ArgumentError as error:
            self._not_run(error)
            return False
        self._set_arg_error(None, None)
        if args is not None and form is not None:
            form.set_values(bound)
        self.args = bound
        self._start(bound)
        return True

    def cancel(self, *, quiet: bool = False) -> None:
        """Stop the running computation; it notices at its next progress report."""
        self._token += 1
        self.workers.cancel_group(self, "lab")
        if self.running:
            self.running = False
            self._set_running_ui(False)
            if not quiet:
                self._set_status(CACHED_CANCELLED if self.showing_cached else "cancelled", "")
                self._set_progress(None, visible=False)
            self._refresh_staleness()

    # -- actions and events ------------------------------------------------------------------

    def action_rerun(self) -> None:
        self.rerun()

    def action_cancel(self) -> None:
        self.cancel()

    def action_leave_lab(self) -> None:
        leave_field(self)

    @on(Button.Pressed, "#lab-rerun")
    def _rerun_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.rerun()

    @on(Button.Pressed, "#lab-cancel")
    def _cancel_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.cancel()

    @on(Input.Submitted, "ArgsForm Input")
    def _input_submitted(self, event: Input.Submitted) -> None:
        event.stop()  # Enter here means "rerun", not whatever the screen does with Enter
        self.rerun()

    @on(ArgsForm.Edited)
    def _form_edited(self, event: ArgsForm.Edited) -> None:
        event.stop()
        if event.form is not self._form or self.spec is None:
            return  # a replaced form's late news
        if not event.settled:
            if not self.running and self._form_args() != self._shown_args:
                self._set_status(TYPING, "-waiting")
            self._refresh_staleness()
            return
        try:
            bound = self.spec.bind(event.form.read())
        except ArgumentError as error:
            self._not_run(error)
            return
        self._set_arg_error(None, None)
        # What will be on screen once nothing more happens: the running run's, else the shown.
        if bound != (self.args if self.running else self._shown_args):
            self.args = bound
            self._start(bound)
        elif not self.running and self._shown_args is not None:
            self._set_status(self._shown_status, "-done")  # back to what is shown: current again
            self._refresh_staleness()

    def _not_run(self, error: ArgumentError) -> None:
        """The form's arguments do not bind: say which, and that nothing ran for them."""
        self._set_arg_error(error.argument, str(error))
        if not self.running:
            self._set_status(FIX_ARGUMENT, "-failed")
        self._refresh_staleness()

    def _rejected(self, error: ArgumentError) -> None:
        """The run refused an argument: say which beside the form and keep the last result,
        dimmed and labelled with its own arguments (they are not the form's)."""
        self._set_arg_error(error.argument, str(error))
        self._set_status(FIX_ARGUMENT, "-failed")
        shown = self._shown_args
        self.set_class(shown is not None, "-stale")
        self.query_one(StaleNote).show_for(shown)

    def _form_args(self) -> dict[str, ArgValue | None] | None:
        """The form's arguments, bound; None when they do not bind."""
        if self.spec is None or self._form is None:
            return None
        try:
            return self.spec.bind(self._form.read())
        except ArgumentError:
            return None

    def _refresh_staleness(self) -> None:
        """Dim and label the output when it is not the answer to what the form says."""
        shown = self._shown_args
        stale = shown is not None and (self.running or self._form_args() != shown)
        self.set_class(stale, "-stale")
        self.query_one(StaleNote).show_for(shown if stale else None)

    # -- running -----------------------------------------------------------------------------

    def _start(self, args: dict[str, ArgValue | None]) -> None:
        assert self.spec is not None
        self._token += 1
        token, name = self._token, self.spec.name
        self.running = True
        self._set_error(None)
        self._set_running_ui(True)
        self._refresh_staleness()  # the old numbers stay visible, dimmed, until new ones land
        if self.lab.ready.is_set():
            self._show_computing(0.0, "")
        else:
            self._set_status(WARMING_UP, "-waiting")
            self._set_progress(None, visible=True)  # indeterminate: warm-up has no fraction
        self.run_worker(
            lambda: self._work(token, name, args),
            thread=True,
            exclusive=True,
            group="lab",
            name=f"lab {name}",
            description=f"live computation {name}",
            exit_on_error=False,
        )

    @on(RunStarted)
    def _run_started(self, message: RunStarted) -> None:
        if message.token == self._token:
            self._show_computing(0.0, "")

    @on(CachedResult)
    async def _cached_result(self, message: CachedResult) -> None:
        if message.token != self._token or not self.running or not message.result.cached:
            return
        try:
            await self._results().show_result(message.result)
        except Exception:  # a stored result that cannot be shown is simply not shown
            self.log.error(f"lab: could not show a cached result:\n{traceback.format_exc()}")
            await self._results().clear_result()
            return
        if message.token != self._token or not self.running:
            return  # the live run ended, or another began, while it was being drawn
        self._claims().clear_claims()  # claims are checked on live results only
        self._shown_args, self._shown_status = dict(self.args), CACHED
        # It answers what the form says, so it is not dimmed as old output: the status and the
        # cached line say it is a stored result while the live run goes on.
        self.set_class(False, "-stale")
        self.query_one(StaleNote).show_for(None)
        self._set_cached(message.token)
        self._set_status(CACHED_RUNNING_LIVE, "-waiting")

    @on(RunProgress)
    def _run_progress(self, message: RunProgress) -> None:
        if message.token == self._token:
            self._show_computing(message.fraction, message.text)

    @on(RunEnded)
    async def _run_ended(self, message: RunEnded) -> None:
        if message.token != self._token or self.spec is None:
            return
        name, args = self.spec.name, dict(self.args)
        self.running = False
        self._set_running_ui(False)
        self._set_progress(None, visible=False)
        if message.cancelled:
            self._set_status(CACHED_CANCELLED if self.showing_cached else "cancelled", "")
            self._refresh_staleness()
            return
        error = message.error
        if isinstance(error, ArgumentError) and error.argument and not self.lab.failed:
            # The computation itself refused an argument that `bind` let through (words that
            # are not a permutation, a head_dim RoPE cannot rotate): that is the form's
            # mistake, not a failure, so the last result stays on show.
            self._rejected(error)
            self.post_message(self.Failed(name, error, panel=self))
            return
        if error is not None or message.result is None:
            self.log.error(f"lab {name} failed:\n{message.trace}")
            await self._fail(
                name, message.error or RuntimeError("the computation returned nothing")
            )
            return
        result = message.result
        if not result.cached:  # while the live result is drawn, the status stops saying cached
            self._set_cached(None)
            self._set_status(f"computing on {self._device()}… 100%", "-waiting")
        try:
            await self._results().show_result(result)
        except Exception as error:  # a malformed result must not take the quiz down either
            self.log.error(f"lab {name}: could not show the result:\n{traceback.format_exc()}")
            await self._fail(name, error)
            return
        if message.token != self._token:  # superseded while the result was being drawn
            return
        self._set_cached(message.token if result.cached else None)
        self._shown_args = args
        if result.cached:  # never labelled live: only a run made in this process is
            self._shown_status = CACHED
            self._set_status(CACHED, "")
            self._refresh_staleness()
            return
        self._show_claims(result, args)
        self._shown_status = f"done in {format_elapsed(message.elapsed)} on {result.device}"
        self._set_status(self._shown_status, "-done")
        self._refresh_staleness()  # the form may have moved on while this ran
        self.post_message(self.Completed(name, args, result, elapsed=message.elapsed, panel=self))

    def _show_claims(self, result: Result, args: Mapping[str, ArgValue | None]) -> None:
        """Check the question's claims on this result, against its own arguments."""
        if self.compute is None or self.spec is None:
            return
        try:
            own: dict[str, ArgValue | None] | None = self.spec.bind(dict(self.compute.args))
        except ArgumentError:
            own = None  # the bank's arguments are bad: no run is the question's own
        self._claims().show_claims(self.compute.expect, result.values, args, own)

    async def _fail(self, name: str, error: BaseException) -> None:
        self._shown_args = None
        self._set_cached(None)
        self._refresh_staleness()
        self._claims().clear_claims()
        await self._results().clear_result()
        if self.lab.failed:
            # On its own line, which wraps: the reason is too long for the status row.
            self._set_status("lab unavailable", "-failed")
            self._set_error(self.lab.failed)
        else:
            self._set_status("failed", "-failed")
            self._set_error(describe_error(error))
        self.post_message(self.Failed(name, error, panel=self))


__all__ = [
    "CACHED",
    "CACHED_CANCELLED",
    "CACHED_RUNNING_LIVE",
    "NO_COMPUTATION",
    "WARMING_UP",
    "LabPanel",
    "cancel_running",
    "describe_error",
    "format_elapsed",
    "release_focus",
]


def cancel_running(screen: Screen) -> None:
    """Cancel the screen's running lab computation, if any (the screen-level `x`)."""
    for panel in screen.query(LabPanel):
        if panel.running:
            panel.cancel()
