"""A drill's learning steps on the quiz screen (quizapp/srs/memory/steps.py has the rules).

After each answer in a drill, a card due again within the learn-ahead limit (an Again, a
new card on its 1- and 10-minute steps) is kept; it is asked again, before anything else,
once it is due. When nothing else is left, the screen waits for it with a countdown:

    2 learning cards come back in this drill.
    Next card in 0:45
    Enter asks it now · e ends the drill
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol, TypeVar

from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import Static

from quizapp.srs.memory.scheduling import utc_now
from quizapp.srs.memory.steps import countdown

if TYPE_CHECKING:
    from quizapp.bank.session import QuizSession
    from quizapp.tui.components.drill_plan import DrillPlan
    from quizapp.tui.components.scheduled import Scheduled

TICK_SECONDS = 1.0
W = TypeVar("W", bound=Widget)


class WaitNote(Static):
    DEFAULT_CSS = "WaitNote { margin: 1 2; }"


class WaitingScreen(Protocol):
    """What the wait needs of the quiz screen (quizapp/tui/screens/quiz.py, which holds the
    wait): named here rather than imported, so that neither module imports the other."""

    state: str
    scheduled: Scheduled | None
    session: QuizSession

    def show_progress(self) -> None: ...
    async def show_question(self) -> None: ...
    def query_one(self, selector: str, expect_type: type[W] = ...) -> W: ...
    def set_interval(self, interval: float, callback: Callable[[], object]) -> Timer: ...
    def refresh_bindings(self) -> None: ...
    def call_later(self, callback: Callable[[], object]) -> bool: ...


class LearningWait:
    def __init__(self, screen: WaitingScreen, drill: DrillPlan) -> None:
        self.screen = screen
        self.steps = drill.steps
        self.timer: Timer | None = None
        self.due_now = False  # the card waited for is due, and about to be asked

    def keep(self) -> None:
        """Moving on from an answer: keep its card for this drill if it is due again soon."""
        scheduled, session = self.screen.scheduled, self.screen.session
        if scheduled is None or scheduled.after is None or not scheduled.saved:
            return
        question = session.attempts[-1].question if session.attempts else None
        if question is not None and question.id == scheduled.question_id:
            self.steps.keep(question, scheduled.after.due, utc_now())

    def take_due(self) -> None:
        """Before the next question: a learning card that has come due goes first."""
        self._stop()
        question = self.steps.take_due(utc_now())
        if question is not None:
            self.screen.session.ask_next(question)

    async def wait(self) -> None:
        """Nothing else to ask: count down to the next learning card, then ask it."""
        screen = self.screen
        screen.state = "waiting"
        screen.scheduled = None
        screen.show_progress()
        body = screen.query_one("#quiz-body")
        await body.remove_children()
        await body.mount(WaitNote(id="learning-wait"))
        self._show_countdown()
        body.focus()
        self.timer = screen.set_interval(TICK_SECONDS, self._tick)
        screen.refresh_bindings()

    async def ask_now(self) -> None:
        """The student would rather not wait: the next card, early (Anki's learn ahead)."""
        question = self.steps.take_next()
        if question is not None:
            self.screen.session.ask_next(question)
        await self.screen.show_question()

    def _tick(self) -> None:
        if self.screen.state != "waiting":
            return
        due = self.steps.next_due
        if due is not None and due <= utc_now():
            # Not from here: showing the question stops this timer, and a timer stopped from
            # its own callback cancels the callback half-way. Once is enough.
            if not self.due_now:
                self.due_now = True
                self.screen.call_later(self.screen.show_question)
        else:
            self._show_countdown()

    def _show_countdown(self) -> None:
        waiting, due = len(self.steps), self.steps.next_due
        left = countdown(due - utc_now()) if due is not None else "0:00"
        cards = "1 learning card comes" if waiting == 1 else f"{waiting} learning cards come"
        self.screen.query_one("#learning-wait", Static).update(
            f"{cards} back in this drill.\nNext card in {left}\n\n"
            "Enter asks it now · e ends the drill"
        )

    def _stop(self) -> None:
        self.due_now = False
        if self.timer is not None:
            self.timer.stop()
            self.timer = None
