"""Opening the history on either backend: a SQLite file (quizapp/srs/store/sqlite/store.py) or a class's
PostgreSQL database (quizapp/srs/store/postgres/store.py), each behind `HistoryStore`
(quizapp/srs/store/history.py). The one place that knows both; each backend loads only when used.
"""

from __future__ import annotations

from quizapp.srs.store.history import HistoryLocation, HistoryStore, PostgresLocation


def open_writer(location: HistoryLocation) -> HistoryStore:
    """Open (creating or migrating if need be) to read and write."""
    if isinstance(location, PostgresLocation):
        from quizapp.srs.store.postgres.store import PostgresStore

        return PostgresStore.open(location)
    from quizapp.srs.store.sqlite.store import ReviewStore

    return ReviewStore.open(location)


def open_reader(location: HistoryLocation) -> HistoryStore:
    """A reading connection beside a writer that has opened the history already."""
    if isinstance(location, PostgresLocation):
        from quizapp.srs.store.postgres.store import PostgresStore

        return PostgresStore.open(location, migrate=False)
    from quizapp.srs.store.sqlite.store import ReviewStore

    return ReviewStore.open_reader(location)


def open_readonly(location: HistoryLocation) -> HistoryStore:
    """Read only: nothing is created, migrated or moved (`quizapp stats`, `forecast`)."""
    if isinstance(location, PostgresLocation):
        from quizapp.srs.store.postgres.store import PostgresStore

        return PostgresStore.open(location, migrate=False)
    from quizapp.srs.store.sqlite.store import ReviewStore

    return ReviewStore.open_readonly(location)


def open_in_place(location: HistoryLocation) -> HistoryStore:
    """An existing history, to write beside the app (`quizapp optimize`)."""
    if isinstance(location, PostgresLocation):
        from quizapp.srs.store.postgres.store import PostgresStore

        return PostgresStore.open(location)
    from quizapp.srs.store.sqlite.store import ReviewStore

    return ReviewStore.open_in_place(location)
