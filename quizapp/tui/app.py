"""The quizapp Textual app: the shell that wires the screens and services together.

Each concern lives in a module of its own, which this class delegates to; where to find
which is listed in quizapp/tui/components/__init__.py. Screens call the app's public
methods (start_session, on_answer, refresh_home…), so those stay here as the interface.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.notifications import SeverityLevel
from textual.screen import Screen
from textual.worker import Worker, WorkerState

from quizapp.bank.literal import terminal_safe
from quizapp.tui.components.app_options import AppOptions
from quizapp.tui.components.history_writes import HistoryService
from quizapp.tui.components.lab_service import LabService
from quizapp.tui.components.startup import on_first_layout
from quizapp.tui.text.number_examples import BankNumbers

if TYPE_CHECKING:
    from quizapp.bank import Bank, Question
    from quizapp.bank.grading import Grade
    from quizapp.srs.config import Settings
    from quizapp.srs.memory.scheduling import Rating
    from quizapp.srs.store.history import HistoryStore
    from quizapp.tui.components.reload import BankWatcher, PreviewTarget
    from quizapp.tui.components.scheduled import Scheduled

__all__ = ["AppOptions", "QuizApp"]  # AppOptions is imported from here by the CLI and tests

DEFAULT_OPTIONS = AppOptions()  # frozen, so one instance can be every default


class QuizApp(App[None]):
    # Absolute, so subclasses defined elsewhere (tests, benchmarks) still find the styles.
    CSS_PATH = Path(__file__).with_name("app.tcss")
    TITLE = "quizapp"
    BINDINGS = [
        # Not in the footer, which has no room for it at 80 columns beside a screen's own
        # keys: the home screen's help line and `?` say it.
        Binding("q", "quit", "Quit", show=False),
        Binding("ctrl+q", "quit", "Quit", show=False, priority=True),
        Binding("question_mark", "help", "Keys"),
        Binding("ctrl+r", "restart_preview", "Reload"),  # preview mode only
    ]

    def __init__(self, bank: Bank, options: AppOptions = DEFAULT_OPTIONS) -> None:
        super().__init__()
        self.bank = bank
        self.options = options
        self.lab = LabService(options.device, load_on_first_use=not options.warm_up)
        # The numbers a number box's hint may show: none a key (quizapp/tui/text/number_examples.py).
        self.number_examples = BankNumbers(lambda: self.bank, self.lab.stored)
        # Opened and written off the UI thread; see quizapp/tui/components/history_writes.py.
        self.history_writes = HistoryService(
            self, options.db_path, use_fitted=not options.default_parameters
        )
        self.startup_seconds: float | None = None  # to Ready: the first layout is done
        self.first_frame_seconds: float | None = None  # to the first frame written out
        self.torch_loaded_at_first_screen: bool | None = None
        self.watcher: BankWatcher | None = None
        self._settings = options.settings  # changed on screen (quizapp/tui/components/quiz_mode.py)
        if options.theme:
            self.theme = options.theme

    def get_default_screen(self) -> Screen:
        # The home screen is the first screen itself, rather than pushed over Textual's blank
        # default one: that would compose, style and lay out two screens before the first frame.
        from quizapp.tui.screens.home import HomeScreen

        return HomeScreen(
            self.bank,
            # --length for this run; the length last typed on the home screen otherwise.
            length=self.options.length or self.settings.session_length,
            shuffle=self.options.shuffle,
            quiz_reschedules=self.settings.quiz_reschedules,
        )

    def on_ready(self) -> None:
        # The first layout is done: what starts now, and what waits for the first frame.
        on_first_layout(self)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.worker.group == "warm-up" and event.state is WorkerState.SUCCESS:
            from quizapp.tui.components.lab_device import announce_device

            announce_device(self, self.lab)  # a CPU standing in for a missing GPU is said once

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = True,
    ) -> None:
        # Toasts quote file names and errors about them, and a file name can hold ESC ]0;…
        # (which retitles the terminal) or U+202E: Textual would send those out as they are.
        super().notify(
            terminal_safe(message, multiline=True),
            title=terminal_safe(title),
            severity=severity,
            timeout=timeout,
            markup=markup,
        )

    @property
    def settings(self) -> Settings:
        from quizapp.srs.config import Settings

        return self._settings or Settings()

    @settings.setter
    def settings(self, settings: Settings) -> None:
        self._settings = settings

    @property
    def history(self) -> HistoryStore | None:
        """The history for reading, on the UI thread; None until it is open (or without one)."""
        return self.history_writes.reader

    def refresh_home(self) -> None:
        from quizapp.tui.screens.home import refresh_home_counts

        refresh_home_counts(self)

    def replace_bank(self, bank: Bank) -> None:
        """Swap in a new bank (quizapp/tui/components/live_reload.py)."""
        from quizapp.tui.components.live_reload import replace_bank

        replace_bank(self, bank)

    # -- sessions: quizapp/tui/components/sessions.py, quizapp/tui/components/drill.py -------------

    def start_session(
        self,
        *,
        deck_ids: Sequence[str] = (),
        tags: Sequence[str] = (),
        questions: Sequence[Question] | None = None,
        length: int | None = None,
        shuffle: bool | None = None,
        title: str | None = None,
    ) -> None:
        from quizapp.tui.components.sessions import start_session

        start_session(
            self,
            deck_ids=deck_ids,
            tags=tags,
            questions=questions,
            length=length,
            shuffle=shuffle,
            title=title,
        )

    def start_preview(
        self, targets: Sequence[PreviewTarget] = (), *, from_id: str | None = None
    ) -> None:
        from quizapp.tui.components.sessions import start_preview

        start_preview(self, targets, from_id=from_id)

    async def action_restart_preview(self) -> None:
        from quizapp.tui.components.sessions import restart_preview

        await restart_preview(self)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "restart_preview":
            return bool(self.options.preview)
        return True

    def start_exam(
        self,
        *,
        questions: int = 20,
        minutes: float | None = None,
        seed: int | None = None,
        intro: bool = False,
    ) -> None:
        from quizapp.tui.components.sessions import start_exam

        start_exam(self, questions=questions, minutes=minutes, seed=seed, intro=intro)

    def start_drill(self, deck_ids: Sequence[str] = ()) -> None:
        from quizapp.tui.components.drill import start_drill

        start_drill(self, deck_ids)

    # -- answers, written off the UI thread: quizapp/tui/components/history_writes.py --------------

    def on_answer(
        self,
        question: Question,
        grade: Grade,
        seconds: float,
        kind: str = "quiz",
        attempt: str | None = None,
    ) -> Scheduled:
        """Called the moment an answer is graded: queued for the history's writer at once, so
        the next question never waits on the disk (or on another program's lock). `attempt`:
        how it came in its session (quizapp/bank/session.py's FIRST, REPEAT or AIDED)."""
        return self.history_writes.record_answer(
            question, grade, seconds, kind, self.settings, attempt
        )

    def rerate_answer(self, scheduled: Scheduled, rating: Rating) -> Scheduled:
        """The student's rating for the answer on screen instead of the app's."""
        return self.history_writes.rerate(scheduled, rating)

    def undo_answer(self) -> bool:
        """Take this app's latest answer back out of the history. False if it could not be."""
        return self.history_writes.undo_answer()

    def bury_or_suspend(self, question: Question, action: str) -> None:
        from quizapp.tui.components.hidden import bury_or_suspend

        bury_or_suspend(self, question, action)

    def unhide(self, question_id: str, action: str) -> None:
        """Undo a bury or a suspend."""
        self.history_writes.flag(question_id, "unbury" if action == "bury" else "unsuspend")

    def action_suspended(self) -> None:
        from quizapp.tui.components.hidden import bring_back

        bring_back(self, "suspend")

    def action_buried(self) -> None:
        from quizapp.tui.components.hidden import bring_back

        bring_back(self, "bury")

    def action_stats(self) -> None:
        from quizapp.tui.screens.stats import open_stats

        open_stats(self)

    def on_unmount(self) -> None:
        self.history_writes.close_now()

    # -- quitting, help and the palette ---------------------------------------------------------

    async def action_quit(self) -> None:
        from quizapp.tui.components.quitting import quit_when_confirmed

        quit_when_confirmed(self)

    def action_help(self) -> None:
        from quizapp.tui.screens.help import show_keys

        show_keys(self)

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        # The palette's entries, and the table to add one to: quizapp/tui/components/palette.py
        from quizapp.tui.components.palette import palette_commands

        yield from super().get_system_commands(screen)
        yield from palette_commands(self)
