"""Item analysis, as Moodle's quiz statistics report gives it: how hard each question was for
the class, whether it separates the students who know the material from those who do not, and
which wrong answers pull them. Pure functions over answers; no store, no textual, no torch.

Every figure is taken over first attempts: a student's earliest answer to a question. A later
answer measures memory of the feedback, not the question.

- Facility index: the share of students right on their first attempt.
- A student's score: the share of their first attempts that were right (the whole report's
  questions: the "test" the items are part of).
- Discrimination index: of the students who answered the item, ranked by score, the share right
  in the upper 27 % minus the share right in the lower 27 % (Kelley's groups). A group holds
  exactly 27 % of the students' weight: students tied at a group's edge share what is left of
  it equally, so the result never depends on the order ties happen to be listed in. Below
  `MIN_GROUP_SIZE` students a group is noise, and the index is not reported.
- Response shares: for choice questions, the share of students choosing each option (a
  multiple-choice student can choose several); for true/false, True and False; for numeric
  questions, the key and each trap. Over the first attempts whose response was recorded.

Flags, as Moodle marks a dubious question (its threshold for a weak item is 15 %):
negative discrimination, near-zero discrimination, a distractor the upper group chose more
often than the key, and a key almost nobody chose.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum

from quizapp.bank.model import (
    ChoiceQuestion,
    Flashcard,
    NumericQuestion,
    Question,
    TrueFalseQuestion,
)

GROUP_SHARE = 0.27  # Kelley's upper and lower groups
MIN_GROUP_SIZE = 5.0  # students' weight in each group below which the index is not reported
NEAR_ZERO_DISCRIMINATION = 0.15  # Moodle's line for a question that hardly discriminates
RARE_KEY_SHARE = 0.10  # a key chosen by fewer than this share of the class
MIN_RESPONSES_FOR_KEY_FLAG = 5  # students with a recorded response before "rare key" is said


@dataclass(frozen=True)
class Answer:
    """One answer from the history, whichever store it came from."""

    student: str
    question_id: str
    deck_id: str
    topic: str
    reviewed_at: datetime
    kind: str  # quiz, drill, exam, practice
    correct: bool
    response: Mapping[str, object] | None = None  # the recorded response JSON, if any


class Flag(StrEnum):
    NEGATIVE_DISCRIMINATION = "negative discrimination"
    NEAR_ZERO_DISCRIMINATION = "near-zero discrimination"
    DISTRACTOR_BEATS_KEY = "distractor beats the key in the upper group"
    RARE_KEY = "key almost never chosen"


@dataclass(frozen=True)
class ResponseShare:
    """One answer a student could give: an option, True or False, the key or a trap."""

    label: str  # bank text: the option's text, "True"/"False", "the key", a trap's value
    key: bool  # a right answer
    share: float | None  # of the students whose response was recorded; None: none recorded
    upper_share: float | None = None  # the same within the upper group (None: not reported)


@dataclass(frozen=True)
class Groups:
    """Each student's weight (0 to 1) in the upper and in the lower group."""

    upper: Mapping[str, float]
    lower: Mapping[str, float]
    size: float  # the weight each group holds: GROUP_SHARE of the students


@dataclass(frozen=True)
class ItemStats:
    question_id: str
    students: int  # students who answered it (first attempts in the report)
    right: int
    facility: float | None
    discrimination: float | None  # None: too few students for the groups
    group_size: float  # the weight in each 27 % group
    responded: int  # first attempts with a recorded response
    shares: tuple[ResponseShare, ...] = ()
    flags: tuple[Flag, ...] = field(default=())


# -- first attempts and scores -------------------------------------------------------------------


def first_attempts(answers: Iterable[Answer]) -> dict[tuple[str, str], Answer]:
    """Each student's earliest answer to each question (ties: the one listed first)."""
    firsts: dict[tuple[str, str], Answer] = {}
    for answer in answers:
        key = (answer.student, answer.question_id)
        held = firsts.get(key)
        if held is None or answer.reviewed_at < held.reviewed_at:
            firsts[key] = answer
    return firsts


def facility(correct: Sequence[bool]) -> float | None:
    """The share right; None when nobody answered."""
    return sum(correct) / len(correct) if correct else None


