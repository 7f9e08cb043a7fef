"""Burying and suspending: putting cards away, bringing them back, and leaving them out.

`b` buries a card until tomorrow and `!` suspends it until it is brought back (the palette's
*Suspended cards* and *Buried cards*). Either way it is out of the way everywhere a session
is built from decks or tags: drills, a deck's quiz, everything, tags. A session of questions
picked one by one (retry missed, a preview) asks what it was given, and a mock exam samples
the whole syllabus, as the real exam would. Toasts name a card by its prompt, not its id.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from quizapp.tui.text.prompt_text import short_prompt

if TYPE_CHECKING:
    from quizapp.bank import Question
    from quizapp.tui.components.host import AppHost

TOAST_PROMPT_WIDTH = 34  # a toast is 40 columns wide at 80, less its border and padding


def leave_out_hidden(app: AppHost, pool: list[Question]) -> list[Question] | None:
    """`pool` without suspended and buried cards; None (and a toast saying why) when that
    leaves nothing."""
    from quizapp.srs.memory.scheduling import utc_now

    view = app.history_writes.view()
    if view is None:
        return pool
    hidden = app.history_writes.read(lambda: view.hidden_ids(utc_now()), "the hidden cards")
    if not hidden:
        return pool
    kept = [q for q in pool if q.id not in hidden]
    if pool and not kept:
        app.notify(
            f"All {len(pool)} of these questions are suspended or buried. The command palette "
            "(ctrl+p) brings them back: Suspended cards, Buried cards.",
            severity="warning",
            timeout=8,
            markup=False,
        )
        return None
    return kept


def bury_or_suspend(app: AppHost, question: Question, action: str) -> None:
    if app.history is None:
        app.notify(
            app.history_writes.missing("Burying and suspending need"),
            severity="warning",
            markup=False,
        )
        return
    from quizapp.srs.memory.scheduling import utc_now
    from quizapp.srs.study.queue import tomorrow

    # The question on a line of its own, under the title: whole on an 80-column toast.
    what = short_prompt(question.prompt, TOAST_PROMPT_WIDTH)
    if action == "bury":
        app.history_writes.flag(question.id, "bury", tomorrow(utc_now()))
        app.notify(what, title="Buried until tomorrow", timeout=4, markup=False)
    else:
        app.history_writes.flag(question.id, "suspend")
        app.notify(what, title="Suspended (ctrl+p brings it back)", timeout=4, markup=False)


def bring_back(app: AppHost, action: str) -> None:
    """Pick suspended (`suspend`) or buried (`bury`) cards to bring back into sessions."""
    from quizapp.tui.screens.suspended import BuriedCards, SuspendedCards

    word = "Suspending" if action == "suspend" else "Burying"
    if app.history is None:
        app.notify(app.history_writes.missing(f"{word} needs"), severity="warning", markup=False)
        return
    writes = app.history_writes
    hidden = writes.suspended_ids() if action == "suspend" else writes.buried_ids()
    if not hidden:
        state = "suspended" if action == "suspend" else "buried"
        app.notify(f"No card is {state}.", timeout=4, markup=False)
        return
    undo = "unsuspend" if action == "suspend" else "unbury"

    def chosen(ids: list[str] | None) -> None:
        if not ids or app.history is None:
            return
        for question_id in ids:
            writes.flag(question_id, undo)
        cards = "1 card" if len(ids) == 1 else f"{len(ids)} cards"
        app.notify(f"Back in sessions: {cards}.", timeout=4, markup=False)
        app.refresh_home()

    picker = SuspendedCards if action == "suspend" else BuriedCards
    app.push_screen(picker(hidden, app.bank.questions), chosen)
