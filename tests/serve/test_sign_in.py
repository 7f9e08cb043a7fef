"""Signing in to `quizapp serve` on a class store (quizapp/serve/sign_in.py), against a real
PostgreSQL with password authentication: the server's pages through aiohttp's test client,
with an app command that only records how it was started."""

from __future__ import annotations

import asyncio
import json
import secrets
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import aiohttp
import pytest
from aiohttp.test_utils import TestClient, TestServer

from quizapp.cli import build_parser
from quizapp.serve.credentials import student_url
from quizapp.serve.server import QuizServer
from quizapp.serve.session import SessionOptions, session_argv
from quizapp.serve.sign_in import (
    COOKIE,
    MINIMUM_ANSWER_S,
    SIGN_IN_PATH,
    WRONG,
    FailureLimit,
    SignedIn,
    SignIn,
)
from tests.serve.browser import wait_until
from tests.serve.class_roles import add_student, unique_name

psycopg = pytest.importorskip("psycopg")

PASSWORD = "correct horse battery staple"
# The app command: writes how it was started (its arguments, PGPASSWORD) to the file it names.
RECORD = (
    "import json, os, sys; open(sys.argv[1], 'w').write(json.dumps("
    "{'argv': sys.argv[2:], 'password': os.environ.get('PGPASSWORD')}))"
)


def recording_argv(marker: Path) -> Callable[[str, str], list[str]]:
    def argv(url: str, student: str) -> list[str]:
        return [sys.executable, "-c", RECORD, str(marker), f"--db={url}", f"--student={student}"]

    return argv


def serving(
    store_url: str,
    marker: Path,
    test: Callable[[TestClient, QuizServer], Awaitable[None]],
    **sign_in_options: object,
) -> None:
    """Run `test` against a signing-in server on the store, whose sessions run the recorder."""
    sign_in = SignIn(store_url, recording_argv(marker), **sign_in_options)  # type: ignore[arg-type]
    server = QuizServer(
        [sys.executable, "-c", RECORD, str(marker), "not-signed-in"],
        host="127.0.0.1",
        port=0,
        max_sessions=4,
        sign_in=sign_in,
    )

    async def run() -> None:
        async with TestClient(TestServer(await server._make_app())) as client:
            await test(client, server)

    asyncio.run(run())


def origin(client: TestClient) -> str:
    url = client.make_url("/")
    return f"{url.scheme}://{url.host}:{url.port}"


async def sign_in(
    client: TestClient, name: str, password: str, **headers: str
) -> tuple[aiohttp.ClientResponse, str, float]:
    """POST the sign-in form as the page would; the response, its body and how long it took."""
    started = time.monotonic()
    response = await client.post(
        SIGN_IN_PATH,
        data={"student": name, "password": password},
        headers={"Origin": origin(client), **headers},
        allow_redirects=False,
    )
    body = await response.text()
    return response, body, time.monotonic() - started


@pytest.fixture
def ada(class_store: str) -> str:
    name = unique_name("ada")
    add_student(class_store, name, PASSWORD)
    return name


def test_the_right_password_signs_in_with_a_strict_http_only_cookie(
    class_store: str, ada: str, tmp_path: Path
) -> None:
    async def test(client: TestClient, server: QuizServer) -> None:
        index = await client.get("/", allow_redirects=False)
        assert (index.status, index.headers["Location"]) == (303, SIGN_IN_PATH)

        response, _, took = await sign_in(client, ada, PASSWORD)
        assert (response.status, response.headers["Location"]) == (303, "/")
        assert took >= MINIMUM_ANSWER_S
        cookie = response.cookies[COOKIE]
        assert cookie["httponly"] and cookie["samesite"] == "Strict"
        assert not cookie["secure"]  # plain HTTP here: a Secure cookie would never come back
        assert len(cookie.value) >= 32
        (signed_in,) = server.sign_in.signed_in.values()  # type: ignore[union-attr]
        assert signed_in.student == ada
        assert PASSWORD not in repr(signed_in)
        index = await client.get("/", allow_redirects=False)
        assert index.status == 200  # the app's page, now

    serving(class_store, tmp_path / "started.json", test)


def test_a_wrong_password_reads_and_waits_exactly_as_an_unknown_name(
    class_store: str, ada: str, tmp_path: Path
) -> None:
    async def test(client: TestClient, server: QuizServer) -> None:
        wrong, wrong_body, wrong_took = await sign_in(client, ada, "not " + PASSWORD)
        unknown, unknown_body, unknown_took = await sign_in(client, unique_name("nobody"), "x")
        for response, took in ((wrong, wrong_took), (unknown, unknown_took)):
            assert response.status == 401 and COOKIE not in response.cookies
            assert took >= MINIMUM_ANSWER_S
        assert wrong_body == unknown_body and WRONG in wrong_body
        assert not server.sign_in.signed_in  # type: ignore[union-attr]

    serving(class_store, tmp_path / "started.json", test)


def test_names_and_passwords_beyond_their_bounds_never_reach_postgresql(tmp_path: Path) -> None:
    asked: list[str] = []

    async def check(url: str, name: str, password: str) -> bool:
        asked.append(name)
        return True

    async def test(client: TestClient, server: QuizServer) -> None:
        for name, password in (("a" * 64, "x"), ("ada", "x" * 1025), ("ada\n", "x"), ("ada", "")):
            response, body, _ = await sign_in(client, name, password)
            assert response.status == 401 and WRONG in body
        assert asked == []

    store = "postgresql://owner@127.0.0.1:1/class"
    serving(store, tmp_path / "started.json", test, check=check, minimum_answer_s=0.0)


