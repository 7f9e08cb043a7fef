"""The trap drill ("Drill my traps", `quizapp drill --traps`): the questions whose traps the
student fell for, until each is answered right on two separate days (quizapp/srs/study/traps.py).

Its answers are drill answers: saved, scheduled and kept like any other, so a right answer
today counts toward clearing the trap, and falling for it again puts the question back.
Suspended and buried questions wait, as in any drill.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from quizapp.tui.components.host import AppHost

NO_TRAPS_YET = (
    "No traps to drill yet. When you pick a wrong option or type a known wrong number, "
    "that question joins the trap drill until you answer it right on two separate days."
)
ALL_CLEARED = (
    "No traps left to drill: every question you fell for has been answered right on two "
    "separate days since."
)


def opening_drill(app: AppHost) -> Callable[[], None]:
    """The drill `quizapp drill` opens on: today's, or with --traps the trap drill."""
    return partial(start_trap_drill, app) if app.options.start == "traps" else app.start_drill


def start_trap_drill(app: AppHost) -> None:
    if app.history is None:
        app.notify(
            app.history_writes.missing("The trap drill needs"), severity="error", markup=False
        )
        return
    from quizapp.bank.session import QuizSession, SessionOptions
    from quizapp.srs.memory.scheduling import utc_now
    from quizapp.srs.study.traps import trap_question_ids, your_traps
    from quizapp.tui.screens.quiz import QuizScreen

    history = app.history
    questions = app.bank.questions
    view = app.history_writes.view()
    assert view is not None  # the history is open
    found = app.history_writes.read(
        lambda: (
            trap_question_ids(history, questions),
            bool(your_traps(history, questions)),
            view.hidden_ids(utc_now()),
        ),
        "your traps",
    )
    if found is None:
        return
    ids, ever_fell, hidden = found
    if not ids:
        message = ALL_CLEARED if ever_fell else NO_TRAPS_YET
        app.notify(message, title="Trap drill", timeout=12, markup=False)
        return
    chosen = [questions[qid] for qid in ids if qid not in hidden]
    if not chosen:
        app.notify(
            f"Your {len(ids)} trap questions are all suspended or buried for now.",
            title="Trap drill",
            timeout=10,
            markup=False,
        )
        return
    session = QuizSession.start(
        chosen,
        SessionOptions(
            length=app.options.length,
            shuffle=False,  # the traps fallen for most recently first
            shuffle_options=app.options.shuffle,  # off only with --no-shuffle
            seed=app.options.seed,
        ),
        title=f"Trap drill: {len(chosen)} question{'s' if len(chosen) != 1 else ''}",
        kind="drill",
    )
    app.push_screen(QuizScreen(session, app.lab))


__all__ = ["ALL_CLEARED", "NO_TRAPS_YET", "opening_drill", "start_trap_drill"]
