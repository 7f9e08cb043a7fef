"""The PostgreSQL history's schema: SQLite's tables (quizapp/srs/store/schema.py) with a `student`
column in each, and row-level security so a student's own role reaches only its rows.

`schema_version` holds the number of `MIGRATIONS` steps applied. Each step runs in its own
transaction under an advisory lock, only ever forward. Only the schema's owner (the instructor,
through `quizapp class init`, quizapp/srs/store/postgres/setup.py) migrates.

Append-only (step 5): a student's role may SELECT and INSERT, never UPDATE, DELETE or TRUNCATE.
A correction is a new row and the newest row wins:
- `cards` and `card_flags` hold versions: `seq` counts a question's versions from 1, unique per
  (student, question), so two writers of the same card cannot both add version n (one fails and
  tries again); the newest is the card (`removed`: the card is gone, e.g. its first answer was
  undone). `CURRENT_CARDS` and `CURRENT_FLAGS` read them.
- a re-rating is a `review_ratings` row, an undo a `review_withdrawals` row: `EFFECTIVE_REVIEWS`
  is the one place that says which reviews count and with which rating; every read uses it.
- which fits are in use: a `fit_resets` row ends the use of every fit up to its id (`FITS`).

Roles: whoever runs the migrations owns the tables and (as PostgreSQL's owners do) sees every
row: that is the instructor. Any other role (a student's, named after their student id) may
read and write only rows whose `student` is the name it signed in with (`session_user`, step
7: a student may `SET ROLE` to the students group, and `current_user` would then be the group's
name, so rows could be written under it; only a superuser changes `session_user`).
"""

from __future__ import annotations

from collections.abc import Sequence

from quizapp.srs.store.postgres import bounds

SCHEMA_VERSION = 7
# The schema a class's tables live in (made and owned by `quizapp class init`). Every session
# the app opens pins `search_path` to it, so nothing another role made elsewhere can shadow
# the app's tables or functions (PostgreSQL's "secure schema usage pattern").
CLASS_SCHEMA = "quizapp"
# Every table a student writes: rows of their own, under row-level security.
PER_STUDENT_TABLES = (
    "cards",
    "reviews",
    "card_flags",
    "exams",
    "fsrs_fits",
    "review_ratings",
    "review_withdrawals",
    "fit_resets",
)
# The tables of steps 1 and 2 (a step's SQL never changes once released).
_FIRST_TABLES = ("cards", "reviews", "card_flags", "exams", "fsrs_fits")
# The tables only the instructor writes: students may read schema_version, nothing else here.
CLASS_TABLES = ("schema_version", "class_roles")

# The reviews that count, with their newest rating: reviews minus the withdrawn (undone) ones.
# Use it where a query says `reviews`: `FROM {EFFECTIVE_REVIEWS} AS reviews WHERE ...`.
EFFECTIVE_REVIEWS = (
    "(SELECT r.id, r.student, r.question_id, r.deck_id, r.topic, r.kind, r.reviewed_ms,"
    " coalesce((SELECT c.rating FROM review_ratings c WHERE c.student = r.student"
    " AND c.review_id = r.id ORDER BY c.id DESC LIMIT 1), r.rating) AS rating,"
    " r.correct, r.duration_ms, r.state_before, r.card_before, r.response, r.answer_id,"
    " r.attempt FROM reviews r WHERE NOT EXISTS (SELECT 1 FROM review_withdrawals w"
    " WHERE w.student = r.student AND w.review_id = r.id))"
)
# Each question's newest card version, unless that version removed the card.
CURRENT_CARDS = (
    "(SELECT * FROM (SELECT DISTINCT ON (student, question_id) student, question_id,"
    " card_json, state, due_ms, first_review_ms, last_review_ms, removed FROM cards"
    " ORDER BY student, question_id, seq DESC) AS newest WHERE NOT removed)"
)
# Each flagged question's newest flags.
CURRENT_FLAGS = (
    "(SELECT DISTINCT ON (student, question_id) student, question_id, suspended,"
    " buried_until_ms FROM card_flags ORDER BY student, question_id, seq DESC)"
)
# The fits, `in_use` as it stands: as stored, unless a later reset ended it.
FITS = (
    "(SELECT f.id, f.student, f.fitted_ms, f.parameters, f.reviews, f.held_out,"
    " f.log_loss_before, f.log_loss_after, f.in_use AND f.id > coalesce((SELECT"
    " max(x.up_to_fit_id) FROM fit_resets x WHERE x.student = f.student), 0) AS in_use,"
    " f.detail FROM fsrs_fits f)"
)


