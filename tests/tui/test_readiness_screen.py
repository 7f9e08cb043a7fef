"""The Readiness screen (R), the home screen's exam line, the exam-date dialog and the drill
by the plan, through Pilot."""

from __future__ import annotations

import math
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import pytest
from textual.containers import VerticalScroll
from textual.pilot import Pilot
from textual.widgets import DataTable, Input, Static

from quizapp.bank import load_bank
from quizapp.srs.config import Settings, load_settings
from quizapp.srs.memory.scheduling import Rating, make_scheduler
from quizapp.srs.readiness.report import exam_moment, plan_drill_queue
from quizapp.srs.store.sqlite.store import ReviewStore
from quizapp.tui.app import AppOptions, QuizApp
from quizapp.tui.screens.home import HomeScreen
from quizapp.tui.screens.quiz import QuizScreen
from quizapp.tui.screens.readiness import ExamDateDialog, ReadinessScreen, ScoreByDayPlot
from quizapp.tui.widgets.readiness_line import ReadinessLine
from tests.conftest import CORPUS
from tests.tui.screen_text import screen_lines
from tests.tui.test_sessions import drive, text_of, wait_for
from tests.tui.toasts import said

BANK = load_bank([CORPUS / "good"])
EXAM_IN_DAYS = 20


def exam_day() -> date:
    return (datetime.now().astimezone() + timedelta(days=EXAM_IN_DAYS)).date()


EXAM_QUESTIONS = ("t-single", "t-multi", "t-tf", "t-numeric", "t-numeric-derived")
EXAM_QUESTIONS += ("t-numeric-short", "t-order")  # every one but the flashcard


def history_of(
    path: Path, answers: tuple[tuple[str, bool], ...], days_ago: tuple[int, ...] = (7,)
) -> Path:
    """These questions answered (right or not) a week ago, or on each of `days_ago`."""
    scheduler = make_scheduler(fuzz=False)
    with ReviewStore.open(path) as store:
        for (qid, right), days in ((a, d) for d in days_ago for a in answers):
            week_ago = datetime.now(UTC) - timedelta(days=days)
            q = BANK.questions[qid]
            store.record_answer(
                question_id=qid,
                deck_id=q.deck_id,
                topic=q.topic,
                rating=Rating.Good if right else Rating.Again,
                correct=right,
                when=week_ago,
                duration_ms=40_000,
                kind="drill",
                scheduler=scheduler,
            )
    return path


@pytest.fixture
def db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Two of the seven exam questions answered a week ago: not enough evidence for figures;
    the config file is the test's own."""
    monkeypatch.setenv("QUIZAPP_CONFIG", str(tmp_path / "config.toml"))
    return history_of(tmp_path / "history.sqlite3", (("t-single", True), ("t-tf", False)))


