"""The history is moved aside only when it is proved damaged or foreign, on real files.

A full disk (a small tmpfs), a read-only folder (a read-only bind mount), a device made with
mknod, a FIFO, a folder and a socket: each is a one-line HistoryError naming the path and
the cause, and the file system is left exactly as it was. A genuinely corrupted file and
another application's database are moved aside, and the notice says where to.
"""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime
from pathlib import Path

import pytest

from quizapp.cli.stats import run_stats
from quizapp.srs.store.sqlite import history_file
from quizapp.srs.store.sqlite.history_file import HistoryError
from quizapp.srs.store.sqlite.store import ReviewStore
from tests.srs.filesystems import (
    KIND_WORDS,
    SPECIAL_KINDS,
    answer,
    fill,
    make_history,
    make_special,
    read_only_view,
    small_tmpfs,
    snapshot,
)

NOW = datetime(2025, 3, 20, 12, 0, tzinfo=UTC)


def stats_json(path: Path, capsys) -> tuple[int, dict | None, str]:
    import json

    code = run_stats(path, {}, True, NOW)
    out, err = capsys.readouterr()
    return code, (json.loads(out) if code == 0 else None), err


def one_line_error(err: str, *fragments: str) -> None:
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert "Traceback" not in err
    for fragment in fragments:
        assert fragment in lines[0], (fragment, lines[0])


# -- telling damage from trouble, by SQLite's result codes -------------------------------------


def sqlite_error(make) -> sqlite3.Error:
    with pytest.raises(sqlite3.Error) as info:
        make()
    return info.value


def test_corrupt_and_not_a_database_are_damage_and_nothing_else_is(tmp_path: Path) -> None:
    text = tmp_path / "text.db"
    text.write_bytes(b"not a database at all, but long enough to have a header" * 4)
    not_a_db = sqlite_error(lambda: sqlite3.connect(text).execute("SELECT 1 FROM sqlite_master"))
    assert not_a_db.sqlite_errorname == "SQLITE_NOTADB"

    locked_path = tmp_path / "locked.db"
    holder = sqlite3.connect(locked_path, isolation_level=None)
    holder.execute("CREATE TABLE t (x)")
    holder.execute("BEGIN EXCLUSIVE")
    other = sqlite3.connect(locked_path, timeout=0)
    busy = sqlite_error(lambda: other.execute("SELECT * FROM t"))
    holder.execute("ROLLBACK")
    holder.close()
    other.close()

    cant_open = sqlite_error(
        lambda: sqlite3.connect(tmp_path / "no" / "such" / "folder.db").execute("SELECT 1")
    )
    read_only = sqlite3.connect(f"file:{locked_path}?mode=ro", uri=True)
    readonly = sqlite_error(lambda: read_only.execute("INSERT INTO t VALUES (1)"))
    read_only.close()

    assert history_file.is_damage(not_a_db)
    for trouble in (busy, cant_open, readonly):
        assert not history_file.is_damage(trouble), trouble.sqlite_errorname
    assert history_file.is_busy(busy) and not history_file.is_busy(readonly)
    assert "(SQLITE_BUSY)" in history_file.cause(busy)


# -- not a regular file --------------------------------------------------------------------------


@pytest.mark.parametrize("kind", SPECIAL_KINDS)
def test_a_special_file_is_refused_and_left_alone(tmp_path: Path, kind: str, capsys) -> None:
    folder = tmp_path / "data"
    folder.mkdir()
    path = folder / "h.db"
    with make_special(kind, path):
        before = snapshot(folder)
        for opening in (ReviewStore.open, ReviewStore.open_readonly):
            with pytest.raises(HistoryError) as info:
                opening(path)
            message = str(info.value)
            assert str(path) in message and KIND_WORDS[kind] in message
            assert "\n" not in message
        code, _, err = stats_json(path, capsys)
        assert code == 1
        one_line_error(err, str(path), KIND_WORDS[kind], "left as it is")
        assert snapshot(folder) == before  # nothing renamed, nothing created beside it
        if kind == "folder":
            assert snapshot(path) == {"inside.txt": (0o100000, 0, b"keep me")}