def student_scores(firsts: Iterable[Answer]) -> dict[str, float]:
    """Each student's share of first attempts right."""
    tally: dict[str, list[int]] = {}
    for answer in firsts:
        counts = tally.setdefault(answer.student, [0, 0])
        counts[0] += answer.correct
        counts[1] += 1
    return {student: right / answered for student, (right, answered) in tally.items()}


def _group(ranked: Sequence[tuple[float, str]], size: float) -> dict[str, float]:
    """Weights filling `size` from the front of `ranked`, ties sharing the edge equally."""
    weights: dict[str, float] = {}
    left = size
    index = 0
    while index < len(ranked) and left > 1e-12:
        score = ranked[index][0]
        tied = [student for s, student in ranked[index:] if s == score]
        each = min(1.0, left / len(tied))
        for student in tied:
            weights[student] = each
        left -= each * len(tied)
        index += len(tied)
    return weights


def groups(scores: Mapping[str, float], share: float = GROUP_SHARE) -> Groups:
    """Kelley's upper and lower groups of the students in `scores`."""
    size = share * len(scores)
    by_score = sorted((score, student) for student, score in scores.items())
    upper = _group(sorted(by_score, key=lambda pair: -pair[0]), size)
    lower = _group(by_score, size)
    return Groups(upper=upper, lower=lower, size=size)


def _weighted_share(weights: Mapping[str, float], hits: Mapping[str, bool]) -> float | None:
    total = sum(weights[s] for s in hits if s in weights)
    if total <= 0:
        return None
    return sum(weights[s] for s, hit in hits.items() if hit and s in weights) / total


def discrimination(
    correct: Mapping[str, bool],
    scores: Mapping[str, float],
    *,
    share: float = GROUP_SHARE,
    min_group: float = MIN_GROUP_SIZE,
) -> float | None:
    """Share right in the upper group minus in the lower, over the students in `correct`
    ranked by `scores`; None when a group would hold less than `min_group` students."""
    ranked = {student: scores[student] for student in correct}
    split = groups(ranked, share)
    if split.size < min_group:
        return None
    upper = _weighted_share(split.upper, correct)
    lower = _weighted_share(split.lower, correct)
    if upper is None or lower is None:
        return None
    return upper - lower


# -- responses -----------------------------------------------------------------------------------


def chosen_options(question: Question, response: Mapping[str, object] | None) -> frozenset[int]:
    """The indices (in the bank's order) of the response entries a first attempt picked: the
    options of a choice question, 0/1 for True/False, 0 for a numeric key and 1 + i for trap i.
    Empty when nothing usable was recorded: a history is read as untrusted."""
    if not isinstance(response, Mapping):
        return frozenset()
    if isinstance(question, ChoiceQuestion):
        chosen = response.get("chosen")
        if not isinstance(chosen, list):
            return frozenset()
        count = len(question.choices)
        return frozenset(
            i for i in chosen if isinstance(i, int) and not isinstance(i, bool) and 0 <= i < count
        )
    if isinstance(question, TrueFalseQuestion):
        chosen = response.get("chosen")
        return frozenset({0 if chosen else 1}) if isinstance(chosen, bool) else frozenset()
    if isinstance(question, NumericQuestion):
        trap = response.get("trap")
        if isinstance(trap, int) and not isinstance(trap, bool) and 0 <= trap < len(question.traps):
            return frozenset({1 + trap})
        if "value" in response or "text" in response:
            return frozenset()  # answered: right or another wrong number, told by `correct`
    return frozenset()


def response_labels(question: Question) -> tuple[tuple[str, bool], ...]:
    """(label, is a key) for each entry `chosen_options` indexes."""
    if isinstance(question, ChoiceQuestion):
        return tuple((choice.text, choice.correct) for choice in question.choices)
    if isinstance(question, TrueFalseQuestion):
        return (("True", question.answer), ("False", not question.answer))
    if isinstance(question, NumericQuestion):
        return (("the key", True), *((f"{trap.value:g}", False) for trap in question.traps))
    return ()


