"""What the app's components and screens need of the app: the `AppHost` protocol.

A component takes the app as an argument. Naming `QuizApp` in its signature would tie it
to quizapp/tui/app.py, which imports every component: each would import the other, and
neither could be read or tested alone. So components name this protocol instead, and
`QuizApp` is one thing that satisfies it (tests/tui/test_app_host.py holds them in step).

The first part is the app's own interface; the second, the few methods of Textual's `App`
that components call, written as they use them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from textual.notifications import SeverityLevel
    from textual.screen import Screen
    from textual.timer import Timer
    from textual.worker import Worker

    from quizapp.bank import Bank, Question
    from quizapp.bank.grading import Grade
    from quizapp.srs.config import Settings
    from quizapp.srs.memory.scheduling import Rating
    from quizapp.srs.store.history import HistoryStore
    from quizapp.tui.components.app_options import AppOptions
    from quizapp.tui.components.history_writes import HistoryService
    from quizapp.tui.components.lab_service import LabService
    from quizapp.tui.components.reload import BankWatcher, PreviewTarget
    from quizapp.tui.components.scheduled import Scheduled
    from quizapp.tui.text.number_examples import BankNumbers


class AppHost(Protocol):
    # -- the app's state --------------------------------------------------------------
    bank: Bank
    options: AppOptions
    lab: LabService
    history_writes: HistoryService
    number_examples: BankNumbers
    watcher: BankWatcher | None
    startup_seconds: float | None
    first_frame_seconds: float | None
    torch_loaded_at_first_screen: bool | None

    @property
    def settings(self) -> Settings: ...
    @settings.setter
    def settings(self, settings: Settings) -> None: ...
    @property
    def history(self) -> HistoryStore | None: ...

    # -- what screens and components ask the app to do --------------------------------
    def refresh_home(self) -> None: ...
    def replace_bank(self, bank: Bank) -> None: ...
    def start_session(
        self,
        *,
        deck_ids: Sequence[str] = (),
        tags: Sequence[str] = (),
        questions: Sequence[Question] | None = None,
        length: int | None = None,
        shuffle: bool | None = None,
        title: str | None = None,
    ) -> None: ...
    def start_preview(
        self, targets: Sequence[PreviewTarget] = (), *, from_id: str | None = None
    ) -> None: ...
    def start_exam(
        self,
        *,
        questions: int = 20,
        minutes: float | None = None,
        seed: int | None = None,
        intro: bool = False,
    ) -> None: ...
    def start_drill(self, deck_ids: Sequence[str] = ()) -> None: ...
    def on_answer(
        self,
        question: Question,
        grade: Grade,
        seconds: float,
        kind: str = "quiz",
        attempt: str | None = None,
    ) -> Scheduled: ...
    def rerate_answer(self, scheduled: Scheduled, rating: Rating) -> Scheduled: ...
    def undo_answer(self) -> bool: ...
    def bury_or_suspend(self, question: Question, action: str) -> None: ...
    def unhide(self, question_id: str, action: str) -> None: ...
    def action_suspended(self) -> None: ...
    def action_buried(self) -> None: ...
    def action_stats(self) -> None: ...
    def action_help(self) -> None: ...

    # -- Textual's App, as components use it ------------------------------------------
    @property
    def screen(self) -> Screen[Any]: ...
    @property
    def screen_stack(self) -> list[Screen[Any]]: ...
    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = True,
    ) -> None: ...
    def push_screen(
        self, screen: Any, callback: Any = None, wait_for_dismiss: bool = False
    ) -> Any: ...
    def pop_screen(self) -> Any: ...
    def switch_screen(self, screen: Any) -> Any: ...
    def exit(self, result: Any = None, return_code: int = 0, message: Any = None) -> None: ...
    def run_worker(self, work: Any, name: str | None = "", **options: Any) -> Worker[Any]: ...
    def set_interval(
        self, interval: float, callback: Callable[..., object] | None = None, **options: Any
    ) -> Timer: ...
    def call_from_thread(self, callback: Callable[..., Any], *args: Any, **kwargs: Any) -> Any: ...
