"""The class store with least privilege: a student's role may only SELECT and INSERT, and the
app still does everything through it (re-rating, undo, burying, choosing a fit), the newest
row winning; the schema's bounds refuse out-of-range rows; every connection's search_path is
pinned to the class's schema; `set_up_class` grants the same again when run again."""

from __future__ import annotations

import math
import uuid
from datetime import UTC, datetime, timedelta

import pytest

psycopg = pytest.importorskip("psycopg")

from quizapp.srs.memory.scheduling import Rating, make_scheduler  # noqa: E402
from quizapp.srs.store.history import PostgresLocation  # noqa: E402
from quizapp.srs.store.open_history import open_writer  # noqa: E402
from quizapp.srs.store.postgres.connect import role_reach  # noqa: E402
from quizapp.srs.store.postgres.schema import PER_STUDENT_TABLES, SCHEMA_VERSION  # noqa: E402
from quizapp.srs.store.postgres.setup import ClassRoles, set_up_class  # noqa: E402
from quizapp.srs.store.sqlite.history_file import HistoryError  # noqa: E402
from quizapp.srs.store.sqlite.store import to_ms  # noqa: E402
from tests.postgres_server import INSTRUCTORS_GROUP, STUDENTS_GROUP  # noqa: E402

T0 = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)
SCHEDULER = make_scheduler(fuzz=False)
ROLES = ClassRoles(STUDENTS_GROUP, INSTRUCTORS_GROUP)


def answer(store, question_id: str, when: datetime, rating: Rating = Rating.Good, **extra):
    return store.record_answer(
        question_id=question_id,
        deck_id="deck",
        topic="attention",
        rating=rating,
        correct=rating != Rating.Again,
        when=when,
        duration_ms=4000,
        kind=extra.pop("kind", "drill"),
        scheduler=SCHEDULER,
        **extra,
    )


def with_user(url: str, role: str) -> str:
    scheme, rest = url.split("://", 1)
    return f"{scheme}://{role}@{rest.split('@', 1)[1]}"


def connect_as(url: str, role: str | None = None):
    return psycopg.connect(with_user(url, role) if role else url, autocommit=True)


@pytest.fixture
def ada(pg_url: str, student_role) -> tuple[str, str]:
    """A student's role in the students group, and its URL."""
    role = student_role("ada")
    return role, with_user(pg_url, role)


# -- what a student's role may do -------------------------------------------------------------


def test_a_students_role_may_only_read_and_insert(ada) -> None:
    role, url = ada
    with connect_as(url) as db:
        for table in PER_STUDENT_TABLES:
            granted = {
                privilege: db.execute(
                    "SELECT has_table_privilege(%s, %s, %s)", (role, table, privilege)
                ).fetchone()[0]
                for privilege in ("SELECT", "INSERT", "UPDATE", "DELETE", "TRUNCATE")
            }
            assert granted == {
                "SELECT": True,
                "INSERT": True,
                "UPDATE": False,
                "DELETE": False,
                "TRUNCATE": False,
            }, table
        assert db.execute(
            "SELECT has_table_privilege(%s, 'schema_version', 'SELECT'),"
            " has_table_privilege(%s, 'schema_version', 'INSERT'),"
            " has_table_privilege(%s, 'class_roles', 'SELECT'),"
            " has_schema_privilege(%s, current_schema(), 'CREATE'),"
            " has_schema_privilege(%s, current_schema(), 'USAGE')",
            (role,) * 5,
        ).fetchone() == (True, False, False, False, True)
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            db.execute("CREATE TABLE reviews_copy (x int)")
        with pytest.raises(psycopg.errors.InsufficientPrivilege), db.transaction():
            db.execute("LOCK TABLE reviews IN SHARE MODE")  # would stall every writer


