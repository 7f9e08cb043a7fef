"""The history against real processes: kill -9, two writers at once, and files that are not ours.

Each scenario runs real interpreters on a real file, as two terminals (or a crash) would.
"""

from __future__ import annotations

import os
import random
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from datetime import UTC, datetime
from pathlib import Path

import pytest

from quizapp.srs.memory.scheduling import Rating, make_scheduler
from quizapp.srs.store.sqlite.store import APPLICATION_ID, SCHEMA_VERSION, ReviewStore
from tests.conftest import REPO

T0 = datetime(2025, 3, 10, 9, 0, tzinfo=UTC)
TIMEOUT = 60

pytestmark = pytest.mark.skipif(
    not hasattr(signal, "SIGKILL"), reason="needs POSIX signals and processes"
)

_ANSWER_LOOP = textwrap.dedent(
    """
    import sys
    from datetime import UTC, datetime, timedelta
    from quizapp.srs.memory.scheduling import Rating, make_scheduler
    from quizapp.srs.store.sqlite.store import ReviewStore

    path, start = sys.argv[1], int(sys.argv[2])
    store = ReviewStore.open(path)
    scheduler = make_scheduler(fuzz=False)
    t0 = datetime(2025, 3, 10, 9, 0, tzinfo=UTC)
    i = start
    while True:
        # Ten questions answered over and over: new cards, then updates of existing ones.
        store.record_answer(
            question_id=f"q{i % 10}", deck_id="d", topic="t",
            rating=Rating(1 + i % 4), correct=i % 4 != 0,
            when=t0 + timedelta(minutes=i), duration_ms=i, kind="drill", scheduler=scheduler,
        )
        print(i, flush=True)  # only once the answer is committed
        i += 1
    """
)

_WRITER = textwrap.dedent(
    """
    import sys, time
    from datetime import UTC, datetime, timedelta
    from pathlib import Path
    from quizapp.srs.memory.scheduling import Rating, make_scheduler
    from quizapp.srs.store.sqlite.store import ReviewStore

    path, name, n, go = sys.argv[1], sys.argv[2], int(sys.argv[3]), Path(sys.argv[4])
    scheduler = make_scheduler(fuzz=False)
    t0 = datetime(2025, 3, 10, 9, 0, tzinfo=UTC)
    print("ready", flush=True)
    while not go.exists():
        time.sleep(0.002)
    store = ReviewStore.open(path)  # both open the same new file at once
    print("notice", store.notice, flush=True)
    for i in range(n):
        # Every other answer is to a card both writers share: read-modify-write on one row.
        qid = "shared" if i % 2 else f"{name}-{i}"
        store.record_answer(
            question_id=qid, deck_id=name, topic="t", rating=Rating.Good, correct=True,
            when=t0 + timedelta(seconds=i), duration_ms=i, kind="quiz", scheduler=scheduler,
        )
    store.close()
    print("done", flush=True)
    """
)


def python(*args: str, **kwargs) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    return subprocess.Popen([sys.executable, *args], cwd=REPO, env=env, text=True, **kwargs)


def integrity(path: Path) -> str:
    db = sqlite3.connect(path)
    try:
        return db.execute("PRAGMA integrity_check").fetchone()[0]
    finally:
        db.close()


def durations(path: Path) -> list[int]:
    db = sqlite3.connect(path)
    try:
        return [r[0] for r in db.execute("SELECT duration_ms FROM reviews ORDER BY id")]
    finally:
        db.close()


# -- kill -9 --------------------------------------------------------------------------------


def kill_mid_loop(path: Path, start: int, lines: int) -> list[int]:
    """Run the answer loop, SIGKILL it after `lines` committed answers, return every id it
    reported as committed (including any still in the pipe)."""
    child = python("-c", _ANSWER_LOOP, str(path), str(start), stdout=subprocess.PIPE)
    assert child.stdout is not None
    reported: list[int] = []
    deadline = time.monotonic() + TIMEOUT
    try:
        while len(reported) < lines:
            line = child.stdout.readline()
            assert line, f"the child stopped early (exit {child.poll()})"
            reported.append(int(line))
            assert time.monotonic() < deadline
        os.kill(child.pid, signal.SIGKILL)
        child.wait(TIMEOUT)
        reported.extend(int(line) for line in child.stdout.read().split())
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
        child.stdout.close()
    assert child.returncode == -signal.SIGKILL
    return reported


