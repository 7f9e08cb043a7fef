"""What a simulated student reviews each day: the plan and the baselines it must beat, at the
same workload (quizapp/srs/memory/simulate.py runs them; bench/bench_exam.py compares them).

- `PlanStrategy`: quizapp's plan (quizapp/srs/readiness/plan.py's `plan_day`), the day's workload as
  its budget;
- `GreedyStrategy`: the cards with the lowest projected exam-day chance first, weighted by
  exam weight, new questions brought in as the plan brings them (quizapp/srs/readiness/greedy.py);
- `FsrsStrategy(0.9)`, `FsrsStrategy(0.95)`: plain py-fsrs (no fuzz) at that desired
  retention, the drill queue's rules: due cards, most overdue first, then new cards across
  decks in turn, up to `new_per_day`, all within the day's workload;
- `RandomStrategy`: the day's workload drawn at random among the exam questions (new ones
  within `new_per_day`).

A policy sees only the app's side of the history (answers right or wrong, the app's memory
states under the default parameters), never the student's true memory.
"""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

from quizapp.srs.memory.scheduling import Card, Rating, Scheduler
from quizapp.srs.memory.simulate import History, Simulation
from quizapp.srs.readiness.greedy import greedy_day
from quizapp.srs.readiness.plan import plan_day
from quizapp.srs.times import to_ms

_UNIX_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


class FsrsStrategy:
    """Plain FSRS at one desired retention, as the drill queue would ask."""

    def __init__(self, desired_retention: float) -> None:
        self.name = f"FSRS {desired_retention:g}"
        self.scheduler = Scheduler(desired_retention=desired_retention, enable_fuzzing=False)
        self.cards: dict[str, Card] = {}

    def choose(
        self, day: int, now_ms: int, capacity: int, history: History, sim: Simulation
    ) -> list[str]:
        due = sorted((to_ms(c.due), qid) for qid, c in self.cards.items() if to_ms(c.due) <= now_ms)
        chosen = [qid for _, qid in due][:capacity]
        lanes = [[q for q in d.question_ids if q not in self.cards] for d in sim.blueprint.draws]
        depth = 0
        new: list[str] = []
        room = min(sim.config.new_per_day, capacity - len(chosen))
        while len(new) < room and any(depth < len(lane) for lane in lanes):
            for lane in lanes:
                if depth < len(lane) and len(new) < room:
                    new.append(lane[depth])
            depth += 1
        return chosen + new

    def answered(self, question_id: str, correct: bool, now_ms: int) -> None:
        when = _UNIX_EPOCH + timedelta(milliseconds=now_ms)
        card = self.cards.get(question_id) or Card(card_id=len(self.cards) + 1, due=when)
        rating = Rating.Good if correct else Rating.Again
        self.cards[question_id], _ = self.scheduler.review_card(card, rating, when)


class _DayPlannerStrategy:
    """A policy that asks a day planner (plan_day's signature) for each day's cards."""

    name: str
    planner: staticmethod

    def choose(
        self, day: int, now_ms: int, capacity: int, history: History, sim: Simulation
    ) -> list[str]:
        chosen = self.planner(
            sim.blueprint,
            history.student_view(),
            sim.model,
            now_ms,
            sim.exam_ms,
            budget_minutes=capacity,
            minutes_per_card=1.0,
            max_new=sim.config.new_per_day,
        )
        return [c.question_id for c in chosen]

    def answered(self, question_id: str, correct: bool, now_ms: int) -> None:
        pass


class PlanStrategy(_DayPlannerStrategy):
    """quizapp's plan to the exam, with the day's workload as its budget."""

    name = "plan"
    planner = staticmethod(plan_day)


class GreedyStrategy(_DayPlannerStrategy):
    """Lowest projected exam-day chance first, weighted by exam weight."""

    name = "greedy"
    planner = staticmethod(greedy_day)


class RandomStrategy:
    """The day's workload at random among the exam questions, new ones within the daily cap."""

    name = "random"

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def choose(
        self, day: int, now_ms: int, capacity: int, history: History, sim: Simulation
    ) -> list[str]:
        order = [item.question_id for item in sim.blueprint.items]
        self.rng.shuffle(order)
        chosen: list[str] = []
        new = 0
        for qid in order:
            if len(chosen) == capacity:
                break
            if qid not in history.seen_memory:
                if new == sim.config.new_per_day:
                    continue
                new += 1
            chosen.append(qid)
        return chosen

    def answered(self, question_id: str, correct: bool, now_ms: int) -> None:
        pass


__all__ = ["FsrsStrategy", "GreedyStrategy", "PlanStrategy", "RandomStrategy"]