@pytest.fixture
def db_enough(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every exam question answered a week ago (one wrong): enough evidence for figures with
    no further study, none yet of how fast this student forgets (for the plan's)."""
    monkeypatch.setenv("QUIZAPP_CONFIG", str(tmp_path / "config.toml"))
    answers = tuple((qid, qid != "t-tf") for qid in EXAM_QUESTIONS)
    return history_of(tmp_path / "history.sqlite3", answers)


@pytest.fixture
def db_checked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every exam question answered a week ago and again three days ago (one wrong each
    time): seven checked answers, one per exam question, enough for the plan's figures."""
    monkeypatch.setenv("QUIZAPP_CONFIG", str(tmp_path / "config.toml"))
    answers = tuple((qid, qid != "t-tf") for qid in EXAM_QUESTIONS)
    return history_of(tmp_path / "history.sqlite3", answers, days_ago=(7, 3))


def make_app(db: Path, exam: date | None, config: Path | None = None) -> QuizApp:
    options = AppOptions(
        db_path=db,
        device="cpu",
        warm_up=False,
        watch=False,
        settings=Settings(exam_date=exam),
        config_path=config,
    )
    return QuizApp(BANK, options)


def line_text(app: QuizApp) -> str:
    line = app.screen.query_one(ReadinessLine)
    return text_of(line) if line.display else ""


async def open_readiness(pilot: Pilot, app: QuizApp) -> ReadinessScreen:
    await wait_for(
        pilot,
        lambda: (
            isinstance(app.screen, HomeScreen) and app.screen.is_mounted and app.history is not None
        ),
    )
    await pilot.press("R")
    await wait_for(pilot, lambda: isinstance(app.screen, ReadinessScreen) and app.screen.is_mounted)
    screen = app.screen
    assert isinstance(screen, ReadinessScreen)
    await wait_for(pilot, lambda: screen.report is not None)
    await pilot.pause()
    return screen


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_the_screen_shows_the_forecast_by_topic_and_by_day(db_checked: Path, size) -> None:
    app = make_app(db_checked, exam_day())

    async def scenario(pilot: Pilot) -> None:
        await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen) and app.screen.is_mounted)
        await wait_for(pilot, lambda: line_text(app).startswith("Exam in"))
        line = line_text(app)
        assert f"Exam in {EXAM_IN_DAYS} days · predicted " in line
        assert "(80%: " in line and ", from 7 of 7 questions) · " in line
        assert " · today: 7 cards, about " in line  # 7 exam questions
        screen = await open_readiness(pilot, app)
        report = screen.report
        assert report is not None and report.planning
        summary = text_of(screen.query_one("#readiness-summary", Static))
        assert "Plan followed: " in summary and "No further study: " in summary
        assert "Based on 14 first attempts on 7 of 7 exam questions; 0 unseen" in summary
        assert f"(in {EXAM_IN_DAYS} days)" in summary
        topics = screen.query_one("#readiness-topics", DataTable)
        assert topics.row_count == 1  # one deck, one topic
        row = [str(c) for c in topics.get_row("testing")]
        assert row[0] == "Every question type"
        assert row[2] == f"{100 * report.shown.topics['testing'].mean:.0f}%"
        plot = screen.query_one(ScoreByDayPlot)
        # A point per study session from now (one a day) until 09:00 on the exam day, and the
        # exam itself: 21 points after 09:00, 22 before it (today's early hours are a day too).
        to_exam = exam_moment(report.exam_date) - report.generated_at
        sessions = math.ceil(to_exam / timedelta(days=1))
        assert sessions in (EXAM_IN_DAYS, EXAM_IN_DAYS + 1)
        assert len(plot.series.lines["plan followed"]) == sessions + 1
        assert plot.series.lines["plan followed"][-1] > plot.series.lines["no further study"][-1]
        body = screen.query_one("#readiness-body", VerticalScroll)
        assert body.region.right <= size[0] and body.region.bottom <= size[1]
        note = screen.query(".readiness-note").first()
        assert "Too little history" in text_of(note)
        await pilot.press("end")
        await pilot.pause()
        assert note.region.y < body.region.bottom  # reachable by scrolling
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen) and app.screen.is_mounted)

    drive(app, scenario, size=size)


def test_a_run_that_saves_no_settings_sets_the_exam_date_for_itself_only(
    db: Path, tmp_path: Path
) -> None:
    """A preview (config_path None) must not write the student's config.toml."""
    app = make_app(db, None, config=None)  # QUIZAPP_CONFIG points at tmp_path (the fixture)
    day = exam_day()

    async def scenario(pilot: Pilot) -> None:
        await open_readiness(pilot, app)
        await pilot.press("e")
        await wait_for(
            pilot, lambda: isinstance(app.screen, ExamDateDialog) and app.screen.is_mounted
        )
        app.screen.query_one("#exam-date", Input).value = day.isoformat()
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.settings.exam_date == day)
        await wait_for(pilot, lambda: any("for this run only" in m for m in said(app)))

    drive(app, scenario, size=(80, 24))
    assert not (tmp_path / "config.toml").exists()


def test_without_an_exam_date_there_is_no_line_and_no_plan(db: Path) -> None:
    app = make_app(db, None)

    async def scenario(pilot: Pilot) -> None:
        screen = await open_readiness(pilot, app)
        assert "No exam date" in text_of(screen.query_one("#readiness-summary", Static))
        assert not screen.query(ScoreByDayPlot)
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen) and app.screen.is_mounted)
        assert line_text(app) == ""

    drive(app, scenario, size=(80, 24))


