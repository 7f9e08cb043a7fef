"""`quizapp forecast --json`: the readiness report as one JSON object. Every key is listed in
docs/forecast.md (a test holds it). No textual, no torch."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from quizapp.srs.times import from_ms

if TYPE_CHECKING:
    from quizapp.srs.readiness.forecast import ScoreForecast
    from quizapp.srs.readiness.report import Readiness


def forecast_json(report: Readiness, forecast: ScoreForecast) -> dict[str, Any]:
    """A forecast's figures with what they rest on."""
    return {
        **forecast.as_json(),
        "based_on": report.basis.text,
        "interval_coverage": report.calibration.intervals.coverage,
    }


def plan_json(report: Readiness) -> dict[str, Any] | None:
    """The plan's distribution; with too few checked answers, no pass chance in it."""
    if report.with_plan is None:
        return None
    figures = forecast_json(report, report.with_plan)
    if report.plan_shown is None:
        figures["pass_chance"] = None
        for topic in figures["topics"].values():
            topic["pass_chance"] = None
    return figures


def readiness_json(report: Readiness) -> dict[str, Any]:
    projection = report.projection
    return {
        "generated_at": report.generated_at.isoformat(),
        "exam_date": report.exam_date.isoformat() if report.exam_date else None,
        "exam_at": report.exam_at.isoformat(),
        "days_left": report.days_left,
        "pass_threshold": report.threshold,
        "exam_questions": report.blueprint.questions,
        "forecast": forecast_json(report, report.shown),
        "forecast_basis": "plan followed" if report.plan_shown else "no further study",
        "evidence": report.basis.as_json(),
        "plan_enough_evidence": report.basis.plan_enough,
        "plan_evidence": report.basis.plan_json(),
        "no_further_study": forecast_json(report, report.as_is),
        "with_plan": plan_json(report),
        "by_day": [
            {
                "date": from_ms(at).astimezone().date().isoformat(),
                "with_plan": planned,
                "no_further_study": idle,
            }
            for at, planned, idle in zip(
                projection.moments_ms, projection.with_plan, projection.no_study, strict=True
            )
        ]
        if projection
        else [],
        "calibration": report.calibration.as_json(),
        "today": {
            "cards": len(report.today.choices),
            "minutes": report.today.minutes,
            "question_ids": report.today.question_ids,
        }
        if report.today
        else None,
        "minutes_per_card": report.minutes_per_card,
        "study_minutes_per_day": report.budget_minutes,
        "minutes_studied_today": report.minutes_today,
        "reviews": report.reviews,
        "evidence_answers": report.evidence_answers,
        "practice_answers": report.reviews - report.evidence_answers,
        "exam_questions_seen": report.seen,
        "exam_questions_in_bank": len(report.blueprint.items),
        "parameters": {
            "source": "default" if report.fit is None else "fitted",
            "fitted_at": None if report.fit is None else report.fit.fitted_at.isoformat(),
            "fit_id": None if report.fit is None else report.fit.id,
        },
    }


__all__ = ["forecast_json", "plan_json", "readiness_json"]
