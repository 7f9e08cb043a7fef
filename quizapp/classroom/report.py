"""The class report: item analysis per question (flagged items first) and each student's
standing, for `quizapp class report` and the instructor screen. JSON keys: docs/class-report.md.

Filters: a deck keeps its questions (and its topics' mastery); `since` keeps the first attempts
given on or after that moment. A first attempt is the student's first answer ever, so an answer
after `since` to a question first met before it is a repeat and stays out.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import TYPE_CHECKING, Any

from quizapp.bank.model import ChoiceQuestion, Deck, Question, TrueFalseQuestion
from quizapp.classroom.history import ClassHistory, StudentRecord
from quizapp.classroom.item_analysis import (
    GROUP_SHARE,
    MIN_GROUP_SIZE,
    Flag,
    ItemStats,
    analysable,
    analyse_items,
    first_attempts,
    flagged_first,
    response_labels,
)
from quizapp.classroom.row_checks import IgnoredRows, shown_name

if TYPE_CHECKING:
    from quizapp.srs.readiness.exam_model import ScoreSummary

CSV_COLUMNS = (
    "section",
    "question_id",
    "deck_id",
    "topic",
    "type",
    "students",
    "facility",
    "discrimination",
    "flags",
    "responses",
    "student",
    "score",
    "mastery",
    "predicted_score",
    "predicted_no_study",
    "forecast_note",
)


@dataclass(frozen=True)
class StudentRow:
    student: str
    answered: int  # first attempts in the report
    score: float | None  # share of them right
    record: StudentRecord


@dataclass(frozen=True)
class ClassReport:
    items: tuple[ItemStats, ...]  # flagged first
    questions: Mapping[str, Question]
    students: tuple[StudentRow, ...]
    deck: str | None
    since: datetime | None
    generated_at: datetime
    limited_to: str | None = None  # the role whose own rows were all that could be read
    ignored: IgnoredRows = field(default_factory=IgnoredRows)  # rows that broke a rule

    def notes(self) -> list[str]:
        """What was left out, for after the report: "3 rows from ada ignored: rating out of
        range", and each student whose mastery and forecast could not be given. Names are
        shown without control or invisible characters, and cut short."""
        left_out = [
            f"{shown_name(row.student)}: mastery and forecast {row.record.left_out}"
            for row in self.students
            if row.record.left_out
        ]
        return self.ignored.lines() + left_out

    @property
    def scope_note(self) -> str | None:
        """What the reader must know when row-level security hid the rest of the class."""
        if self.limited_to is None:
            return None
        return (
            f"Only the rows the role {self.limited_to!r} may read (its own): the rest of the "
            "class is hidden from it. Connect as the database's owner to see the class."
        )

    def as_json(self) -> dict[str, Any]:
        return {
            "generated_at": self.generated_at.isoformat(),
            "deck": self.deck,
            "since": self.since.isoformat() if self.since else None,
            "group_share": GROUP_SHARE,
            "min_group_size": MIN_GROUP_SIZE,
            "limited_to_role": self.limited_to,
            "ignored_rows": self.ignored.as_json(),
            "questions": [self._item_json(item) for item in self.items],
            "students": [
                {
                    "student": row.student,
                    "answered": row.answered,
                    "score": row.score,
                    "topic_mastery": dict(row.record.topic_mastery),
                    "predicted": _summary_json(row.record.predicted),
                    "predicted_no_study": _summary_json(row.record.no_study),
                    # Why there is no figure (too little evidence), or why the figure is the
                    # no-further-study one; and what a given figure rests on.
                    "forecast_note": row.record.forecast_note,
                    "plan_note": row.record.plan_note,
                    "forecast_basis": row.record.basis,
                    "left_out": row.record.left_out,
                }
                for row in self.students
            ],
        }

    def _item_json(self, item: ItemStats) -> dict[str, Any]:
        question = self.questions[item.question_id]
        return {
            "question_id": item.question_id,
            "deck_id": question.deck_id,
            "topic": question.topic,
            "type": str(question.type),
            "students": item.students,
            "right": item.right,
            "facility": item.facility,
            "discrimination": item.discrimination,
            "group_size": item.group_size,
            "responded": item.responded,
            "responses": [
                {"label": s.label, "key": s.key, "share": s.share, "upper_share": s.upper_share}
                for s in item.shares
            ],
            "flags": [str(flag) for flag in item.flags],
        }

    def csv_rows(self) -> Iterator[dict[str, object]]:
        """One row per question, then one per student and topic (columns: CSV_COLUMNS)."""
        for item in self.items:
            question = self.questions[item.question_id]
            yield {
                "section": "question",
                "question_id": item.question_id,
                "deck_id": question.deck_id,
                "topic": question.topic,
                "type": str(question.type),
                "students": item.students,
                "facility": item.facility,
                "discrimination": item.discrimination,
                "flags": "; ".join(item.flags),
                "responses": "; ".join(
                    f"{'*' if s.key else ''}{s.label}={s.share:.4g}"
                    for s in item.shares
                    if s.share is not None
                ),
            }
        for row in self.students:
            predicted = row.record.predicted
            base = {
                "section": "student",
                "student": row.student,
                "score": row.score,
                "predicted_score": predicted.mean if predicted else None,
                "predicted_no_study": row.record.no_study.mean if row.record.no_study else None,
                "forecast_note": forecast_note(row.record),
            }
            yield base
            for topic, mastery in row.record.topic_mastery.items():
                yield {**base, "section": "mastery", "topic": topic, "mastery": mastery}


def _summary_json(summary: ScoreSummary | None) -> dict[str, float | int] | None:
    return summary.as_json() if summary else None


def build_report(
    history: ClassHistory,
    decks: Sequence[Deck],
    now: datetime,
    *,
    deck: str | None = None,
    since: datetime | None = None,
) -> ClassReport:
    chosen = [d for d in decks if deck is None or d.id == deck]
    questions: dict[str, Question] = {q.id: q for d in chosen for q in d.questions}
    firsts = [
        a
        for a in first_attempts(history.answers).values()
        if since is None or a.reviewed_at >= since
    ]
    items, scores = analyse_items(firsts, questions)
    answered: dict[str, int] = {}
    for item_answer in firsts:
        question = questions.get(item_answer.question_id)
        if question is not None and analysable(question):
            answered[item_answer.student] = answered.get(item_answer.student, 0) + 1
    topics = {d.topic for d in chosen} | {q.topic for q in questions.values()}
    students = tuple(
        StudentRow(
            student=record.student,
            answered=answered.get(record.student, 0),
            score=scores.get(record.student),
            record=replace(
                record,
                topic_mastery={t: m for t, m in record.topic_mastery.items() if t in topics},
            ),
        )
        for record in history.students
    )
    return ClassReport(
        items=tuple(flagged_first(items)),
        questions=questions,
        students=students,
        deck=deck,
        since=since,
        generated_at=now,
        limited_to=history.limited_to,
        ignored=history.ignored,
    )


# -- words and figures shared by the command's table and the instructor screen ------------------

FLAG_SHORT = {
    Flag.NEGATIVE_DISCRIMINATION: "D<0",
    Flag.NEAR_ZERO_DISCRIMINATION: "D≈0",
    Flag.DISTRACTOR_BEATS_KEY: "distractor",
    Flag.RARE_KEY: "rare key",
}
NOT_REPORTED = "—"
LEGEND = (
    f"Facility: share right on the first attempt. Discr.: share right in the upper "
    f"{GROUP_SHARE:.0%} of the students (by first-attempt score) minus the lower "
    f"{GROUP_SHARE:.0%}; {NOT_REPORTED} with under {MIN_GROUP_SIZE:g} students a group. "
    "Responses: options A, B, … in the bank's order (T/F; the key and trap values for "
    "numbers), ✓ the key."
)

PREDICTED_LEGEND = (
    "Predicted exam: the score with the forecast's daily plan followed to the exam, and its "
    '80% interval; no study: the score if the student stopped studying today. "Not enough '
    "evidence\": too few exam questions answered for a forecast (the student's own screen shows "
    'no figure either); "no further study": too few checked reviews for the plan\'s figure.'
)


def share_text(value: float | None) -> str:
    return NOT_REPORTED if value is None else f"{100 * value:.0f}%"


def discrimination_text(value: float | None) -> str:
    return NOT_REPORTED if value is None else f"{value:+.2f}"


def response_tags(question: Question) -> list[str]:
    """Short names for the response entries: A, B, … for options, T/F, "key" and trap values."""
    labels = response_labels(question)
    if isinstance(question, ChoiceQuestion):
        return [chr(ord("A") + i) if i < 26 else str(i + 1) for i in range(len(labels))]
    if isinstance(question, TrueFalseQuestion):
        return ["T", "F"]
    return [label if i else "key" for i, (label, _) in enumerate(labels)]


def responses_text(item: ItemStats, question: Question, *, separator: str = " ") -> str:
    """ "A 40% ✓B 55% C 5%": each entry's share, the keys ticked. A narrow table joins tag
    and share with `separator` ":", so that a line breaks between entries, not inside one."""
    if not item.shares:
        return ""
    if not item.responded:
        return "not recorded"
    return " ".join(
        f"{'✓' if share.key else ''}{tag}{separator}{share_text(share.share)}"
        for tag, share in zip(response_tags(question), item.shares, strict=True)
    )


def flags_text(item: ItemStats) -> str:
    return ", ".join(FLAG_SHORT[flag] for flag in item.flags)


def predicted_text(predicted: ScoreSummary | None) -> str:
    """ "72% (61%–83%)": the predicted exam score and its 80 % interval."""
    if predicted is None:
        return "no exam date"
    return (
        f"{share_text(predicted.mean)} ({share_text(predicted.low)}–{share_text(predicted.high)})"
    )


def forecast_note(record: StudentRecord) -> str | None:
    """Why a student's predicted figure is missing or is not the plan's, else what it rests on."""
    if record.forecast_note:
        return record.forecast_note
    if record.plan_note:
        return f"no further study; plan: {record.plan_note}"
    return record.basis


def predicted_cell(record: StudentRecord) -> str:
    """The predicted exam score as a report shows it: the figure (marked when it is the score
    with no further study), or why there is none."""
    if record.forecast_note:
        return "not enough evidence"
    text = predicted_text(record.predicted)
    return f"{text} no further study" if record.plan_note else text


def no_study_text(no_study: ScoreSummary | None) -> str:
    """ "37% (25%–50%)", or "—" without a figure."""
    return NOT_REPORTED if no_study is None else predicted_text(no_study)
