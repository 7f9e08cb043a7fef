"""`quizapp serve` on a class's shared PostgreSQL store with password authentication, in
headless Chromium: two serve processes on two ports (as behind a load balancer) share the
store; each student signs in with their own role's password, even when the server's
environment names a student; each tab's app runs as its student's role, so their answers land
under them and neither role reads the other's; the page asks nothing of any other site."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlsplit

import pytest

from quizapp.serve.credentials import student_url
from quizapp.serve.sign_in import WRONG
from tests.serve.browser import (
    choose,
    is_running,
    open_app,
    option_number,
    press,
    served_app,
    sign_in,
    wait_for_text,
    wait_until,
)
from tests.serve.class_roles import add_student, unique_name
from tests.serve.test_browser import FIRST_KEY, FIRST_QUESTION, HOME

pytestmark = [pytest.mark.browser, pytest.mark.slow]
psycopg = pytest.importorskip("psycopg")


def class_reviews(url: str, password: str | None = None) -> list[tuple[str, str, bool]]:
    """(student, question, correct) of every review the role of `url` may read."""
    with psycopg.connect(url, password=password) as db:
        rows = db.execute("SELECT student, question_id, correct FROM reviews ORDER BY id")
        return [tuple(row) for row in rows.fetchall()]


def session_roles(owner_url: str) -> list[str]:
    """The roles the served sessions' connections run as (the server's own: none)."""
    with psycopg.connect(owner_url) as db:
        rows = db.execute(
            "SELECT DISTINCT usename FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid() ORDER BY 1"
        )
        return [row[0] for row in rows.fetchall()]


def app_command_line(pid: int) -> str:
    return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()


def test_two_serve_hosts_share_the_store_and_each_student_signs_in_as_their_role(
    browser, tmp_path: Path, class_store: str
) -> None:
    ada, bob = unique_name("ada"), unique_name("bob")
    passwords = {ada: "ada's own password", bob: "bob's own password"}
    for student, password in passwords.items():
        add_student(class_store, student, password)
    environment = {"QUIZAPP_DB": class_store, "QUIZAPP_STUDENT": "whoever-started-the-server"}
    options = ("--length", "1")
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    with (
        served_app(tmp_path / "a", *options, environment=environment) as served,
        served_app(tmp_path / "b", *options, environment=environment) as other_host,
    ):
        assert served.url != other_host.url  # two hosts, two ports, one store
        requests: list[str] = []
        # Two students, two browsers (a cookie belongs to a host, whatever its port).
        ada_browser = browser.new_context(viewport={"width": 1280, "height": 800})
        bob_browser = browser.new_context(viewport={"width": 1280, "height": 800})
        first = open_app(ada_browser, served.url, requests)
        sign_in(first, ada, "not ada's password")
        assert WRONG in first.inner_text("body")
        assert not served.app_pids()  # no app before a student has signed in
        sign_in(first, ada, passwords[ada])
        wait_for_text(first, HOME)
        (first_pid,) = served.app_pids()
        second = open_app(bob_browser, other_host.url)
        sign_in(second, bob, passwords[bob])
        wait_for_text(second, HOME)
        (second_pid,) = other_host.app_pids()
        for pid in (first_pid, second_pid):
            assert not any(password in app_command_line(pid) for password in passwords.values())

        for page in (first, second):
            press(page, "s", "Enter")  # the highlighted deck, in its order
            wait_for_text(page, FIRST_QUESTION)
            choose(page, option_number(page, FIRST_KEY))
            press(page, "Enter")
            wait_for_text(page, "✓ Correct")

        wait_until(lambda: len(class_reviews(class_store)) == 2, 60, "both answers in the store")
        rows = class_reviews(class_store)  # as the owner: the whole class
        assert sorted(student for student, _, _ in rows) == sorted([ada, bob])
        assert all(correct for _, _, correct in rows)
        assert set(session_roles(class_store)) == {ada, bob}  # each app runs as its student
        # Row-level security, not the app, keeps each student to their own history.
        for student, password in passwords.items():
            own = class_reviews(student_url(class_store, student), password)
            assert [reviewer for reviewer, _, _ in own] == [student]
        assert not served.history.exists() and not other_host.history.exists()  # no local one

        first.close()
        wait_until(
            lambda: not is_running(first_pid) and not served.app_pids(),
            60,
            "the closed tab's app process to end",
        )
        assert other_host.app_pids() == {second_pid}
        assert is_running(second_pid)  # the other tab's goes on
        ada_browser.close()
        bob_browser.close()

    origin = urlsplit(served.url).netloc
    assert requests and all(urlsplit(url).netloc == origin for url in requests), requests
