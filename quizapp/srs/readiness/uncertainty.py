"""What the forecast does not know, drawn: the student's ability on unseen questions and how
fast they forget compared with the memory model. The score forecast is the distribution these
draws make with the exam's own chance (which questions are drawn, each answer's luck).

Each draw d holds:
- **ability**: the chance an unseen question is known, beyond guessing. Bank-wide
  a_d ~ Beta(1 + right - Σg, 1 + wrong) (a uniform Beta(1, 1) prior updated by the first
  attempts, lucky guesses Σg taken out); per topic k_d ~ Beta(m·a_d + right_t - Σg_t,
  m·(1 - a_d) + wrong_t), m = PRIOR_STRENGTH pseudo-answers. Its mean given a_d is the
  point estimate quizapp/srs/readiness/forecast.py documents; here a_d itself is uncertain, and is
  integrated over, not plugged in. With no first attempts a_d is uniform on [0, 1].
- **forgetting**: per question a multiplier c on the memory model's forgetting, recall
  R^c (c = 2: twice as fast as the model says, c = 1/2: half as fast; R^c is also what a
  stability divided by c gives while t is small against S). log c = x_d + σ_q·e_dq: x_d is
  shared by every question (a student who forgets faster than the model does so everywhere),
  e_dq is the question's own. x_d is drawn from its **posterior** given the checked answers
  (`forgetting_posterior`): a grid of LOG_RATE_POINTS values of log c, the prior
  N(0, FORGETTING_SPREAD²) times the likelihood of every checked answer (`Check.of`: an
  evidence answer on a card whose memory state is a day old or more), each right with the chance the forecast itself
  would have given it, p = max(R^c, g) (R the memory model's recall at that moment, g the
  question's guessing floor; clipped to [LIKELIHOOD_FLOOR, 1 - LIKELIHOOD_FLOOR]: no answer is
  ever certain). So the evidence moves the centre, not only the spread: a student whose
  reviews go wrong more often than the model says is forecast to forget faster. The
  question's spread σ_q = CARD_SPREAD / sqrt(1 + r_q), with its own r_q answers counted as
  evidence. The model is the median student: with no evidence c ranges (10th-90th
  percentile, shared part) from about 1/7 to 7, as fitted FSRS parameters of different
  people do.
  The two parts never count the same answer twice: the ability reads the first attempts
  (a question's first answer ever: no memory state to check), the forgetting reads the
  checked answers (later evidence answers), and the two sets are disjoint.

Nothing here decides which answers count as evidence: `Evidence` is built from the reviews
quizapp/srs/readiness/report.py reads. numpy only (no torch, no textual). Seeded: a report is the
same each time it is worked out from the same history.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from quizapp.srs.memory.model import DAY_MS, Memory, MemoryModel
from quizapp.srs.readiness.exam_model import ExamBlueprint, ScoreSummary, count_interval
from quizapp.srs.readiness.forecast import PRIOR_STRENGTH, FirstAttempts, ScoreForecast

DRAWS = 2000  # draws of ability and forgetting behind a forecast with no further study
EXAMS = 4000  # exams sampled from the draws for the percentiles and the pass chance
SEED = 20270115
FORGETTING_SPREAD = 1.5  # sd of the shared log forgetting multiplier with no checked answer
LOG_RATE_POINTS = 64  # grid of the shared log forgetting multiplier's posterior
LOG_RATE_RANGE = 3.0 * FORGETTING_SPREAD  # the grid spans ± 3 prior sds of log c
LIKELIHOOD_FLOOR = 1e-3  # a checked answer's chance is kept inside [floor, 1 - floor]
CARD_SPREAD = 0.3  # sd of a question's own log forgetting multiplier with no answer on it
MIN_EVIDENCE_QUESTIONS = 10  # exam questions with a first attempt before a forecast is shown
# Checked answers before the "plan followed" forecast gives figures: below that, how fast this
# student forgets (and so what their reviews will leave by the exam) is the prior's guess.
MIN_CHECKED_ANSWERS = 10
_BETA_FLOOR = 1e-6  # numpy's beta needs both shapes above zero


@dataclass(frozen=True)
class Check:
    """An evidence answer on a card that had a memory state: what it checks of forgetting."""

    recall: float  # the memory model's recall chance R at the answer
    guess: float  # the question's guessing floor g
    right: bool

    @classmethod
    def of(
        cls, model: MemoryModel, before: Memory | None, at_ms: int, guess: float, right: bool
    ) -> Check | None:
        """What an evidence answer at `at_ms` checks, given the card's memory `before` it:
        nothing for a first sight, nor for an answer less than a day after the card's last
        one (short-term memory, which FSRS's forgetting curve does not describe; the history's
        calibration, quizapp/srs/readiness/calibration.py, and the FSRS benchmark leave them out too)."""
        if before is None or at_ms - before.last_review_ms < DAY_MS:
            return None
        return cls(model.retrievability(before, at_ms), guess, right)


@dataclass(frozen=True)
class Evidence:
    """How much the history says: answers counted as evidence per exam question, how many of
    them checked a memory state (the card had been answered before), and those checks."""

    answers: Mapping[str, int]
    checked: int
    checks: tuple[Check, ...] = ()

    @classmethod
    def tally(cls, reviews: Iterable[tuple[str, Check | None]]) -> Evidence:
        """From (question id, its check, or None for a card with no memory state before)
        per evidence answer."""
        answers: dict[str, int] = {}
        checks: list[Check] = []
        for question_id, check in reviews:
            answers[question_id] = answers.get(question_id, 0) + 1
            if check is not None:
                checks.append(check)
        return cls(answers, len(checks), tuple(checks))

    @classmethod
    def assumed(cls, memories: Iterable[str]) -> Evidence:
        """For a caller that only knows memory states: one answer behind each, none checked."""
        return cls(dict.fromkeys(memories, 1), 0)


@dataclass(frozen=True)
class Basis:
    """What a forecast rests on, in the words every figure is shown with."""

    attempts: int  # answers counted as evidence on exam questions
    answered: int  # exam questions with at least one
    questions: int  # exam questions in the bank
    checked: int = 0  # evidence answers that checked a memory state (how fast you forget)

    @classmethod
    def of(cls, evidence: Evidence, blueprint: ExamBlueprint) -> Basis:
        on_exam = [evidence.answers.get(item.question_id, 0) for item in blueprint.items]
        return cls(sum(on_exam), sum(1 for n in on_exam if n), len(on_exam), evidence.checked)

    @property
    def unseen(self) -> int:
        return self.questions - self.answered

    @property
    def needed(self) -> int:
        """More exam questions to answer before the forecast gives figures."""
        return max(0, min(MIN_EVIDENCE_QUESTIONS, self.questions) - self.answered)

    @property
    def enough(self) -> bool:
        return self.questions > 0 and self.needed == 0

    @property
    def checked_needed(self) -> int:
        """More checked answers before the "plan followed" forecast gives figures (every exam
        question once, in a bank with fewer than MIN_CHECKED_ANSWERS)."""
        return max(0, min(MIN_CHECKED_ANSWERS, self.questions) - self.checked)

    @property
    def plan_enough(self) -> bool:
        """The plan's forecast rests on how fast you forget as much as on what you know: it
        needs the first attempts and the checked answers both."""
        return self.enough and self.checked_needed == 0

    @property
    def plan_not_enough(self) -> str:
        """Shown instead of the plan's figures while there are too few checked answers."""
        more = self.checked_needed
        return (
            f"not enough evidence yet of how fast you forget: review {more} more "
            f"card{'s' if more != 1 else ''} a day or more after you last answered "
            f"{'them' if more != 1 else 'it'}"
        )

    def plan_json(self) -> dict[str, object]:
        return {
            "checked_answers": self.checked,
            "min_checked_answers": min(MIN_CHECKED_ANSWERS, self.questions),
            "checked_needed": self.checked_needed,
            "enough": self.plan_enough,
            "text": None
            if self.plan_enough
            else self.plan_not_enough
            if self.checked_needed
            else self.not_enough,
        }

    @property
    def text(self) -> str:
        attempts = f"{self.attempts} first attempt{'s' if self.attempts != 1 else ''}"
        return (
            f"based on {attempts} on {self.answered} of {self.questions} exam questions; "
            f"{self.unseen} unseen"
        )

    @property
    def not_enough(self) -> str:
        """The line shown instead of figures while the evidence is short."""
        more = self.needed
        return (
            f"not enough evidence yet: answer {more} more question{'s' if more != 1 else ''} "
            "for a forecast"
        )

    def as_json(self) -> dict[str, object]:
        return {
            "first_attempts": self.attempts,
            "questions_answered": self.answered,
            "exam_questions": self.questions,
            "unseen": self.unseen,
            "enough": self.enough,
            "min_questions": min(MIN_EVIDENCE_QUESTIONS, self.questions),
            "questions_needed": self.needed,
            "text": self.text if self.enough else self.not_enough,
        }


