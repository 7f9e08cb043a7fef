"""The quizapp Textual app: home, quiz sessions, summaries, the lab, help and the palette."""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.screen import Screen

from quizapp.tui.lab_service import LabService
from quizapp.tui.literal import markup_escaped

if TYPE_CHECKING:
    from quizapp.bank import Bank, Question
    from quizapp.bank.grading import Grade
    from quizapp.srs.config import Settings
    from quizapp.srs.store import ReviewStore
    from quizapp.tui.reload import BankWatcher, PreviewTarget, Reload

# Measured from the moment this module is imported: close enough to process start for
# the start-up log line, and it costs nothing.
_IMPORTED_AT = time.perf_counter()


@dataclass(frozen=True)
class AppOptions:
    db_path: Path | None = None  # None: no review history (tests, previews)
    settings: Settings | None = None  # None: the defaults
    start: str = "home"  # home; drill or exam: go straight there
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


class QuizApp(App[None]):
    # Absolute, so subclasses defined elsewhere (tests, benchmarks) still find the styles.
    CSS_PATH = Path(__file__).with_name("app.tcss")
    TITLE = "quizapp"
    BINDINGS = [
        Binding("q", "quit", "Quit"),
        Binding("ctrl+q", "quit", "Quit", show=False, priority=True),
        Binding("question_mark", "help", "Keys"),
        Binding("ctrl+r", "restart_preview", "Restart preview"),  # preview mode only
    ]

    def __init__(self, bank: Bank, options: AppOptions = AppOptions()) -> None:
        super().__init__()
        self.bank = bank
        self.options = options
        self.lab = LabService(options.device)
        self.history: ReviewStore | None = None
        self._answer_log: list[int | None] = []  # review ids this app wrote, for undo
        self.startup_seconds: float | None = None
        self.torch_loaded_at_first_screen: bool | None = None
        self.watcher: BankWatcher | None = None
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
        self._open_history()
        self._start_watching()
        if self.options.start == "drill":
            self.start_drill()
        elif self.options.start == "exam":
            self.start_exam(**self.options.exam)
        elif self.options.start == "preview":
            self.start_preview()

    @property
    def settings(self) -> Settings:
        from quizapp.srs.config import Settings

        return self.options.settings or Settings()

    def _open_history(self) -> None:
        """Opened after the first frame: SQLite and FSRS are not needed to draw the home screen."""
        if self.options.db_path is None:
            return
        from quizapp.srs.store import HistoryError, ReviewStore

        try:
            self.history = ReviewStore.open(self.options.db_path)
        except (HistoryError, OSError) as exc:
            self.notify(
                f"{exc}. Answers will not be saved.",
                title="Review history",
                severity="error",
                timeout=15,
                markup=False,
            )
            return
        if self.history.notice:
            self.notify(
                self.history.notice,
                title="Review history",
                severity="warning",
                timeout=15,
                markup=False,
            )
        self.refresh_home()

    def refresh_home(self) -> None:
        from quizapp.tui.screens.home import HomeScreen

        for screen in self.screen_stack:
            if isinstance(screen, HomeScreen):
                screen.show_counts(self.deck_counts())

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
                    f"{verb} deck {deck.title} ({change.size_of(deck)} questions){hint}",
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

    def deck_counts(self) -> dict[str, tuple[int, int]]:
        """Per deck id: (due now, never seen). Empty without a history."""
        if self.history is None:
            return {}
        from quizapp.srs.scheduling import utc_now

        now = utc_now()
        hidden = self.history.hidden_ids(now)
        due = set(self.history.due_ids(now)) - hidden
        known = self.history.known_ids()
        counts: dict[str, tuple[int, int]] = {}
        for deck in self.bank.decks:
            ids = {q.id for q in deck.questions} - hidden
            counts[deck.id] = (len(ids & due), len(ids - known))
        return counts

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
    ) -> None:
        """Called the moment an answer is graded: it is in the history before the feedback shows."""
        if self.history is None:
            return
        import sqlite3

        from quizapp.srs.scheduling import RatingPolicy, make_scheduler, utc_now

        settings = self.settings
        policy = RatingPolicy(settings.fast_seconds, settings.slow_seconds)
        try:
            self.history.record_answer(
                question_id=question.id,
                deck_id=question.deck_id,
                topic=question.topic,
                rating=policy.rating_for(grade, seconds),
                correct=grade.correct,
                when=utc_now(),
                duration_ms=int(seconds * 1000),
                kind=kind,
                scheduler=make_scheduler(settings.desired_retention),
            )
            self._answer_log.append(self.history.last_review_id)
        except sqlite3.Error as exc:
            self.notify(
                f"This answer could not be saved: {exc}",
                title="Review history",
                severity="error",
                markup=False,
            )

    def undo_answer(self) -> bool:
        """Take this app's latest answer back out of the history. False if it could not be."""
        if self.history is None or not self._answer_log:
            return self.history is None  # nothing stored: the session's own undo is the whole story
        review_id = self._answer_log.pop()
        return review_id is not None and self.history.undo_review(review_id) is not None

    def bury_or_suspend(self, question: Question, action: str) -> None:
        if self.history is None:
            self.notify("Burying and suspending need the review history.", severity="warning")
            return
        from quizapp.srs.queue import tomorrow
        from quizapp.srs.scheduling import utc_now

        if action == "bury":
            self.history.bury(question.id, tomorrow(utc_now()))
            self.notify(f"Buried until tomorrow: {question.id}", timeout=4, markup=False)
        else:
            self.history.set_suspended(question.id, True)
            self.notify(
                f"Suspended: {question.id} (it stays out of drills)", timeout=4, markup=False
            )

    def unhide(self, question_id: str, action: str) -> None:
        """Undo a bury or a suspend."""
        if self.history is None:
            return
        if action == "bury":
            self.history.unbury(question_id)
        else:
            self.history.set_suspended(question_id, False)

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
        """On the UI thread, as the SQLite connection requires."""
        if self.history is None:
            self.notify("No review history: this exam result is not saved.", severity="warning")
            return
        self.history.record_exam(**result.record_kwargs())
        self.refresh_home()

    def action_stats(self) -> None:
        if self.history is None:
            self.notify("There is no review history to show.", severity="warning")
            return
        from quizapp.srs.scheduling import utc_now
        from quizapp.srs.stats import compute_stats
        from quizapp.tui.screens.stats import StatsScreen

        # On the UI thread: the store's SQLite connection belongs to the thread that opened it.
        self.push_screen(StatsScreen(compute_stats(self.history, self.bank.questions, utc_now())))

    def action_suspended(self) -> None:
        """Bring suspended cards back into drills."""
        if self.history is None:
            self.notify("Suspending needs the review history.", severity="warning")
            return
        suspended = self.history.suspended_ids()
        if not suspended:
            self.notify("No card is suspended.", timeout=4)
            return
        from quizapp.tui.screens.suspended import SuspendedCards

        def unsuspend(chosen: list[str] | None) -> None:
            if not chosen or self.history is None:
                return
            for question_id in chosen:
                self.history.set_suspended(question_id, False)
            self.notify(f"Back in drills: {len(chosen)} card(s).", timeout=4, markup=False)
            self.refresh_home()

        self.push_screen(SuspendedCards(suspended, self.bank.questions), unsuspend)

    def start_drill(self, deck_ids: Sequence[str] = ()) -> None:
        """Today's due cards, then new ones up to the daily limit."""
        if self.history is None:
            self.notify(
                "Drills need the review history (it could not be opened).", severity="error"
            )
            return
        from quizapp.bank.session import QuizSession, SessionOptions
        from quizapp.srs.queue import build_drill_queue
        from quizapp.srs.scheduling import utc_now
        from quizapp.tui.screens.quiz import QuizScreen

        questions = {
            q.id: q for q in self.bank.questions.values() if not deck_ids or q.deck_id in deck_ids
        }
        now = utc_now()
        queue = build_drill_queue(
            self.history, questions, now, new_per_day=self.settings.new_cards_per_day
        )
        if not len(queue):
            self.notify(_nothing_due(queue.next_due, now), title="Drill", timeout=10, markup=False)
            return
        session = QuizSession.start(
            queue.questions,
            SessionOptions(
                length=self.options.length,
                shuffle=False,  # the queue's order: due cards first
                shuffle_choices=self.options.shuffle,
                seed=self.options.seed,
            ),
            kind="drill",
        )
        due_ids = {q.id for q in queue.due}
        due = sum(q.id in due_ids for q in session.questions)
        session.title = f"Drill: {due} due, {len(session.questions) - due} new"
        self.push_screen(QuizScreen(session, self.lab))

    def on_unmount(self) -> None:
        if self.history is not None:
            self.history.close()

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
                f"{given} answer(s) given so far.",
            )
        if question is None:
            self.exit()
            return

        def confirmed(yes: bool | None) -> None:
            if yes:
                self.exit()

        self.push_screen(Confirm(question, detail or ""), confirmed)

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
                f"Start a session on {title} ({len(deck.questions)} questions)",
                partial(self.start_session, deck_ids=(deck.id,)),
            )
        yield SystemCommand("Deck: everything", "Start a session on every deck", self.start_session)
        from quizapp.experiments.registry import COMPUTATIONS

        for spec in COMPUTATIONS:
            yield SystemCommand(
                f"Compute: {spec.name}", spec.description, partial(self._open_lab, spec.name)
            )
        yield SystemCommand("Drill", "Today's spaced-repetition drill", self.start_drill)
        yield SystemCommand("Exam", "A timed 20-question mock exam", self.start_exam)
        yield SystemCommand(
            "Suspended cards", "Bring suspended cards back into drills", self.action_suspended
        )
        yield SystemCommand(
            "Stats", "Reviews, retention, topics, forecast, streak, exams", self.action_stats
        )
        yield SystemCommand("Help: keys", "Every key the app answers to", self.action_help)

    def _open_lab(self, name: str) -> None:
        from quizapp.tui.screens.lab import LabScreen

        self.push_screen(LabScreen(name, self.lab))


def _nothing_due(next_due: datetime | None, now: datetime) -> str:
    if next_due is None:
        return "Nothing is due, and no new cards are left today."
    wait = next_due - now
    hours, rest = divmod(int(wait.total_seconds()), 3600)
    minutes = rest // 60
    when = next_due.astimezone().strftime("%a %H:%M")
    span = f"{hours} h {minutes} min" if hours else f"{minutes} min"
    return f"Nothing is due right now. The next card is due {when} (in {span})."