def test_a_form_posted_from_another_site_is_refused(
    class_store: str, ada: str, tmp_path: Path
) -> None:
    async def test(client: TestClient, server: QuizServer) -> None:
        for headers in ({"Origin": "https://evil.example"}, {"Referer": "http://evil/"}):
            response = await client.post(
                SIGN_IN_PATH,
                data={"student": ada, "password": PASSWORD},
                headers=headers,
                allow_redirects=False,
            )
            assert response.status == 403 and COOKIE not in response.cookies
        # Neither header: refused too (the page's own form always sends Origin).
        response = await client.post(
            SIGN_IN_PATH, data={"student": ada, "password": PASSWORD}, allow_redirects=False
        )
        assert response.status == 403
        assert not server.sign_in.signed_in  # type: ignore[union-attr]

    serving(class_store, tmp_path / "started.json", test)


def test_failed_sign_ins_from_one_address_are_limited_with_429(
    class_store: str, ada: str, tmp_path: Path
) -> None:
    async def test(client: TestClient, server: QuizServer) -> None:
        for _ in range(2):
            response, _, _ = await sign_in(client, ada, "guess")
            assert response.status == 401
        # Limited now: even the right password is not checked until the window has moved on.
        response, body, _ = await sign_in(client, ada, PASSWORD)
        assert response.status == 429 and COOKIE not in response.cookies
        assert 1 <= int(response.headers["Retry-After"]) <= 60
        assert "Too many failed sign-ins" in body

    limit = FailureLimit(allowed=2, window_s=60)
    serving(class_store, tmp_path / "started.json", test, limit=limit, minimum_answer_s=0.0)


def test_the_failure_table_forgets_old_failures_and_stays_bounded() -> None:
    limit = FailureLimit(allowed=2, window_s=60, max_addresses=3)
    limit.failed("10.0.0.1", 0.0)
    limit.failed("10.0.0.1", 10.0)
    assert limit.retry_after("10.0.0.1", 20.0) == 40  # until the first failure is 60 s old
    assert limit.retry_after("10.0.0.2", 20.0) == 0  # another address is not held back
    assert limit.retry_after("10.0.0.1", 60.0) == 0  # the first has aged out
    limit.forgive("10.0.0.1", 10.0)  # that attempt succeeded after all
    assert limit.retry_after("10.0.0.1", 61.0) == 0 and len(limit) == 0
    for host in range(100):
        limit.failed(f"10.1.0.{host}", 70.0)
    assert len(limit) == 3


@pytest.mark.parametrize("token", [None, "forged"])
def test_a_websocket_without_a_valid_token_gets_403_and_starts_no_app(
    class_store: str, tmp_path: Path, token: str | None
) -> None:
    marker = tmp_path / "started.json"

    async def test(client: TestClient, server: QuizServer) -> None:
        headers = {} if token is None else {"Cookie": f"{COOKIE}={secrets.token_urlsafe(32)}"}
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            await client.ws_connect("/ws", headers=headers)
        assert refused.value.status == 403
        assert server.open_sessions == 0 and not server.sessions

    serving(class_store, marker, test)
    assert not marker.exists()  # no app process ever ran


def test_a_signed_in_websocket_runs_the_app_as_the_student_with_the_password_in_its_environment(
    class_store: str, ada: str, tmp_path: Path
) -> None:
    marker = tmp_path / "started.json"

    async def test(client: TestClient, server: QuizServer) -> None:
        response, _, _ = await sign_in(client, ada, PASSWORD)
        assert response.status == 303
        websocket = await client.ws_connect("/ws")  # the cookie goes with it
        await asyncio.to_thread(wait_until, marker.exists, 60, "the app process to start")
        await websocket.close()

    serving(class_store, marker, test)
    started = json.loads(marker.read_text())
    assert started["password"] == PASSWORD
    assert started["argv"] == [f"--db={student_url(class_store, ada)}", f"--student={ada}"]
    assert not any(PASSWORD in argument for argument in started["argv"])


def test_a_students_url_names_their_role_and_holds_no_password() -> None:
    owner = "postgresql://owner:s3cret@db.example.org:5433/class?sslmode=require&password=p"
    assert student_url(owner, "ada") == (
        "postgresql://ada@db.example.org:5433/class?sslmode=require"
    )
    assert student_url("postgresql://db/class?user=owner", "o'neil") == (
        "postgresql://o%27neil@db/class"
    )


def test_serve_runs_each_session_as_its_student_on_the_store() -> None:
    from quizapp.cli.serve import _sign_in
    from quizapp.srs.store.history import StudentToAsk

    args = build_parser().parse_args(["serve", "--public-url", "https://class.example.org"])
    store = "postgresql://owner:s3cret@db.example.org/class?options=-csearch_path%3Dquizapp"
    sign_in = _sign_in(args, StudentToAsk(store), SessionOptions(device="cpu"))
    assert sign_in.secure_cookie  # served over https behind the proxy
    argv, environment = sign_in.app_command(SignedIn("ada", PASSWORD, expires=0.0))
    url = student_url(store, "ada")
    assert argv == session_argv(SessionOptions(device="cpu", db=url, student="ada"))
    parsed = build_parser().parse_args(argv[3:])
    assert parsed.student == "ada" and not parsed.ask_student
    assert parsed.db == url and "s3cret" not in " ".join(argv)
    assert environment == {"QUIZAPP_DB": url, "PGPASSWORD": PASSWORD}
