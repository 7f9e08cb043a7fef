"""The review history in a SQLite file: the default, one student's own."""
