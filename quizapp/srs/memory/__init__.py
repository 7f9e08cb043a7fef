"""The memory model: FSRS memory states, fitting them to a student, simulated students, and scheduling.

No storage here: what is fitted is kept by `quizapp.srs.store.sqlite.store`."""
