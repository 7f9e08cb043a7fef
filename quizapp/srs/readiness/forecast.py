"""The predicted exam score: each question's chance of a right answer on a given day, and the
score distribution they make on an exam sampled as `quizapp exam` samples.

A question's chance on day T (g: its type's guessing floor, quizapp/srs/readiness/exam_model.py):
- reviewed before: its FSRS recall probability R at T from its current memory state
  (stability, difficulty, last review; quizapp/srs/memory/model.py), never below the floor:
  p = max(R, g) (`recall_chance` says why not R + (1 - R)·g);
- never seen: the chance k that the student knows it already, from the first attempts in its
  topic with lucky guesses taken out (Σg: the floors of the questions answered), shrunk
  toward the whole bank (beta-binomial), then p = k + (1 - k)·g:
      bank  k0 = (right - Σg + 1) / (answered - Σg + 2)           (a uniform Beta(1, 1) prior)
      topic k  = (right_t - Σg_t + m·k0) / (answered_t - Σg_t + m),  m = PRIOR_STRENGTH = 8
  so a topic's own record outweighs the bank's once it holds more than 8 answers' worth of
  evidence beyond guessing.

These are point chances: what the plan values cards by. The forecast itself is a distribution
around them (quizapp/srs/readiness/uncertainty.py): the ability behind k and the memory model's
forgetting are drawn, not plugged in.

Pure: no store, no bank loading; quizapp/srs/readiness/report.py feeds it from the history.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cached_property

from quizapp.srs.memory.model import Memory, MemoryModel
from quizapp.srs.readiness.exam_model import (
    ExamBlueprint,
    ExamItem,
    ScoreSummary,
    correct_distribution,
    summarize,
)

PRIOR_STRENGTH = 8.0  # pseudo-answers behind the whole-bank rate when shrinking a topic's rate


@dataclass(frozen=True)
class FirstAttempts:
    """First attempts (a card's first review) per topic: (right, answered, sum of the
    answered questions' guessing floors)."""

    by_topic: Mapping[str, tuple[int, int, float]]

    @classmethod
    def tally(cls, attempts: Iterable[tuple[str, bool, float]]) -> FirstAttempts:
        """From (topic, right, guessing floor) per first attempt."""
        counts: dict[str, list[float]] = {}
        for topic, correct, guess in attempts:
            tally = counts.setdefault(topic, [0, 0, 0.0])
            tally[0] += bool(correct)
            tally[1] += 1
            tally[2] += guess
        return cls({t: (int(c[0]), int(c[1]), c[2]) for t, c in counts.items()})

    @cached_property
    def bank_knowledge(self) -> float:
        right = sum(r for r, _, _ in self.by_topic.values())
        answered = sum(n for _, n, _ in self.by_topic.values())
        guesses = sum(g for _, _, g in self.by_topic.values())
        return _clamp((max(0.0, right - guesses) + 1) / (answered - guesses + 2))

    def topic_knowledge(self, topic: str) -> float:
        """The chance an unseen question of `topic` is known, lucky guesses taken out."""
        right, answered, guesses = self.by_topic.get(topic, (0, 0, 0.0))
        known = max(0.0, right - guesses) + PRIOR_STRENGTH * self.bank_knowledge
        return _clamp(known / (answered - guesses + PRIOR_STRENGTH))


def _clamp(value: float) -> float:
    return min(1.0, max(0.0, value))


@dataclass(frozen=True)
class Student:
    """What the forecast knows of a student: memory states and first-attempt record."""

    memories: Mapping[str, Memory]  # question id -> memory, for questions reviewed before
    first_attempts: FirstAttempts
    _knowledge: dict[str, float] = field(default_factory=dict, compare=False, repr=False)

    def unseen_chance(self, item: ExamItem) -> float:
        knowledge = self._knowledge.get(item.topic)
        if knowledge is None:
            knowledge = self._knowledge[item.topic] = self.first_attempts.topic_knowledge(
                item.topic
            )
        return with_guess(knowledge, item.guess)


def with_guess(knowledge: float, guess: float) -> float:
    """Right when known, or else by a lucky guess."""
    return knowledge + (1 - knowledge) * guess


def recall_chance(recall: float, guess: float) -> float:
    """A reviewed question's chance: its recall probability, at least the guessing floor.

    Not recall + (1 - recall) · guess: the memory state was fitted to right and wrong answers,
    lucky guesses among the right ones, so its recall probability already counts them."""
    return max(recall, guess)


def item_chance(
    item: ExamItem, student: Student, model: MemoryModel, at_ms: int, memory: Memory | None = None
) -> float:
    """The chance `item` is answered right at `at_ms` (`memory` overrides the student's)."""
    memory = memory if memory is not None else student.memories.get(item.question_id)
    if memory is None:
        return student.unseen_chance(item)
    return recall_chance(model.retrievability(memory, at_ms), item.guess)


def chances_at(
    blueprint: ExamBlueprint, student: Student, model: MemoryModel, at_ms: int
) -> dict[str, float]:
    return {i.question_id: item_chance(i, student, model, at_ms) for i in blueprint.items}


def expected_score(blueprint: ExamBlueprint, chances: Mapping[str, float]) -> float:
    return sum(item.weight * chances[item.question_id] for item in blueprint.items)


@dataclass(frozen=True)
class ScoreForecast:
    overall: ScoreSummary
    topics: dict[str, ScoreSummary]

    def as_json(self) -> dict[str, object]:
        return {
            **self.overall.as_json(),
            "topics": {topic: s.as_json() for topic, s in self.topics.items()},
        }


def score_forecast(
    blueprint: ExamBlueprint, chances: Mapping[str, float], threshold: float
) -> ScoreForecast:
    """The score's mean, 80 % interval and pass chance, overall and per topic."""
    overall = summarize(correct_distribution(blueprint, chances), threshold)
    topics = {
        topic: summarize(correct_distribution(blueprint, chances, topic), threshold)
        for topic in blueprint.topics
    }
    return ScoreForecast(overall, topics)


__all__ = [
    "PRIOR_STRENGTH",
    "FirstAttempts",
    "ScoreForecast",
    "Student",
    "chances_at",
    "expected_score",
    "item_chance",
    "recall_chance",
    "score_forecast",
    "with_guess",
]