@dataclass(frozen=True)
class Belief:
    """Draws of what is not known: per topic, the chance an unseen question is known; per
    question (in blueprint order), the forgetting multiplier c."""

    knowledge: Mapping[str, np.ndarray]  # topic -> (draws,)
    forgetting: np.ndarray  # (draws, questions)

    @property
    def draws(self) -> int:
        return self.forgetting.shape[0]


def draw_belief(
    blueprint: ExamBlueprint,
    first_attempts: FirstAttempts,
    evidence: Evidence,
    draws: int,
    rng: np.random.Generator,
    *,
    stratified: bool = False,
) -> Belief:
    """`draws` draws (see the module docstring). `stratified`: the shared ability and
    forgetting at evenly spaced quantiles, paired at random (a Latin hypercube), so that a
    few draws (the plan's simulated futures) still span the whole range."""
    right, answered, guesses = _totals(first_attempts.by_topic.values())
    alpha = 1 + max(0.0, right - guesses)
    beta = 1 + answered - right
    posterior = forgetting_posterior(evidence.checks)
    if stratified:
        spread = (np.arange(draws) + 0.5) / draws
        ability = np.quantile(rng.beta(alpha, beta, 20_000), spread)[rng.permutation(draws)]
        shared = posterior.quantiles(spread)[rng.permutation(draws)]
    else:
        ability = rng.beta(alpha, beta, draws)
        shared = posterior.sample(draws, rng)
    knowledge: dict[str, np.ndarray] = {}
    for topic in sorted({item.topic for item in blueprint.items}):
        t_right, t_answered, t_guesses = first_attempts.by_topic.get(topic, (0, 0, 0.0))
        known = max(0.0, t_right - t_guesses)
        knowledge[topic] = rng.beta(
            np.maximum(PRIOR_STRENGTH * ability + known, _BETA_FLOOR),
            np.maximum(PRIOR_STRENGTH * (1 - ability) + t_answered - t_right, _BETA_FLOOR),
        )
    own_spread = np.array(
        [
            CARD_SPREAD / math.sqrt(1 + evidence.answers.get(item.question_id, 0))
            for item in blueprint.items
        ]
    )
    log_rate = shared[:, None] + own_spread * rng.standard_normal((draws, len(blueprint.items)))
    return Belief(knowledge, np.exp(log_rate))


