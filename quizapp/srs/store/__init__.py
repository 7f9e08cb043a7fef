"""Where the review history is kept: one interface (`history.py`), a folder per backend
(`sqlite/`, `postgres/`), and the writer and outbox that save every answer off the UI thread."""
