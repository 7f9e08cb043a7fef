"""`quizapp import`: turn a spreadsheet (CSV) of questions into a deck file.

The CSV has a header row naming its columns. It is UTF-8 (with or without a byte-order mark)
or UTF-16 with one (Excel's "Unicode Text"); name any other encoding with `--encoding`. It is
separated by commas, semicolons (Excel where the decimal separator is a comma) or tabs: the
header tells which, or `--delimiter` says. Column names are case-insensitive; spaces and `-`
read as `_`. Columns may come in any order and may be left out unless required; a column
quizapp does not use (a "Notes" column) is ignored, with one warning listing them. One row is
one question; blank rows are skipped. Cells may span lines (quote them, as every spreadsheet
does). The values of `type` and `difficulty` are case-insensitive too.

    column              meaning
    id *                the question id (lowercase letters, digits, - _ .)
    type *              single_choice, multiple_choice, true_false, numeric, ordering, flashcard
    prompt *            the question, Markdown (a flashcard's front)
    explanation *       Markdown shown after answering
    difficulty *        easy, medium or hard
    tags *              one or more tags, separated by ;  e.g.  exam-trap;rope
    topic               overrides the deck's topic
    source              the lesson section the question comes from
    pairs_with          ids of questions this one resembles on purpose, separated by ;
    choices             choice questions: the options, separated by |  e.g.  A|B|C
    correct             choice questions: the correct option numbers, 1-based, separated
                        by ;  e.g.  2  or  1;3  (letters A-I work too)
    whys                why each option is right or which trap it is, |-separated in the
                        order of `choices`; for ordering questions, in the order of `steps`
    answer              true_false: true or false (yes/no); numeric: the key, a number
    answer_from         numeric: take the key from this value of the computation instead
    tolerance           numeric: absolute tolerance
    relative_tolerance  numeric: relative tolerance (e.g. 0.01)
    unit                numeric: the unit shown beside the answer box
    traps               numeric: common wrong answers, |-separated numbers
    trap_whys           numeric: the mistake behind each trap, |-separated, same order
    steps               ordering: the steps in the correct order, |-separated
    back                flashcard: the answer side, Markdown
    compute             the live computation: its name, then key=value arguments, e.g.
                        mha_params d_model=512 n_heads=8   (quote values with spaces:
                        sentence="dog bites man"; values read as YAML 1.2 scalars)
    why_true            true_false: why answering "true" is right, or which trap it is
    why_false           true_false: why answering "false" is right, or which trap it is
    shuffle             choice questions: false keeps the options in the written order
    vary                a parameterized question: each name and the values a showing
                        picks from, as YAML, e.g.  d_model: [256, 512], n_heads: [4, 8]
                        (write {d_model} in the texts, "{d_model}" as a compute value)
    expect              claims the computation must bear out, separated by ; or line
                        breaks, each optionally followed by ` -- ` and what it says, e.g.
                        head_dim == 64 -- Each head is 64 wide; params_single_head ==
                        params_multi_head   (write \\; for a ; in the words)
    deck_id             the deck's settings, on every row: its id, title, topic (its
    deck_title          questions' default), exam domain, exam weight (> 0, at most 1000)
    deck_topic          and description. An empty cell gives none; the filled-in cells
    deck_domain         must agree. quizapp export fills them in. Without them, --deck-id,
    deck_exam_weight    --title, --topic, --domain, --weight or the defaults set the deck
    deck_description    (each default is named on stderr)

    (* = required column)

In a |-separated cell, write a literal | as \\| and a literal backslash before | as \\\\.
An empty item in `whys` means that option has no why.

Number cells (answer, tolerance, relative_tolerance, traps) may be written as spreadsheets
show them: `1,048,576` or `1 048 576` (thousands), `0,5` (a decimal comma). `1,500` is 1500
in a comma-separated file and refused as ambiguous in others; `50%` is refused with the fix
(see `quizapp.authoring.csv_import.numbers`).

A cell that starts with `'` followed by = + - @, a tab or a carriage return loses that one
`'`: it is the guard `quizapp export` puts on cells a spreadsheet would run as formulas
(see `quizapp.authoring.csv_cells`). A prompt `=x` may be written `=x` or `'=x`; a prompt
that really starts with `'=` is written `''=x`.

The deck's settings: an option (--title) wins over the CSV's column (deck_title), which wins
over the default; each setting left at its default is said on stderr, one line each. Two rows
that disagree on a setting, or a value the bank's loader refuses (an exam weight of 0, a
control character in a title), is a located error, `FILE.csv:LINE: deck_title: ...`, and
nothing is written (exit 1); see `quizapp.authoring.csv_import.settings`.

Every row is turned into bank YAML and checked by quizapp's own loader and lint registry
checks, so the rules cannot drift from `quizapp lint`. A row that fails is reported as
`FILE.csv: row N, question 'ID': reason`, N being the row number the spreadsheet shows, and
left out; the other rows are still written, and the command exits 1. An id used twice in the
CSV, or already used in the bank the questions will join (the bundled bank and any --bank
paths), rejects the row. Input that cannot be read at all (an encoding that is not named, no
header, a misspelled or missing column) is a usage error (exit 2) and nothing is written.

The package, one concern a module: `reading` (encoding, delimiter, records by row),
`columns` (the header), `cells` and `numbers` (one cell), `rows` (a row to a question),
`wording` (the loader's messages for a spreadsheet's author), `render` (bank YAML), `deck`
(the deck's metadata), `settings` (the deck's settings in the `deck_*` columns) and `importer`
(the whole import).
"""

