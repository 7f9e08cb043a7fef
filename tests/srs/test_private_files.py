"""Files holding a student's answers are private: the history, the outbox and answer exports
are created 0600 and the folders the app creates for them 0700, whatever the umask; folders
the user already had, and an existing history, keep their modes."""

from __future__ import annotations

import os
import sqlite3
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from quizapp.authoring.output_file import write_output
from quizapp.srs.store.outbox import Outbox, encode
from quizapp.srs.store.private_files import SQLITE_SIDE_FILES
from quizapp.srs.store.sqlite.store import HistoryError, ReviewStore
from quizapp.srs.store.writes import FlagWrite

pytestmark = pytest.mark.skipif(os.name != "posix", reason="POSIX permission bits")


@pytest.fixture(autouse=True)
def usual_umask() -> Iterator[None]:
    """The common umask 022, under which a plain open() makes a file 0644."""
    before = os.umask(0o022)
    try:
        yield
    finally:
        os.umask(before)


def mode_of(path: Path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


def side_files(database: Path) -> list[Path]:
    candidates = [database.with_name(database.name + side) for side in SQLITE_SIDE_FILES]
    return [side for side in candidates if side.exists()]


def test_a_new_history_and_its_new_folders_are_private(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    os.chmod(home, 0o755)
    history = home / "data" / "quizapp" / "history.sqlite3"
    store = ReviewStore.open(history)
    try:
        sides = side_files(history)
        assert sides, "an open WAL history has its -wal/-shm beside it"
        assert {side.name: mode_of(side) for side in sides} == {side.name: 0o600 for side in sides}
    finally:
        store.close()
    assert mode_of(history) == 0o600
    assert mode_of(history.parent) == 0o700
    assert mode_of(history.parent.parent) == 0o700
    assert mode_of(home) == 0o755  # the user's own folder: left as it was


def test_an_existing_user_folder_keeps_its_mode(tmp_path: Path) -> None:
    chosen = tmp_path / "shared-with-group"
    chosen.mkdir()
    os.chmod(chosen, 0o775)
    ReviewStore.open(chosen / "history.sqlite3").close()
    assert mode_of(chosen) == 0o775
    assert mode_of(chosen / "history.sqlite3") == 0o600


def test_an_existing_0644_history_still_opens_and_keeps_its_mode(tmp_path: Path) -> None:
    history = tmp_path / "history.sqlite3"
    ReviewStore.open(history).close()
    os.chmod(history, 0o644)
    store = ReviewStore.open(history)
    try:
        assert store.notice is None  # opened as it is, not moved aside
    finally:
        store.close()
    assert mode_of(history) == 0o644


def test_a_new_outbox_its_lock_and_its_new_folder_are_private(tmp_path: Path) -> None:
    path = tmp_path / "outbox" / "server.sqlite3"
    outbox = Outbox(path)
    own = outbox.own_path
    lock = own.with_name(own.name + ".lock")
    try:
        outbox.add(FlagWrite("q1", "suspend", None))
        assert {side.name: mode_of(side) for side in side_files(own)} == {
            side.name: 0o600 for side in side_files(own)
        }
        assert mode_of(lock) == 0o600
    finally:
        outbox.close()
    assert mode_of(own) == 0o600  # kept: it holds a write
    assert mode_of(path.parent) == 0o700


def test_an_outbox_made_0644_by_an_older_app_is_taken_into_a_private_one(tmp_path: Path) -> None:
    folder = tmp_path / "chosen"
    folder.mkdir()
    os.chmod(folder, 0o755)
    path = folder / "outbox.sqlite3"
    older = sqlite3.connect(path)
    older.execute("CREATE TABLE waiting (seq INTEGER PRIMARY KEY AUTOINCREMENT, body TEXT)")
    older.execute("INSERT INTO waiting (body) VALUES (?)", (encode(FlagWrite("q1", "bury", None)),))
    older.commit()
    older.close()
    os.chmod(path, 0o644)
    outbox = Outbox(path)
    try:
        assert [write for _seq, write in outbox.entries()] == [FlagWrite("q1", "bury", None)]
        assert not path.exists()  # taken over: its writes are in this process's file now
        assert mode_of(outbox.own_path) == 0o600
    finally:
        outbox.close()
    assert mode_of(folder) == 0o755  # the user's folder: never changed


def test_an_answer_export_is_private_and_other_exports_follow_the_umask(tmp_path: Path) -> None:
    answers = tmp_path / "answers.csv"
    deck = tmp_path / "deck.yaml"
    write_output(answers, b"question,rating\nq1,3\n", replace=False, private=True)
    write_output(deck, b"questions: []\n", replace=False)
    assert mode_of(answers) == 0o600
    assert mode_of(deck) == 0o644
    assert answers.read_bytes() == b"question,rating\nq1,3\n"


def test_replacing_a_0644_file_with_answers_makes_it_private(tmp_path: Path) -> None:
    answers = tmp_path / "answers.csv"
    answers.write_bytes(b"old\n")
    os.chmod(answers, 0o644)
    write_output(answers, b"new\n", replace=True, private=True)
    assert mode_of(answers) == 0o600
    assert answers.read_bytes() == b"new\n"


def test_a_file_where_the_history_folder_should_be_is_a_clear_error(tmp_path: Path) -> None:
    blocker = tmp_path / "data"
    blocker.write_text("not a folder")
    with pytest.raises(HistoryError, match="cannot be created: Not a directory"):
        ReviewStore.open(blocker / "history.sqlite3")