def test_the_exam_date_is_set_in_the_app_and_saved(db: Path, tmp_path: Path) -> None:
    app = make_app(db, None, config=tmp_path / "config.toml")
    day = exam_day()

    async def scenario(pilot: Pilot) -> None:
        screen = await open_readiness(pilot, app)
        await pilot.press("e")
        await wait_for(
            pilot, lambda: isinstance(app.screen, ExamDateDialog) and app.screen.is_mounted
        )
        field = app.screen.query_one("#exam-date", Input)
        field.value = "next week"
        await pilot.press("enter")
        problem = app.screen.query_one("#exam-date-problem")
        await wait_for(pilot, lambda: "Not a date" in text_of(problem))
        assert isinstance(app.screen, ExamDateDialog)  # refused, and said why
        field.value = day.isoformat()
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.screen is screen)
        assert app.settings.exam_date == day
        assert load_settings(tmp_path / "config.toml").exam_date == day
        await wait_for(pilot, lambda: screen.report is not None and screen.report.planning)
        await pilot.press("escape")
        await wait_for(pilot, lambda: line_text(app).startswith("Exam in"))

    drive(app, scenario, size=(80, 24))


def test_the_drill_asks_todays_plan(db: Path) -> None:
    app = make_app(db, exam_day())

    async def scenario(pilot: Pilot) -> None:
        await wait_for(
            pilot,
            lambda: (
                isinstance(app.screen, HomeScreen)
                and app.screen.is_mounted
                and app.history is not None
            ),
        )
        await pilot.press("d")
        await wait_for(pilot, lambda: isinstance(app.screen, QuizScreen) and app.screen.is_mounted)
        asked = [q.id for q in app.screen.session.questions]  # type: ignore[attr-defined]
        assert "t-card" not in asked  # a flashcard is not on the exam
        with ReviewStore.open_readonly(db) as store:
            planned = plan_drill_queue(
                store, BANK.questions, BANK.decks, app.settings, datetime.now(UTC)
            )
        assert planned is not None
        assert asked == [q.id for q in planned.questions]

    drive(app, scenario, size=(80, 24))


@pytest.mark.parametrize("default_parameters", [False, True])
def test_the_screen_names_the_fitted_parameters_it_predicts_with(
    db: Path, default_parameters: bool
) -> None:
    from quizapp.srs.store.fits import save_fit
    from tests.srs.test_fit_store import fit_record

    fitted = list(make_scheduler().parameters)
    fitted[20] = 0.5  # forgets faster than the defaults: a lower prediction
    fitted_at = datetime(2026, 11, 20, 12, 0, tzinfo=UTC)
    with ReviewStore.open(db) as store:
        save_fit(store, fit_record(fitted, when=fitted_at))
    options = AppOptions(
        db_path=db,
        device="cpu",
        warm_up=False,
        watch=False,
        default_parameters=default_parameters,
    )
    app = QuizApp(BANK, options)

    async def scenario(pilot: Pilot) -> None:
        screen = await open_readiness(pilot, app)
        note = text_of(screen.query_one("#readiness-parameters", Static))
        report = screen.report
        assert report is not None
        if default_parameters:
            assert note == "Memory model: py-fsrs's default FSRS parameters."
            assert report.fit is None
        else:
            assert note == (
                "Memory model: FSRS parameters fitted to your history on "
                f"{fitted_at.astimezone():%Y-%m-%d}."
            )
            assert report.fit is not None and report.fit.parameters[20] == 0.5

    drive(app, scenario, size=(80, 24))


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_a_long_deck_title_ends_in_an_ellipsis_not_cut_mid_word(
    db_enough: Path, tmp_path: Path, size: tuple[int, int]
) -> None:
    """At 80 columns the bundled 'Layer normalization and residual connections' showed as
    'Layer normalization and resi': the cell was cropped at the column's edge."""
    title = "Layer normalization and residual connections, the long way round"
    deck = (CORPUS / "good" / "every_type.yaml").read_text()
    (tmp_path / "long.yaml").write_text(
        deck.replace("title: Every question type", f"title: {title}")
    )
    options = AppOptions(
        db_path=db_enough,
        device="cpu",
        warm_up=False,
        watch=False,
        settings=Settings(exam_date=None),
    )
    app = QuizApp(load_bank([tmp_path / "long.yaml"]), options)

    async def scenario(pilot: Pilot) -> None:
        screen = await open_readiness(pilot, app)
        topics = screen.query_one("#readiness-topics", DataTable)
        await pilot.pause()
        row = next(line for line in screen_lines(app) if "Layer normalization" in line)
        shown = row.split("Layer normalization", 1)[1].split("  ", 1)[0]
        assert title.endswith(shown) or shown.endswith("…"), row
        assert topics.region.right <= size[0]

    drive(app, scenario, size=size)