@dataclass(frozen=True)
class LogRatePosterior:
    """The shared log forgetting multiplier's posterior: a density constant on each of the
    grid's cells (`weights` sum to 1), centred on `grid`."""

    grid: np.ndarray
    weights: np.ndarray

    @property
    def step(self) -> float:
        return float(self.grid[1] - self.grid[0])

    @property
    def mean(self) -> float:
        return float(self.weights @ self.grid)

    def sample(self, draws: int, rng: np.random.Generator) -> np.ndarray:
        cells = rng.choice(len(self.grid), size=draws, p=self.weights)
        return self.grid[cells] + self.step * (rng.random(draws) - 0.5)

    def quantiles(self, levels: np.ndarray) -> np.ndarray:
        """The inverse of the piecewise-linear distribution function."""
        edges = np.append(self.grid - self.step / 2, self.grid[-1] + self.step / 2)
        cumulative = np.concatenate(([0.0], np.cumsum(self.weights)))
        return np.interp(levels, cumulative, edges)


_GRID = np.linspace(-LOG_RATE_RANGE, LOG_RATE_RANGE, LOG_RATE_POINTS)


def forgetting_posterior(checks: Sequence[Check]) -> LogRatePosterior:
    """The prior N(0, FORGETTING_SPREAD²) on the grid times each checked answer's likelihood:
    right with p = max(R^c, g), the chance the forecast gives (see the module docstring)."""
    log_posterior = -0.5 * (_GRID / FORGETTING_SPREAD) ** 2
    if checks:
        recall = np.clip([c.recall for c in checks], 1e-12, 1.0)
        guess = np.array([c.guess for c in checks])
        right = np.array([c.right for c in checks], dtype=bool)
        rate = np.exp(_GRID)[:, None]  # (grid, 1)
        chance = np.maximum(recall[None, :] ** rate, guess[None, :])
        chance = np.clip(chance, LIKELIHOOD_FLOOR, 1 - LIKELIHOOD_FLOOR)
        log_posterior = log_posterior + np.where(right, np.log(chance), np.log1p(-chance)).sum(
            axis=1
        )
    weights = np.exp(log_posterior - log_posterior.max())
    return LogRatePosterior(_GRID, weights / weights.sum())


