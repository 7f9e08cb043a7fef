"""The quizapp Textual app: home, quiz sessions, summaries, the lab, help and the palette."""

from __future__ import annotations

import sys
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.screen import Screen
from textual.worker import Worker, WorkerState

from quizapp import STARTED_AT
from quizapp.tui.first_frame import after_first_frame, log_startup
from quizapp.tui.history_writes import HistoryService
from quizapp.tui.lab_service import LabService
from quizapp.tui.literal import markup_escaped
from quizapp.tui.theme_memory import remember_theme_picks
from quizapp.wording import plural

if TYPE_CHECKING:
    from quizapp.bank import Bank, Question
    from quizapp.bank.grading import Grade
    from quizapp.srs.config import Settings
    from quizapp.srs.scheduling import Rating
    from quizapp.srs.store import ReviewStore
    from quizapp.tui.history_writes import Scheduled
    from quizapp.tui.reload import BankWatcher, PreviewTarget, Reload


@dataclass(frozen=True)
class AppOptions:
    db_path: Path | None = None  # None: no review history (tests, previews)
    settings: Settings | None = None  # None: the defaults
    config_path: Path | None = None  # where a setting changed on screen is saved; None: nowhere
    start: str = "home"  # home; drill, traps (the trap drill) or exam: go straight there
    exam: dict[str, object] = field(default_factory=dict)  # start_exam's arguments
    device: str = "auto"
    theme: str | None = None
    length: int | None = None
    shuffle: bool = True
    seed: int | None = None
    warm_up: bool = True  # tests may turn the torch warm-up off
    # The files and folders the bank was loaded from: watched, and reloaded as they are saved.
    bank_paths: tuple[Path, ...] = ()
    watch: bool = True  # live reload (needs bank_paths)
    watch_interval: float = 0.4  # seconds between looks at the files
    preview: tuple[PreviewTarget, ...] = ()  # start="preview": these ids (str) and files (Path)
    default_parameters: bool = False  # schedule with py-fsrs's defaults, not a stored fit


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

    def __init__(self, bank: Bank, options: AppOptions = AppOptions()) -> None:
        super().__init__()
        self.bank = bank
        self.options = options
        self.lab = LabService(options.device)
        # Opened and written off the UI thread; see quizapp/tui/history_writes.py.
        self.history_writes = HistoryService(
            self, options.db_path, use_fitted=not options.default_parameters
        )
        self.startup_seconds: float | None = None  # to Ready: the first layout is done
        self.first_frame_seconds: float | None = None  # to the first frame written out
        self.torch_loaded_at_first_screen: bool | None = None
        self.watcher: BankWatcher | None = None
        self._settings = options.settings  # changed on screen (quizapp/tui/quiz_mode.py)
        if options.theme:
            self.theme = options.theme

    def get_default_screen(self) -> Screen:
        # The home screen is the first screen itself, rather than pushed over Textual's blank
        # default one: that would compose, style and lay out two screens before the first frame.
        from quizapp.tui.screens.home import HomeScreen

        return HomeScreen(
            self.bank,
            length=self.options.length,
            shuffle=self.options.shuffle,
            quiz_reschedules=self.settings.quiz_reschedules,
        )

    def on_ready(self) -> None:
        # The first layout is done, and the frame is on its way to the terminal.
        self.startup_seconds = time.perf_counter() - STARTED_AT
        self.torch_loaded_at_first_screen = "torch" in sys.modules
        # Cheap (a signal subscription; nothing is read until a theme is picked), and a pick
        # made before the first frame is out must be remembered too.
        remember_theme_picks(self, self.options.config_path)
        if self.options.start == "exam":
            self.start_exam(**self.options.exam)
        elif self.options.start == "preview":
            self.start_preview()
        after_first_frame(self, self._after_first_frame)

    def _after_first_frame(self) -> None:
        """What would compete with the first frame for the GIL waits until it is out: opening
        the history (its writer thread) and importing torch."""
        self.first_frame_seconds = time.perf_counter() - STARTED_AT
        log_startup(
            self, self.startup_seconds or 0.0, self.first_frame_seconds, "torch" in sys.modules
        )
        self.history_writes.start()
        self._start_watching()
        if self.options.start in ("drill", "traps"):
            # A drill is built from the history: without one there is nothing to drill.
            from quizapp.tui.trap_drill import opening_drill

            self.history_writes.when_open(opening_drill(self), lambda: self.exit(return_code=1))
        if self.options.warm_up:
            self.run_worker(self.lab.warm_up, thread=True, name="torch warm-up", group="warm-up")

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.worker.group == "warm-up" and event.state is WorkerState.SUCCESS:
            from quizapp.tui.lab_device import announce_device

            announce_device(self, self.lab)  # a CPU standing in for a missing GPU is said once

    @property
    def settings(self) -> Settings:
        from quizapp.srs.config import Settings

        return self._settings or Settings()

    @settings.setter
    def settings(self, settings: Settings) -> None:
        self._settings = settings

    @property
    def history(self) -> ReviewStore | None:
        """The history for reading, on the UI thread; None until it is open (or without one)."""
        return self.history_writes.reader

    def refresh_home(self) -> None:
        """New counts for the home screen, when it shows (alone or under a dialog); a home
        screen under a session catches up when it is back (HomeScreen.on_screen_resume)."""
        from textual.screen import ModalScreen

        from quizapp.tui.screens.home import HomeScreen

        for screen in reversed(self.screen_stack):
            if isinstance(screen, HomeScreen):
                screen.show_counts(self.history_writes.home_counts(self.bank, self.settings))
            if not isinstance(screen, ModalScreen):
                return

    # -- live reload --------------------------------------------------------------------------

    def _start_watching(self) -> None:
        if not (self.options.watch and self.options.bank_paths):
            return
        from quizapp.tui.reload import BankWatcher

        # Only stats the files: nothing is parsed until one changes.
        self.watcher = BankWatcher.start(self.options.bank_paths, self.bank)
        self.set_interval(self.options.watch_interval, self._poll_bank_files, name="bank watch")

    def _poll_bank_files(self) -> None:
        if self.watcher is None:
            return
        try:
            change = self.watcher.poll()
        except Exception as exc:  # never let a watcher bug take the app (and a session) down
            self.watcher = None
            self.notify(
                f"Live reload stopped: {type(exc).__name__}: {exc}",
                title="Bank files",
                severity="error",
                timeout=15,
                markup=False,
            )
            return
        if change is not None:
            self.replace_bank(change.bank)
            self._announce(change)

    def replace_bank(self, bank: Bank) -> None:
        """Swap in a new bank. New sessions use it; a session in progress keeps its questions."""
        from quizapp.tui.screens.home import HomeScreen

        self.bank = bank
        for screen in self.screen_stack:
            if isinstance(screen, HomeScreen):
                screen.show_bank(bank)
        self.refresh_home()

    def _announce(self, change: Reload) -> None:
        from quizapp.tui.reload import located

        hint = " · ctrl+r restarts the preview with it" if self.options.preview else ""
        for verb, decks in (("Reloaded", change.reloaded), ("Loaded new", change.added)):
            for deck in decks:
                self.notify(
                    f"{verb} deck {deck.title} ({plural(change.size_of(deck), 'question')}){hint}",
                    title="Bank files",
                    timeout=5,
                    markup=False,
                )
        for deck in change.removed:
            self.notify(
                f"Removed deck {deck.title}: its file is gone",
                title="Bank files",
                severity="warning",
                timeout=6,
                markup=False,
            )
        if change.problems:
            lines = [located(d) for d in change.problems[:5]]
            if len(change.problems) > 5:
                lines.append(f"… and {len(change.problems) - 5} more")
            if change.kept:
                lines.append("The last good version stays in use.")
            self.notify(
                "\n".join(lines),
                title="Bank problems",
                severity="error",
                timeout=12,
                markup=False,
            )
        for path in change.cleared:
            self.notify(f"Problems fixed: {path}", title="Bank files", timeout=4, markup=False)

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
        from quizapp.tui.hidden import leave_out_hidden
        from quizapp.tui.quiz_mode import quiz_kind
        from quizapp.tui.screens.quiz import QuizScreen

        if questions is not None:
            pool = list(questions)  # chosen one by one (missed ones, a preview): all of them
        else:
            pool = select(list(self.bank.questions.values()), deck_ids=deck_ids, tags=tags)
            pool = leave_out_hidden(self, pool)
            if pool is None:
                return
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
        if options.length is not None and options.length > len(pool):
            where = "with these tags" if tags else f"in {title}"
            self.notify(
                f"Only {plural(len(pool), 'question')} {where}; asking all {len(pool)}.",
                title="Questions",
                timeout=6,
                markup=False,
            )
        kind = quiz_kind(self.settings)
        if kind != "quiz" and self.options.db_path is not None:
            title += f" ({kind})"  # the mode shows; without a history nothing is recorded
        self.push_screen(QuizScreen(QuizSession.start(pool, options, title, kind), self.lab))

    def start_preview(
        self, targets: Sequence[PreviewTarget] = (), *, from_id: str | None = None
    ) -> None:
        """A session on just these questions (ids) and files, in order, unshuffled.

        Defaults to the targets the app was started with; `from_id` starts at that question.
        """
        from quizapp.tui.reload import located, preview_questions, problems_in

        targets = tuple(targets) or self.options.preview
        questions, missing = preview_questions(self.bank, targets)
        problems = problems_in(self.bank, targets)
        if problems:
            lines = [located(d) for d in problems[:5]]
            if len(problems) > 5:
                lines.append(f"… and {len(problems) - 5} more")
            self.notify(
                "\n".join(lines), title="Bank problems", severity="error", timeout=12, markup=False
            )
        if missing:
            self.notify(
                "Nothing to preview in: " + ", ".join(map(str, missing)),
                title="Preview",
                severity="warning",
                timeout=8,
                markup=False,
            )
        ids = [q.id for q in questions]
        if from_id in ids:
            questions = questions[ids.index(from_id) :]
        # Not recorded: a preview app has no history (AppOptions(db_path=None)).
        self.start_session(
            questions=questions, length=len(questions) or None, shuffle=False, title="Preview"
        )

    async def action_restart_preview(self) -> None:
        """Start the preview again on the bank as it now stands, at the question on screen."""
        from quizapp.tui.screens.home import HomeScreen
        from quizapp.tui.screens.quiz import QuizScreen

        if not any(isinstance(s, HomeScreen) for s in self.screen_stack):
            return
        quiz = next((s for s in reversed(self.screen_stack) if isinstance(s, QuizScreen)), None)
        current = quiz.question if quiz is not None else None
        while not isinstance(self.screen, HomeScreen):
            await self.pop_screen()
        self.start_preview(from_id=current.id if current is not None else None)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "restart_preview":
            return bool(self.options.preview)
        return True

    def on_answer(
        self, question: Question, grade: Grade, seconds: float, kind: str = "quiz"
    ) -> Scheduled:
        """Called the moment an answer is graded: queued for the history's writer at once, so
        the next question never waits on the disk (or on another program's lock)."""
        return self.history_writes.record_answer(question, grade, seconds, kind, self.settings)

    def rerate_answer(self, scheduled: Scheduled, rating: Rating) -> Scheduled:
        """The student's rating for the answer on screen instead of the app's."""
        return self.history_writes.rerate(scheduled, rating)

    def undo_answer(self) -> bool:
        """Take this app's latest answer back out of the history. False if it could not be."""
        return self.history_writes.undo_answer()

    def bury_or_suspend(self, question: Question, action: str) -> None:
        from quizapp.tui.hidden import bury_or_suspend

        bury_or_suspend(self, question, action)

    def unhide(self, question_id: str, action: str) -> None:
        """Undo a bury or a suspend."""
        self.history_writes.flag(question_id, "unbury" if action == "bury" else "unsuspend")

    def start_exam(
        self, *, questions: int = 20, minutes: float | None = None, seed: int | None = None
    ) -> None:
        """A timed mock exam sampled by the decks' exam weights; no feedback until submit."""
        from quizapp.exam import ExamSession
        from quizapp.tui.screens.exam import ExamScreen

        try:
            exam = ExamSession.create(
                self.bank.decks,
                questions=questions,
                minutes=minutes,
                seed=seed,
                threshold=self.settings.exam_pass_threshold,
            )
        except ValueError as exc:
            self.notify(str(exc), title="Exam", severity="error", timeout=8, markup=False)
            return
        self.push_screen(ExamScreen(exam, self.lab, on_submit=self._record_exam))

    def _record_exam(self, result) -> None:
        if not self.history_writes.record_exam(result):
            self.notify("No review history: this exam result is not saved.", severity="warning")

    def action_stats(self) -> None:
        if self.history is None:
            self.notify("There is no review history to show.", severity="warning")
            return
        from quizapp.srs.scheduling import utc_now
        from quizapp.srs.stats import compute_stats
        from quizapp.tui.screens.stats import StatsScreen

        # On the UI thread: the store's SQLite connection belongs to the thread that opened it.
        history = self.history
        stats = self.history_writes.read(
            lambda: compute_stats(history, self.bank.questions, utc_now()), "the statistics"
        )
        if stats is not None:
            self.push_screen(StatsScreen(stats))

    def action_suspended(self) -> None:
        """Bring suspended cards back into sessions."""
        from quizapp.tui.hidden import bring_back

        bring_back(self, "suspend")

    def action_buried(self) -> None:
        """Bring buried cards back before tomorrow."""
        from quizapp.tui.hidden import bring_back

        bring_back(self, "bury")

    def start_drill(self, deck_ids: Sequence[str] = ()) -> None:
        """Today's due cards, then new ones up to the daily limit (quizapp/tui/drill.py)."""
        from quizapp.tui.drill import start_drill

        start_drill(self, deck_ids)

    def on_unmount(self) -> None:
        self.history_writes.close_now()

    # -- quitting and help --------------------------------------------------------------------

    async def action_quit(self) -> None:
        from quizapp.tui.screens.confirm import Confirm
        from quizapp.tui.screens.exam import ExamScreen
        from quizapp.tui.screens.quiz import QuizScreen

        if isinstance(self.screen, Confirm):
            return
        question = detail = None
        exam = next((s for s in self.screen_stack if isinstance(s, ExamScreen)), None)
        quiz = next((s for s in self.screen_stack if isinstance(s, QuizScreen)), None)
        if exam is not None and exam.in_progress:
            question, detail = "Quit in the middle of an exam?", "Nothing is graded or recorded."
        elif quiz is not None and quiz.in_progress:
            given = len(quiz.session.attempts)
            question, detail = (
                "Quit in the middle of a session?",
                f"{plural(given, 'answer')} given so far.",
            )
        elif self.options.start == "preview" and quiz is not None:
            # Nothing is lost, but a stray q should not end an instructor's look at a file.
            question, detail = "Quit the preview?", "Nothing in a preview is recorded."
        unsaved = self.history_writes.quit_warning()
        if unsaved:
            question = question or "Quit with answers not saved yet?"
            detail = f"{detail}\n{unsaved}" if detail else unsaved
        if question is None:
            self.exit()
            return

        def confirmed(yes: bool | None) -> None:
            if yes:
                self.run_worker(self._save_and_exit(), group="quit", exclusive=True)

        self.push_screen(Confirm(question, detail or ""), confirmed)

    async def _save_and_exit(self) -> None:
        """One more bounded try at what waits, off the UI thread, then go."""
        if self.history_writes.pending:
            self.notify("Saving what waits…", title="Review history", timeout=5)
        await self.history_writes.close()
        self.exit()

    def action_help(self) -> None:
        from quizapp.tui.screens.help import HelpScreen

        if isinstance(self.screen, HelpScreen):
            return
        bindings = []
        for binding in self._visible_bindings(self.screen):
            bindings.append((self.get_key_display(binding), binding.description))
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
            # The palette reads its titles and help as markup, and nothing else.
            title = markup_escaped(deck.title)
            yield SystemCommand(
                f"Deck: {title}",
                f"Start a session on {title} ({plural(len(deck.questions), 'question')})",
                partial(self.start_session, deck_ids=(deck.id,)),
            )
        yield SystemCommand("Deck: everything", "Start a session on every deck", self.start_session)
        from quizapp.experiments.registry import COMPUTATIONS

        for spec in COMPUTATIONS:
            yield SystemCommand(
                f"Compute: {spec.name}", spec.description, partial(self._open_lab, spec.name)
            )
        from quizapp.tui.lab_device import device_commands

        yield from device_commands(self, self.lab)
        yield SystemCommand("Drill", "Today's spaced-repetition drill", self.start_drill)
        from quizapp.tui.trap_drill import start_trap_drill

        yield SystemCommand(
            "Drill my traps",
            "The questions whose traps you fell for",
            partial(start_trap_drill, self),
        )
        yield SystemCommand("Exam", "A timed 20-question mock exam", self.start_exam)
        yield SystemCommand(
            "Suspended cards", "Bring suspended cards back into sessions", self.action_suspended
        )
        yield SystemCommand(
            "Buried cards", "Bring cards buried until tomorrow back now", self.action_buried
        )
        yield SystemCommand(
            "Stats", "Reviews, retention, topics, forecast, streak, exams", self.action_stats
        )
        from quizapp.tui.screens.readiness import ask_exam_date, open_readiness

        yield SystemCommand(
            "Readiness", "Predicted exam score, by topic and by day", partial(open_readiness, self)
        )
        yield SystemCommand(
            "Exam date", "Set the exam date the drills plan for", partial(ask_exam_date, self)
        )
        yield SystemCommand(
            "Fit the scheduler to my history",
            "FSRS's parameters fitted to your reviews (quizapp optimize)",
            self.action_fit_scheduler,
        )
        yield SystemCommand("Help: keys", "Every key the app answers to", self.action_help)

    def action_fit_scheduler(self) -> None:
        from quizapp.tui.screens.fit import open_fit_screen

        open_fit_screen(self)

    def _open_lab(self, name: str) -> None:
        from quizapp.tui.screens.lab import LabScreen

        self.push_screen(LabScreen(name, self.lab))
