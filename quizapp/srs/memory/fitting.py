"""FSRS fitted to this student: the history's reviews as py-fsrs review logs, a held-out split,
and how well a parameter set predicts the held-out reviews.

Pure: no torch, no textual. py-fsrs's own `Optimizer` (which needs torch) is run by
quizapp/srs/memory/optimize.py; this module prepares what it is given and judges what it returns.

- **The reviews**: every answer that rescheduled its card. Practice answers (quizzes that leave
  the schedule alone, kind `practice`) are left out, as Anki's optimizer leaves out reviews in
  filtered decks that do not reschedule: the scheduler never saw them. A review counts as
  recalled unless it was rated Again, as the optimizer counts it.
- **The split**: the reviews are ordered by time and the last `HELD_OUT_SHARE` (20 %) of
  them, over the whole history, are held out. The optimizer fits on the earlier 80 % only;
  the held-out reviews then judge the default parameters and the fitted ones on the same
  answers, as the FSRS benchmark's time-series split does. The parameters stored are the
  ones judged, so the figures reported are the figures of the parameters in use.
- **What a prediction is**: for a held-out review, each card's reviews (fitted-on and
  held-out alike) are replayed through py-fsrs's `Scheduler` with the parameters under test,
  and the card's retrievability just before the review is the predicted chance of recall.
  As in the optimizer and the benchmark, a card's first review (nothing to predict from) and
  reviews less than a whole day after the card's previous one (short-term memory) are not
  scored.
- **log-loss**: the mean of -[y ln p + (1 - y) ln(1 - p)], p clipped to [0.0001, 0.9999].
- **RMSE (bins)**: predictions in 20 equal-width bins of p; the root of the count-weighted
  mean of (mean p - share recalled)² over the bins (the benchmark's original RMSE(bins); the
  same definition as the forecast's calibration).

What is fitted depends on how much there is (`fit_kind`), counted as py-fsrs's optimizer
counts what it learns from: reviews a whole day or more after the card's previous one, among
each card's first 64 reviews, in the reviews fitted on (the earlier 80 %).

- **512 or more** (`MIN_LEARNABLE`, the optimizer's mini-batch: below it
  `Optimizer.compute_optimal_parameters` hands back the defaults unchanged), with at least
  `MIN_HELD_OUT` (50) scored held-out reviews: the **full** fit, all 21 parameters, by
  py-fsrs's optimizer.
- **40 or more** (`MIN_PARTIAL_LEARNABLE`), with at least `MIN_PARTIAL_HELD_OUT` (10) scored
  held-out reviews: the **partial** fit, the four initial stabilities only, shrunk toward the
  defaults (quizapp/srs/memory/pretrain.py). About half of those reviews are a card's first long-term
  review, what the partial fit learns from: some 20, as much as its prior weighs. A 30-day
  preparation of 150 answers has 40 to 50.
- Fewer: no fit; `refusal` says why.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import pairwise

from fsrs import Card, Rating, ReviewLog, Scheduler
from fsrs.scheduler import DEFAULT_PARAMETERS, LOWER_BOUNDS_PARAMETERS, UPPER_BOUNDS_PARAMETERS

from quizapp.srs.store.history import ReviewRow

MIN_LEARNABLE = 512  # fsrs.optimizer's mini_batch_size: below it the defaults come back
MIN_PARTIAL_LEARNABLE = 40  # the partial fit (initial stabilities only) from here
MAX_SEQ_LEN = 64  # fsrs.optimizer's max_seq_len: a card's first 64 reviews are fitted on
HELD_OUT_SHARE = 0.2
MIN_HELD_OUT = 50  # fewer scored held-out reviews than this say nothing about a full fit
# A partial fit moves four parameters, shrunk toward the defaults: ten held-out reviews catch a
# gross misfit (the shrinkage, not the check, is what keeps a small fit safe).
MIN_PARTIAL_HELD_OUT = 10
FULL, PARTIAL = "full", "partial"
MIN_RETENTION_LOGS = 512  # Optimizer.compute_optimal_retention refuses fewer review logs
NOT_SCHEDULED = frozenset({"practice"})  # kinds of review that left the card's schedule alone
CLIP = 1e-4
RMSE_BINS = 20


@dataclass(frozen=True)
class FitData:
    """The history's reviews, ready for the optimizer and split for judging it."""

    train: tuple[ReviewLog, ...]  # the earlier reviews: what the optimizer fits on
    held_out: tuple[ReviewLog, ...]  # the latest HELD_OUT_SHARE of them, by time
    learnable: int  # reviews in `train` the optimizer learns from
    scored: int  # reviews in `held_out` a prediction is scored on
    left_out: int  # practice answers and rows with no usable rating

    @property
    def reviews(self) -> int:
        return len(self.train) + len(self.held_out)

    @property
    def logs(self) -> tuple[ReviewLog, ...]:
        return self.train + self.held_out