def _bounded_text(*columns: str) -> tuple[str, ...]:
    return tuple(f"char_length({c}) <= {bounds.TEXT_MAX_CHARS}" for c in columns)


def _moment(column: str, *, nullable: bool = False) -> str:
    within = f"{column} >= {bounds.EARLIEST_MS} AND {column} < {bounds.LATEST_MS}"
    return f"{column} IS NULL OR ({within})" if nullable else within


def _json_size(column: str, limit: int = bounds.JSON_MAX_BYTES) -> str:
    return f"{column} IS NULL OR octet_length({column}::text) <= {limit}"


def _finite(column: str, low: float, high: float) -> str:
    # PostgreSQL orders NaN above every number and equal to itself: name it to exclude it.
    return f"{column} <> 'NaN' AND {column} >= {low} AND {column} <= {high}"


def _in(column: str, values: Sequence[object], *, nullable: bool = False) -> str:
    listed = ", ".join(repr(v) for v in values)
    return f"{column} IS NULL OR {column} IN ({listed})" if nullable else f"{column} IN ({listed})"


_STUDENT = f"octet_length(student) BETWEEN 1 AND {bounds.STUDENT_MAX_BYTES}"
_DURATION = f"duration_ms IS NULL OR duration_ms BETWEEN 0 AND {bounds.DURATION_MAX_MS}"
_COUNT = f"BETWEEN 0 AND {bounds.COUNT_MAX}"
# (table, constraint name, condition): every column a student writes, bounded.
BOUNDS: tuple[tuple[str, str, str], ...] = tuple(
    (table, f"{table}_{name}", condition)
    for table, checks in (
        (
            "reviews",
            (
                ("student", _STUDENT),
                ("texts", " AND ".join(_bounded_text("question_id", "deck_id", "topic"))),
                ("kind", _in("kind", bounds.REVIEW_KINDS)),
                ("reviewed", _moment("reviewed_ms")),
                ("rating", "rating BETWEEN 1 AND 4"),
                ("duration", _DURATION),
                ("state_before", _in("state_before", bounds.CARD_STATES, nullable=True)),
                ("card_before", _json_size("card_before")),
                ("response", _json_size("response")),
                ("attempt", _in("attempt", bounds.ATTEMPTS, nullable=True)),
            ),
        ),
        (
            "cards",
            (
                ("student", _STUDENT),
                ("question", _bounded_text("question_id")[0]),
                ("card", _json_size("card_json")),
                ("state", _in("state", bounds.CARD_STATES)),
                (
                    "times",
                    " AND ".join(map(_moment, ("due_ms", "first_review_ms", "last_review_ms"))),
                ),
                ("seq", "seq >= 1"),
            ),
        ),
        (
            "card_flags",
            (
                ("student", _STUDENT),
                ("question", _bounded_text("question_id")[0]),
                ("buried", _moment("buried_until_ms", nullable=True)),
                ("seq", "seq >= 1"),
            ),
        ),
        (
            "exams",
            (
                ("student", _STUDENT),
                ("taken", _moment("taken_ms")),
                ("counts", f"questions {_COUNT} AND correct BETWEEN 0 AND questions"),
                ("threshold", _finite("threshold", 0, 1)),
                ("seconds", _finite("seconds", 0, bounds.SECONDS_MAX)),
                ("detail", _json_size("detail", bounds.EXAM_DETAIL_MAX_BYTES)),
            ),
        ),
        (
            "fsrs_fits",
            (
                ("student", _STUDENT),
                ("fitted", _moment("fitted_ms")),
                ("counts", f"reviews {_COUNT} AND held_out {_COUNT}"),
                (
                    "losses",
                    " AND ".join(_finite(c, 0, 1e6) for c in ("log_loss_before", "log_loss_after")),
                ),
                ("parameters", _json_size("parameters")),
                ("detail", _json_size("detail")),
            ),
        ),
        ("review_ratings", (("student", _STUDENT), ("rating", "rating BETWEEN 1 AND 4"))),
        ("review_withdrawals", (("student", _STUDENT), ("review", "review_id >= 1"))),
        ("fit_resets", (("student", _STUDENT), ("fit", "up_to_fit_id >= 0"))),
    )
    for name, condition in checks
)


