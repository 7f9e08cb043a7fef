"""The history's schema: `user_version` counts the steps of `MIGRATIONS` applied, and
`application_id` marks the file as quizapp's.

Migrations only ever go forward, one step at a time, in one transaction: a step adds tables or
columns and never drops or rewrites what an older step made, so an old history upgrades in
place and loses nothing. A new step takes the next number and bumps `SCHEMA_VERSION`."""

from __future__ import annotations

from collections.abc import Sequence

APPLICATION_ID = 0x51554941  # "QUIA"
SCHEMA_VERSION = 4

MIGRATIONS: dict[int, Sequence[str]] = {
    1: (
        """CREATE TABLE cards (
            question_id TEXT PRIMARY KEY,
            card_json TEXT NOT NULL,           -- py-fsrs Card.to_dict()
            state INTEGER NOT NULL,            -- fsrs State: 1 learning, 2 review, 3 relearning
            due_ms INTEGER NOT NULL,
            first_review_ms INTEGER NOT NULL,
            last_review_ms INTEGER NOT NULL
        )""",
        "CREATE INDEX cards_by_due ON cards(due_ms)",
        "CREATE INDEX cards_by_first_review ON cards(first_review_ms)",
        """CREATE TABLE reviews (
            id INTEGER PRIMARY KEY,
            question_id TEXT NOT NULL,
            deck_id TEXT NOT NULL,
            topic TEXT NOT NULL,
            kind TEXT NOT NULL,                -- quiz, drill or exam
            reviewed_ms INTEGER NOT NULL,
            rating INTEGER NOT NULL,           -- 1 Again, 2 Hard, 3 Good, 4 Easy
            correct INTEGER NOT NULL,
            duration_ms INTEGER,
            state_before INTEGER,              -- NULL for a card's first review
            card_before TEXT                   -- for undo; NULL when the card was new
        )""",
        "CREATE INDEX reviews_by_time ON reviews(reviewed_ms)",
        "CREATE INDEX reviews_by_question ON reviews(question_id, reviewed_ms)",
        """CREATE TABLE card_flags (
            question_id TEXT PRIMARY KEY,
            suspended INTEGER NOT NULL DEFAULT 0,
            buried_until_ms INTEGER
        )""",
        """CREATE TABLE exams (
            id INTEGER PRIMARY KEY,
            taken_ms INTEGER NOT NULL,
            questions INTEGER NOT NULL,
            correct INTEGER NOT NULL,
            passed INTEGER NOT NULL,
            threshold REAL NOT NULL,
            seconds REAL NOT NULL,
            detail TEXT NOT NULL               -- JSON: by-topic scores, seed, missed ids
        )""",
    ),
    # FSRS parameters fitted to this history (`quizapp optimize`, quizapp/srs/memory/fitting.py).
    # Every fit is kept; drills schedule with the newest one still `in_use`.
    2: (
        """CREATE TABLE fsrs_fits (
            id INTEGER PRIMARY KEY,
            fitted_ms INTEGER NOT NULL,
            parameters TEXT NOT NULL,          -- JSON list of py-fsrs's 21 parameters
            reviews INTEGER NOT NULL,          -- reviews fitted on (the earlier 80 %)
            held_out INTEGER NOT NULL,         -- held-out reviews the log-loss is taken over
            log_loss_before REAL NOT NULL,     -- py-fsrs's default parameters, held out
            log_loss_after REAL NOT NULL,      -- these parameters, the same reviews
            in_use INTEGER NOT NULL,           -- 1: drills schedule with these (newest wins)
            detail TEXT NOT NULL               -- JSON: RMSE (bins), optimal retention, versions
        )""",
    ),
    # What the student answered (quizapp/bank/responses.py): JSON, choice and step indices in
    # the bank's written order; NULL for older rows and where nothing was captured.
    3: ("ALTER TABLE reviews ADD COLUMN response TEXT",),
    # How the answer came in its session: 'first', 'repeat' (asked again after an answer that
    # stood) or 'aided' (after its answer was shown and taken back); what the forecast counts
    # as evidence (quizapp/srs/readiness/evidence.py). NULL for older rows and where it was not said.
    4: ("ALTER TABLE reviews ADD COLUMN attempt TEXT",),
}