def _totals(tallies: Iterable[tuple[int, int, float]]) -> tuple[int, int, float]:
    right = answered = 0
    guesses = 0.0
    for r, n, g in tallies:
        right, answered, guesses = right + r, answered + n, guesses + g
    return right, answered, guesses


def chance_matrix(
    blueprint: ExamBlueprint,
    memories: Mapping[str, Memory],
    model: MemoryModel,
    at_ms: int,
    belief: Belief,
    rows: slice | int = slice(None),
) -> np.ndarray:
    """Each question's chance of a right answer at `at_ms`, per draw: (draws, questions), or
    (questions,) for one draw `rows`. Reviewed: max(R^c, g); unseen: k + (1 - k)·g."""
    forgetting = belief.forgetting[rows]
    result = np.empty_like(forgetting)
    for j, item in enumerate(blueprint.items):
        memory = memories.get(item.question_id)
        if memory is None:
            known = belief.knowledge[item.topic][rows]
            result[..., j] = known + (1 - known) * item.guess
        else:
            recall = model.retrievability(memory, at_ms)
            result[..., j] = np.maximum(recall ** forgetting[..., j], item.guess)
    return result


def expected_scores(blueprint: ExamBlueprint, chances: np.ndarray) -> np.ndarray:
    """The expected score of each draw (or of one draw's chances)."""
    return chances @ np.array([item.weight for item in blueprint.items])