def _versioned(table: str) -> tuple[str, ...]:
    """`table`, keyed by (student, question_id) until now, as versions of that key."""
    return (
        f"ALTER TABLE {table} ADD COLUMN id BIGINT GENERATED ALWAYS AS IDENTITY",
        f"ALTER TABLE {table} ADD COLUMN seq INTEGER NOT NULL DEFAULT 1",
        f"ALTER TABLE {table} DROP CONSTRAINT {table}_pkey",
        f"ALTER TABLE {table} ADD PRIMARY KEY (id)",
        f"CREATE UNIQUE INDEX {table}_versions ON {table}(student, question_id, seq)",
    )


def _own_rows(table: str) -> tuple[str, ...]:
    return (
        f"ALTER TABLE {table} ENABLE ROW LEVEL SECURITY",
        f"CREATE POLICY own_rows ON {table} USING (student = current_user)"
        " WITH CHECK (student = current_user)",
    )


MIGRATIONS: dict[int, Sequence[str]] = {
    1: (
        """CREATE TABLE cards (
            student TEXT NOT NULL,
            question_id TEXT NOT NULL,
            card_json TEXT NOT NULL,           -- py-fsrs Card.to_dict()
            state INTEGER NOT NULL,
            due_ms BIGINT NOT NULL,
            first_review_ms BIGINT NOT NULL,
            last_review_ms BIGINT NOT NULL,
            PRIMARY KEY (student, question_id)
        )""",
        "CREATE INDEX cards_by_due ON cards(student, due_ms)",
        "CREATE INDEX cards_by_first_review ON cards(student, first_review_ms)",
        """CREATE TABLE reviews (
            id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            student TEXT NOT NULL,
            question_id TEXT NOT NULL,
            deck_id TEXT NOT NULL,
            topic TEXT NOT NULL,
            kind TEXT NOT NULL,
            reviewed_ms BIGINT NOT NULL,
            rating INTEGER NOT NULL,
            correct BOOLEAN NOT NULL,
            duration_ms BIGINT,
            state_before INTEGER,
            card_before TEXT,
            response JSONB                     -- what was answered; NULL when not captured
        )""",
        "CREATE INDEX reviews_by_time ON reviews(student, reviewed_ms)",
        "CREATE INDEX reviews_by_question ON reviews(student, question_id, reviewed_ms)",
        """CREATE TABLE card_flags (
            student TEXT NOT NULL,
            question_id TEXT NOT NULL,
            suspended BOOLEAN NOT NULL DEFAULT false,
            buried_until_ms BIGINT,
            PRIMARY KEY (student, question_id)
        )""",
        """CREATE TABLE exams (
            id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            student TEXT NOT NULL,
            taken_ms BIGINT NOT NULL,
            questions INTEGER NOT NULL,
            correct INTEGER NOT NULL,
            passed BOOLEAN NOT NULL,
            threshold DOUBLE PRECISION NOT NULL,
            seconds DOUBLE PRECISION NOT NULL,
            detail JSONB NOT NULL
        )""",
        "CREATE INDEX exams_by_student ON exams(student, taken_ms)",
        """CREATE TABLE fsrs_fits (
            id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            student TEXT NOT NULL,
            fitted_ms BIGINT NOT NULL,
            parameters JSONB NOT NULL,
            reviews INTEGER NOT NULL,
            held_out INTEGER NOT NULL,
            log_loss_before DOUBLE PRECISION NOT NULL,
            log_loss_after DOUBLE PRECISION NOT NULL,
            in_use BOOLEAN NOT NULL,
            detail JSONB NOT NULL
        )""",
    ),
    # Row-level security: a student's role sees and writes only its own rows; the owner (the
    # instructor) sees all. PUBLIC gets the table rights, the policies limit them to the rows.
    2: (
        *(
            statement
            for table in _FIRST_TABLES
            for statement in (
                f"ALTER TABLE {table} ENABLE ROW LEVEL SECURITY",
                f"CREATE POLICY own_rows ON {table} USING (student = current_user)"
                " WITH CHECK (student = current_user)",
                f"GRANT SELECT, INSERT, UPDATE, DELETE ON {table} TO PUBLIC",
            )
        ),
        "GRANT SELECT ON schema_version TO PUBLIC",
        # The schema the tables are in (public, or a class's own) must be reachable too.
        "DO $$ BEGIN EXECUTE format('GRANT USAGE ON SCHEMA %I TO PUBLIC', current_schema());"
        " END $$",
    ),
    # An answer's own id, made by the app when it is given (quizapp/srs/store/outbox.py): sending it
    # again (after a lost acknowledgment, or from the outbox at the next start) changes nothing.
    # Older rows have none; NULLs never collide.
    3: (
        "ALTER TABLE reviews ADD COLUMN answer_id UUID",
        "CREATE UNIQUE INDEX reviews_by_answer_id ON reviews(student, answer_id)",
    ),
    # How the answer came in its session: first, repeat or aided (SQLite's step 4 says more).
    # Older rows have NULL: the forecast then reads what it can from the times.
    4: ("ALTER TABLE reviews ADD COLUMN attempt TEXT",),
    # Append-only (this module's docstring): versions, corrections, withdrawals, resets; and
    # the group roles `quizapp class init` grants to, newest row first.
    5: (
        *_versioned("cards"),
        "ALTER TABLE cards ADD COLUMN removed BOOLEAN NOT NULL DEFAULT false",
        *_versioned("card_flags"),
        """CREATE TABLE review_ratings (
            id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            student TEXT NOT NULL,
            review_id BIGINT NOT NULL,
            rating INTEGER NOT NULL
        )""",
        "CREATE INDEX review_ratings_by_review ON review_ratings(student, review_id, id)",
        """CREATE TABLE review_withdrawals (
            id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            student TEXT NOT NULL,
            review_id BIGINT NOT NULL,
            UNIQUE (student, review_id)
        )""",
        """CREATE TABLE fit_resets (
            id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            student TEXT NOT NULL,
            up_to_fit_id BIGINT NOT NULL
        )""",
        "CREATE INDEX fit_resets_by_student ON fit_resets(student, up_to_fit_id)",
        *(s for t in ("review_ratings", "review_withdrawals", "fit_resets") for s in _own_rows(t)),
        """CREATE TABLE class_roles (
            id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            students TEXT NOT NULL,
            instructors TEXT NOT NULL
        )""",
    ),
    # Bounds on every column a student writes (quizapp/srs/store/postgres/bounds.py). NOT VALID: rows
    # written before are left as they are (the class report skips the ones out of bounds).
    6: tuple(
        f"ALTER TABLE {table} ADD CONSTRAINT {name} CHECK ({condition}) NOT VALID"
        for table, name, condition in BOUNDS
    ),
    # Own rows are the signed-in role's (session_user), not the current role's: a student's
    # SET ROLE to the students group (a member may, before PostgreSQL 16's SET FALSE) must not
    # read or write rows under the group's name.
    7: tuple(
        f"ALTER POLICY own_rows ON {table} USING (student = session_user)"
        " WITH CHECK (student = session_user)"
        for table in PER_STUDENT_TABLES
    ),
}
