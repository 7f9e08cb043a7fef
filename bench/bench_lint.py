"""Linting a generated 10,000-question bank against a bare libyaml load of the same files."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import yaml
from harness import Benchmark

from quizapp.authoring.lint import lint

N_QUESTIONS = 10_000
PER_FILE = 500
_state: dict[str, Path] = {}

_TEMPLATES = {
    "single_choice": """\
  - id: {qid}
    type: single_choice
    difficulty: medium
    tags: [generated, exam-trap]
    source: "Lesson › Part {n}"
    prompt: |
      With d_model = {d} split into {h} heads, which statement about the attention
      projections is **true**? (question {n})
    choices:
      - text: Each head works in a {w}-dimensional slice.
        correct: true
        why: The width is split across heads, {d} / {h} = {w}.
      - text: The parameters shrink by a factor of {h}.
        why: The keyed trap; the per-head matrices shrink but there are {h} of them.
      - text: Every head sees a different token.
        why: Every head sees every token, through its own projections.
    explanation: |
      Splitting into heads is parameter-neutral: `3 × d × d + d × d` either way.
    compute:
      name: mha_params
      args: {{d_model: {d}, n_heads: {h}}}
""",
    "numeric": """\
  - id: {qid}
    type: numeric
    difficulty: hard
    tags: [generated, arithmetic]
    prompt: How many parameters do the attention projections have at d_model = {d}?
    answer:
      value: {params}
      tolerance: 0
      unit: parameters
    traps:
      - value: {trap}
        why: Divided by the head count.
    explanation: Four d × d matrices, whatever the head count.
    compute:
      name: mha_params
      args: {{d_model: {d}, n_heads: {h}}}
""",
    "true_false": """\
  - id: {qid}
    type: true_false
    difficulty: easy
    tags: [generated]
    prompt: Attention with no positional information is order-blind. ({n})
    answer: true
    why_true: Q·K depends only on content.
    why_false: Nothing in QKᵀ refers to position.
    explanation: Without positions, permuting the input permutes the output.
""",
    "ordering": """\
  - id: {qid}
    type: ordering
    difficulty: medium
    tags: [generated, pre-ln]
    prompt: Order a Pre-LN sub-layer. ({n})
    steps:
      - text: Normalise the input
        why: Pre-LN normalises only the sub-layer input.
      - Run the sub-layer
      - Add the result to the un-normalised input
    explanation: The residual path never passes through LayerNorm.
""",
    "flashcard": """\
  - id: {qid}
    type: flashcard
    difficulty: easy
    tags: [generated, rope]
    prompt: Where does RoPE act? ({n})
    back: On Q and K, after projection and before the dot product.
    explanation: Sinusoidal and learned encodings are added to the embeddings instead.
""",
}


def generate(folder: Path) -> None:
    kinds = list(_TEMPLATES)
    for file_index in range(N_QUESTIONS // PER_FILE):
        parts = [
            f"deck:\n  id: gen-{file_index}\n  title: Generated deck {file_index}\n"
            f"  topic: generated\n  domain: Benchmarks\n  exam_weight: 1\nquestions:\n"
        ]
        for i in range(PER_FILE):
            n = file_index * PER_FILE + i
            d, h = 64 * (1 + n % 16), (2, 4, 8, 16)[n % 4]
            parts.append(
                _TEMPLATES[kinds[n % len(kinds)]].format(
                    qid=f"gen-{n}", n=n, d=d, h=h, w=d // h, params=4 * d * d, trap=4 * d * d // h
                )
            )
        (folder / f"deck_{file_index:03d}.yaml").write_text("".join(parts))


def setup() -> None:
    folder = Path(tempfile.mkdtemp(prefix="quizapp-bench-"))
    generate(folder)
    report = lint([folder])
    assert len(report.bank.questions) == N_QUESTIONS, "the generated bank must load whole"
    assert report.error_count == 0, report.diagnostics[:3]
    _state["folder"] = folder


def teardown() -> None:
    shutil.rmtree(_state.pop("folder"), ignore_errors=True)


def candidate() -> None:
    lint([_state["folder"]])


def baseline() -> None:
    for path in sorted(_state["folder"].glob("*.yaml")):
        yaml.load(path.read_text(), Loader=yaml.CSafeLoader)


BENCHMARKS = [
    Benchmark(
        name="lint 10k questions",
        description="quizapp lint of 20 files × 500 questions vs yaml.load(CSafeLoader) of the same files",
        candidate=candidate,
        baseline=baseline,
        max_ratio=2.0,
        max_seconds=3.0,
        setup=setup,
        teardown=teardown,
        repeats=5,
    )
]
