"""Fitted FSRS parameters kept with the history: the migration that adds them, storing and
choosing a fit, and the scheduler built from it."""

from __future__ import annotations

import json
import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from fsrs.scheduler import DEFAULT_PARAMETERS

from quizapp.srs.memory.scheduling import Rating, make_scheduler, review
from quizapp.srs.store.fits import (
    FitRecord,
    active_fit,
    active_parameters,
    latest_fit,
    save_fit,
    stop_using_fits,
)
from quizapp.srs.store.open_history import open_writer
from quizapp.srs.store.schema import MIGRATIONS, SCHEMA_VERSION
from quizapp.srs.store.sqlite.store import HistoryError, ReviewStore
from tests.srs.old_history import take_back_to
from tests.srs.simulated_history import FORGETFUL

T0 = datetime(2025, 3, 10, 9, 0, tzinfo=UTC)
OLD_TABLES = ("cards", "reviews", "card_flags", "exams")


def fit_record(parameters=FORGETFUL, *, in_use: bool = True, when: datetime = T0) -> FitRecord:
    return FitRecord(
        fitted_at=when,
        parameters=tuple(parameters),
        reviews=900,
        held_out=180,
        log_loss_before=0.55,
        log_loss_after=0.5,
        in_use=in_use,
        detail={"rmse_bins_before": 0.09, "rmse_bins_after": 0.05},
    )


def dump(path: Path) -> dict[str, list[tuple]]:
    db = sqlite3.connect(path)
    try:
        return {t: db.execute(f"SELECT * FROM {t} ORDER BY 1").fetchall() for t in OLD_TABLES}
    finally:
        db.close()


def stored_value(path: Path, query: str) -> object:
    """One value read from the file through a connection of its own."""
    db = sqlite3.connect(path)
    try:
        return db.execute(query).fetchone()[0]
    finally:
        db.close()


def schema_version(path: Path) -> object:
    return stored_value(path, "PRAGMA user_version")


@pytest.fixture
def version_1_history(tmp_path: Path) -> Path:
    """A history at schema 1: answers, flags and an exam recorded through the store, then the
    later schema steps taken back (tests/srs/old_history.py)."""
    path = tmp_path / "history.sqlite3"
    with ReviewStore.open(path) as store:
        scheduler = make_scheduler(fuzz=False)
        for day, (qid, rating) in enumerate([("q1", 3), ("q2", 1), ("q1", 4), ("q3", 2)]):
            store.record_answer(
                question_id=qid,
                deck_id="deck-a",
                topic="attention",
                rating=Rating(rating),
                correct=rating != 1,
                when=T0 + timedelta(days=day),
                duration_ms=4000 + day,
                kind="drill",
                scheduler=scheduler,
            )
        store.bury("q2", T0 + timedelta(days=9))
        store.set_suspended("q3")
        store.record_exam(
            taken=T0 + timedelta(days=5),
            questions=2,
            correct=1,
            passed=False,
            threshold=0.7,
            seconds=60.0,
            detail={"missed": ["q2"]},
        )
    take_back_to(path, 1)
    assert schema_version(path) == 1
    return path


def test_one_forward_step_adds_the_fits_table_and_nothing_else() -> None:
    steps = [n for n, sql in MIGRATIONS.items() if any("fsrs_fits" in s for s in sql)]
    assert len(steps) == 1 and 1 < steps[0] <= SCHEMA_VERSION
    [statement] = MIGRATIONS[steps[0]]
    assert statement.lstrip().startswith("CREATE TABLE fsrs_fits")


def test_a_version_1_history_upgrades_in_place_and_loses_nothing(version_1_history: Path) -> None:
    before = dump(version_1_history)
    assert len(before["reviews"]) == 4 and len(before["cards"]) == 3
    with ReviewStore.open(version_1_history) as store:
        assert store.notice is None  # upgraded, not moved aside
        assert active_fit(store) is None
        save_fit(store, fit_record())
    assert schema_version(version_1_history) == SCHEMA_VERSION
    after = dump(version_1_history)
    # Every row as it was; later steps only add columns after the old ones (NULL here).
    assert {t: [row[: len(before[t][0])] for row in rows] for t, rows in after.items()} == before
    assert all(set(row[len(before["reviews"][0]) :]) == {None} for row in after["reviews"])
    assert not list(version_1_history.parent.glob("*unusable*"))
    with ReviewStore.open(version_1_history) as store:
        assert active_parameters(store) == tuple(FORGETFUL)
        assert [r.question_id for r in store.reviews()] == ["q1", "q2", "q1", "q3"]
        assert store.suspended_ids() == ["q3"]


def test_reading_a_version_1_history_leaves_the_file_as_it_is(version_1_history: Path) -> None:
    original = version_1_history.read_bytes()
    with ReviewStore.open_readonly(version_1_history) as store:
        assert store.review_count() == 4
        assert active_fit(store) is None and latest_fit(store) is None
    assert version_1_history.read_bytes() == original
    assert schema_version(version_1_history) == 1


