"""The partial fit: the initial stabilities from a short history, shrunk toward the defaults."""

from __future__ import annotations

import math
import random
import statistics
from datetime import UTC, datetime, timedelta

import pytest
from fsrs import Card, Rating, ReviewLog, Scheduler
from fsrs.scheduler import DEFAULT_PARAMETERS, LOWER_BOUNDS_PARAMETERS, UPPER_BOUNDS_PARAMETERS

from quizapp.srs.memory.fitting import PARTIAL, fit_kind, prepare, score
from quizapp.srs.memory.model import MemoryModel
from quizapp.srs.memory.pretrain import fit_initial_stabilities, outcomes
from tests.srs.simulated_history import simulate_rows

T0 = datetime(2025, 3, 3, 9, 0, tzinfo=UTC)
GOOD_S0 = DEFAULT_PARAMETERS[2]


def log(card_id: int, when: datetime, rating: Rating = Rating.Good) -> ReviewLog:
    return ReviewLog(card_id, rating, when, 4000)


def first_reviews_recalled_with(
    stability: float, cards: int, seed: int = 3, rating: Rating = Rating.Good
) -> list[ReviewLog]:
    """Cards first rated `rating`, each reviewed again 1 to 6 days later, recalled as a memory
    of `stability` would be (FSRS's forgetting curve with py-fsrs's default decay)."""
    rng = random.Random(seed)
    model = MemoryModel()
    logs = []
    for card in range(1, cards + 1):
        days = rng.randint(1, 6)
        recalled = rng.random() < model.retrievability_after(stability, days)
        logs.append(log(card, T0, rating))
        logs.append(log(card, T0 + timedelta(days=days), Rating.Good if recalled else Rating.Again))
    return logs


def test_outcomes_are_each_cards_first_review_a_day_or_more_later_with_the_steps_before() -> None:
    logs = [
        log(1, T0, Rating.Again),
        log(1, T0 + timedelta(minutes=10)),  # a learning step: replayed, not an outcome
        log(1, T0 + timedelta(days=2), Rating.Again),  # the outcome: forgotten
        log(1, T0 + timedelta(days=5)),  # later: not pre-training's business
        log(2, T0 + timedelta(hours=1), Rating.Easy),  # never reviewed again
        log(3, T0, Rating.Hard),
        log(3, T0 + timedelta(hours=23)),  # under a whole day: a step
    ]
    found = outcomes(logs)
    assert len(found) == 1
    [outcome] = found
    assert outcome.first_rating == Rating.Again
    assert [rating for rating, _ in outcome.steps] == [Rating.Again, Rating.Good]
    assert outcome.recalled is False


def test_plenty_of_outcomes_recover_the_initial_stability_they_come_from() -> None:
    for true_s0 in (0.5, 12.0):  # far below and above the default for Good (2.3)
        fit = fit_initial_stabilities(first_reviews_recalled_with(true_s0, 600), DEFAULT_PARAMETERS)
        assert fit.parameters[2] == pytest.approx(true_s0, rel=0.35)
        assert fit.outcomes == {1: 0, 2: 0, 3: 600, 4: 0}
        # Ratings without outcomes keep their defaults, and the rest of FSRS is untouched.
        assert fit.parameters[0] == DEFAULT_PARAMETERS[0]
        assert fit.parameters[4:] == tuple(DEFAULT_PARAMETERS[4:])


def answered_a_day_later(recalled: int, forgotten: int) -> list[ReviewLog]:
    logs = []
    for card in range(1, recalled + forgotten + 1):
        again = Rating.Good if card <= recalled else Rating.Again
        logs += [log(card, T0), log(card, T0 + timedelta(days=1), again)]
    return logs