def score_forecast_of(
    blueprint: ExamBlueprint,
    chances: np.ndarray,
    threshold: float,
    rng: np.random.Generator,
    exams: int = EXAMS,
) -> ScoreForecast:
    """The score distribution the draws `chances` (draws, questions) make, each draw equally
    likely: the expected score exactly (the draws' mean), the 80 % interval and the pass
    chance from `exams` exams sampled as `quizapp exam` samples them, each from a draw."""
    draws = chances.shape[0]
    rows = np.arange(exams) % draws  # every draw equally often
    mean_chance = chances.mean(axis=0)
    position = {item.question_id: j for j, item in enumerate(blueprint.items)}
    right_by_topic: dict[str, np.ndarray] = {}
    asked_by_topic: dict[str, int] = {}
    mean_right_by_topic: dict[str, float] = {}
    for draw in blueprint.draws:
        if not draw.count:
            continue
        columns = np.array([position[q] for q in draw.question_ids])
        # A uniform draw without replacement: the `count` smallest of random keys.
        picked = np.argsort(rng.random((exams, len(columns))), axis=1)[:, : draw.count]
        chance = chances[rows[:, None], columns[picked]]
        right = (rng.random(chance.shape) < chance).sum(axis=1)
        right_by_topic[draw.topic] = right_by_topic.get(draw.topic, 0) + right
        asked_by_topic[draw.topic] = asked_by_topic.get(draw.topic, 0) + draw.count
        expected = mean_chance[columns].mean() * draw.count
        mean_right_by_topic[draw.topic] = mean_right_by_topic.get(draw.topic, 0.0) + expected
    total = sum(right_by_topic.values(), np.zeros(exams, dtype=int))
    overall = _summary(total, blueprint.questions, sum(mean_right_by_topic.values()), threshold)
    topics = {
        topic: _summary(right, asked_by_topic[topic], mean_right_by_topic[topic], threshold)
        for topic, right in sorted(right_by_topic.items())
    }
    return ScoreForecast(overall, topics)


def _summary(right: np.ndarray, asked: int, mean_right: float, threshold: float) -> ScoreSummary:
    """Mean, 80 % interval and pass chance of sampled counts of right answers out of `asked`.

    The interval is the range of whole scores holding nearest 80 % of the sampled exams
    (quizapp/srs/readiness/exam_model.py's `count_interval`: the 10th to 90th percentile, trimmed by a
    score at an end where that holds nearer 80 %), reached out to the expected score where
    the distribution is so lopsided that the mean lies outside it: an interval always holds
    its own estimate."""
    if asked < 1:
        return ScoreSummary(0, 0.0, 0.0, 0.0, 0.0)
    mean = float(mean_right) / asked  # a plain float: reports compare and print it
    counts = np.bincount(right, minlength=asked + 1)
    low, high = (float(k) / asked for k in count_interval(counts.tolist()))
    needed = math.ceil(threshold * asked - 1e-9)  # as the exam decides: right / asked >= threshold
    passing = float(np.mean(right >= needed))
    return ScoreSummary(asked, mean, min(low, mean), max(high, mean), passing)


def uncertain_forecast(
    blueprint: ExamBlueprint,
    memories: Mapping[str, Memory],
    model: MemoryModel,
    at_ms: int,
    belief: Belief,
    threshold: float,
    seed: int = SEED,
) -> ScoreForecast:
    """The forecast of an exam at `at_ms` with no further study."""
    chances = chance_matrix(blueprint, memories, model, at_ms, belief)
    return score_forecast_of(blueprint, chances, threshold, np.random.default_rng(seed))


def mean_by_moment(
    blueprint: ExamBlueprint,
    memories: Mapping[str, Memory],
    model: MemoryModel,
    moments_ms: Sequence[int],
    belief: Belief,
) -> tuple[float, ...]:
    """The expected score of an exam at each moment with no further study."""
    return tuple(
        float(
            expected_scores(blueprint, chance_matrix(blueprint, memories, model, at, belief)).mean()
        )
        for at in moments_ms
    )


__all__ = [
    "CARD_SPREAD",
    "DRAWS",
    "EXAMS",
    "FORGETTING_SPREAD",
    "LIKELIHOOD_FLOOR",
    "LOG_RATE_POINTS",
    "MIN_CHECKED_ANSWERS",
    "MIN_EVIDENCE_QUESTIONS",
    "Basis",
    "Belief",
    "Check",
    "Evidence",
    "LogRatePosterior",
    "chance_matrix",
    "draw_belief",
    "expected_scores",
    "forgetting_posterior",
    "mean_by_moment",
    "score_forecast_of",
    "uncertain_forecast",
]
