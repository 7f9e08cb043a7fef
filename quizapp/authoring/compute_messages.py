"""The catalogue entries for compute blocks: held to the computation registry by `quizapp
lint`, and their claims (`expect:`) checked on the values the computation returns."""

from __future__ import annotations

from quizapp.authoring.message_kinds import (
    COMMON_FIELDS,
    Message,
)

COMPUTE_MESSAGES: tuple[Message, ...] = (
    # -- checked by lint against the computation registry -----------------------------------
    Message(
        "unknown-computation",
        "error",
        "lint",
        "`compute.name` is not a computation in the registry. The message suggests the "
        "closest name. The question is left out: `quizapp lint` does not count it as loaded, "
        "and the app and `quizapp preview` do not show it (a preview says why in its "
        "Bank problems notice), since its computation would fail in the lab after the "
        "student answered.",
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
        "(`d_model` divisible by `n_heads`). The message points at the argument's own line; "
        "for a claim's second run (`at(seq_len=0).flops`), at the claim, naming the variant.",
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
        "A numeric answer's `from:`, or a name in one of the compute block's `expect` claims "
        "or in a key's `holds:` or `value:` (a second run's `at(...).value` too), is not a "
        "value the question's computation gives. "
        "For a claim, the message points at "
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
        "`and`/`or`/`not` and `abs`, `min` and `max`, in at most 100 parts; in a `vary:` "
        "question the variant's `{name}` placeholders, and a second run's value "
        "`at(name=value, ...).value` (arguments by name: numbers, placeholders, arithmetic; at "
        "most 4 a claim, 8 different runs a question). Other attributes, sets, "
        "indexing, text, other calls, lambdas and comprehensions are refused, as is a claim "
        "that is not true or false (`a + b` alone). The list holds 1 to 16 claims; a `says` is "
        "one line of at most 200 characters. A key's `holds:` or `value:` is read the same "
        "way (a `value:` gives a number rather than true or false), and needs the question's "
        "`compute:` block.",
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
        "key-contradicted",
        "error",
        "eval",
        "A key tied to the computation disagrees with it: an option is marked `correct: true` "
        "but its `holds:` claim is false (or holds but the option is not marked correct), a "
        "true_false `answer` is not what its `holds:` claim gives, or ordering steps are not "
        "written sorted by their `value:` as `order_by_value` says. The message points at the "
        "option, claim or step and gives the values read; for a `vary:` question it names "
        "the variant. See [Keys proven by the computation](#keys-proven-by-the-computation-holds).",
        "Read the values: either the key is wrong (fix `correct:`, `answer:` or the steps' "
        "order) or the claim does not say what the option says (fix the claim).",
        example=(
            "  - id: q-key-contradicted\n    type: single_choice\n"
            + COMMON_FIELDS
            + "    compute:\n      name: mha_params\n      args: {d_model: 512, n_heads: 8}\n"
            + "      expect: [params_single_head == params_multi_head]\n"
            + "    choices:\n"
            + "      - text: Fewer parameters\n"
            + "        correct: true\n        why: W\n"
            + "        holds: params_multi_head < params_single_head\n"
            + "      - text: Equal parameters\n        why: W\n"
            + "        holds: params_multi_head == params_single_head\n"
        ),
    ),
    Message(
        "claim-error",
        "error",
        "eval",
        "A claim (in `expect:`, or a key's `holds:` or `value:`) could not be evaluated on the "
        "computation's values: a division by zero, a "
        "value that is text rather than a number, a number grown too large, or a claim that "
        "comes out as a number instead of true or false; or a second run's `at(...)` arguments "
        "that cannot be worked out for a variant (`at(seq_len={seq_len} // 0)`).",
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
