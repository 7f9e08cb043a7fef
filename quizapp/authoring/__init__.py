"""Instructors' tools: the code behind `quizapp lint`, `new`, `import` and `export`.

- lint: `lint` (beyond the loader: the computation registry, derived answers and claims, run
  within one time budget by `evaluation`), the item-writing checks (`item_writing`,
  `item_statistics`, `stem_similarity`), and `messages`, the catalogue of every code it prints.
- new: `new`, a commented template question, printed or appended to a deck file.
- import: `csv_import`, a spreadsheet of questions (with `cells` and `expect_cell` for its
  cells); `importers`, Moodle GIFT, Anki's plain-text export and .apkg packages, and quizapp's
  own JSON.
- export: `export`, a bank as CSV (`csv_cells` keeps cells from reading as formulas), JSON, or
  an Anki package (`anki_package`, `anki_cards`, `anki_html`); `output_file`, the safe writing
  of any file a command is told to write.
- the docs: `docs` and `coverage` generate the parts of docs/ that must not drift from the code.

`quizapp preview` is the app's (quizapp/cli/preview.py, quizapp/tui/components/reload.py), and the bank's
JSON Schema is the loader's (quizapp/bank/schema.py).
"""