@pytest.mark.parametrize(
    ("answers", "needed"), [((), "7 more questions"), ((("t-single", True),), "6 more questions")]
)
def test_without_enough_evidence_the_screen_and_the_line_say_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, answers, needed: str
) -> None:
    """A fresh history, or one answer: no figure, only what to do for one."""
    monkeypatch.setenv("QUIZAPP_CONFIG", str(tmp_path / "config.toml"))
    app = make_app(history_of(tmp_path / "history.sqlite3", answers), exam_day())
    said_instead = f"not enough evidence yet: answer {needed} for a forecast"

    async def scenario(pilot: Pilot) -> None:
        await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen) and app.screen.is_mounted)
        await wait_for(pilot, lambda: line_text(app).startswith("Exam in"))
        line = line_text(app)
        assert f"Exam in {EXAM_IN_DAYS} days · {said_instead} · today: " in line
        assert "predicted" not in line and "%" not in line
        screen = await open_readiness(pilot, app)
        summary = text_of(screen.query_one("#readiness-summary", Static))
        assert said_instead.capitalize() in summary
        assert "Plan followed" not in summary
        assert "%" not in summary.split("\n", 1)[1]  # after "pass at 70%": no figure
        assert not screen.query("#readiness-topics") and not screen.query(ScoreByDayPlot)
        shown = "\n".join(screen_lines(app))
        assert "100–100" not in shown and "Not enough evidence yet" in shown

    drive(app, scenario, size=(80, 24))


def test_first_attempts_alone_give_no_figure_for_the_plan(db_enough: Path) -> None:
    """Every exam question answered once, none again a day later: nothing says how fast this
    student forgets, so the plan's forecast would be the median student's. Its figure is not
    shown; "no further study", which rests on the first attempts, is."""
    app = make_app(db_enough, exam_day())
    lacking = "not enough evidence yet of how fast you forget: review 7 more cards"

    async def scenario(pilot: Pilot) -> None:
        await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen) and app.screen.is_mounted)
        await wait_for(pilot, lambda: line_text(app).startswith("Exam in"))
        line = line_text(app)
        assert f"Exam in {EXAM_IN_DAYS} days · no further study: predicted " in line
        assert f"· plan: {lacking}" in line
        screen = await open_readiness(pilot, app)
        report = screen.report
        assert report is not None and report.with_plan is not None
        summary = text_of(screen.query_one("#readiness-summary", Static))
        plan_line = next(s for s in summary.splitlines() if s.startswith("Plan followed"))
        assert plan_line.startswith(f"Plan followed: {lacking}") and "%" not in plan_line
        assert f"No further study: {100 * report.as_is.overall.mean:.0f}% (80%: " in summary
        assert summary.count("chance of passing") == 1  # no further study's only
        topics = screen.query_one("#readiness-topics", DataTable)
        assert [str(c.label) for c in topics.columns.values()][-1] == "Pass"  # no plan column
        row = [str(c) for c in topics.get_row("testing")]
        assert row[2] == f"{100 * report.as_is.topics['testing'].mean:.0f}%"
        plot = screen.query_one(ScoreByDayPlot)
        assert set(plot.series.lines) == {"no further study"}

    drive(app, scenario, size=(100, 32))
