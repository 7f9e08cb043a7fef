"""The second simulator: py-fsrs's Scheduler and its retrievability are the student's truth."""

from __future__ import annotations

import random

import pytest
from fsrs import Card, Rating, Scheduler

from quizapp.srs.memory.model import DAY_MS
from quizapp.srs.memory.simulate import History, Simulation, SimulationConfig, simulated_bank
from quizapp.srs.memory.simulate_fsrs import PyFsrsTruth, fsrs_datetime
from quizapp.srs.readiness.policies import GreedyStrategy

SMALL = SimulationConfig(
    students=2,
    days=10,
    reviews_per_day=5,
    simulator="py-fsrs",
    parameter_spread=0.4,
    session_spread_hours=12,
    pools=tuple(simulated_bank(((4, 0.25), (2, 0.0)))),
)


def test_recall_is_py_fsrs_retrievability_of_the_replayed_card() -> None:
    sim = Simulation(SMALL)
    student = sim.student(1)
    _, history = sim.run(student, GreedyStrategy())
    truth = history.truth
    assert isinstance(truth, PyFsrsTruth)
    assert truth.scheduler.parameters == student.parameters
    # An independent py-fsrs scheduler, fed the same true outcomes, reads the same recall.
    scheduler = Scheduler(parameters=student.parameters, enable_fuzzing=False)
    exam = fsrs_datetime(sim.exam_ms)
    for qid, card in truth.cards.items():
        replayed = Card(due=card.due)
        for log in truth.logs[qid]:
            replayed, _ = scheduler.review_card(replayed, log.rating, log.review_datetime)
        assert truth.recall(qid, sim.exam_ms) == pytest.approx(
            scheduler.get_card_retrievability(replayed, exam)
        )
    assert truth.recall("never-asked", sim.exam_ms) is None


def test_answers_follow_the_retrievability() -> None:
    sim = Simulation(SimulationConfig(simulator="py-fsrs", pools=SMALL.pools))
    numeric = next(i for i in sim.items.values() if i.guess == 0.0)  # no lucky guess
    start_ms = sim.start_ms
    later = start_ms + 9 * DAY_MS
    reference = PyFsrsTruth(Scheduler().parameters, start_ms)
    reference.review(numeric.question_id, True, start_ms)
    expected = Scheduler().get_card_retrievability(
        reference.cards[numeric.question_id], fsrs_datetime(later)
    )
    assert 0.3 < expected < 0.95
    rng = random.Random(4)
    trials = 3000
    right = 0
    for _ in range(trials):
        truth = PyFsrsTruth(Scheduler().parameters, start_ms)
        truth.review(numeric.question_id, True, start_ms)
        history = History(truth)
        history.seen_memory[numeric.question_id] = sim.model.review(None, Rating.Good, start_ms)
        right += sim.answer(sim.student(0), history, numeric.question_id, later, rng)
    # A right answer to a numeric question is a recall: as often as py-fsrs says.
    assert right / trials == pytest.approx(expected, abs=0.03)
