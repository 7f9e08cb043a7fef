"""What a drill is while it runs: the cards that were due when it began, and its learning steps.

Apart from quizapp/tui/components/drill.py (which starts a drill and opens the quiz screen) so
that the quiz screen can hold a plan without importing what opens it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from quizapp.srs.memory.steps import LearningSteps

if TYPE_CHECKING:
    from quizapp.bank.session import QuizSession


@dataclass
class DrillPlan:
    due_ids: frozenset[str]  # the cards that were due when the drill began (the rest are new)
    steps: LearningSteps = field(default_factory=LearningSteps)

    def title(self, session: QuizSession) -> str:
        """What the drill holds: the cards answered or still to come, not those put away."""
        held = {a.question.id for a in session.attempts}
        held |= {q.id for q in session.questions[session.index :]}
        held |= {q.id for _, q in self.steps.waiting}
        due = len(held & self.due_ids)
        learning = f" · {len(self.steps)} learning" if self.steps else ""
        return f"Drill: {due} due, {len(held) - due} new{learning}"
