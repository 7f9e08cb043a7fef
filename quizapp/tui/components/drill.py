"""Today's drill: built from the history, titled by what it holds, with its learning steps.

The queue (quizapp/srs/study/queue.py) holds the cards due now, then new ones up to the day's
limit. While the drill runs, a card rated Again, or a new card on its first steps, comes back
when it is due again, as in Anki (quizapp/srs/memory/steps.py); the title counts what the drill
still holds, so it moves when a card is buried or suspended:

    Drill: 12 due, 7 new · 1 learning
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING

from quizapp.tui.components.drill_plan import DrillPlan

if TYPE_CHECKING:
    from quizapp.tui.components.host import AppHost


def start_drill(app: AppHost, deck_ids: Sequence[str] = ()) -> None:
    """Today's due cards, then new ones up to the daily limit."""
    if app.history is None:
        app.notify(app.history_writes.missing("Drills need"), severity="error", markup=False)
        return
    from quizapp.bank.session import QuizSession, SessionOptions
    from quizapp.srs.memory.scheduling import utc_now
    from quizapp.srs.study.queue import build_drill_queue
    from quizapp.tui.screens.quiz import QuizScreen

    questions = {
        q.id: q for q in app.bank.questions.values() if not deck_ids or q.deck_id in deck_ids
    }
    now = utc_now()
    view = app.history_writes.view()
    assert view is not None  # the history is open
    queue = app.history_writes.read(
        lambda: build_drill_queue(view, questions, now, new_per_day=app.settings.new_cards_per_day),
        "today's drill",
    )
    if queue is None:
        return
    if app.settings.exam_date is not None:  # the plan to the exam (quizapp/srs/readiness/plan.py)
        from quizapp.srs.readiness.report import plan_drill_queue

        planned = app.history_writes.read(
            lambda: plan_drill_queue(
                view, questions, app.bank.decks, app.settings, now, app.history_writes.parameters
            ),
            "today's plan",
        )
        if planned is not None:  # None: the exam is past, plain FSRS again
            queue = planned
    if not len(queue):
        app.notify(nothing_due(queue.next_due, now), title="Drill", timeout=10, markup=False)
        return
    session = QuizSession.start(
        queue.questions,
        SessionOptions(
            length=app.options.length,
            shuffle=False,  # the queue's order: due cards first
            shuffle_options=app.options.shuffle,  # off only with --no-shuffle
            seed=app.options.seed,
        ),
        kind="drill",
    )
    plan = DrillPlan(frozenset(q.id for q in queue.due))
    session.title = plan.title(session)
    app.push_screen(QuizScreen(session, app.lab, drill=plan))


def nothing_due(next_due: datetime | None, now: datetime) -> str:
    if next_due is None:
        return "Nothing is due, and no new cards are left today."
    wait = next_due - now
    hours, rest = divmod(int(wait.total_seconds()), 3600)
    minutes = rest // 60
    when = next_due.astimezone().strftime("%a %H:%M")
    span = f"{hours} h {minutes} min" if hours else f"{minutes} min"
    return f"Nothing is due right now. The next card is due {when} (in {span})."
