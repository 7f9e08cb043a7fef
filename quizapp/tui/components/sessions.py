"""Starting sessions: a quiz on decks, tags or chosen questions; a preview; a mock exam.

Everything here is imported on first use: none of it is needed to draw the home screen.
Today's drill is built from the history, in quizapp/tui/components/drill.py.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from quizapp.wording import plural

if TYPE_CHECKING:
    from quizapp.bank import Question
    from quizapp.tui.components.host import AppHost
    from quizapp.tui.components.reload import PreviewTarget


def start_session(
    app: AppHost,
    *,
    deck_ids: Sequence[str] = (),
    tags: Sequence[str] = (),
    questions: Sequence[Question] | None = None,
    length: int | None = None,
    shuffle: bool | None = None,
    title: str | None = None,
) -> None:
    from quizapp.bank.session import QuizSession, SessionOptions, select
    from quizapp.tui.components.hidden import leave_out_hidden
    from quizapp.tui.components.quiz_mode import quiz_kind
    from quizapp.tui.screens.quiz import QuizScreen

    if questions is not None:
        pool = list(questions)  # chosen one by one (missed ones, a preview): all of them
    else:
        pool = select(list(app.bank.questions.values()), deck_ids=deck_ids, tags=tags)
        pool = leave_out_hidden(app, pool)
        if pool is None:
            return
    if not pool:
        app.notify("No questions match.", severity="warning", timeout=4)
        return
    options = SessionOptions(
        length=length if length is not None else app.options.length,
        # `shuffle` (the home screen's switch) orders the questions; the options are shuffled
        # unless the app was started with the authoring aid --no-shuffle.
        shuffle=app.options.shuffle if shuffle is None else shuffle,
        seed=app.options.seed,
        shuffle_options=app.options.shuffle,
    )
    if title is None:
        if deck_ids:
            title = ", ".join(d.title for d in app.bank.decks if d.id in deck_ids)
        elif tags:
            title = "Tags: " + ", ".join(tags)
        else:
            title = "All decks"
    if options.length is not None and options.length > len(pool):
        where = "with these tags" if tags else f"in {title}"
        app.notify(
            f"Only {plural(len(pool), 'question')} {where}; asking all {len(pool)}.",
            title="Questions",
            timeout=6,
            markup=False,
        )
    kind = quiz_kind(app.settings)
    if kind != "quiz" and app.options.db_path is not None:
        title += f" ({kind})"  # the mode shows; without a history nothing is recorded
    app.push_screen(QuizScreen(QuizSession.start(pool, options, title, kind), app.lab))


def start_preview(
    app: AppHost, targets: Sequence[PreviewTarget] = (), *, from_id: str | None = None
) -> None:
    """A session on just these questions (ids) and files, in the order given; their options
    shuffled as a student sees them, unless `quizapp preview --no-shuffle` asked for the file's;
    a `vary:` question on variant `--variant N` if given, else on one drawn as for a student.

    Defaults to the targets the app was started with; `from_id` starts at that question.
    Never recorded: a preview app has no history (AppOptions(db_path=None)).
    """
    from quizapp.bank.session import QuizSession, SessionOptions
    from quizapp.tui.components.live_reload import problem_lines
    from quizapp.tui.components.preview_session import starting_variants
    from quizapp.tui.components.reload import preview_questions, problems_in
    from quizapp.tui.screens.preview import PreviewScreen

    targets = tuple(targets) or app.options.preview
    questions, missing = preview_questions(app.bank, targets)
    problems = problems_in(app.bank, targets)
    if problems:
        app.notify(
            "\n".join(problem_lines(problems)),
            title="Bank problems",
            severity="error",
            timeout=12,
            markup=False,
        )
    if missing:
        app.notify(
            "Nothing to preview in: " + ", ".join(map(str, missing)),
            title="Preview",
            severity="warning",
            timeout=8,
            markup=False,
        )
    ids = [q.id for q in questions]
    if from_id in ids:
        questions = questions[ids.index(from_id) :]
    if not questions:
        app.notify("No questions match.", severity="warning", timeout=4)
        return
    options = SessionOptions(
        shuffle=False,  # the order given
        seed=app.options.seed,
        shuffle_options=app.options.shuffle,
    )
    session = QuizSession.start(questions, options, "Preview")
    if app.options.preview_variant is not None:
        bases = {q.id: q for q in questions}
        session.questions = starting_variants(session.questions, bases, app.options.preview_variant)
    app.push_screen(PreviewScreen(session, app.lab, questions))


async def restart_preview(app: AppHost) -> None:
    """ctrl+r: the saved files' version of every question into the preview on screen, which
    stays at the question shown (quizapp/tui/screens/preview.py). Elsewhere (the summary, the
    home screen) the preview starts again from its first question."""
    from quizapp.tui.components.reload import preview_questions
    from quizapp.tui.screens.home import HomeScreen
    from quizapp.tui.screens.preview import PreviewScreen

    if not any(isinstance(s, HomeScreen) for s in app.screen_stack):
        return
    preview = next((s for s in reversed(app.screen_stack) if isinstance(s, PreviewScreen)), None)
    if preview is not None:
        while app.screen is not preview:
            await app.pop_screen()  # a help or a confirmation over it
        fresh, _ = preview_questions(app.bank, app.options.preview)
        await preview.reload(fresh)
        return
    while not isinstance(app.screen, HomeScreen):
        await app.pop_screen()
    app.start_preview()


def start_exam(
    app: AppHost,
    *,
    questions: int = 20,
    minutes: float | None = None,
    seed: int | None = None,
    intro: bool = False,
) -> None:
    """A timed mock exam sampled by the decks' exam weights; no feedback until submit.
    `intro`: first a page of what is about to happen, and the clock starts only on Begin."""
    from quizapp.exam import ExamSession
    from quizapp.tui.screens.exam import ExamScreen

    try:
        exam = ExamSession.create(
            app.bank.decks,
            questions=questions,
            minutes=minutes,
            seed=seed,
            threshold=app.settings.exam_pass_threshold,
        )
    except ValueError as exc:
        app.notify(str(exc), title="Exam", severity="error", timeout=8, markup=False)
        return

    def record(result) -> None:
        if not app.history_writes.record_exam(result):
            app.notify("No review history: this exam result is not saved.", severity="warning")

    if not intro:
        app.push_screen(ExamScreen(exam, app.lab, on_submit=record))
        return
    from quizapp.tui.screens.exam_intro import ExamIntro

    def begin(go: bool | None) -> None:
        if go:
            app.push_screen(ExamScreen(exam, app.lab, on_submit=record))

    app.push_screen(ExamIntro(exam), begin)