@dataclass(frozen=True)
class Score:
    """How well a parameter set predicted the held-out reviews."""

    log_loss: float
    rmse_bins: float
    reviews: int


def review_logs(rows: Iterable[ReviewRow]) -> tuple[list[ReviewLog], int]:
    """The reviews that rescheduled a card, as py-fsrs review logs in time order, and how many
    rows were left out. A card's id is its question's place in order of first review."""
    card_ids: dict[str, int] = {}
    logs: list[ReviewLog] = []
    left_out = 0
    for row in rows:
        if row.kind in NOT_SCHEDULED or row.rating not in (1, 2, 3, 4):
            left_out += 1
            continue
        card_id = card_ids.setdefault(row.question_id, len(card_ids) + 1)
        duration = row.duration_ms if row.duration_ms is None or row.duration_ms >= 0 else None
        logs.append(ReviewLog(card_id, Rating(row.rating), row.reviewed_at, duration))
    logs.sort(key=lambda log: log.review_datetime)
    return logs, left_out


def prepare(rows: Iterable[ReviewRow], held_out_share: float = HELD_OUT_SHARE) -> FitData:
    """The history's reviews split by time: the earlier ones to fit on, the rest held out."""
    logs, left_out = review_logs(rows)
    cut = len(logs) - math.floor(len(logs) * held_out_share)
    train, held_out = tuple(logs[:cut]), tuple(logs[cut:])
    return FitData(
        train=train,
        held_out=held_out,
        learnable=learnable_reviews(train),
        scored=len(_scored(train, held_out)),
        left_out=left_out,
    )


def learnable_reviews(logs: Iterable[ReviewLog]) -> int:
    """How many of `logs` the optimizer learns from: among each card's first `MAX_SEQ_LEN`
    reviews, those a whole day or more after the card's previous review."""
    count = 0
    for history in _by_card(logs).values():
        history = history[:MAX_SEQ_LEN]
        count += sum(_a_day_later(a, b) for a, b in pairwise(history))
    return count


def fit_kind(data: FitData) -> str | None:
    """`FULL` (all 21 parameters), `PARTIAL` (the initial stabilities only), or None: too
    little to fit and check anything."""
    if data.learnable >= MIN_LEARNABLE and data.scored >= MIN_HELD_OUT:
        return FULL
    if data.learnable >= MIN_PARTIAL_LEARNABLE and data.scored >= MIN_PARTIAL_HELD_OUT:
        return PARTIAL
    return None


def refusal(data: FitData) -> str | None:
    """Why these reviews cannot be fitted and judged, in one line; None when they can."""
    if fit_kind(data) is not None:
        return None
    kept, held = 100 - round(100 * HELD_OUT_SHARE), round(100 * HELD_OUT_SHARE)
    if data.learnable < MIN_PARTIAL_LEARNABLE:
        return (
            f"not enough history to fit: the initial stabilities need {MIN_PARTIAL_LEARNABLE} "
            f"reviews given a day or more after the card's previous one, and all 21 parameters "
            f"{MIN_LEARNABLE}, in the {kept} % fitted on (the latest {held} % are held out to "
            f"check the fit); there are {data.learnable}"
        )
    return (
        f"too few reviews held out to check a fit: the latest {held} % hold {data.scored} "
        f"given a day or more after the card's previous one, and a check needs "
        f"{MIN_PARTIAL_HELD_OUT}"
    )


def held_out_predictions(parameters: Sequence[float], data: FitData) -> list[tuple[float, bool]]:
    """(predicted chance of recall, recalled) for each scored held-out review, each card's
    reviews replayed from its first through py-fsrs's scheduler with `parameters`."""
    scheduler = Scheduler(parameters=tuple(parameters), enable_fuzzing=False)
    pairs = []
    for log, card in _scored(data.train, data.held_out, scheduler):
        pairs.append((scheduler.get_card_retrievability(card, log.review_datetime), _recalled(log)))
    return pairs


