"""The PostgreSQL history's schema: SQLite's tables (quizapp/srs/schema.py) with a `student`
column in each, and row-level security so a student's own role reaches only its rows.

`schema_version` holds the number of `MIGRATIONS` steps applied. Each step runs in its own
transaction under an advisory lock (fifty students opening at once migrate once), only ever
forward: a step adds and never drops or rewrites what an older one made.

Roles: whoever runs the migrations owns the tables and (as PostgreSQL's owners do) sees every
row: that is the instructor. Any other role (a student's, named after their student id) may
read and write only rows whose `student` is its own name (`current_user`).
"""

from __future__ import annotations

from collections.abc import Sequence

SCHEMA_VERSION = 4
# The schema a class's tables live in (made and owned by `quizapp class init`). Every session
# the app opens pins `search_path` to it, so nothing another role made elsewhere can shadow
# the app's tables or functions (PostgreSQL's "secure schema usage pattern").
CLASS_SCHEMA = "quizapp"
PER_STUDENT_TABLES = ("cards", "reviews", "card_flags", "exams", "fsrs_fits")

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
            for table in PER_STUDENT_TABLES
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
    # An answer's own id, made by the app when it is given (quizapp/srs/outbox.py): sending it
    # again (after a lost acknowledgment, or from the outbox at the next start) changes nothing.
    # Older rows have none; NULLs never collide.
    3: (
        "ALTER TABLE reviews ADD COLUMN answer_id UUID",
        "CREATE UNIQUE INDEX reviews_by_answer_id ON reviews(student, answer_id)",
    ),
    # How the answer came in its session: first, repeat or aided (SQLite's step 4 says more).
    # Older rows have NULL: the forecast then reads what it can from the times.
    4: ("ALTER TABLE reviews ADD COLUMN attempt TEXT",),
}
