"""`quizapp serve` in a real headless Chromium: a student's session from the home screen to
the lab, its answers in the history, and its process ended with its tab; then a class of ten
tabs at once, and an eleventh turned away."""

from __future__ import annotations

import signal
from pathlib import Path

import pytest

from tests.serve.browser import (
    choose,
    has_torch_loaded,
    is_running,
    open_app,
    option_number,
    press,
    screen_text,
    served_app,
    wait_for_text,
    wait_until,
)

pytestmark = [pytest.mark.browser, pytest.mark.slow]

HOME = "Modern attention"  # the first deck, on the home screen
FIRST_QUESTION = "A layer with 32 query heads uses grouped-query attention"
FIRST_KEY = "One key head and one value head"  # the right option's first words
SECOND_QUESTION = "Llama 3 70B (80 layers, 64 query heads"
SECOND_KEY = "80 GiB, an eighth of what"
# The lab's panel needs torch, which each app process loads after its first screen: slow on a
# busy machine, so the deadline is long (it costs nothing when the lab is quick).
LAB_SECONDS = 180
LAB_RESULT = "done in "  # said only of a result computed live, in this app process


def test_a_student_session_in_the_browser(browser, tmp_path: Path) -> None:
    with served_app(tmp_path, "--length", "3") as served:
        context = browser.new_context(viewport={"width": 1280, "height": 800})
        page = open_app(context, served.url)
        home = wait_for_text(page, HOME)
        assert "Positional encoding" in home
        (app_pid,) = served.app_pids()

        # The Shuffle switch off: the questions in the deck's order, their options still shuffled.
        press(page, "s", "Enter")  # the highlighted deck
        wait_for_text(page, "Question 1 of 3")
        wait_for_text(page, FIRST_QUESTION)
        choose(page, option_number(page, FIRST_KEY))
        press(page, "Enter")
        wait_for_text(page, "✓ Correct")
        wait_for_text(page, "lab ·")
        wait_for_text(page, LAB_RESULT, seconds=LAB_SECONDS)
        assert has_torch_loaded(app_pid)  # loaded for this first computation, not at start
        page.screenshot(path=tmp_path / "served-session.png")
        wait_until(lambda: len(served.reviews()) == 1, 30, "the answer in the history")
        assert served.reviews()[0][1] == 1  # recorded as correct

        press(page, "Enter")
        wait_for_text(page, "Question 2 of 3")
        wait_for_text(page, SECOND_QUESTION)
        assert "Score 1/1" in screen_text(page)
        choose(page, option_number(page, SECOND_KEY))
        press(page, "Enter")
        wait_for_text(page, "Score 1/2", "Score 2/2")
        # Closed as soon as the feedback shows: the answer was committed as it was given.
        page.close()
        wait_until(lambda: not is_running(app_pid), 60, "the tab's app process to end")
        assert len(served.reviews()) == 2
        context.close()


def test_ten_tabs_at_once_and_an_eleventh_turned_away(browser, tmp_path: Path) -> None:
    tabs = 10
    context = browser.new_context(viewport={"width": 1024, "height": 700})
    # Stopped with a Ctrl+C (SIGINT) while half the tabs are open: it ends their processes.
    with served_app(
        tmp_path, "--length", "1", "--max-sessions", str(tabs), stop=signal.SIGINT
    ) as served:
        pages = [open_app(context, served.url) for _ in range(tabs)]
        for page in pages:
            wait_for_text(page, HOME, seconds=120)
        assert len(served.app_pids()) == tabs
        # Home screens only: no tab has paid for torch yet (each loads it for its first
        # computation, the lab that a question prepares for its feedback).
        assert not any(has_torch_loaded(pid) for pid in served.app_pids())

        extra = context.new_page()
        response = extra.goto(served.url)
        assert response is not None and response.status == 503
        assert "quizapp is full" in extra.inner_text("body")
        assert f"All {tabs} sessions are in use" in extra.inner_text("body")
        extra.close()

        for page in pages:
            press(page, "s", "Enter")  # the deck's order: its first question
        for page in pages:
            wait_for_text(page, FIRST_QUESTION, seconds=120)
            choose(page, option_number(page, FIRST_KEY))
            press(page, "Enter")
        for page in pages:
            wait_for_text(page, "✓ Correct", seconds=120)
        wait_until(lambda: len(served.reviews()) == tabs, 60, "every tab's answer")

        before = served.app_pids()
        for page in pages[: tabs // 2]:
            page.close()
        wait_until(lambda: len(served.app_pids()) == tabs // 2, 120, "closed tabs' apps to end")
        assert not any(is_running(pid) for pid in before - served.app_pids())
    context.close()