from __future__ import annotations

from quizapp.authoring.csv_import.cells import parse_compute, parse_vary, split_items
from quizapp.authoring.csv_import.columns import (
    COLUMNS,
    REQUIRED_COLUMNS,
    normalize_column,
    read_header,
    sniff_delimiter,
)
from quizapp.authoring.csv_import.deck import check_deck, default_deck_info, default_notes
from quizapp.authoring.csv_import.importer import import_csv
from quizapp.authoring.csv_import.problems import (
    CsvInputError,
    DeckSettingError,
    ImportResult,
    RowError,
    RowProblem,
)
from quizapp.authoring.csv_import.reading import (
    check_encoding,
    decode_csv,
    parse_delimiter,
    read_csv_file,
    read_csv_text,
)
from quizapp.authoring.csv_import.render import (
    DEFAULT_DOMAIN,
    DEFAULT_WEIGHT,
    MODELINE,
    BankDumper,
    DeckInfo,
    deck_header,
    dump_question,
    dump_yaml,
    lint_text,
    render_deck,
)
from quizapp.authoring.csv_import.rows import row_mapping
from quizapp.authoring.csv_import.settings import DECK_COLUMNS, read_settings


def _column_help() -> str:
    lines = (__doc__ or "").splitlines()
    start = next((i for i, line in enumerate(lines) if line.startswith("    column ")), 0)
    end = next((i for i, line in enumerate(lines) if "(* = required column)" in line), start)
    return "\n".join(line[4:] for line in lines[start : end + 1])


COLUMN_HELP = _column_help()

__all__ = [
    "COLUMNS",
    "COLUMN_HELP",
    "DECK_COLUMNS",
    "DEFAULT_DOMAIN",
    "DEFAULT_WEIGHT",
    "MODELINE",
    "REQUIRED_COLUMNS",
    "BankDumper",
    "CsvInputError",
    "DeckInfo",
    "DeckSettingError",
    "ImportResult",
    "RowError",
    "RowProblem",
    "check_deck",
    "check_encoding",
    "deck_header",
    "decode_csv",
    "default_deck_info",
    "default_notes",
    "dump_question",
    "dump_yaml",
    "import_csv",
    "lint_text",
    "normalize_column",
    "parse_compute",
    "parse_delimiter",
    "parse_vary",
    "read_csv_file",
    "read_csv_text",
    "read_header",
    "read_settings",
    "render_deck",
    "row_mapping",
    "sniff_delimiter",
    "split_items",
]
