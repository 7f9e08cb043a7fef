"""Spaced repetition: review history in SQLite and scheduling through py-fsrs.

Pure Python plus stdlib sqlite3 and fsrs: nothing here imports torch or textual.
"""
