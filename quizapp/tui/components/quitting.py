"""Quitting: ask first when a quit would cut an exam or a session short, end a preview, or
leave answers the history has not saved yet; then give those one more bounded try."""

from __future__ import annotations

from typing import TYPE_CHECKING

from quizapp.wording import plural

if TYPE_CHECKING:
    from quizapp.tui.components.host import AppHost


def quit_question(app: AppHost) -> tuple[str, str] | None:
    """What to ask before quitting, and the detail under it; None: just quit."""
    from quizapp.tui.screens.exam import ExamScreen
    from quizapp.tui.screens.quiz import QuizScreen

    question = detail = None
    exam = next((s for s in app.screen_stack if isinstance(s, ExamScreen)), None)
    quiz = next((s for s in app.screen_stack if isinstance(s, QuizScreen)), None)
    if exam is not None and exam.in_progress:
        question, detail = "Quit in the middle of an exam?", "Nothing is graded or recorded."
    elif quiz is not None and quiz.in_progress:
        given = len(quiz.session.attempts)
        question, detail = (
            "Quit in the middle of a session?",
            f"{plural(given, 'answer')} given so far.",
        )
    elif app.options.start == "preview" and quiz is not None:
        # Nothing is lost, but a stray q should not end an instructor's look at a file.
        question, detail = "Quit the preview?", "Nothing in a preview is recorded."
    unsaved = app.history_writes.quit_warning()
    if unsaved:
        question = question or "Quit with answers not saved yet?"
        detail = f"{detail}\n{unsaved}" if detail else unsaved
    return None if question is None else (question, detail or "")


def quit_when_confirmed(app: AppHost) -> None:
    from quizapp.tui.screens.confirm import Confirm

    if isinstance(app.screen, Confirm):
        return
    asked = quit_question(app)
    if asked is None:
        app.exit()
        return

    def confirmed(yes: bool | None) -> None:
        if yes:
            app.run_worker(save_and_exit(app), group="quit", exclusive=True)

    app.push_screen(Confirm(*asked), confirmed)


async def save_and_exit(app: AppHost) -> None:
    """One more bounded try at what waits, off the UI thread, then go."""
    if app.history_writes.pending:
        app.notify("Saving what waits…", title="Review history", timeout=5)
    await app.history_writes.close()
    app.exit()
