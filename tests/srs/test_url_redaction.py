"""A database URL's password never printed: in the user info, in the query, in libpq's words."""

from __future__ import annotations

import pytest

from quizapp.srs.store.history import PostgresLocation, StudentToAsk
from quizapp.srs.store.url_redaction import passwords, redacted, redacted_message


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        ("postgresql://ada:s3cret@db.example/class", "postgresql://ada:***@db.example/class"),
        (
            "postgresql://ada@db.example/class?sslmode=require&password=s3cret",
            "postgresql://ada@db.example/class?sslmode=require&password=***",
        ),
        (
            "postgresql://ada:s3cret@db.example/class?password=s3cret&sslmode=require",
            "postgresql://ada:***@db.example/class?password=***&sslmode=require",
        ),
        ("postgres://db.example?password=s3cret", "postgres://db.example?password=***"),
        (  # the client key's password is a secret too
            "postgresql://db.example/c?sslpassword=s3cret&sslkey=k.pem",
            "postgresql://db.example/c?sslpassword=***&sslkey=k.pem",
        ),
        (  # libpq decodes the parameter's name too
            "postgresql://db.example/c?pass%77ord=s3cret",
            "postgresql://db.example/c?pass%77ord=***",
        ),
        (
            "POSTGRESQL://ada:s3cret@[::1]:5432,db.example:5433/class",
            "POSTGRESQL://ada:***@[::1]:5432,db.example:5433/class",
        ),
    ],
)
def test_the_password_is_masked_in_both_places(url: str, shown: str) -> None:
    assert redacted(url) == shown
    assert "s3cret" not in redacted(url)


@pytest.mark.parametrize(
    "url",
    [
        "postgresql://ada:s3%40cr%3Aet@db.example/class",  # "s3@cr:et", percent-encoded
        "postgresql://ada:s3@cr:et@db.example/class",  # the same, written raw
        "postgresql://ada:s3?cr/et@db.example/class",
        "postgresql://ada:s3?x=cr@db.example/class?password=s3cret",
        "postgresql://ada@db.example/class?password=s3%26cr%3Det",
        "postgresql://ada:s3cr@db.example?password=s3@cret",
    ],
)
def test_percent_encoded_and_awkward_passwords_are_masked_whole(url: str) -> None:
    shown = redacted(url)
    assert shown.startswith("postgresql://ada") and "***" in shown
    assert "s3" not in shown and "cr" not in shown and "et" not in shown.replace("/class", "")
    assert passwords(url) and not any(secret in shown for secret in passwords(url))


def test_the_passwords_are_found_as_written_and_decoded() -> None:
    url = "postgresql://ada:s3%40cret@h/c?password=p%26w"
    assert passwords(url) == {"s3%40cret", "s3@cret", "p%26w", "p&w"}
    assert passwords("postgresql://ada@h/c") == set()


@pytest.mark.parametrize(
    "url",
    [
        "postgresql://ada@db.example:5432/class",
        "postgresql://db.example/class?sslmode=require&application_name=quiz",
        "postgresql://ada@db.example/class?password",  # no value: nothing to hide
    ],
)
def test_a_url_without_a_password_is_shown_as_it_is(url: str) -> None:
    assert redacted(url) == url


@pytest.mark.parametrize(
    "path",
    ["/home/ada/.local/share/quizapp/history.sqlite3", "history.db", "C:\\Users\\a:b@c\\h.db"],
)
def test_a_path_is_not_a_url_and_is_left_alone(path: str) -> None:
    assert redacted(path) == path
    assert passwords(path) == set()
    assert redacted_message(f"{path} is a folder", path) == f"{path} is a folder"


def test_a_drivers_message_loses_the_url_and_the_token_it_quotes() -> None:
    url = "postgresql://ada:s3%zzcret@[::1/x?password=s3cret"
    quoted_url = f'end of string reached looking for "]" in URI: "{url}"'
    said = redacted_message(quoted_url, url)
    assert "s3" not in said and "postgresql://ada:***@[::1/x?password=***" in said
    token = redacted_message('invalid percent-encoded token: "s3%zzcret"', url)
    assert token == 'invalid percent-encoded token: "***"'
    plain = 'connection to server at "127.0.0.1", port 1 failed: Connection refused'
    assert redacted_message(plain, url) == plain


def test_locations_print_redacted() -> None:
    url = "postgresql://ada:s3cret@db.example/class?password=s3cret"
    assert "s3cret" not in str(PostgresLocation(url, "ada"))
    assert "s3cret" not in str(StudentToAsk(url))
    assert str(StudentToAsk(url)) == "postgresql://ada:***@db.example/class?password=***"