def test_a_few_outcomes_move_the_fit_only_part_of_the_way_toward_them() -> None:
    """Shrinkage: 3 of 5 recalled a day after a first Good puts S0 near 0.04 days by likelihood
    alone (R(1 day) = 0.6); the prior toward the default (2.3 days) holds most of that back.
    Ten times the same evidence moves it further."""
    few = answered_a_day_later(3, 2)
    fitted = fit_initial_stabilities(few, DEFAULT_PARAMETERS).parameters[2]
    unshrunk = fit_initial_stabilities(few, DEFAULT_PARAMETERS, prior_sd=1e6).parameters[2]
    assert unshrunk < 0.1
    assert 3 * unshrunk < fitted < GOOD_S0
    many = fit_initial_stabilities(answered_a_day_later(30, 20), DEFAULT_PARAMETERS)
    assert unshrunk <= many.parameters[2] < fitted


def test_initial_stabilities_never_fall_as_the_first_rating_improves() -> None:
    # Hard's few outcomes say "long", Good's many say "short": Hard gives way to Good.
    hard = first_reviews_recalled_with(40.0, 30, seed=1, rating=Rating.Hard)
    good = [
        ReviewLog(lg.card_id + 1000, lg.rating, lg.review_datetime, 4000)
        for lg in first_reviews_recalled_with(0.3, 300, seed=2)
    ]
    fit = fit_initial_stabilities(hard + good, DEFAULT_PARAMETERS)
    s0 = fit.parameters[:4]
    assert list(s0) == sorted(s0)
    assert s0[1] == s0[2]  # Hard took Good's value (fewer outcomes)
    assert fit.outcomes[3] > fit.outcomes[2]


def random_student(rng: random.Random) -> list[float]:
    """py-fsrs's defaults with the initial stabilities scaled by e^±(1 to 1.6) (a student who
    forgets much faster or slower than the defaults assume), and the other parameters by
    exp(N(0, 0.1²)), kept within py-fsrs's bounds."""
    factor = math.exp(rng.choice([-1, 1]) * rng.uniform(1.0, 1.6))
    truth = [s0 * factor for s0 in DEFAULT_PARAMETERS[:4]]
    truth += [w * math.exp(rng.gauss(0, 0.1)) for w in DEFAULT_PARAMETERS[4:]]
    return [
        min(max(w, low), high)
        for w, low, high in zip(
            truth, LOWER_BOUNDS_PARAMETERS, UPPER_BOUNDS_PARAMETERS, strict=True
        )
    ]


def test_150_reviews_get_a_partial_fit_that_predicts_held_out_reviews_better_on_average() -> None:
    """Issue 19: 40 simulated students, each the first 150 answers of a drill scheduled with
    py-fsrs's defaults while the true memory is py-fsrs's Scheduler with the student's own
    parameters. Each gets a partial fit, on the earlier 80 %; on the latest 20 % (held out,
    some 15 scored reviews each) it predicts better than the defaults on average, and for most
    students. With so few held-out reviews one student says little; forty say it together."""
    rng = random.Random(19)
    gains = []
    for student in range(40):
        truth = random_student(rng)
        rows = simulate_rows(cards=60, days=40, new_per_day=2, true_parameters=truth, seed=student)
        rows = sorted(rows, key=lambda row: row.reviewed_at)[:150]
        data = prepare(rows)
        assert fit_kind(data) == PARTIAL
        fitted = fit_initial_stabilities(data.train, DEFAULT_PARAMETERS).parameters
        gains.append(score(DEFAULT_PARAMETERS, data).log_loss - score(fitted, data).log_loss)
    assert statistics.mean(gains) > 0
    assert sum(gain > 0 for gain in gains) > len(gains) / 2


def test_the_scheduler_replays_a_partial_fit_from_its_initial_stability() -> None:
    """A partial fit is an ordinary parameter set: py-fsrs schedules with it."""
    fit = fit_initial_stabilities(first_reviews_recalled_with(0.5, 200), DEFAULT_PARAMETERS)
    scheduler = Scheduler(parameters=fit.parameters, enable_fuzzing=False)
    card, _ = scheduler.review_card(Card(), Rating.Good, T0)
    assert card.stability == pytest.approx(fit.parameters[2])