def test_the_cli_refuses_a_device_for_stats_and_drill(tmp_path: Path, run_cli) -> None:
    folder = tmp_path / "data"
    folder.mkdir()
    device = folder / "null"
    with make_special("character device", device):
        before = snapshot(folder)
        stats = run_cli("stats", "--db", str(device))
        assert stats.returncode == 1
        one_line_error(stats.stderr, str(device), "is a character device")
        drill = run_cli("drill", "--db", str(device))
        assert drill.returncode == 1
        assert "Traceback" not in drill.stderr
        # The app drew its first frame on the terminal (stderr here) before it found out.
        last = drill.stderr[drill.stderr.rindex("quizapp: error:") :].strip()
        assert "\n" not in last
        assert last.startswith("quizapp: error: the review history could not be opened:")
        assert str(device) in last and "is a character device" in last
        assert snapshot(folder) == before


# -- a full disk ---------------------------------------------------------------------------------


def test_a_full_disk_never_moves_a_healthy_history(tmp_path: Path, capsys) -> None:
    with small_tmpfs(tmp_path / "disk") as disk:
        path = disk / "h.db"
        make_history(path, 20)
        filler = fill(disk)
        before = snapshot(disk)
        # Reading needs no space: stats reads the history as it is.
        code, payload, err = stats_json(path, capsys)
        assert code == 0, err
        assert payload["totals"]["reviews"] == 20
        assert snapshot(disk) == before
        # Opening to write cannot even make its -shm: trouble, not damage.
        with pytest.raises(HistoryError) as info:
            ReviewStore.open(path)
        message = str(info.value)
        assert str(path) in message and "left as it is" in message
        assert "full" in message, message
        assert not list(disk.glob("*unusable*"))
        assert path.read_bytes() == before["h.db"][2]
        filler.unlink()
        with ReviewStore.open(path) as store:
            assert store.notice is None and store.review_count() == 20


def test_a_full_disk_with_a_live_wal_reads_and_keeps_everything(tmp_path: Path, capsys) -> None:
    # As the issue found it: another instance has the history open, its latest answers in
    # the -wal, and the disk fills up.
    with small_tmpfs(tmp_path / "disk") as disk:
        path = disk / "h.db"
        running = make_history(path, 30, keep_open=True)
        assert running is not None
        try:
            assert Path(f"{path}-wal").stat().st_size > 0
            filler = fill(disk)
            with pytest.raises(sqlite3.OperationalError) as info:
                for i in range(200):
                    answer(running, f"more{i}", 1000 + i)
            assert info.value.sqlite_errorname == "SQLITE_FULL"
            before = snapshot(disk)
            code, payload, err = stats_json(path, capsys)
            assert code == 0, err
            reviews = payload["totals"]["reviews"]
            assert reviews >= 30
            try:
                store = ReviewStore.open(path)
            except HistoryError as exc:
                assert str(path) in str(exc) and "left as it is" in str(exc)
            else:
                with store:
                    assert store.notice is None and store.review_count() == reviews
            assert not list(disk.glob("*unusable*"))
            assert {k: v for k, v in snapshot(disk).items() if k != "h.db-shm"}.keys() == {
                k for k in before if k != "h.db-shm"
            }
            filler.unlink()
        finally:
            running.close()
        with ReviewStore.open(path) as store:
            assert store.review_count() == reviews


def test_a_new_history_on_a_full_disk_is_a_clear_error(tmp_path: Path) -> None:
    with small_tmpfs(tmp_path / "disk") as disk:
        fill(disk)
        path = disk / "fresh" / "h.db"
        with pytest.raises(HistoryError) as info:
            ReviewStore.open(path)
        assert str(path) in str(info.value)
        assert not list(disk.rglob("*unusable*"))


# -- a read-only folder ------------------------------------------------------------------------


def test_a_read_only_folder_is_read_but_never_written(tmp_path: Path, capsys) -> None:
    source = tmp_path / "source"
    source.mkdir()
    make_history(source / "h.db", 12)
    with read_only_view(source, tmp_path / "view") as view:
        before = snapshot(view)
        code, payload, err = stats_json(view / "h.db", capsys)
        assert code == 0, err
        assert payload["totals"]["reviews"] == 12
        # A missing history in a read-only folder reads as empty, like anywhere else.
        code, payload, err = stats_json(view / "missing.db", capsys)
        assert code == 0, err
        assert payload["totals"]["reviews"] == 0
        with pytest.raises(HistoryError) as info:
            ReviewStore.open(view / "h.db")
        assert "read-only" in str(info.value) and str(view / "h.db") in str(info.value)
        with pytest.raises(HistoryError) as info:
            ReviewStore.open(view / "missing.db")
        assert str(view / "missing.db") in str(info.value)
        assert snapshot(view) == before


# -- reading never writes ------------------------------------------------------------------------