def _picks(question: Question, answer: Answer) -> frozenset[int] | None:
    """What a first attempt picked, or None when its response was not recorded."""
    if answer.response is None:
        return None
    if isinstance(question, NumericQuestion):
        if not isinstance(answer.response, Mapping) or not (
            {"value", "text", "trap"} & set(answer.response)
        ):
            return None
        picked = chosen_options(question, answer.response)
        return picked | ({0} if answer.correct else frozenset())
    picked = chosen_options(question, answer.response)
    return picked or None


def response_shares(
    question: Question, firsts: Sequence[Answer], upper: Mapping[str, float] | None = None
) -> tuple[tuple[ResponseShare, ...], int]:
    """The share choosing each entry, over the first attempts with a recorded response, and
    within the upper group's weights when `upper` is given; and how many were recorded."""
    labels = response_labels(question)
    if not labels:
        return (), 0
    picks = {a.student: p for a in firsts if (p := _picks(question, a)) is not None}
    shares = []
    for index, (label, key) in enumerate(labels):
        hits = {student: index in picked for student, picked in picks.items()}
        share = sum(hits.values()) / len(hits) if hits else None
        upper_share = _weighted_share(upper, hits) if upper is not None else None
        shares.append(ResponseShare(label, key, share, upper_share))
    return tuple(shares), len(picks)


# -- flags and the whole table -------------------------------------------------------------------


def item_flags(
    discrimination_index: float | None,
    shares: Sequence[ResponseShare],
    responded: int,
    *,
    near_zero: float = NEAR_ZERO_DISCRIMINATION,
    rare_key: float = RARE_KEY_SHARE,
    min_responses: int = MIN_RESPONSES_FOR_KEY_FLAG,
) -> tuple[Flag, ...]:
    flags: list[Flag] = []
    if discrimination_index is not None:
        if discrimination_index < 0:
            flags.append(Flag.NEGATIVE_DISCRIMINATION)
        elif discrimination_index < near_zero:
            flags.append(Flag.NEAR_ZERO_DISCRIMINATION)
    key_upper = [s.upper_share for s in shares if s.key and s.upper_share is not None]
    wrong_upper = [s.upper_share for s in shares if not s.key and s.upper_share is not None]
    if key_upper and wrong_upper and max(wrong_upper) > max(key_upper):
        flags.append(Flag.DISTRACTOR_BEATS_KEY)
    keys = [s.share for s in shares if s.key and s.share is not None]
    if responded >= min_responses and keys and min(keys) < rare_key:
        flags.append(Flag.RARE_KEY)
    return tuple(flags)


def analysable(question: Question) -> bool:
    """Flashcards are graded by the student, not by a key: they are left out."""
    return not isinstance(question, Flashcard)


def analyse_items(
    answers: Iterable[Answer],
    questions: Mapping[str, Question],
    *,
    min_group: float = MIN_GROUP_SIZE,
) -> tuple[list[ItemStats], dict[str, float]]:
    """Item statistics for every question in `questions` someone answered, in `questions`'
    order, and each student's score. Answers to other questions (or flashcards) are left out."""
    firsts = [
        a
        for a in first_attempts(answers).values()
        if a.question_id in questions and analysable(questions[a.question_id])
    ]
    scores = student_scores(firsts)
    by_question: dict[str, list[Answer]] = {}
    for answer in firsts:
        by_question.setdefault(answer.question_id, []).append(answer)
    items = []
    for qid, question in questions.items():
        item_firsts = by_question.get(qid)
        if not item_firsts:
            continue
        correct = {a.student: a.correct for a in item_firsts}
        split = groups({s: scores[s] for s in correct})
        index = discrimination(correct, scores, min_group=min_group)
        upper = split.upper if split.size >= min_group else None
        shares, responded = response_shares(question, item_firsts, upper)
        items.append(
            ItemStats(
                question_id=qid,
                students=len(correct),
                right=sum(correct.values()),
                facility=facility(list(correct.values())),
                discrimination=index,
                group_size=split.size,
                responded=responded,
                shares=shares,
                flags=item_flags(index, shares, responded),
            )
        )
    return items, scores


def flagged_first(items: Iterable[ItemStats]) -> list[ItemStats]:
    """Flagged items first (most flags first), the rest after, each part in its given order."""
    listed = list(items)
    return sorted(listed, key=lambda item: -len(item.flags))
