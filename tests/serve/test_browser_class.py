"""`quizapp serve` on a class's shared PostgreSQL store, in headless Chromium: two serve
processes on two ports (as behind a load balancer) share the store; each tab asks for its
student's id, even when the server's environment names a student, and each tab's answers land
under its own student; the page asks nothing of any other site."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlsplit

import pytest

from tests.serve.browser import (
    choose,
    is_running,
    open_app,
    option_number,
    press,
    screen_text,
    served_app,
    wait_for_text,
    wait_until,
)
from tests.serve.test_browser import FIRST_KEY, FIRST_QUESTION, HOME

pytestmark = [pytest.mark.browser, pytest.mark.slow]
psycopg = pytest.importorskip("psycopg")

ASKED = "Who is studying?"


def class_reviews(pg_url: str) -> list[tuple[str, str, bool]]:
    with psycopg.connect(pg_url) as db:
        if db.execute("SELECT to_regclass('reviews')").fetchone()[0] is None:
            return []  # no session has opened the store yet
        rows = db.execute("SELECT student, question_id, correct FROM reviews ORDER BY id")
        return [tuple(row) for row in rows.fetchall()]


def test_two_serve_hosts_share_the_store_and_each_tab_asks_for_its_student(
    browser, tmp_path: Path, pg_url
) -> None:
    environment = {"QUIZAPP_DB": pg_url, "QUIZAPP_STUDENT": "whoever-started-the-server"}
    options = ("--length", "1")
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    with (
        served_app(tmp_path / "a", *options, environment=environment) as served,
        served_app(tmp_path / "b", *options, environment=environment) as other_host,
    ):
        assert served.url != other_host.url  # two hosts, two ports, one store
        context = browser.new_context(viewport={"width": 1280, "height": 800})
        requests: list[str] = []
        first = open_app(context, served.url, requests)
        wait_for_text(first, ASKED)
        (first_pid,) = served.app_pids()
        second = open_app(context, other_host.url)
        wait_for_text(second, ASKED)
        (second_pid,) = other_host.app_pids()

        for page, student in ((first, "ada-lovelace"), (second, "grace-hopper")):
            wait_for_text(page, "student id")  # the field is there: typing reaches it
            page.focus("textarea.xterm-helper-textarea")
            page.keyboard.type(student)
            wait_for_text(page, student)
            press(page, "Enter")
            # The home screen shows behind the dialog all along: wait for the dialog to go, or
            # the next Enter can reach it instead of the deck list.
            wait_until(lambda p=page: ASKED not in screen_text(p), 60, "the dialog to close")
            wait_for_text(page, HOME)
            press(page, "s", "Enter")  # the highlighted deck, in its order
            wait_for_text(page, FIRST_QUESTION)
            choose(page, option_number(page, FIRST_KEY))
            press(page, "Enter")
            wait_for_text(page, "✓ Correct")

        wait_until(lambda: len(class_reviews(pg_url)) == 2, 60, "both answers in the store")
        rows = class_reviews(pg_url)
        assert sorted(student for student, _, _ in rows) == ["ada-lovelace", "grace-hopper"]
        assert all(correct for _, _, correct in rows)
        assert not served.history.exists() and not other_host.history.exists()  # no local one

        first.close()
        wait_until(
            lambda: not is_running(first_pid) and not served.app_pids(),
            60,
            "the closed tab's app process to end",
        )
        assert other_host.app_pids() == {second_pid}
        assert is_running(second_pid)  # the other tab's goes on
        context.close()

    origin = urlsplit(served.url).netloc
    assert requests and all(urlsplit(url).netloc == origin for url in requests), requests