def test_a_role_outside_the_class_is_told_so_in_one_line(pg_url: str, postgres_server) -> None:
    outsider = f"eve_{uuid.uuid4().hex[:6]}"
    with connect_as(postgres_server.url()) as admin:
        admin.execute(f'CREATE ROLE "{outsider}" LOGIN')
    try:
        with pytest.raises(HistoryError) as info:
            open_writer(PostgresLocation(with_user(pg_url, outsider), outsider))
        message = str(info.value)
        assert f"class add-student {outsider}" in message and "\n" not in message
    finally:
        with connect_as(postgres_server.url()) as admin:
            admin.execute(f'DROP ROLE "{outsider}"')


def test_re_rating_undo_burying_and_fits_work_through_a_role_that_cannot_update(ada) -> None:
    role, url = ada
    with open_writer(PostgresLocation(url, role)) as store:
        first = answer(store, "q1", T0)
        answer(store, "q1", first.due, Rating.Good)
        rerated_from = store.card("q1").to_dict()
        assert store.rerate_review(store.last_review_id, Rating.Again, SCHEDULER)
        assert store.card("q1").to_dict() != rerated_from
        assert [r.rating for r in store.reviews()] == [int(Rating.Good), int(Rating.Again)]
        assert store.undo_last() == "q1"
        assert store.card("q1").to_dict() == first.to_dict()
        assert store.review_count() == 1
        store.bury("q1", T0 + timedelta(days=9))
        store.set_suspended("q1")
        assert store.hidden_ids(T0) == {"q1"} and store.suspended_ids() == ["q1"]
        store.unbury("q1")
        store.set_suspended("q1", False)
        assert store.hidden_ids(T0) == set() and store.flag_rows() == [("q1", False, None)]
        fit = {
            "fitted_ms": to_ms(T0),
            "parameters": [0.5] * 19,
            "reviews": 900,
            "held_out": 200,
            "log_loss_before": 0.6,
            "log_loss_after": 0.5,
            "in_use": True,
            "detail": {},
        }
        older = store.insert_fit(fit, replace_in_use=True)
        newer = store.insert_fit(fit, replace_in_use=True)
        assert [row[0] for row in store.fit_rows(in_use_only=True)] == [newer]
        assert [row[7] for row in store.fit_rows(in_use_only=False)] == [True, False]
        assert older < newer and store.stop_using_fits() == 1
        assert store.fit_rows(in_use_only=True) == []
        assert store.undo_last() == "q1"  # the first answer: the card goes
        assert store.card("q1") is None and store.known_ids() == set()
    with connect_as(url) as db:
        assert not db.execute(
            "SELECT has_any_column_privilege(%s, 'reviews', 'UPDATE')", (role,)
        ).fetchone()[0]
        # Nothing was changed or taken away: every correction is a row of its own.
        counts = {
            table: db.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
            for table in ("reviews", "review_ratings", "review_withdrawals", "cards", "card_flags")
        }
    assert counts == {
        "reviews": 2,
        "review_ratings": 1,
        "review_withdrawals": 2,
        "cards": 5,  # two answers, a re-rating, two undos
        "card_flags": 4,
    }


def test_the_newest_rating_wins_and_an_undone_review_counts_nowhere(ada) -> None:
    role, url = ada
    with open_writer(PostgresLocation(url, role)) as store:
        answer(store, "q1", T0)
        kept = store.last_review_id
        for rating in (Rating.Hard, Rating.Easy, Rating.Again):
            assert store.rerate_review(kept, rating, SCHEDULER)
        answer(store, "q2", T0 + timedelta(minutes=1), kind="practice")
        taken_back = store.last_review_id
        assert store.undo_review(taken_back) == "q2"
        assert [(r.question_id, r.rating) for r in store.reviews()] == [("q1", int(Rating.Again))]
        assert [row[0] for row in store.answer_rows()] == ["q1"]
        assert not store.has_review(taken_back) and store.review_card_before(taken_back) is None
        assert store.undo_review(taken_back) is None  # already taken back
    with connect_as(url) as db:
        assert db.execute("SELECT rating FROM reviews WHERE id = %s", (kept,)).fetchone() == (
            int(Rating.Good),
        )  # the row as written; the ratings after it are rows of their own


# -- bounds ------------------------------------------------------------------------------------

