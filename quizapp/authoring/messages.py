"""Every code `quizapp lint` can print: its severity, what it means and how to fix it.

docs/authoring.md's "Lint messages" section is generated from this catalogue, and a test holds
it to the source: a code emitted anywhere in quizapp/ without an entry here fails, and so does
an entry whose code nothing emits. Each entry names a file under tests/bank/corpus/bad that
produces it, or carries a small question `example` that does (tests check both).
"""

from __future__ import annotations

from quizapp.authoring.compute_messages import COMPUTE_MESSAGES
from quizapp.authoring.message_kinds import (
    COMMON_FIELDS,
    CORPUS_DIR,
    EXAMPLE_DECK_HEADER,
    Message,
    Severity,
    Stage,
    example_choices,
    example_deck,
    example_question,
    example_statement,
)
from quizapp.authoring.review_messages import REVIEW_MESSAGES

CATALOGUE: tuple[Message, ...] = (
    # -- finding and reading files ----------------------------------------------------------
    Message(
        "not-found",
        "error",
        "load",
        "A path given to `quizapp lint` or `--bank` does not exist.",
        "Check the path's spelling and the folder you run the command from.",
    ),
    Message(
        "no-files",
        "error",
        "load",
        "A folder given as a bank holds no `.yaml` or `.yml` file (folders are searched "
        "recursively).",
        "Point at the folder that holds the deck files, or give the files themselves.",
    ),
    Message(
        "unreadable",
        "error",
        "load",
        "The operating system refused to read the file (permissions, a broken link, a device).",
        "Make the file readable by the user running quizapp.",
    ),
    Message(
        "file-too-large",
        "error",
        "load",
        "The file is over 4 MiB (4,194,304 bytes); it is rejected before it is parsed.",
        "Split the deck: a bank is a folder of files, and a topic may span several decks.",
    ),
    Message(
        "binary-file",
        "error",
        "load",
        "The file contains a NUL byte: it is binary, not YAML text.",
        "Check that the right file is in the bank folder; save decks as plain text.",
        corpus="binary.yaml",
    ),
    Message(
        "encoding",
        "error",
        "load",
        "The file is not valid UTF-8 (often Latin-1 or Windows-1252 from an old editor).",
        "Save the file as UTF-8; the message names the line and column of the first bad byte.",
        corpus="latin1.yaml",
    ),
    # -- YAML itself ---------------------------------------------------------------------------
    Message(
        "yaml-syntax",
        "error",
        "load",
        "The file is not valid YAML. When the mistake is inside one question of the "
        "`questions:` list, that question is left out and the others load; anywhere else "
        "(the deck header, a flow-style `questions: [...]`), nothing in the file loads. The "
        "message names the line to change, which is not always where the parser noticed: an "
        "over-indented first line under a key is reported itself, not the correct line after "
        'it; a key without its `:` at its own line; an unclosed `[` or `"` where it opens. '
        "It says what is wrong in words: a tab (`a tab character at col N: YAML indents with "
        "spaces`), a line indented out of line with its neighbours, a `: ` inside an unquoted "
        "value, text after a closing quote, an alias `*name` with no anchor, a character that "
        "cannot start a value (`@`, `` ` ``, `%`), an unknown escape in double quotes, a "
        "list item where a key belongs, or several documents separated by `---` (a deck file "
        "holds exactly one).",
        "Go to the line and column given and do what the message says. Quote values that "
        "contain `: ` or start with a special character (`*`, `&`, `!`, `[`, `{`, `>`, `|`, "
        "`@`, `` ` ``); indent with spaces, two per level, the keys of one mapping in one "
        "column.",
        corpus="syntax_error.yaml",
    ),
    Message(
        "nesting-depth",
        "error",
        "load",
        "The YAML nests more than 64 levels deep. A deck nests about five, so this is a "
        "damaged or hostile file; it is rejected before a deep tree is built.",
        "Look for runaway brackets; a real deck never comes near the limit.",
        corpus="deep_nesting.yaml",
    ),
    Message(
        "alias-expansion",
        "error",
        "load",
        "The file's anchors (`&a`) and aliases (`*a`) expand into far more content than the "
        'file\'s size justifies (a "billion laughs" file). The whole file is rejected.',
        "Write the repeated content out instead of nesting aliases of aliases.",
        corpus="alias_bomb.yaml",
    ),
    Message(
        "too-many-errors",
        "error",
        "load",
        "The file had 100 errors; checking stopped there and the whole file is left out. "
        "The first 100 are still reported.",
        "Fix the first few: one structural slip (a wrong indentation, a missing `- `) often "
        "causes dozens of follow-on errors.",
    ),
    Message(
        "empty-file",
        "error",
        "load",
        "The file holds no YAML document at all (empty, or only comments).",
        "Write a deck in it, or remove it from the bank folder.",
        corpus="empty.yaml",
    ),
    Message(
        "unsupported-tag",
        "error",
        "load",
        "A value carries a YAML tag (`!!python/object`, `!!str`, `!custom`, ...). Bank files "
        "are untrusted input: no tag is honoured, so none is allowed.",
        "Remove the tag. To make a number a string, quote it instead of writing `!!str`.",
        corpus="python_tag.yaml",
    ),
    Message(
        "control-character",
        "error",
        "load",
        "A text or id holds a control character or a bidirectional override. "
        "Such a character can act on the terminal of whoever reads the bank, or make text read "
        "differently from what it says. Refused: every control character but tab and newline "
        "(ESC, BEL, CR, DEL, the C1 range U+0080 to U+009F), and the bidirectional overrides "
        "and isolates (U+202A to U+202E, U+2066 to U+2069). It counts "
        'whether it is typed raw or as a YAML escape such as `"\\e"`, `"\\x1b"` or '
        '`"\\u202e"`. The message names the character (`U+001B (ESC)`) and where it is in '
        "the text. The question is left out; the whole file is, when the character is in "
        "the deck's fields or typed raw (YAML itself refuses a raw control character). "
        "The message's column is the character's own when it is typed raw. The direction "
        "marks U+200E and U+200F are not refused here (right-to-left text needs them and "
        "they cannot reorder words); like every invisible character they are reported as "
        "`invisible-character` or `invisible-in-id`. Wherever quizapp prints text from a bank, a CSV, an "
        "argument or a file name to a terminal, any such character left is shown as an "
        "escape (`\\x1b`, `\\u202e`) instead.",
        "Delete the character. A line break in a text is a real new line (use a `|` block); "
        "for emphasis use Markdown, not terminal colour codes.",
        corpus="control_escape_in_prompt.yaml",
    ),
    Message(
        "invisible-in-id",
        "error",
        "load",
        "An id, topic, tag, `pairs_with` id, compute name or `from:` name holds an invisible "
        "character (the rule is under [Invisible characters](#invisible-characters)): "
        "a zero-width space, a joiner, a direction mark, a byte-order mark, a soft hyphen, a "
        "Hangul filler, a variation selector. The id then reads as another id (`q1\\u200bx` "
        'shows as `q1x`), the "Trojan Source" problem; no id ever needs one, so the value is '
        "refused and the question (or the file, for a deck field) is left out, by the app "
        "as by lint. The message names the code point, escapes it in the quoted id, and "
        "points at the character's line and column.",
        "Retype the id: delete the characters around the column given (an editor may not "
        "show the invisible one) and type them again.",
        corpus="invisible_in_id_and_tag.yaml",
    ),
    Message(
        "invisible-character",
        "warning",
        "load",
        "A text (prompt, explanation, option, step, why, title, claim) holds an invisible "
        "character (the rule is under [Invisible characters](#invisible-characters)), such "
        "as a zero-width space pasted from a web page or a byte-order mark inside the text. "
        "It makes the text differ from what it shows: a search misses it, and two options "
        "can look alike and differ. The zero-width joiner inside an emoji sequence and the "
        "emoji presentation selectors after a pictograph are not reported. The question "
        "still loads; under `--strict` this is an error.",
        "Delete the character at the column given.",
        example=example_question(
            "ex-invisible", "flashcard", '"Zero\\u200bwidth"', "    back: B\n"
        ),
    ),
    Message(
        "merge-key",
        "error",
        "load",
        "A mapping uses the YAML 1.1 merge key `<<: *anchor`, which YAML 1.2 does not have.",
        "Write the keys out in each question.",
        corpus="merge_key.yaml",
    ),
    Message(
        "duplicate-key",
        "error",
        "load",
        "A key appears twice in one mapping (or an argument twice in `compute.args`). Other "
        "YAML readers silently keep the last one; quizapp refuses to guess. The message names "
        "the line of the first.",
        "Delete one of the two, or merge them.",
        corpus="duplicate_key.yaml",
    ),
    # -- the shape of a deck ---------------------------------------------------------------------
    Message(
        "unknown-key",
        "error",
        "load",
        "A key that the format does not have at this place: a typo (the message suggests the "
        "closest key), a key of another question type (`choices` on a flashcard), or a key "
        "at the wrong level.",
        "Use the suggested key, or move the key where the message says it belongs (a known "
        "key at the wrong level is named with its place: `expect` or `args` directly under "
        "a question belongs under its `compute:`, `title` or `exam_weight` under `deck:`, "
        "`correct` in an option of `choices:`); the field tables in this guide list every "
        "key by place.",
        corpus="unknown_key.yaml",
    ),
    Message(
        "missing-key",
        "error",
        "load",
        "A required key is absent: `deck` or `questions` at the top, one of the deck's "
        "fields, a common question field, or a key the question's type requires (`choices`, "
        "`answer`, `steps`, `back`).",
        "Add the key the message names.",
        corpus="missing_key.yaml",
    ),
    Message(
        "wrong-type",
        "error",
        "load",
        "A value has the wrong shape: a list where a mapping belongs, a number where text "
        'belongs (`prompt: 42`), text where a number belongs (`value: "1,048,576"`), or '
        "something other than true/false for a boolean.",
        "Give the shape the message asks for. Quote text that YAML would read as a number "
        "or boolean (`'1.0'`, `'true'`); write numbers without thousands separators "
        "(`1048576` or `1_048_576`).",
        corpus="wrong_type_prompt.yaml",
    ),
    Message(
        "bad-value",
        "error",
        "load",
        "A value has the right type but is not allowed: an unknown `type` or `difficulty` "
        "(with a suggestion), an empty text, an empty `tags` or `questions` list, "
        "`exam_weight` of 0 or less, a negative tolerance, `.nan` or `.inf`, an unsupported "
        "`format`, or a trap equal to the answer. With evaluation on, lint also reports a "
        "trap equal to the answer a `from:` computation gives.",
        "Use one of the values the message lists, or a value in range. A trap that equals "
        "the key is not a wrong answer: remove it or correct it.",
        corpus="bad_difficulty.yaml",
    ),
    Message(
        "bad-id",
        "error",
        "load",
        "An id, topic, tag or compute name breaks its pattern: ids, topics and tags are "
        "lowercase letters and digits joined by single `-`, `_` or `.` (at most 80 "
        "characters); a compute name is a lowercase identifier such as `mha_params`.",
        "Rewrite it in that form, e.g. `Multi Head` → `multi-head`. Never change the id of a "
        "question students have reviewed: its history is keyed by the id.",
        corpus="bad_id.yaml",
    ),
    Message(
        "duplicate-id",
        "error",
        "load",
        "Two questions share an id (in one file or across the bank), or two files declare "
        "the same deck id. The first one keeps the id; the later one is left out.",
        "Give the later question or deck a new id. Ids are global to the whole bank, so "
        "prefixing them with the deck's topic (`mha-...`) avoids clashes.",
        corpus="duplicate_id_in_file.yaml",
    ),
    # -- question types ------------------------------------------------------------------------
    Message(
        "choice-count",
        "error",
        "load",
        "A `single_choice` or `multiple_choice` question has fewer than 2 or more than 9 "
        "choices (the keys 1-9 pick them).",
        "Give 2 to 9 choices; split a longer list into two questions.",
        corpus="one_choice.yaml",
    ),
    Message(
        "duplicate-choice",
        "error",
        "load",
        "Two choices of one question read the same, so the student cannot tell them apart. "
        "They are compared in Unicode normal form C (an `é` typed as one character equals "
        "`e` and a combining accent), without invisible characters, and ignoring case and "
        "spacing. The message names the first one's line and column, and says when "
        "invisible characters are all that tell the two apart.",
        "Reword or remove one of them.",
        corpus="duplicate_choice.yaml",
    ),
    Message(
        "correct-count",
        "error",
        "load",
        "A `single_choice` question does not have exactly one `correct: true` choice, or a "
        "`multiple_choice` question has none.",
        "Mark the right choice(s) `correct: true`; use `multiple_choice` when several are right.",
        corpus="single_choice_two_correct.yaml",
    ),
    Message(
        "bad-answer",
        "error",
        "load",
        "A numeric `answer` gives both or neither of `value` and `from`, both `tolerance` and "
        "`relative_tolerance`, or uses `from` in a question without a `compute` block.",
        "Give exactly one of `value` and `from`, at most one tolerance, and a `compute` block "
        "whenever the key comes `from` a computation.",
        corpus="numeric_both_value_and_from.yaml",
    ),
    Message(
        "ordering-steps",
        "error",
        "load",
        "An `ordering` question has fewer than 2 or more than 9 steps, or two steps that read "
        "the same (so more than one order would be right).",
        "Give 2 to 9 distinct steps, written in the correct order.",
        corpus="ordering_repeated_step.yaml",
    ),
    # -- parameterized questions (`vary:`) ------------------------------------------------------
    Message(
        "too-many-variants",
        "error",
        "load",
        "A question's `vary:` lists allow more than 1,000 combinations (the product of their "
        "lengths).",
        "Shorten the lists, or split the question into several with narrower ranges.",
    ),
    Message(
        "unknown-placeholder",
        "error",
        "load",
        "A text or a claim uses a `{name}` placeholder that the question's `vary:` does not "
        "list (or the question has no `vary:` at all). A claim's is reported at the claim.",
        "Add the name under `vary:`, fix its spelling, or write literal braces as `{{` and `}}`.",
    ),
    Message(
        "unused-vary",
        "warning",
        "load",
        "A name listed under `vary:` is used by no text, no compute argument and no claim, so "
        "varying it changes nothing the student sees.",
        'Use it as `{name}` in a text or a claim, or as `"{name}"` in `compute.args`, or '
        "remove it.",
    ),
    Message(
        "todo-left",
        "warning",
        "lint",
        "A text of the question still contains TODO: a template from `quizapp new` (or a note to "
        "self) that was never finished. Each line that still says TODO is reported at its line "
        "and column, naming its field (`'why' still says TODO`).",
        "Write the real text in place of each TODO.",
    ),
    Message(
        "variants-unchecked",
        "warning",
        "lint",
        "The question has more variants than lint checks (64); only the first 64 were held "
        "to the registry and evaluated.",
        "Usually nothing: narrow the `vary:` lists if every variant must be checked.",
    ),
    # -- item writing: cues a test-wise student can use (review_messages.py) ---------------
    *REVIEW_MESSAGES,
    # -- warnings --------------------------------------------------------------------------------
    Message(
        "no-compute",
        "warning",
        "load",
        "The question has no `compute` block: no live computation backs its explanation. "
        "The question still loads.",
        "Add a `compute` block naming the computation that demonstrates the point (see "
        "Computations), or accept the warning; `--strict` makes it an error.",
        example=("  - id: q-no-compute\n    type: flashcard\n" + COMMON_FIELDS + "    back: B\n"),
    ),
    Message(
        "no-why",
        "warning",
        "load",
        "A choice has no `why`, or a `true_false` question lacks `why_true` or `why_false`: "
        "a student who picks that option is told only that it is wrong, not why.",
        "Write a `why` for every option: why it is right, or which trap it is.",
        example=(
            "  - id: q-no-why\n    type: single_choice\n"
            + COMMON_FIELDS
            + "    compute: {name: mha_params, expect: [params_single_head == params_multi_head]}\n"
            + "    choices:\n"
            + "      - {text: Right, correct: true, why: Because.}\n"
            + "      - {text: Wrong}\n"
        ),
    ),
    # -- compute blocks and their claims (compute_messages.py) -----------------------------
    *COMPUTE_MESSAGES,
)

MESSAGES: dict[str, Message] = {message.code: message for message in CATALOGUE}

__all__ = [
    "CATALOGUE",
    "CORPUS_DIR",
    "EXAMPLE_DECK_HEADER",
    "MESSAGES",
    "Message",
    "Severity",
    "Stage",
    "example_choices",
    "example_deck",
    "example_question",
    "example_statement",
]
