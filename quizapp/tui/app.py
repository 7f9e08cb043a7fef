"""The quizapp Textual app: home, quiz sessions, summaries, the lab, help and the palette."""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.screen import Screen

from quizapp.tui.lab_service import LabService

if TYPE_CHECKING:
    from quizapp.bank import Bank, Question
    from quizapp.bank.grading import Grade

# Measured from the moment this module is imported: close enough to process start for
# the start-up log line, and it costs nothing.
_IMPORTED_AT = time.perf_counter()


@dataclass(frozen=True)
class AppOptions:
    device: str = "auto"
    theme: str | None = None
    length: int | None = None
    shuffle: bool = True
    seed: int | None = None
    warm_up: bool = True  # tests may turn the torch warm-up off


class QuizApp(App[None]):
    # Absolute, so subclasses defined elsewhere (tests, benchmarks) still find the styles.
    CSS_PATH = Path(__file__).with_name("app.tcss")
    TITLE = "quizapp"
    BINDINGS = [
        Binding("q", "quit", "Quit"),
        Binding("ctrl+q", "quit", "Quit", show=False, priority=True),
        Binding("question_mark", "help", "Keys"),
    ]

    def __init__(self, bank: Bank, options: AppOptions = AppOptions()) -> None:
        super().__init__()
        self.bank = bank
        self.options = options
        self.lab = LabService(options.device)
        self.startup_seconds: float | None = None
        self.torch_loaded_at_first_screen: bool | None = None
        if options.theme:
            self.theme = options.theme

    def on_mount(self) -> None:
        from quizapp.tui.screens.home import HomeScreen

        self.push_screen(
            HomeScreen(self.bank, length=self.options.length, shuffle=self.options.shuffle)
        )

    def on_ready(self) -> None:
        import sys

        # The first frame is on screen: note how long that took (as Posting does) and whether
        # torch was still out of the picture, then load it off the UI thread.
        self.startup_seconds = time.perf_counter() - _IMPORTED_AT
        self.torch_loaded_at_first_screen = "torch" in sys.modules
        self.log.info(f"quizapp: first screen after {self.startup_seconds * 1000:.0f} ms")
        if self.options.warm_up:
            self.run_worker(self.lab.warm_up, thread=True, name="torch warm-up", group="warm-up")

    # -- sessions -----------------------------------------------------------------------------

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
        # Imported on first use: none of this is needed to draw the home screen.
        from quizapp.bank.session import QuizSession, SessionOptions, select
        from quizapp.tui.screens.quiz import QuizScreen

        pool = (
            list(questions)
            if questions is not None
            else select(list(self.bank.questions.values()), deck_ids=deck_ids, tags=tags)
        )
        if not pool:
            self.notify("No questions match.", severity="warning", timeout=4)
            return
        options = SessionOptions(
            length=length if length is not None else self.options.length,
            shuffle=self.options.shuffle if shuffle is None else shuffle,
            seed=self.options.seed,
        )
        if title is None:
            if deck_ids:
                title = ", ".join(d.title for d in self.bank.decks if d.id in deck_ids)
            elif tags:
                title = "Tags: " + ", ".join(tags)
            else:
                title = "All decks"
        self.push_screen(QuizScreen(QuizSession.start(pool, options, title), self.lab))

    def on_answer(self, question: Question, grade: Grade, seconds: float) -> None:
        """Called the moment an answer is graded. Review history hooks in here."""

    # -- quitting and help --------------------------------------------------------------------

    async def action_quit(self) -> None:
        from quizapp.tui.screens.confirm import Confirm
        from quizapp.tui.screens.quiz import QuizScreen

        if isinstance(self.screen, Confirm):
            return
        quiz = next((s for s in self.screen_stack if isinstance(s, QuizScreen)), None)
        if quiz is not None and quiz.in_progress:

            def answered(yes: bool | None) -> None:
                if yes:
                    self.exit()

            given = len(quiz.session.attempts)
            self.push_screen(
                Confirm("Quit in the middle of a session?", f"{given} answer(s) given so far."),
                answered,
            )
            return
        self.exit()

    def action_help(self) -> None:
        from quizapp.tui.screens.help import HelpScreen

        if isinstance(self.screen, HelpScreen):
            return
        bindings = []
        for binding in self._visible_bindings(self.screen):
            bindings.append((binding.key_display or binding.key, binding.description))
        self.push_screen(HelpScreen(bindings))

    def _visible_bindings(self, screen: Screen) -> Iterable[Binding]:
        seen: set[str] = set()
        for active in screen.active_bindings.values():
            binding = active.binding
            # Ours only: Textual's scrolling keys (page up, home…) would bury the quiz's own.
            ours = active.node is self or type(active.node).__module__.startswith("quizapp")
            if ours and binding.description and binding.action not in seen:
                seen.add(binding.action)
                yield binding

    # -- command palette ----------------------------------------------------------------------

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        for deck in self.bank.decks:
            yield SystemCommand(
                f"Deck: {deck.title}",
                f"Start a session on {deck.title} ({len(deck.questions)} questions)",
                partial(self.start_session, deck_ids=(deck.id,)),
            )
        yield SystemCommand("Deck: everything", "Start a session on every deck", self.start_session)
        from quizapp.experiments.registry import COMPUTATIONS

        for spec in COMPUTATIONS:
            yield SystemCommand(
                f"Compute: {spec.name}", spec.description, partial(self._open_lab, spec.name)
            )
        yield SystemCommand("Help: keys", "Every key the app answers to", self.action_help)

    def _open_lab(self, name: str) -> None:
        from quizapp.tui.screens.lab import LabScreen

        self.push_screen(LabScreen(name, self.lab))