def score(parameters: Sequence[float], data: FitData) -> Score:
    pairs = held_out_predictions(parameters, data)
    return Score(log_loss(pairs), rmse_bins(pairs), len(pairs))


def log_loss(pairs: Sequence[tuple[float, bool]]) -> float:
    if not pairs:
        raise ValueError("log-loss of no predictions")
    total = 0.0
    for p, recalled in pairs:
        p = min(1 - CLIP, max(CLIP, p))
        total -= math.log(p) if recalled else math.log(1 - p)
    return total / len(pairs)


def rmse_bins(pairs: Sequence[tuple[float, bool]], bins: int = RMSE_BINS) -> float:
    if not pairs:
        raise ValueError("RMSE of no predictions")
    sums = [[0, 0.0, 0] for _ in range(bins)]
    for p, recalled in pairs:
        p = min(1.0, max(0.0, p))
        tally = sums[min(bins - 1, int(p * bins))]
        tally[0] += 1
        tally[1] += p
        tally[2] += recalled
    squared = sum(n * (p_sum / n - y_sum / n) ** 2 for n, p_sum, y_sum in sums if n)
    return math.sqrt(squared / len(pairs))


def valid_parameters(values: object) -> tuple[float, ...] | None:
    """`values` as py-fsrs parameters, or None unless they are 21 finite numbers within
    py-fsrs's bounds (a stored set is checked before a scheduler is built from it)."""
    if not isinstance(values, list | tuple) or len(values) != len(DEFAULT_PARAMETERS):
        return None
    checked = []
    for value, low, high in zip(
        values, LOWER_BOUNDS_PARAMETERS, UPPER_BOUNDS_PARAMETERS, strict=True
    ):
        if isinstance(value, bool) or not isinstance(value, int | float):
            return None
        if not (math.isfinite(value) and low <= value <= high):
            return None
        checked.append(float(value))
    return tuple(checked)


# -- replaying ----------------------------------------------------------------------------------


def _by_card(logs: Iterable[ReviewLog]) -> dict[int, list[ReviewLog]]:
    cards: dict[int, list[ReviewLog]] = {}
    for log in logs:
        cards.setdefault(log.card_id, []).append(log)
    for history in cards.values():
        history.sort(key=lambda log: log.review_datetime)
    return cards


def _a_day_later(before: ReviewLog, after: ReviewLog) -> bool:
    # timedelta.days, as py-fsrs has it: a whole 24 hours, not a change of calendar date.
    return (after.review_datetime - before.review_datetime).days > 0


def _recalled(log: ReviewLog) -> bool:
    return log.rating != Rating.Again


def _scored(
    train: Sequence[ReviewLog],
    held_out: Sequence[ReviewLog],
    scheduler: Scheduler | None = None,
) -> list[tuple[ReviewLog, Card]]:
    """The held-out reviews that are scored, each with its card just before it (replayed by
    `scheduler`; without one, the cards are not replayed and are not to be read)."""
    held = {id(log) for log in held_out}
    scored = []
    for card_id, history in _by_card([*train, *held_out]).items():
        card = Card(card_id=card_id, due=history[0].review_datetime)
        previous: ReviewLog | None = None
        for log in history:
            if id(log) in held and previous is not None and _a_day_later(previous, log):
                scored.append((log, card))
            if scheduler is not None:
                card, _ = scheduler.review_card(card, log.rating, log.review_datetime)
            previous = log
    return scored


__all__ = [
    "FULL",
    "HELD_OUT_SHARE",
    "MIN_HELD_OUT",
    "MIN_LEARNABLE",
    "MIN_PARTIAL_HELD_OUT",
    "MIN_PARTIAL_LEARNABLE",
    "MIN_RETENTION_LOGS",
    "NOT_SCHEDULED",
    "PARTIAL",
    "FitData",
    "Score",
    "fit_kind",
    "held_out_predictions",
    "learnable_reviews",
    "log_loss",
    "prepare",
    "refusal",
    "review_logs",
    "rmse_bins",
    "score",
    "valid_parameters",
]
