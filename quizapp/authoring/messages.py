"""Every code `quizapp lint` can print: its severity, what it means and how to fix it.

docs/authoring.md's "Lint messages" section is generated from this catalogue, and a test holds
it to the source: a code emitted anywhere in quizapp/ without an entry here fails, and so does
an entry whose code nothing emits. Each entry names a file under tests/bank/corpus/bad that
produces it, or carries a small question `example` that does (tests check both).
"""

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
        "The file is not valid YAML, so nothing in it loads. Common causes: a tab used for "
        'indentation, an unclosed `[` or `"`, a `: ` inside an unquoted value, or several '
        "documents separated by `---` (a deck file holds exactly one).",
        "Go to the line and column given. Quote values that contain `: ` or start with a "
        "special character (`*`, `&`, `!`, `[`, `{`, `>`, `|`, `@`, `` ` ``); indent with spaces.",
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
        "The direction marks U+200E and U+200F are allowed: right-to-left text needs them "
        "and they cannot reorder words. Wherever quizapp prints text from a bank, a CSV, an "
        "argument or a file name to a terminal, any such character left is shown as an "
        "escape (`\\x1b`, `\\u202e`) instead.",
        "Delete the character. A line break in a text is a real new line (use a `|` block); "
        "for emphasis use Markdown, not terminal colour codes.",
        corpus="control_escape_in_prompt.yaml",
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
        "Use the suggested key, or move the key where it belongs; the field tables in this "
        "guide list every key by place.",
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
        "Two choices of one question read the same (ignoring case and spacing), so the "
        "student cannot tell them apart.",
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
        "A text uses a `{name}` placeholder that the question's `vary:` does not list (or the "
        "question has no `vary:` at all).",
        "Add the name under `vary:`, fix its spelling, or write literal braces as `{{` and `}}`.",
    ),
    Message(
        "unused-vary",
        "warning",
        "load",
        "A name listed under `vary:` is used by no text and no compute argument, so varying it "
        "changes nothing the student sees.",
        'Use it as `{name}` in a text or as `"{name}"` in `compute.args`, or remove it.',
    ),
    Message(
        "todo-left",
        "warning",
        "lint",
        "A text of the question still contains TODO: a template from `quizapp new` (or a note to "
        "self) that was never finished.",
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
    # -- checked by lint against the computation registry -----------------------------------
    Message(
        "unknown-computation",
        "error",
        "lint",
        "`compute.name` is not a computation in the registry. The message suggests the "
        "closest name.",
        "Use a name from the Computations section below (or `quizapp compute --list`).",
        example=(
            "  - id: q-unknown-computation\n    type: flashcard\n"
            + COMMON_FIELDS
            + "    back: B\n    compute: {name: mha_param, expect: [head_dim == 64]}\n"
        ),
    ),
    Message(
        "bad-argument",
        "error",
        "lint",
        "An argument in `compute.args` is not one the computation takes, has the wrong type, "
        "is out of its bounds, is not one of its choices, or breaks a rule between arguments "
        "(`d_model` divisible by `n_heads`). The message points at the argument's own line.",
        "Check the computation's argument table in the Computations section; try the "
        "arguments with `quizapp compute NAME key=value ...`.",
        example=(
            "  - id: q-bad-argument\n    type: flashcard\n"
            + COMMON_FIELDS
            + "    back: B\n"
            + "    compute:\n"
            + "      name: mha_params\n"
            + "      args: {d_model: 512, n_heads: 7}\n"
            + "      expect: [head_dim == 64]\n"
        ),
    ),
    Message(
        "unknown-value",
        "error",
        "lint",
        "A numeric answer's `from:`, or a name in one of the compute block's `expect` claims, "
        "is not a value the question's computation gives. For a claim, the message points at "
        "the claim and suggests the closest value.",
        "Use one of the values the message lists (each computation's values are listed in the "
        "Computations section).",
        example=(
            "  - id: q-unknown-value\n    type: numeric\n"
            + COMMON_FIELDS
            + "    compute: {name: mha_params, expect: [params_single_head == params_multi_head]}\n"
            + "    answer: {from: params_total}\n"
        ),
    ),
    Message(
        "computation-failed",
        "error",
        "eval",
        "Lint ran the computation behind a `from:` answer or an `expect` claim and it raised "
        "an exception, so the question has no key and no claim can be checked. The message "
        "gives the exception.",
        "Run it yourself with `quizapp compute NAME key=value ...` (set `QUIZAPP_DEBUG=1` for "
        "the traceback) and adjust the arguments; report it if the arguments are valid.",
    ),
    Message(
        "bad-derived-answer",
        "error",
        "eval",
        "The value a `from:` answer names is not a finite number (a boolean or a message, "
        "say), so it cannot be a numeric key.",
        "Name a numeric value of the computation, or ask a `true_false` question about a "
        "boolean one.",
        example=(
            "  - id: q-bad-derived-answer\n    type: numeric\n"
            + COMMON_FIELDS
            + "    compute: {name: positional_extrapolation, expect: [sinusoidal_defined]}\n"
            + "    answer: {from: learned_message}\n"
        ),
    ),
    Message(
        "eval-budget",
        "warning",
        "eval",
        "Running the computations behind `from:` answers and `expect:` claims took longer than "
        "lint's budget (`--eval-timeout`, 10 s by default), so lint stopped running them: the "
        "answers and claims from the question named on were not checked. The message says how many were. Everything "
        "else was checked; the budget keeps a `vary:` that asks for hundreds of runs near the "
        "arguments' bounds from holding an editor or a CI job for minutes.",
        "Check everything once with `quizapp lint --eval-timeout 0` (no limit), or give a "
        "larger budget. If a question asks for more computing than its point needs, use "
        "smaller arguments or fewer `vary:` values.",
        example=(
            "  - id: q-eval-budget\n    type: numeric\n"
            + COMMON_FIELDS
            + "    vary: {n_layers: [61, 62, 63, 64]}\n"
            + "    compute:\n      name: variance_drift\n"
            + '      args: {n_layers: "{n_layers}", d_model: 1024, n_tokens: 1024}\n'
            + "      expect: [residual_final > plain_final]\n"
            + "    answer: {from: residual_final}\n"
        ),
        eval_timeout=1,
    ),
    # -- claims (`expect:`) -------------------------------------------------------------------
    Message(
        "bad-claim",
        "error",
        "load",
        "An `expect` entry is not a claim quizapp can check safely. A claim is one line of at "
        "most 300 characters, read as an expression (never run as code) that may use only the "
        "computation's value names, numbers, `true` and `false`, "
        "`+ - * / // % **` (exponents at most 64), comparisons (`== != < <= > >=`, chained), "
        "`and`/`or`/`not` and `abs`, `min` and `max`, in at most 100 parts. Attributes, "
        "indexing, text, other calls, lambdas and comprehensions are refused, as is a claim "
        "that is not true or false (`a + b` alone). The list holds 1 to 16 claims; a `says` is "
        "one line of at most 200 characters.",
        "Rewrite the claim as a comparison of values, e.g. `abs(pooled_difference) < 1e-6` "
        "rather than `pooled_difference.abs() < 1e-6`; put words in `says`, not in a `#` "
        "comment. Check a claim from the shell with `quizapp compute NAME --expect 'CLAIM'`.",
        example=(
            "  - id: q-bad-claim\n    type: flashcard\n"
            + COMMON_FIELDS
            + "    back: B\n"
            + "    compute:\n"
            + "      name: mha_params\n"
            + "      expect:\n"
            + "        - params_multi_head.bit_length() > 20\n"
        ),
    ),
    Message(
        "claim-missing",
        "warning",
        "lint",
        "The question names a computation but its `compute` block has no `expect` claims, so "
        "nothing checks that the computation shows what the explanation says. `--strict` "
        "makes it an error.",
        "Add an `expect:` list with at least one claim the computation bears out, e.g. "
        "`- params_single_head == params_multi_head`; see [Claims](#claims-expect).",
        example=(
            "  - id: q-claim-missing\n    type: flashcard\n"
            + COMMON_FIELDS
            + "    back: B\n    compute: {name: mha_params}\n"
        ),
    ),
    Message(
        "claim-failed",
        "error",
        "eval",
        "Lint ran the computation with the question's arguments and a claim came out false: "
        "the computation does not show what the question says it shows. The message gives "
        "the claim and the values it read, e.g. `claim failed: residual_final > 1000 * "
        "plain_final (residual_final = 1.06, plain_final = 1.05)`. For a `vary:` question, "
        "each variant is checked and the message names the one that failed.",
        "Read the values: either the claim (and likely the explanation) is wrong, or the "
        "arguments are not the ones that show the point. Try them with `quizapp compute NAME "
        "key=value ... --expect 'CLAIM'`.",
        example=(
            "  - id: q-claim-failed\n    type: flashcard\n"
            + COMMON_FIELDS
            + "    back: B\n"
            + "    compute:\n"
            + "      name: mha_params\n"
            + "      args: {d_model: 512, n_heads: 8}\n"
            + "      expect:\n"
            + "        - claim: params_multi_head < params_single_head\n"
            + "          says: Eight narrow heads cost fewer parameters than one wide head\n"
        ),
    ),
    Message(
        "claim-error",
        "error",
        "eval",
        "A claim could not be evaluated on the computation's values: a division by zero, a "
        "value that is text rather than a number, a number grown too large, or a claim that "
        "comes out as a number instead of true or false.",
        "Guard the arithmetic (compare `a > b * c` rather than `a / c > b`) and compare only "
        "numeric or true/false values.",
        example=(
            "  - id: q-claim-error\n    type: flashcard\n"
            + COMMON_FIELDS
            + "    back: B\n"
            + "    compute:\n"
            + "      name: mha_params\n"
            + "      expect:\n"
            + "        - params_multi_head / (params_single_head - params_multi_head) > 1\n"
        ),
    ),
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
