"""The statistics screen, driven through Pilot: it shows the history's numbers, and goes back.

The figures come from a real history file at a fixed moment in a fixed (UTC) local zone.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from rich.text import Text
from textual.containers import VerticalScroll
from textual.pilot import Pilot
from textual.widgets import DataTable, Static

from quizapp.bank import load_bank
from quizapp.srs.memory.scheduling import Rating, make_scheduler
from quizapp.srs.store.sqlite.store import ReviewStore
from quizapp.srs.study.stats import Stats, compute_stats
from quizapp.tui.app import AppOptions, QuizApp
from quizapp.tui.screens.home import HomeScreen
from quizapp.tui.screens.stats import DailyCountPlot, StatsScreen
from tests.conftest import CORPUS
from tests.tui.test_sessions import wait_for

NOW = datetime(2025, 3, 20, 15, 0, tzinfo=UTC)
BANK = load_bank([CORPUS / "good"])
pytestmark = pytest.mark.usefixtures("utc_local_time")  # days start at UTC midnight


def at(days_ago: int, hour: int = 10) -> datetime:
    return NOW.replace(hour=hour) - timedelta(days=days_ago)


@pytest.fixture
def stats(tmp_path: Path) -> Stats:
    """Three days of study ending today; two review-state answers, one right; two exams."""
    scheduler = make_scheduler(fuzz=False)
    questions = BANK.questions
    qids = ["t-card", "t-multi", "t-numeric"]  # topics: testing, other-topic, testing
    with ReviewStore.open(tmp_path / "history.sqlite3") as store:

        def answer(qid: str, when: datetime, rating: Rating) -> None:
            q = questions[qid]
            store.record_answer(
                question_id=qid,
                deck_id=q.deck_id,
                topic=q.topic,
                rating=rating,
                correct=rating != Rating.Again,
                when=when,
                duration_ms=8000,
                kind="drill",
                scheduler=scheduler,
            )

        answer(qids[0], at(2), Rating.Easy)  # to Review, due in about a week
        answer(qids[1], at(2), Rating.Easy)
        answer(qids[2], at(1), Rating.Again)
        answer(qids[0], at(0), Rating.Good)  # in Review: right
        answer(qids[1], at(0, hour=11), Rating.Again)  # in Review: wrong
        store.record_exam(
            taken=at(5),
            questions=10,
            correct=5,
            passed=False,
            threshold=0.7,
            seconds=600.0,
            detail={},
        )
        store.record_exam(
            taken=at(1),
            questions=10,
            correct=9,
            passed=True,
            threshold=0.7,
            seconds=754.0,
            detail={},
        )
        return compute_stats(store, questions, NOW, config_file=Path("/cfg.toml"))


def drive(scenario: Callable[[Pilot], Awaitable[None]], size: tuple[int, int]) -> None:
    app = QuizApp(BANK, AppOptions(device="cpu", shuffle=False, warm_up=False))

    async def main() -> None:
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            await scenario(pilot)

    asyncio.run(main())


async def open_stats(pilot: Pilot, stats: Stats) -> StatsScreen:
    assert isinstance(pilot.app.screen, HomeScreen)
    await pilot.app.push_screen(StatsScreen(stats))  # returns once it is mounted
    await pilot.wait_for_scheduled_animations()  # and laid out, with nothing left pending
    screen = pilot.app.screen
    assert isinstance(screen, StatsScreen)
    return screen


def text_of(widget: Static) -> str:
    content = widget.content
    return content.plain if isinstance(content, Text) else str(content)


def row_text(table: DataTable, key: str) -> list[str]:
    return [cell.plain if isinstance(cell, Text) else str(cell) for cell in table.get_row(key)]


def test_the_screen_shows_streak_retention_totals_topics_and_exams(stats: Stats) -> None:
    assert stats.streak_days == 3 and stats.true_retention == 0.5  # what the screen must show

    async def scenario(pilot: Pilot) -> None:
        screen = await open_stats(pilot, stats)
        overview = text_of(screen.query_one("#stats-overview", Static))
        assert "Streak: 3 days" in overview
        assert "True retention: 50% (1 of 2 answers to cards in review)" in overview
        assert (
            f"Answers: 5 all time: {5 - stats.totals.practice} scheduled reviews, "
            f"{stats.totals.practice} practice; 5 in the last 30 days" in overview
        )
        assert f"{stats.totals.seen} of {len(BANK.questions)} seen in any mode" in overview
        assert f"{stats.totals.scheduled} scheduled for review" in overview
        assert "Exams: 1 of 2 passed" in overview

        topics = screen.query_one("#stats-topics", DataTable)
        assert topics.row_count == len(stats.topics)
        for topic in stats.topics:
            cells = row_text(topics, topic.topic)
            assert cells[0] == topic.topic
            assert cells[1] == str(topic.answered)
            expected = "n/a" if topic.accuracy is None else f"{100 * topic.accuracy:.0f}%"
            assert cells[2] == expected
            assert cells[3] == str(topic.questions)
        # t-card twice (both right) and t-numeric once (wrong); t-multi once right, once wrong.
        assert row_text(topics, "testing")[1:3] == ["3", "67%"]
        assert row_text(topics, "other-topic")[1:4] == ["2", "50%", "1"]

        exams = screen.query_one("#stats-exams", DataTable)
        assert exams.row_count == 2
        latest, first = stats.exams[1], stats.exams[0]
        assert row_text(exams, str(latest.id)) == [
            "2025-03-19 10:00",
            "9/10 (90%)",
            "passed",
            "12:34",
        ]
        assert row_text(exams, str(first.id))[1:3] == ["5/10 (50%)", "failed"]
        # The latest exam is listed first.
        assert exams.coordinate_to_cell_key((0, 0)).row_key.value == str(latest.id)

    drive(scenario, (100, 40))


def test_the_plots_carry_reviews_per_day_and_the_due_forecast(stats: Stats) -> None:
    async def scenario(pilot: Pilot) -> None:
        screen = await open_stats(pilot, stats)
        reviews = screen.query_one("#reviews-plot", DailyCountPlot)
        answered = reviews.series.lines["answered"]
        correct = reviews.series.lines["correct"]
        assert len(answered) == 30
        assert answered[-3:] == (2.0, 1.0, 2.0) and sum(answered) == 5
        assert correct[-3:] == (2.0, 0.0, 1.0)
        assert reviews.first_day == stats.reviews_per_day[0].day

        forecast = screen.query_one("#forecast-plot", DailyCountPlot)
        due = forecast.series.lines["cards due"]
        assert len(due) == 30
        assert due == tuple(float(d.due) for d in stats.due_forecast)
        # The card failed yesterday (overdue) and the one failed this morning are due today.
        assert due[0] == 2.0 and sum(due) == 3
        assert forecast.first_day == NOW.date()
        # Drawn as bars, one dataset per line (the datasets are made when a plot is drawn).
        await wait_for(pilot, lambda: len(reviews._datasets) and len(forecast._datasets))
        assert len(reviews._datasets) == 2 and len(forecast._datasets) == 1

    drive(scenario, (100, 40))


def test_at_80_by_24_the_page_scrolls_down_to_the_exams(stats: Stats) -> None:
    async def scenario(pilot: Pilot) -> None:
        screen = await open_stats(pilot, stats)
        body = screen.query_one("#stats-body", VerticalScroll)
        exams = screen.query_one("#stats-exams", DataTable)
        assert body.max_scroll_y > 0
        assert exams.region.y >= body.region.bottom  # below the fold at first
        await pilot.press("end")
        await wait_for(pilot, lambda: body.scroll_y == body.max_scroll_y)  # the scroll animates
        assert body.region.y <= exams.region.y and exams.region.bottom <= body.region.bottom

    drive(scenario, (80, 24))


@pytest.mark.parametrize("key", ["escape", "h"])
def test_escape_and_h_go_back(stats: Stats, key: str) -> None:
    async def scenario(pilot: Pilot) -> None:
        await open_stats(pilot, stats)
        await pilot.press(key)
        await pilot.pause()
        assert isinstance(pilot.app.screen, HomeScreen)

    drive(scenario, (80, 24))


def test_an_empty_history_shows_zeros_and_no_exams(tmp_path: Path) -> None:
    with ReviewStore.open(tmp_path / "empty.sqlite3") as store:
        empty = compute_stats(store, BANK.questions, NOW, config_file=Path("/cfg.toml"))

    async def scenario(pilot: Pilot) -> None:
        screen = await open_stats(pilot, empty)
        overview = text_of(screen.query_one("#stats-overview", Static))
        assert "Streak: 0 days" in overview
        assert "True retention: n/a" in overview
        assert "Exams:" not in overview
        assert text_of(screen.query_one("#no-exams", Static)) == "No exams taken yet."
        assert not screen.query("#stats-exams")
        plot = screen.query_one("#reviews-plot", DailyCountPlot)
        assert set(plot.series.lines["answered"]) == {0.0}

    drive(scenario, (80, 24))