def test_reading_creates_migrates_and_moves_nothing(tmp_path: Path, capsys) -> None:
    from quizapp.srs.store.sqlite.store import APPLICATION_ID

    # Ours, never migrated (version 0): read as an empty history, the file untouched.
    old = tmp_path / "old.db"
    db = sqlite3.connect(old)
    db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    db.execute("CREATE TABLE IF NOT EXISTS _tmp (x)")  # make the file non-empty…
    db.execute("DROP TABLE _tmp")  # …with no tables of its own
    db.commit()
    db.close()
    healthy = tmp_path / "h.db"
    make_history(healthy, 5)
    before = snapshot(tmp_path)
    code, payload, err = stats_json(old, capsys)
    assert code == 0, err
    assert payload["totals"]["reviews"] == 0
    code, payload, err = stats_json(healthy, capsys)
    assert code == 0, err
    assert payload["totals"]["reviews"] == 5
    code, payload, err = stats_json(tmp_path / "nowhere" / "h.db", capsys)
    assert code == 0 and payload["totals"]["reviews"] == 0
    assert snapshot(tmp_path) == before


def test_reading_a_history_another_program_holds_locked(tmp_path: Path, capsys) -> None:
    path = tmp_path / "h.db"
    make_history(path, 4)
    holder = sqlite3.connect(path, isolation_level=None)
    try:
        holder.execute("BEGIN EXCLUSIVE")
        code, payload, err = stats_json(path, capsys)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert code == 0, err
    assert payload["totals"]["reviews"] == 4


# -- damage and foreign files: moved aside, and said where -----------------------------------------


def corrupt(path: Path) -> None:
    """Overwrite the middle pages of a real history with garbage: SQLite finds it on reading."""
    make_history(path, 300)
    data = bytearray(path.read_bytes())
    assert len(data) > 8 * 4096
    for page in range(2, len(data) // 4096 - 1):
        data[page * 4096 + 8 : page * 4096 + 4000] = bytes([0xA5]) * (4000 - 8)
    path.write_bytes(bytes(data))


def foreign(path: Path) -> None:
    db = sqlite3.connect(path)
    db.execute("PRAGMA application_id = 1234")
    db.execute("CREATE TABLE notes (body TEXT)")
    db.commit()
    db.close()


@pytest.mark.parametrize("make", [corrupt, foreign], ids=["corrupted", "foreign"])
def test_damage_is_refused_by_stats_and_moved_aside_by_the_app(
    tmp_path: Path, make, capsys
) -> None:
    path = tmp_path / "h.db"
    make(path)
    original = path.read_bytes()
    before = snapshot(tmp_path)
    code, _, err = stats_json(path, capsys)
    assert code == 1
    one_line_error(err, str(path), "left as it is", "moves it aside")
    assert snapshot(tmp_path) == before  # a read-only command moves nothing
    with ReviewStore.open(path) as store:
        notice = store.notice
        assert store.review_count() == 0
    [moved] = [p for p in tmp_path.glob("h.db.unusable-*") if not p.name.endswith(("wal", "shm"))]
    assert notice is not None and str(path) in notice and str(moved) in notice
    assert moved.read_bytes() == original


def damage_one_page(path: Path) -> str:
    """Garble one page of a real history so that only `PRAGMA quick_check` finds it, with a
    verdict of many lines (one per bad cell). Returns that verdict."""
    make_history(path, 300)
    healthy = path.read_bytes()
    for page in range(1, len(healthy) // 4096):
        data = bytearray(healthy)
        data[page * 4096 + 100 : page * 4096 + 2100] = b"\xff" * 2000
        path.write_bytes(bytes(data))
        probe = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            verdict = "\n".join(row[0] for row in probe.execute("PRAGMA quick_check"))
        except sqlite3.DatabaseError:
            continue  # found on reading already: not the case under test
        finally:
            probe.close()
        if verdict.count("\n") > 3:
            return verdict
    pytest.fail("no page whose damage only quick_check finds")


def test_a_long_quick_check_verdict_is_told_in_one_line(tmp_path: Path) -> None:
    path = tmp_path / "h.db"
    verdict = damage_one_page(path)
    with ReviewStore.open(path) as store:
        notice = store.notice
    [moved] = [p for p in tmp_path.glob("h.db.unusable-*") if not p.name.endswith(("wal", "shm"))]
    assert notice is not None and "\n" not in notice, notice
    first = next(line for line in verdict.splitlines() if not line.startswith("***"))
    assert first in notice and "more" in notice
    assert str(path) in notice and str(moved) in notice
    assert len(notice.replace(str(moved), "").replace(str(path), "")) < 200, notice