def test_open_in_place_migrates_but_never_moves_a_file_aside(
    version_1_history: Path, tmp_path: Path
) -> None:
    with ReviewStore.open_in_place(version_1_history) as store:
        assert store.review_count() == 4
    assert schema_version(version_1_history) == SCHEMA_VERSION

    foreign = tmp_path / "someone-elses.sqlite3"
    db = sqlite3.connect(foreign)
    db.execute("CREATE TABLE notes (body TEXT)")
    db.commit()
    db.close()
    original = foreign.read_bytes()
    with pytest.raises(HistoryError, match="left as it is"):
        ReviewStore.open_in_place(foreign)
    assert foreign.read_bytes() == original
    with pytest.raises(HistoryError, match="no review history there"):
        ReviewStore.open_in_place(tmp_path / "missing.sqlite3")
    assert not (tmp_path / "missing.sqlite3").exists()


# -- choosing the fit in use ----------------------------------------------------------------------


def test_the_newest_fit_in_use_wins_and_every_fit_is_kept(location) -> None:
    other = list(DEFAULT_PARAMETERS)
    other[0] = 0.3
    with open_writer(location) as store:
        assert active_parameters(store) is None
        first = save_fit(store, fit_record())
        assert active_parameters(store) == tuple(FORGETFUL)
        # A fit that did not beat the defaults is kept but changes nothing.
        save_fit(store, fit_record(other, in_use=False, when=T0 + timedelta(days=1)))
        assert active_parameters(store) == tuple(FORGETFUL)
        latest = latest_fit(store)
        assert latest is not None and not latest.in_use and latest.parameters[0] == 0.3
        second = save_fit(store, fit_record(other, when=T0 + timedelta(days=2)))
        active = active_fit(store)
        assert active is not None and active.id == second != first
        assert active.parameters == tuple(other)
        assert active.detail["rmse_bins_after"] == 0.05
        assert stop_using_fits(store) == 1
        assert active_parameters(store) is None
        assert stop_using_fits(store) == 0
        rows = store.connection.execute("SELECT COUNT(*) FROM fsrs_fits").fetchone()[0]
        assert rows == 3


@pytest.mark.parametrize(
    "stored",
    [
        json.dumps([0.1] * 5),  # too few
        json.dumps([*list(DEFAULT_PARAMETERS)[:-1], 99.0]),  # out of py-fsrs's bounds
        "not json",
        json.dumps({"w": 1}),
    ],
)
def test_a_damaged_stored_fit_is_ignored(tmp_path: Path, stored: str) -> None:
    with ReviewStore.open(tmp_path / "h.sqlite3") as store:
        save_fit(store, fit_record())
        save_fit(store, fit_record(DEFAULT_PARAMETERS, when=T0 + timedelta(days=1)))
        newest = store.connection.execute("SELECT MAX(id) FROM fsrs_fits").fetchone()[0]
        with store.transaction() as db:
            # Both in use, the newest damaged: it is passed over, not trusted and not fatal.
            db.execute("UPDATE fsrs_fits SET in_use = 1")
            db.execute("UPDATE fsrs_fits SET parameters = ? WHERE id = ?", (stored, newest))
        assert active_parameters(store) == tuple(FORGETFUL)


def test_the_record_reads_back_as_written(location) -> None:
    with open_writer(location) as store:
        save_fit(store, fit_record())
        record = active_fit(store)
    assert record is not None
    assert record.fitted_at == T0 and record.reviews == 900 and record.held_out == 180
    assert (record.log_loss_before, record.log_loss_after) == (0.55, 0.5)
    data = record.as_json()
    assert data["parameters"] == list(FORGETFUL) and data["in_use"] is True
    assert data["rmse_bins_before"] == 0.09
    assert "0.550 → 0.500" in record.summary() and "900 reviews" in record.summary()


# -- scheduling with a fit ----------------------------------------------------------------------


def test_the_scheduler_uses_fitted_parameters_when_given() -> None:
    fitted = make_scheduler(0.9, fuzz=False, parameters=FORGETFUL)
    default = make_scheduler(0.9, fuzz=False)
    assert fitted.parameters == tuple(FORGETFUL)
    assert default.parameters == tuple(DEFAULT_PARAMETERS)
    card, _ = review(fitted, None, Rating.Easy, T0, None)
    plain, _ = review(default, None, Rating.Easy, T0, None)
    # A forgetful student's first Easy earns a far shorter first interval.
    assert card.due - T0 < plain.due - T0
    with pytest.raises(ValueError):
        make_scheduler(0.9, parameters=[1.0] * 3)


def test_stats_say_which_parameters_drills_use(tmp_path: Path, location) -> None:
    from quizapp.srs.study.stats import compute_stats

    with open_writer(location) as store:

        def stats():
            return compute_stats(store, {}, T0, config_file=tmp_path / "c.toml")

        assert stats().fitted is None and stats().as_json()["fitted_parameters"] is None
        save_fit(store, fit_record())
        shown = stats().as_json()["fitted_parameters"]
        assert shown["parameters"] == list(FORGETFUL) and shown["log_loss_after"] == 0.5
        stop_using_fits(store)
        assert stats().fitted is None