REVIEW = (
    "INSERT INTO reviews (student, question_id, deck_id, topic, kind, reviewed_ms, rating,"
    " correct, duration_ms) VALUES (current_user, %s, 'd', 't', %s, %s, %s, true, %s)"
)
GOOD = ("q", "drill", to_ms(T0), 3, 1000)


@pytest.mark.parametrize(
    "position, value",
    [
        (0, "x" * 10_000),  # a question id of 10 kB
        (1, "hack"),  # no such kind
        (2, to_ms(datetime(2300, 1, 1, tzinfo=UTC))),  # a time in 2300
        (2, -1),
        (3, 9),  # a rating of 9
        (4, -5),  # a negative duration
    ],
)
def test_a_students_out_of_range_review_is_refused(ada, position: int, value: object) -> None:
    _, url = ada
    with connect_as(url) as db:
        db.execute(REVIEW, GOOD)  # in range: stored
        values = list(GOOD)
        values[position] = value
        with pytest.raises(psycopg.errors.CheckViolation):
            db.execute(REVIEW, values)


@pytest.mark.parametrize("seconds", [math.nan, math.inf, -1.0])
def test_an_exam_with_a_number_out_of_range_is_refused(ada, seconds: float) -> None:
    _, url = ada
    exam = (
        "INSERT INTO exams (student, taken_ms, questions, correct, passed, threshold, seconds,"
        " detail) VALUES (current_user, %s, 10, 7, true, 0.7, %s, '{}')"
    )
    with connect_as(url) as db:
        db.execute(exam, (to_ms(T0), 60.0))
        with pytest.raises(psycopg.errors.CheckViolation):
            db.execute(exam, (to_ms(T0), seconds))


def test_the_app_brings_its_values_within_bounds_or_refuses_before_writing(ada) -> None:
    role, url = ada
    with open_writer(PostgresLocation(url, role)) as store:
        store.record_answer(
            question_id="q1",
            deck_id="deck",
            topic="attention",
            rating=Rating.Good,
            correct=True,
            when=T0,
            duration_ms=10**12,  # a tab left open for decades: counted as the longest answer
            kind="drill",
            scheduler=SCHEDULER,
            response={"text": "x" * 100_000},  # too big to keep: the answer still counts
        )
        [row] = list(store.reviews())
        assert row.duration_ms == 24 * 3600 * 1000
        assert list(store.responses()) == []
        with pytest.raises(HistoryError) as info:
            answer(store, "q" * 300, T0)
        assert "\n" not in str(info.value) and "200" in str(info.value)
        with pytest.raises(HistoryError):
            answer(store, "q2", datetime(2300, 1, 1, tzinfo=UTC))
        assert store.review_count() == 1


# -- the instructors group ---------------------------------------------------------------------


def test_an_instructor_reads_every_students_rows_and_writes_none(
    pg_url: str, ada, postgres_server
) -> None:
    role, url = ada
    with open_writer(PostgresLocation(url, role)) as store:
        answer(store, "q1", T0)
    teacher = f"tess_{uuid.uuid4().hex[:6]}"
    with connect_as(postgres_server.url()) as admin:
        admin.execute(f'CREATE ROLE "{teacher}" LOGIN IN ROLE {INSTRUCTORS_GROUP}')
    try:
        with connect_as(pg_url, teacher) as db:
            assert db.execute("SELECT student FROM reviews").fetchall() == [(role,)]
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                db.execute(REVIEW, GOOD)
        with connect_as(pg_url, teacher) as db:
            assert role_reach(db) == (teacher, True)
    finally:
        with connect_as(postgres_server.url("quizapp_tests")) as admin:
            admin.execute(f'DROP OWNED BY "{teacher}"')
            admin.execute(f'DROP ROLE "{teacher}"')


def test_setting_the_class_up_again_changes_nothing_and_keeps_the_grants(pg_url: str, ada) -> None:
    role, url = ada
    with connect_as(pg_url) as db:
        schema = db.execute("SELECT current_schema()").fetchone()[0]
        again = set_up_class(db, ROLES, schema)
        assert (again.version_before, again.version_after) == (SCHEMA_VERSION, SCHEMA_VERSION)
        assert db.execute("SELECT count(*) FROM class_roles").fetchone()[0] == 1
    with open_writer(PostgresLocation(url, role)) as store:
        answer(store, "q1", T0)
        assert store.review_count() == 1


