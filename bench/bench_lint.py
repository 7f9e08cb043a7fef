"""Linting 10,000-question banks against a bare libyaml load of the same files.

Two shapes: a generated bank (five templates, no derived keys), and the bundled bank itself,
copied until it holds 10,000 questions: its real files, with their derived keys, claims and
variants, so that lint runs (or, with its results stored, skips) the computations behind them.
"""

from __future__ import annotations

import math
import os
import re
import shutil
import tempfile
from pathlib import Path

import yaml
from harness import Benchmark

from quizapp.authoring.lint import lint
from quizapp.bank import bundled_bank_path
from quizapp.experiments.registry import get_spec

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


# -- the bundled bank's real shape, grown to 10k ------------------------------------------------

# A deck's `  id:` and each question's `  - id:`: the only places a copy must differ.
_ID_LINE = re.compile(r"^(  id: |  - id: )(\S+)$", re.MULTILINE)
# A block-style compute mapping: `    compute:` and its more-indented lines.
_COMPUTE_BLOCK = re.compile(r"^    compute:\n((?:      .*\n)+)", re.MULTILINE)
_real: dict[str, object] = {}


def with_claims(text: str) -> str:
    """Each compute block without claims gets one (lint warns [claim-missing] until a bank
    has them), so that the grown bank evaluates claims as a finished bank does."""

    def add(match: re.Match[str]) -> str:
        block = match[0]
        if "expect:" in block:
            return block
        name = re.search(r"^      name: (\w+)", block, re.MULTILINE)
        if name is None:
            return block
        value = get_spec(name[1]).values[0]
        return f'{block}      expect: ["{value} == {value}"]\n'

    return _COMPUTE_BLOCK.sub(add, text)


def grow_bundled_bank(folder: Path, at_least: int = N_QUESTIONS) -> int:
    """Copy the bundled deck files into `folder`, each copy with its own deck and question
    ids, until they hold `at_least` questions. Returns the number of copies."""
    sources = sorted(Path(bundled_bank_path()).glob("*.yaml"))
    texts = [with_claims(path.read_text(encoding="utf-8")) for path in sources]
    per_copy = sum(len(re.findall(r"^  - id: ", text, re.MULTILINE)) for text in texts)
    copies = math.ceil(at_least / per_copy)
    for copy in range(copies):
        suffix = f"-copy{copy}"
        for path, text in zip(sources, texts, strict=True):
            renamed = _ID_LINE.sub(lambda m, end=suffix: f"{m[1]}{m[2]}{end}", text)
            (folder / f"{path.stem}-{copy:03d}.yaml").write_text(renamed, encoding="utf-8")
    return copies


def setup_real() -> None:
    folder = Path(tempfile.mkdtemp(prefix="quizapp-bench-real-"))
    # Results are stored in a cache of the benchmark's own, which the warm-up run fills as a
    # user's previous lint would have: the timed runs then import and run nothing.
    _real["cache"] = Path(tempfile.mkdtemp(prefix="quizapp-bench-cache-"))
    _real["saved_env"] = {k: os.environ.get(k) for k in ("QUIZAPP_CACHE_DIR", "QUIZAPP_NO_CACHE")}
    os.environ["QUIZAPP_CACHE_DIR"] = str(_real["cache"])
    os.environ.pop("QUIZAPP_NO_CACHE", None)
    grow_bundled_bank(folder)
    # With no time limit, so that a loaded machine cannot leave a run unstored.
    report = lint([folder], eval_budget=None)
    questions = list(report.bank.questions.values())
    assert len(questions) >= N_QUESTIONS and report.error_count == 0, report.diagnostics[:3]
    answers = [getattr(q, "answer", None) for q in questions]
    derived = sum(getattr(answer, "from_value", None) is not None for answer in answers)
    claims = sum(len(q.compute.expect) for q in questions if q.compute)
    assert derived and claims, "the grown bank has derived keys and claims to evaluate"
    REAL_SHAPE.description = REAL_SHAPE_DESCRIPTION + (
        f": {len(questions):,} questions in {len(list(folder.glob('*.yaml')))} files, "
        f"{derived:,} derived keys, {claims:,} claims, "
        f"{len(list(Path(_real['cache']).glob('results/*.json')))} distinct runs"  # type: ignore[arg-type]
    )
    _state["folder"] = folder


def teardown_real() -> None:
    teardown()
    shutil.rmtree(_real.pop("cache"), ignore_errors=True)
    for key, value in _real.pop("saved_env").items():  # type: ignore[union-attr]
        if value is None:
            os.environ.pop(key, None)
        else:
            os.environ[key] = value


REAL_SHAPE_DESCRIPTION = (
    "quizapp lint of the bundled deck files copied to 10k questions, with the results of their "
    "computations stored by an earlier lint, vs yaml.load(CSafeLoader) of the same files"
)
REAL_SHAPE = Benchmark(
    name="lint bundled bank grown to 10k",
    description=REAL_SHAPE_DESCRIPTION,
    candidate=candidate,
    baseline=baseline,
    max_ratio=2.0,
    setup=setup_real,
    teardown=teardown_real,
    repeats=3,
)

UNCACHED = Benchmark(
    name="lint grown bank, --no-cache",
    description="the same lint with --no-cache: every distinct computation runs again, within "
    "lint's default time budget (torch is already imported in this process; a fresh `quizapp "
    "lint` also pays for that import)",
    candidate=lambda: lint([_state["folder"]], use_cache=False),
    baseline=baseline,
    max_ratio=None,  # for reading only: what the stored results save
    setup=setup_real,
    teardown=teardown_real,
    repeats=3,
)


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
    ),
    REAL_SHAPE,
    UNCACHED,
]
