"""The outbox's files (quizapp/srs/store/outbox.py): named by where the answers go and never by the
password, one per process, locked while it runs, taken over once its process is gone."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from quizapp.srs.store.history import PostgresLocation
from quizapp.srs.store.outbox import (
    Outbox,
    OutboxUnreadable,
    encode,
    identity,
    kept_writes,
    legacy_path,
    outbox_path,
)
from quizapp.srs.store.writes import FlagWrite

BASE = "postgresql://ada:first-secret@db.example:5432/course?options=-csearch_path%3Dquizapp"
BURY = FlagWrite("q1", "bury", None)
SUSPEND = FlagWrite("q2", "suspend", None)


def name_of(url: str, student: str = "ada", folder: Path = Path("/outbox")) -> str:
    return outbox_path(PostgresLocation(url, student), folder).name


def test_a_new_password_keeps_the_outbox_and_never_reaches_its_name() -> None:
    same = [
        BASE.replace("first-secret", "second-secret"),
        BASE.replace("ada:first-secret@", "ada@") + "&password=third-secret",
        BASE + "&sslmode=require&connect_timeout=5",
        BASE.replace("db.example", "DB.EXAMPLE"),
    ]
    assert {name_of(url) for url in same} == {name_of(BASE)}
    assert "secret" not in identity(PostgresLocation(BASE + "&password=x-secret", "ada"))


@pytest.mark.parametrize(
    "other",
    [
        BASE.replace("db.example", "other.example"),  # host
        BASE.replace(":5432", ":5433"),  # port
        BASE.replace("/course", "/other"),  # database
        BASE.replace("ada:", "instructor:"),  # user
        BASE.replace("search_path%3Dquizapp", "search_path%3Dother"),  # schema
        BASE + "&user=bob",  # the user as a query parameter, which libpq prefers
    ],
)
def test_every_part_of_where_the_answers_go_names_its_own_outbox(other: str) -> None:
    assert name_of(other) != name_of(BASE)


def test_another_student_has_another_outbox() -> None:
    assert name_of(BASE, "bob") != name_of(BASE)


def keep(path: Path, *writes: object) -> None:
    """An outbox file as a gone process (or an older app) left it."""
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE waiting (seq INTEGER PRIMARY KEY AUTOINCREMENT, body TEXT)")
    for write in writes:
        db.execute("INSERT INTO waiting (body) VALUES (?)", (encode(write),))  # type: ignore[arg-type]
    db.commit()
    db.close()


def test_an_outbox_under_the_older_name_is_moved_and_taken_over(tmp_path: Path) -> None:
    location = PostgresLocation(BASE, "ada")
    older = legacy_path(location, tmp_path)
    keep(older, BURY)
    path = outbox_path(location, tmp_path)
    assert path != older and not older.exists()
    outbox = Outbox(path)
    try:
        assert [write for _seq, write in outbox.entries()] == [BURY]
    finally:
        outbox.close()


def test_a_running_process_keeps_its_own_and_a_gone_ones_is_taken_over(tmp_path: Path) -> None:
    path = tmp_path / "shared.sqlite3"
    first = Outbox(path)
    first.add(BURY)
    second = Outbox(path)  # the first still runs: its file is locked, and left alone
    assert second.entries() == [] and kept_writes(path) == [BURY]
    second.add(SUSPEND)
    first.close()  # it quits with BURY unsent: the file stays for the next start
    second.close()
    third = Outbox(path)
    try:
        assert sorted(str(w) for _seq, w in third.entries()) == sorted([str(BURY), str(SUSPEND)])
        # The two taken over are gone, with their locks: only this process's file is left.
        assert list(tmp_path.glob("*.sqlite3")) == [third.own_path]
        assert [p.name for p in tmp_path.glob("*.lock")] == [third.own_path.name + ".lock"]
        for seq, _write in third.entries():
            third.remove(seq)
    finally:
        third.close()
    assert list(tmp_path.iterdir()) == []  # emptied: removed with its lock


def test_a_damaged_outbox_is_refused_by_name_and_left_as_it_is(tmp_path: Path) -> None:
    path = tmp_path / "shared.sqlite3"
    damaged = b"SQLite format 3\x00" + b"\xff" * 4080
    path.write_bytes(damaged)
    with pytest.raises(OutboxUnreadable, match=str(path)):
        Outbox(path)
    assert path.read_bytes() == damaged
    assert [p.name for p in tmp_path.iterdir() if p != path] in ([], [path.name + ".lock"])