def test_kill_9_loses_no_committed_answer(tmp_path: Path) -> None:
    path = tmp_path / "history.sqlite3"
    committed: list[int] = []
    # Three crashes in a row: each restart recovers the previous one's WAL and carries on.
    for round_, lines in enumerate((15, 40, 7)):
        reported = kill_mid_loop(path, start=1000 * round_, lines=lines)
        assert reported == list(range(1000 * round_, 1000 * round_ + len(reported)))
        committed.extend(reported)
        assert integrity(path) == "ok"
        stored = durations(path)
        missing = set(committed) - set(stored)
        assert not missing, f"answers reported as committed were lost: {sorted(missing)[:10]}"
        # At most the answer in flight when the signal landed is there without being reported.
        assert len(stored) - len(committed) <= round_ + 1
    with ReviewStore.open(path) as store:
        assert store.notice is None
        assert store.known_ids() == {f"q{i}" for i in range(10)}
        assert store.review_count() >= len(committed)
        assert not store.connection.in_transaction


# -- two writers at once --------------------------------------------------------------------


def test_two_writers_share_one_file(tmp_path: Path) -> None:
    path, go, n = tmp_path / "history.sqlite3", tmp_path / "go", 60
    writers = [
        python(
            "-c",
            _WRITER,
            str(path),
            name,
            str(n),
            str(go),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        for name in ("alpha", "beta")
    ]
    try:
        for writer in writers:
            assert writer.stdout is not None
            assert writer.stdout.readline().strip() == "ready"
        go.touch()  # both start at the same moment
        outputs = [writer.communicate(timeout=TIMEOUT) for writer in writers]
    finally:
        for writer in writers:
            if writer.poll() is None:
                writer.kill()
                writer.communicate()
    for writer, (out, err) in zip(writers, outputs, strict=True):
        assert "locked" not in err.lower(), err
        assert writer.returncode == 0, err
        assert out.split("\n")[:2] == ["notice None", "done"], (out, err)
    assert integrity(path) == "ok"
    with ReviewStore.open(path) as store:
        assert store.notice is None
        assert store.review_count() == 2 * n
        own = {f"{name}-{i}" for name in ("alpha", "beta") for i in range(0, n, 2)}
        assert store.known_ids() == own | {"shared"}
        # Every read-modify-write of the shared card saw the one before it.
        shared = store.connection.execute(
            "SELECT COUNT(*), SUM(state_before IS NULL) FROM reviews WHERE question_id = 'shared'"
        ).fetchone()
        assert shared == (n, 1)
        assert store.connection.execute(
            "SELECT first_review_ms > 0 FROM cards WHERE question_id = 'shared'"
        ).fetchone() == (1,)
    db = sqlite3.connect(path)
    try:
        assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        assert db.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
    finally:
        db.close()


_OPENER = textwrap.dedent(
    """
    import sys, time
    from pathlib import Path
    from quizapp.srs.store.sqlite.store import ReviewStore

    folder, rounds = Path(sys.argv[1]), int(sys.argv[2])
    print("ready", flush=True)
    for r in range(rounds):
        while not (folder / f"go-{r}").exists():
            time.sleep(0.001)
        try:
            store = ReviewStore.open(folder / f"history-{r}.sqlite3")
            print(r, store.notice, flush=True)
            store.close()
        except Exception as exc:
            print(r, type(exc).__name__, exc, flush=True)
    """
)


def test_many_instances_open_a_new_file_at_once(tmp_path: Path) -> None:
    # Each new file is created, switched to WAL and migrated by whichever instance gets there
    # first; the others wait. None may take the file for damaged and move it aside.
    instances, rounds = 6, 12
    openers = [
        python("-c", _OPENER, str(tmp_path), str(rounds), stdout=subprocess.PIPE)
        for _ in range(instances)
    ]
    try:
        for opener in openers:
            assert opener.stdout is not None
            assert opener.stdout.readline().strip() == "ready"
        for r in range(rounds):
            (tmp_path / f"go-{r}").touch()
            for opener in openers:
                assert opener.stdout.readline().strip() == f"{r} None"
        for opener in openers:
            assert opener.wait(TIMEOUT) == 0
    finally:
        for opener in openers:
            if opener.poll() is None:
                opener.kill()
                opener.wait()
            opener.stdout.close()
    assert not list(tmp_path.glob("*unusable*"))
    for r in range(rounds):
        assert integrity(tmp_path / f"history-{r}.sqlite3") == "ok"


# -- files that are not ours ----------------------------------------------------------------


def our_database_bytes(tmp_path: Path) -> bytes:
    source = tmp_path / "source.sqlite3"
    with ReviewStore.open(source) as store:
        scheduler = make_scheduler(fuzz=False)
        for i in range(200):
            store.record_answer(
                question_id=f"q{i}",
                deck_id="d",
                topic="a long topic name " * 4,
                rating=Rating.Good,
                correct=True,
                when=T0,
                duration_ms=i,
                kind="quiz",
                scheduler=scheduler,
            )
    data = source.read_bytes()
    source.unlink()
    assert len(data) > 3 * 4096
    return data


def sqlite_of_another_app(path: Path, application_id: int, table: str = "notes") -> None:
    db = sqlite3.connect(path)
    db.execute(f"PRAGMA application_id = {application_id}")
    db.execute(f"CREATE TABLE {table} (id INTEGER PRIMARY KEY, body TEXT)")
    db.executemany(f"INSERT INTO {table} (body) VALUES (?)", [(f"note {i}",) for i in range(50)])
    db.commit()
    db.close()


def make_text(path: Path, tmp_path: Path) -> None:
    path.write_text("my study notes\nattention is all you need\n", encoding="utf-8")


def make_random(path: Path, tmp_path: Path) -> None:
    path.write_bytes(random.Random(7).randbytes(20_000))


def make_truncated_header(path: Path, tmp_path: Path) -> None:
    path.write_bytes(our_database_bytes(tmp_path)[:60])


def make_truncated_pages(path: Path, tmp_path: Path) -> None:
    data = our_database_bytes(tmp_path)
    path.write_bytes(data[: len(data) // 2])


def make_truncated_first_page(path: Path, tmp_path: Path) -> None:
    path.write_bytes(our_database_bytes(tmp_path)[:1500])


def make_foreign_zero_id(path: Path, tmp_path: Path) -> None:
    sqlite_of_another_app(path, 0)


def make_foreign_other_id(path: Path, tmp_path: Path) -> None:
    sqlite_of_another_app(path, 0x12345678)


def make_foreign_with_a_reviews_table(path: Path, tmp_path: Path) -> None:
    # Unmarked, with a `reviews` table of its own: only the migration finds out.
    sqlite_of_another_app(path, 0, table="reviews")


def make_garbage_after_the_magic(path: Path, tmp_path: Path) -> None:
    path.write_bytes(b"SQLite format 3\x00" + random.Random(3).randbytes(8000))


def make_folder(path: Path, tmp_path: Path) -> None:
    path.mkdir()
    (path / "inside.txt").write_text("keep me")


CASES = {
    "text": make_text,
    "random bytes": make_random,
    "truncated header": make_truncated_header,
    "truncated first page": make_truncated_first_page,
    "truncated pages": make_truncated_pages,
    "garbage after the magic": make_garbage_after_the_magic,
    "another app, application_id 0": make_foreign_zero_id,
    "another app, its own id": make_foreign_other_id,
    "another app with a reviews table": make_foreign_with_a_reviews_table,
}


def snapshot(path: Path) -> dict[str, bytes]:
    if path.is_dir():
        return {p.name: p.read_bytes() for p in path.iterdir()}
    return {"": path.read_bytes()}


def assert_fresh_and_usable(path: Path) -> None:
    with ReviewStore.open(path) as store:
        assert store.notice is None
        assert store.review_count() == 0
        store.record_answer(
            question_id="q1",
            deck_id="d",
            topic="t",
            rating=Rating.Good,
            correct=True,
            when=T0,
            duration_ms=1,
            kind="quiz",
            scheduler=make_scheduler(fuzz=False),
        )
    with ReviewStore.open(path) as store:
        assert store.notice is None
        assert store.review_count() == 1
    assert integrity(path) == "ok"


def moved_to(path: Path) -> Path:
    candidates = [
        p
        for p in path.parent.glob(path.name + ".unusable-*")
        if not p.name.endswith(("-wal", "-shm"))
    ]
    assert len(candidates) == 1, candidates
    return candidates[0]


def test_a_folder_at_the_path_is_refused_and_left_alone(tmp_path: Path) -> None:
    from quizapp.srs.store.sqlite.store import HistoryError

    path = tmp_path / "notes"
    make_folder(path, tmp_path)
    with pytest.raises(HistoryError, match="is a folder"):
        ReviewStore.open(path)
    assert (path / "inside.txt").read_text() == "keep me"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes"]


@pytest.mark.parametrize("make", CASES.values(), ids=CASES.keys())
def test_a_file_that_is_not_ours_is_moved_aside(tmp_path: Path, make) -> None:
    path = tmp_path / "data" / "history.sqlite3"
    path.parent.mkdir()
    make(path, tmp_path)
    original = snapshot(path)
    with ReviewStore.open(path) as store:
        notice = store.notice
        assert store.review_count() == 0
    assert notice is not None
    target = moved_to(path)
    assert str(path) in notice and str(target) in notice, notice
    assert snapshot(target) == original, "the original bytes must survive, untouched"
    assert path.is_file()
    assert_fresh_and_usable(path)
    assert moved_to(path) == target  # nothing else was moved since


def test_a_zero_byte_file_is_used(tmp_path: Path) -> None:
    path = tmp_path / "history.sqlite3"
    path.touch()
    with ReviewStore.open(path) as store:
        assert store.notice is None
    assert not list(tmp_path.glob("*unusable*"))
    assert_fresh_and_usable(path)


def test_a_second_damaged_file_is_moved_beside_the_first(tmp_path: Path) -> None:
    path = tmp_path / "history.sqlite3"
    targets = set()
    for text in ("first", "second", "third"):
        path.write_text(text)
        with ReviewStore.open(path) as store:
            assert store.notice is not None
        targets = {p for p in tmp_path.glob("history.sqlite3.unusable-*")}
    assert sorted(p.read_text() for p in targets) == ["first", "second", "third"]


def test_a_foreign_wal_database_moves_with_its_wal(tmp_path: Path) -> None:
    # Another app's database caught mid-life: its latest rows are only in the -wal file.
    source = tmp_path / "other.db"
    db = sqlite3.connect(source, isolation_level=None)
    db.execute("PRAGMA journal_mode = WAL")
    db.execute("PRAGMA wal_autocheckpoint = 0")
    db.execute("PRAGMA application_id = 7")
    db.execute("CREATE TABLE notes (body TEXT)")
    db.executemany("INSERT INTO notes VALUES (?)", [(f"n{i}",) for i in range(100)])
    path = tmp_path / "history.sqlite3"
    for suffix in ("", "-wal"):
        Path(str(path) + suffix).write_bytes(Path(str(source) + suffix).read_bytes())
    db.close()
    assert Path(str(path) + "-wal").stat().st_size > 0
    with ReviewStore.open(path) as store:
        assert store.notice is not None
    target = moved_to(path)
    check = sqlite3.connect(target)
    try:
        assert check.execute("SELECT COUNT(*) FROM notes").fetchone()[0] == 100
    finally:
        check.close()
    assert_fresh_and_usable(path)


def test_a_path_with_uri_characters_is_probed_itself(tmp_path: Path) -> None:
    # `?`, `#` and `%` in a folder name must not cut the path short when SQLite reads it as a URI.
    folder = tmp_path / "notes #1 ?50%"
    folder.mkdir()
    path = folder / "history.sqlite3"
    sqlite_of_another_app(path, 0)
    original = path.read_bytes()
    before = set(tmp_path.iterdir())
    with ReviewStore.open(path) as store:
        assert store.notice is not None and "another application" in store.notice
    assert set(tmp_path.iterdir()) == before, "no stray file beside the folder"
    assert moved_to(path).read_bytes() == original
    assert_fresh_and_usable(path)
