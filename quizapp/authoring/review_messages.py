"""The catalogue entries of `quizapp lint`'s item-writing review: cues a test-wise student can
use (quizapp/authoring/item_writing.py, answer_cues.py, echo_claims.py, lessons.py)."""

from __future__ import annotations

from quizapp.authoring.message_kinds import (
    COMMON_FIELDS,
    Message,
    example_choices,
    example_question,
    example_statement,
)

REVIEW_MESSAGES: tuple[Message, ...] = (
    Message(
        "length-cue",
        "warning",
        "review",
        "The key's length gives it away. Across a deck's single-choice items, the key is the "
        "strictly longest option, or the strictly shortest, far more often than chance: with "
        "k options it would be either one time in k. Lint counts the items where one option "
        "is strictly longest (shortest) and warns when a one-sided exact binomial test puts "
        "the count below a 5% chance, given at least 5 single-choice items; the message says "
        'how often, e.g. "in 24 of 27 single-choice items (chance: about 7)", at the deck\'s '
        'first question. The decks are also judged together ("across 3 decks") unless each '
        "was flagged on its own, since a cue spread thin over small decks shows only in the "
        "total. Per question, a key at least 1.5 times as long as the longest distractor (and "
        "at least 10 characters longer), or the shortest distractor at least 1.5 times as "
        "long as the key (and 10 characters longer), is reported at the key. Multiple-choice "
        "keys are not judged by length (there may be several, or all).",
        "Even out option lengths: trim the key's qualifications, or give the distractors the "
        "same detail, until the key is the longest (or shortest) option no more often than "
        "chance.",
        example=(
            example_question(
                "q-rope",
                "single_choice",
                "Where does RoPE act?",
                example_choices(
                    "On Q and K in each layer", "On the token embeddings", "On the values"
                ),
            )
            + example_question(
                "q-ln-axis",
                "single_choice",
                "What does LayerNorm normalize over?",
                example_choices(
                    "One token's own features", "The batch, per feature", "The sequence"
                ),
            )
            + example_question(
                "q-head-width",
                "single_choice",
                "How wide is each of 8 heads at d_model = 512?",
                example_choices("64 dimensions per head", "512 dimensions", "8 dimensions"),
            )
            + example_question(
                "q-original-placement",
                "single_choice",
                "Which placement did the original Transformer use?",
                example_choices("Post-LN placement", "Pre-LN placement", "No LayerNorm"),
            )
            + example_question(
                "q-residual-gift",
                "single_choice",
                "What do residual connections give gradients?",
                example_choices(
                    "A direct path backward", "A normalized scale", "A second optimizer"
                ),
            )
        ),
    ),
    Message(
        "rationale-in-key",
        "warning",
        "review",
        'Single-choice keys carry their own justification ("...: because ...", "..., so ...", '
        "a clause after a colon or dash) far more often than distractors do (one-sided "
        "Fisher's exact test below 5%, given at least 3 such keys). A student learns that "
        "the option which explains itself is right. Reported at the deck's first question; "
        "judged across decks too, like `length-cue`.",
        "Move the reasons into the option's `why` or the `explanation`; write keys as bare "
        "claims, or give distractors equally plausible reasons.",
        example=(
            example_question(
                "q-why-pe",
                "single_choice",
                "Why does a transformer need positional encoding?",
                example_choices(
                    "Attention compares content only, so order never enters it",
                    "To let attention skip the tokens that are far away",
                    "To keep activations at a stable scale in deep stacks",
                ),
            )
            + example_question(
                "q-why-residual",
                "single_choice",
                "What is the residual connection's main job?",
                example_choices(
                    "A path for gradients: they need not cross every layer",
                    "Keeping activations at mean 0 and variance 1",
                    "Telling the model where each token sits",
                ),
            )
            + example_question(
                "q-why-heads",
                "single_choice",
                "What lets two heads attend differently to one input?",
                example_choices(
                    "Their own projections, because each head learns its own W_q and W_k",
                    "Each head sees a different subset of the tokens in the sequence",
                    "Each head is given a different positional encoding than the others",
                ),
            )
        ),
    ),
    Message(
        "key-count-fixed",
        "warning",
        "review",
        "A deck's multiple-choice items (at least 4 of them) always have the same number of "
        'correct options, or never exactly one. A student who knows the pattern ("always two '
        "or three\") can guess the last box from the others. Reported at the deck's first "
        "question; judged across decks too, like `length-cue`.",
        "Vary how many options are correct, from one up to all but one of them (a question "
        "with every option correct is `all-correct`).",
        example=(
            example_question(
                "q-mc-ln",
                "multiple_choice",
                "Select everything LayerNorm does to one token.",
                example_choices(
                    "Subtracts its mean", "Divides by its spread", "Uses batch statistics", keys=2
                ),
            )
            + example_question(
                "q-mc-pre-ln",
                "multiple_choice",
                "Select every true statement about Pre-LN.",
                example_choices(
                    "Norm before the sub-layer", "Clean residual path", "Original layout", keys=2
                ),
            )
            + example_question(
                "q-mc-rope",
                "multiple_choice",
                "Select every true statement about RoPE.",
                example_choices("Rotates Q and K", "Relative in the score", "Rotates V", keys=2),
            )
            + example_question(
                "q-mc-sinusoid",
                "multiple_choice",
                "Select every property of sinusoidal encoding.",
                example_choices(
                    "No trained parameters", "Added to embeddings", "A learned table", keys=2
                ),
            )
        ),
    ),
    Message(
        "absolute-word-false",
        "warning",
        "review",
        'A false true/false statement contains an absolute word ("always", "never", "only", '
        '"all", "none", "every", "any", "cannot", "impossible", "guaranteed", "completely", '
        '"however long", ...), and the deck\'s true statements use such words less often. '
        "Test-wise students reject absolute statements without knowing the content. When "
        "true statements are as often absolute as false ones, the word predicts nothing "
        "and lint says nothing.",
        'Make the statement false for a reason the student must know ("adding heads improves '
        'the model at no cost" rather than "always improves"), or write true statements '
        "that are absolute too.",
        example=example_question(
            "q-absolute",
            "true_false",
            "Adding heads always improves the model.",
            example_statement(False),
        ),
    ),
    Message(
        "hedge-true",
        "warning",
        "review",
        'A deck\'s hedged true/false statements ("usually", "often", "can", "may", '
        '"typically", "roughly", ...) are true far more often than its plain ones (one-sided '
        "Fisher's exact test below 5%, given at least 3 hedged true statements): a student "
        "learns that a careful-sounding statement is true. Reported at the deck's first "
        "question; judged across decks too, like `length-cue`.",
        "Write some false statements with hedges and some true ones plainly, so the wording "
        "carries no hint.",
        example=(
            example_question(
                "q-hedge-1",
                "true_false",
                "Some heads can end up doing little.",
                example_statement(True),
            )
            + example_question(
                "q-hedge-2",
                "true_false",
                "Pre-LN is usually the default for deep stacks.",
                example_statement(True),
            )
            + example_question(
                "q-hedge-3",
                "true_false",
                "Total compute is roughly that of one full-width head.",
                example_statement(True),
            )
            + example_question(
                "q-plain-1", "true_false", "RoPE rotates the values.", example_statement(False)
            )
            + example_question(
                "q-plain-2",
                "true_false",
                "LayerNorm uses batch statistics.",
                example_statement(False),
            )
            + example_question(
                "q-plain-3",
                "true_false",
                "Sinusoidal encodings are learned.",
                example_statement(False),
            )
            + example_question(
                "q-plain-4",
                "true_false",
                "The attention formula has a position term.",
                example_statement(False),
            )
        ),
    ),
    Message(
        "all-none-of-the-above",
        "warning",
        "review",
        'An option refers to the others: "all of the above", "none of the above", "both A '
        'and B". Spotting two correct options gives "all of the above" away, "none of the '
        'above" tests only what the answer is not, and quizapp shuffles options by default, so '
        '"above" may be below. Reported at the option.',
        "Write each option as a claim of its own; when several are right, make the question "
        "`multiple_choice` and mark each of them correct.",
        example=example_question(
            "q-none-above",
            "single_choice",
            "Which scheme do most modern LLMs use?",
            example_choices("Rotary encoding", "Sinusoidal encoding", "None of the above"),
        ),
    ),
    Message(
        "key-position",
        "warning",
        "review",
        "A deck's keys sit at one position more often than chance allows, so a student who "
        "always picks that option (or, for true/false, always answers the same) scores "
        "without the content, in an export read in file order or a `--no-shuffle` preview. "
        "Single-choice, multiple-choice and true/false items are judged apart, each given at "
        "least 8 items: for each position p, an item with n options and k keys has a key at "
        "p with chance k/n, and the count of items with a key at p is held to an exact "
        "one-sided binomial (Poisson-binomial) test. The smallest tail is multiplied by the "
        "number of positions tested (Bonferroni) and flagged below 5%. A true/false "
        'statement\'s "position" is its answer: "true" or "false", chance 1/2 each. Reported '
        "at the deck's first question, naming the position, the count and the chance "
        "expectation; judged across decks too, like `length-cue`.",
        "Move keys around: in file order, spread them over every position about equally (and "
        "write about as many false statements as true ones).",
        example="".join(
            example_question(f"q-true-{i}", "true_false", prompt, example_statement(True))
            for i, prompt in enumerate(
                (
                    "RoPE rotates queries and keys.",
                    "LayerNorm normalizes each token over its features.",
                    "Sinusoidal encodings have no trained parameters.",
                    "Pre-LN puts the norm before each sub-layer.",
                    "A residual connection adds the input to the output.",
                    "Eight heads of width 64 span a width of 512.",
                    "BatchNorm averages over the batch.",
                    "Attention without positions ignores word order.",
                ),
                start=1,
            )
        ),
    ),
    Message(
        "all-correct",
        "warning",
        "review",
        "Every option of a multiple-choice question is correct: a student who ticks "
        "everything scores without knowing any of them. Reported at the question.",
        "Add at least one plausible wrong option, or turn one option into a near miss.",
        example=example_question(
            "q-all-correct",
            "multiple_choice",
            "Select everything LayerNorm does to one token.",
            example_choices(
                "Subtracts its mean", "Divides by its spread", "Applies a gain", keys=3
            ),
        ),
    ),
    Message(
        "echo-claim",
        "warning",
        "review",
        "An `expect:` claim holds whatever the computation returns, so it checks nothing: it "
        "reads only values the computation does not compute (the registry declares, per "
        "computation, the values that restate an argument, such as `head_dim` for "
        "`d_model // n_heads`, and the constants of its code, such as a tolerance), or it "
        "compares a value with itself under another name, or it keeps holding when lint "
        "replaces each computed value it reads by others (x + 1, x - 1, 2x, -x, 0; the other "
        "truth value; other text). Each part of an `a and b` claim is judged alone. The first "
        "kind is found from the claim and the registry; the second when lint runs the "
        "computation. Reported at the claim.",
        "Claim something the computation could get wrong: a count, a measured variance, a "
        "ratio, compared with what the lesson predicts (`params_multi_head == "
        "params_single_head`, not `head_dim == 64`).",
        example=(
            "  - id: q-echo\n    type: flashcard\n"
            + COMMON_FIELDS
            + "    back: B\n"
            + "    compute:\n"
            + "      name: mha_params\n"
            + "      expect:\n"
            + "        - head_dim == 64\n"
        ),
    ),
    Message(
        "near-duplicate",
        "warning",
        "review",
        "A question's stem nearly repeats an earlier one's (compared word by word, ignoring "
        "case and punctuation but not numbers; 90% similar or more). Two such items test the "
        "same thing twice, or one gives the other away in an exam. Exam items are compared "
        "with each other and flashcards with each other. Reported at the later question, "
        "naming the earlier. A pair marked with `pairs_with` (on either question) is not "
        "reported.",
        "Merge the two, or rewrite one so that it asks something the other does not; if the "
        "pair is deliberate (the same setting, asked two ways), list the other's id in "
        "`pairs_with`.",
        example=(
            example_question(
                "q-ln-stats",
                "flashcard",
                "Over which numbers does LayerNorm compute its mean and variance?",
                "    back: One token's features.\n",
            )
            + example_question(
                "q-ln-stats-again",
                "flashcard",
                "Over which numbers does LayerNorm compute its mean and its variance?",
                "    back: The features of one token.\n",
            )
        ),
    ),
    Message(
        "unknown-pair",
        "warning",
        "review",
        "A `pairs_with` list names an id that is no question of the bank (a typo, or a "
        "question since removed or renamed), or the question itself. Reported at "
        "`pairs_with`.",
        "Name the id of the question this one deliberately resembles, or drop the entry.",
        example=(
            "  - id: q-paired\n    type: flashcard\n"
            + COMMON_FIELDS
            + "    pairs_with: [q-removed]\n"
            + "    back: B\n"
            + "    compute: {name: mha_params, expect: [params_single_head == params_multi_head]}\n"
        ),
    ),
    Message(
        "unknown-source",
        "warning",
        "review",
        "A `source:` of the form `Lesson: <title> › <heading>` names a lesson, or a heading "
        "of it, that the lessons do not have. The lessons are the instructor's, given by "
        '`quizapp lint --lessons DIR` or `lessons = "DIR"` in config.toml (relative to '
        "that file): plain-text files (`*.txt`, `*.md`) whose first non-empty line is the "
        "title; any line of the lesson counts as a heading (in `.md`, without its `#` marks). "
        "Titles and headings are compared with white space collapsed and case ignored. A "
        "source in another form (a paper, a page) is not checked. Without lessons the check "
        "is skipped, and lint says so once. Reported at the source, with a did-you-mean.",
        "Copy the title and the heading from the lesson as they are written.",
        lesson="Layer Normalization\n\nWhat LayerNorm computes\nWhy not BatchNorm\n",
        example=(
            "  - id: q-cited\n    type: flashcard\n"
            + COMMON_FIELDS
            + '    source: "Lesson: Layer Normalization › Why BatchNorm fails"\n'
            + "    back: B\n"
            + "    compute: {name: mha_params, expect: [params_single_head == params_multi_head]}\n"
        ),
    ),
)