# -- search_path ------------------------------------------------------------------------------


def test_tables_in_public_never_shadow_the_class(postgres_server, student_role) -> None:
    """A class in its default schema, a role whose own default search_path puts `public`
    first, and a `public.reviews` made by someone else: the store reads and writes the
    class's own tables."""
    database = f"pin_{uuid.uuid4().hex[:8]}"
    role = student_role("ada")
    with connect_as(postgres_server.url()) as admin:
        admin.execute(f"CREATE DATABASE {database}")
    try:
        with connect_as(postgres_server.url(database)) as admin:
            set_up_class(admin, ROLES)
            admin.execute("CREATE TABLE public.reviews (student TEXT, question_id TEXT)")
            admin.execute("GRANT ALL ON public.reviews TO PUBLIC")
            admin.execute("INSERT INTO public.reviews VALUES (%s, 'planted')", (role,))
            admin.execute(f'ALTER ROLE "{role}" IN DATABASE {database} SET search_path = public')
        url = postgres_server.url(database, user=role)
        with open_writer(PostgresLocation(url, role)) as store:
            assert store.review_count() == 0
            answer(store, "q1", T0)
            assert [r.question_id for r in store.reviews()] == ["q1"]
            shown = store.connection.execute("SHOW search_path").fetchone()[0]
        assert shown == "quizapp, pg_temp"
        with connect_as(postgres_server.url(database)) as admin:
            assert admin.execute("SELECT count(*) FROM public.reviews").fetchone()[0] == 1
            assert admin.execute("SELECT count(*) FROM quizapp.reviews").fetchone()[0] == 1
    finally:
        with connect_as(postgres_server.url()) as admin:
            admin.execute(f'ALTER ROLE "{role}" IN DATABASE {database} RESET ALL')
            admin.execute(f"DROP DATABASE {database} WITH (FORCE)")


@pytest.mark.parametrize("search_path", ["public", "a,b", "$user"])
def test_a_url_naming_anything_but_one_schema_is_refused(pg_url: str, search_path: str) -> None:
    url = pg_url.rsplit("%3D", 1)[0] + "%3D" + search_path
    with pytest.raises(HistoryError) as info:
        open_writer(PostgresLocation(url, "ada"))
    assert "one schema" in str(info.value) and "\n" not in str(info.value)


# -- two of a student's instances at once -------------------------------------------------------


def test_two_instances_writing_the_same_card_at_once_both_land_one_after_the_other(ada) -> None:
    """Both read the card's newest version before either writes (a barrier holds them there),
    so both try to add the same version: one waits for the other's commit, fails on the
    version key, and runs again on what was committed. No lock another role could hold."""
    import threading

    role, url = ada
    location = PostgresLocation(url, role)
    meeting = threading.Barrier(2, timeout=30)
    errors: list[BaseException] = []

    def answer_once(store, when: datetime) -> None:
        read = store._card_version
        calls = []

        def read_then_meet(question_id: str):
            version = read(question_id)
            calls.append(version)
            if len(calls) == 1:
                meeting.wait()  # the first read only: the second attempt goes straight on
            return version

        store._card_version = read_then_meet
        try:
            answer(store, "q1", when)
        except BaseException as exc:
            errors.append(exc)

    with open_writer(location) as first, open_writer(location) as second:
        threads = [
            threading.Thread(target=answer_once, args=(store, T0 + timedelta(minutes=n)))
            for n, store in enumerate((first, second))
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(60)
        assert errors == []
        assert first.review_count() == 2
    with connect_as(url) as db:
        versions = db.execute("SELECT seq FROM cards ORDER BY seq").fetchall()
        card_before = db.execute("SELECT card_before IS NULL FROM reviews ORDER BY id").fetchall()
    assert versions == [(1,), (2,)]
    # The one that ran again saw the other's card: exactly one answer found no card before it.
    assert sorted(card_before) == [(False,), (True,)]
