"""The shape of a lint message catalogue entry, and the helpers its examples are written with
(quizapp/authoring/messages.py gathers the entries)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Severity = Literal["error", "warning"]
# When the problem is found: on every load of a bank (the app, `quizapp lint`), only by
# `quizapp lint` (it holds compute blocks to the registry), or only when lint runs the
# computations behind `from:` answers (skipped by `--no-eval`), or by `quizapp lint` reviewing
# how items are written, across each deck and the whole bank (quizapp/authoring/item_writing.py).
Stage = Literal["load", "lint", "eval", "review"]

CORPUS_DIR = "tests/bank/corpus/bad"

# The deck a question `example` is wrapped in to make a whole file.
EXAMPLE_DECK_HEADER = (
    "deck: {id: example, title: Example, topic: example, domain: Examples, exam_weight: 1}\n"
    "questions:\n"
)


def example_deck(questions: str) -> str:
    """A complete deck file around a YAML list of questions (`- id: ...`)."""
    return EXAMPLE_DECK_HEADER + questions


@dataclass(frozen=True)
class Message:
    code: str
    severity: Severity
    stage: Stage
    meaning: str  # Markdown: what the problem is and what it does to the bank
    fix: str  # Markdown: how to make it go away
    corpus: str | None = None  # a file in CORPUS_DIR that produces this code
    example: str | None = None  # or: a YAML list of questions that does, see example_deck()
    eval_timeout: float | None = None  # the `--eval-timeout` the example is linted with
    lesson: str | None = None  # a lesson file's text: the example is linted with `--lessons`

    @property
    def corpus_path(self) -> str | None:
        return None if self.corpus is None else f"{CORPUS_DIR}/{self.corpus}"


COMMON_FIELDS = "    prompt: P\n    explanation: E\n    difficulty: easy\n    tags: [t]\n"


def example_question(qid: str, qtype: str, prompt: str, body: str) -> str:
    """One complete question for an example: its own prompt, a computation, `body` after."""
    return (
        f"  - id: {qid}\n    type: {qtype}\n    prompt: {prompt}\n    explanation: E\n"
        f"    difficulty: easy\n    tags: [t]\n"
        f"    compute: {{name: mha_params, expect: [params_single_head == params_multi_head]}}\n"
        f"{body}"
    )


def example_choices(*options: str, keys: int = 1) -> str:
    """A `choices:` list whose first `keys` options are correct."""
    lines = ["    choices:\n"]
    for index, text in enumerate(options):
        correct = " correct: true," if index < keys else ""
        lines.append(f'      - {{text: "{text}",{correct} why: W}}\n')
    return "".join(lines)


def example_statement(answer: bool) -> str:
    return f"    answer: {str(answer).lower()}\n    why_true: W\n    why_false: W\n"
