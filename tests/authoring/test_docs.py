"""docs/authoring.md cannot drift from the code.

- Every diagnostic code emitted anywhere in quizapp/ has an entry in the message catalogue
  (quizapp/authoring/messages.py), and every entry is emitted somewhere.
- The guide's generated sections equal what the generators produce now.
- Every YAML example in the guide loads and lints cleanly (question examples inside a
  minimal deck), and every field of the format is used in some example.
- Each catalogue entry's corpus file or example really produces its code.
"""

from __future__ import annotations

import ast
import dataclasses
import re
from collections import defaultdict
from pathlib import Path

import pytest

from quizapp.authoring import docs
from quizapp.authoring.lessons import load_lessons
from quizapp.authoring.lint import lint
from quizapp.authoring.messages import CATALOGUE, CORPUS_DIR, MESSAGES, Message, example_deck
from quizapp.bank import fields as F
from quizapp.bank.diagnostics import Diagnostic
from quizapp.bank.yaml12 import MappingNode, Node, ScalarNode, SequenceNode, compose
from tests.conftest import REPO

DOC = REPO / "docs" / "authoring.md"
SOURCE = REPO / "quizapp"

# -- (1) the codes in the source --------------------------------------------------------------

CodeSites = dict[str, list[tuple[str, str | None]]]  # code -> [(where, severity or None)]


@dataclasses.dataclass(frozen=True)
class Emitter:
    """A callable that takes a diagnostic code: where the code and severity sit in a call."""

    code_index: int
    severity_index: int | None = None
    severity_default: str | None = None


def _emitters(trees: dict[Path, ast.Module]) -> dict[str, Emitter]:
    """Diagnostic itself, plus every function (or class) with a `code` parameter defined in a
    module that uses Diagnostic: report(), _at(), file_problem(), TooMuchWork, and whatever
    helper is added next, so a new way of emitting codes is picked up without editing this."""
    names = [f.name for f in dataclasses.fields(Diagnostic)]
    found = {
        "Diagnostic": Emitter(names.index("code"), names.index("severity")),
    }
    for path, tree in trees.items():
        if "Diagnostic" not in path.read_text(encoding="utf-8"):
            continue
        for node in ast.walk(tree):
            defs: list[tuple[str, ast.FunctionDef]] = []
            if isinstance(node, ast.ClassDef):
                defs += [
                    (node.name, item)
                    for item in node.body
                    if isinstance(item, ast.FunctionDef) and item.name == "__init__"
                ]
            elif isinstance(node, ast.FunctionDef) and node.name != "__init__":
                defs.append((node.name, node))
            for name, func in defs:
                params = [a.arg for a in func.args.posonlyargs + func.args.args]
                if "code" not in params:
                    continue
                offset = 1 if params and params[0] in ("self", "cls") else 0
                severity_index = default = None
                if "severity" in params:
                    severity_index = params.index("severity") - offset
                    defaults = func.args.defaults
                    first_default = len(params) - len(defaults)
                    at = params.index("severity")
                    if at >= first_default:
                        value = defaults[at - first_default]
                        if isinstance(value, ast.Constant) and isinstance(value.value, str):
                            default = value.value
                found[name] = Emitter(params.index("code") - offset, severity_index, default)
    return found


def _argument(call: ast.Call, index: int | None, keyword: str) -> ast.expr | None:
    for kw in call.keywords:
        if kw.arg == keyword:
            return kw.value
    if index is not None and index < len(call.args):
        return call.args[index]
    return None


def _literals(expr: ast.expr) -> list[str] | None:
    """The string constants an expression can be, or None if it is not made of constants."""
    if isinstance(expr, ast.Constant) and isinstance(expr.value, str):
        return [expr.value]
    if isinstance(expr, ast.IfExp):
        body, orelse = _literals(expr.body), _literals(expr.orelse)
        return None if body is None or orelse is None else body + orelse
    return None


def _passes_a_code_through(expr: ast.expr) -> bool:
    """`code` or `something.code`: a helper forwarding a code it was given."""
    return (isinstance(expr, ast.Name) and expr.id == "code") or (
        isinstance(expr, ast.Attribute) and expr.attr == "code"
    )


def scan_source() -> tuple[CodeSites, list[str]]:
    """Every literal code passed to an emitter in quizapp/, and the calls whose code is opaque."""
    trees = {
        path: ast.parse(path.read_text(encoding="utf-8"), str(path))
        for path in sorted(SOURCE.rglob("*.py"))
    }
    emitters = _emitters(trees)
    sites: CodeSites = defaultdict(list)
    opaque: list[str] = []
    for path, tree in trees.items():
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            name = (
                func.id
                if isinstance(func, ast.Name)
                else func.attr
                if isinstance(func, ast.Attribute)
                else None
            )
            emitter = emitters.get(name or "")
            if emitter is None:
                continue
            where = f"{path.relative_to(REPO)}:{node.lineno}"
            code = _argument(node, emitter.code_index, "code")
            if code is None:
                continue
            codes = _literals(code)
            if codes is None:
                if not _passes_a_code_through(code):
                    opaque.append(where)
                continue
            severity_expr = _argument(node, emitter.severity_index, "severity")
            if severity_expr is None:
                severity = emitter.severity_default
            else:
                literal = _literals(severity_expr)
                severity = literal[0] if literal and len(literal) == 1 else None
            for value in codes:
                sites[value].append((where, severity))
    return sites, opaque


@pytest.fixture(scope="module")
def scanned() -> tuple[CodeSites, list[str]]:
    """scan_source(), once for the four tests that read it (about a second each time)."""
    return scan_source()


def test_the_scan_sees_the_known_emitters(scanned: tuple[CodeSites, list[str]]) -> None:
    sites, _ = scanned
    # One code from each way of emitting: report(), Diagnostic(), file_problem(), _at(),
    # TooMuchWork(). If one of these vanishes, the scan has gone blind, not the code clean.
    for code in ("duplicate-key", "binary-file", "not-found", "bad-argument", "too-many-errors"):
        assert code in sites, code
    assert any("quizapp/bank/validate.py" in where for where, _ in sites["no-compute"])


def test_every_emitted_code_is_documented(scanned: tuple[CodeSites, list[str]]) -> None:
    sites, opaque = scanned
    assert not opaque, (
        "these calls pass a diagnostic code that is not a string literal, so it cannot be "
        f"checked against quizapp/authoring/messages.py: {opaque}"
    )
    undocumented = {code: [w for w, _ in where] for code, where in sites.items()}
    undocumented = {c: w for c, w in undocumented.items() if c not in MESSAGES}
    assert not undocumented, (
        f"codes emitted without an entry in quizapp/authoring/messages.py: {undocumented}; "
        f"add them there, then run `{docs.REGENERATE}`"
    )


def test_every_documented_code_is_emitted(scanned: tuple[CodeSites, list[str]]) -> None:
    sites, _ = scanned
    stale = sorted(set(MESSAGES) - set(sites))
    assert not stale, f"messages.py documents codes nothing emits any more: {stale}"


def test_documented_severities_match_the_source(scanned: tuple[CodeSites, list[str]]) -> None:
    sites, _ = scanned
    for code, where in sites.items():
        seen = {severity for _, severity in where if severity is not None}
        message = MESSAGES.get(code)
        if message is not None and seen:
            assert seen == {message.severity}, (code, where)


def test_the_catalogue_is_well_formed() -> None:
    assert len(MESSAGES) == len(CATALOGUE), "a code is listed twice"
    for message in CATALOGUE:
        assert re.fullmatch(r"[a-z]+(-[a-z]+)*", message.code), message.code
        assert message.meaning.strip() and message.fix.strip(), message.code
        assert message.corpus is None or message.example is None, message.code
        assert message.eval_timeout is None or message.example is not None, message.code


# -- (2) the generated sections -----------------------------------------------------------------


def doc_text() -> str:
    return DOC.read_text(encoding="utf-8")


@pytest.mark.parametrize("name", docs.SECTIONS)
def test_generated_section_is_up_to_date(name: str) -> None:
    assert docs.extract(doc_text(), name) == docs.generated_block(name), (
        f"docs/authoring.md's {name} section is stale; run `{docs.REGENERATE}`"
    )


def test_render_leaves_an_up_to_date_doc_unchanged() -> None:
    assert docs.render(doc_text()) == doc_text()


def test_every_computation_is_indexed_and_every_code_has_its_heading() -> None:
    from quizapp.experiments.registry import COMPUTATIONS

    text = doc_text()
    section = docs.extract(text, "computations")
    for spec in COMPUTATIONS:
        # Its full section is in docs/computations.md (tests/authoring/test_computation_docs.py).
        assert f"| [`{spec.name}`](computations.md#{spec.name}) |" in section
    for message in CATALOGUE:
        assert f"### `{message.code}`\n" in text


def test_check_and_write(tmp_path: Path) -> None:
    stale = tmp_path / "authoring.md"
    stale.write_text(
        docs.section_pattern("messages").sub(
            f"{docs.begin_marker('messages')}\nold\n{docs.end_marker('messages')}", doc_text()
        ),
        encoding="utf-8",
    )
    assert docs.main(["--check", str(stale)]) == 1
    assert docs.main(["--write", str(stale)]) == 0
    assert stale.read_text(encoding="utf-8") == doc_text()
    assert docs.main(["--check", str(stale)]) == 0


def test_render_refuses_a_doc_without_markers() -> None:
    with pytest.raises(ValueError, match="BEGIN GENERATED: computations"):
        docs.render("# no markers here\n")


def test_the_placeholders_are_there() -> None:
    text = doc_text()
    assert "\n## Parameterized questions (`vary:`)\n" in text
    assert "\n## Creating, previewing, importing and exporting\n" in text


# -- (3) the YAML examples ---------------------------------------------------------------------

FENCE = re.compile(r"^```yaml\n(.*?)^```", re.MULTILINE | re.DOTALL)
# `# lint: CODE`, or `# lint --eval-timeout S: CODE` for an example linted with that budget,
# or `# lint --lessons: CODE` for one linted with the lesson its catalogue entry shows.
EXPECT = re.compile(r"\A# lint(?: --eval-timeout ([0-9.]+))?( --lessons)?: ([a-z-]+)\n")


@dataclasses.dataclass(frozen=True)
class Example:
    line: int
    text: str
    kind: str  # "deck", "questions", "fragment"
    expect: str | None  # a code the example is meant to produce (`# lint: CODE` first line)
    eval_timeout: float | None = None  # linted with this budget (`# lint --eval-timeout S: CODE`)
    lesson: str | None = None  # linted with this lesson (`# lint --lessons: CODE`)

    @property
    def deck(self) -> str:
        return example_deck(self.text) if self.kind == "questions" else self.text

    def __str__(self) -> str:
        return f"docs/authoring.md:{self.line}"


def yaml_examples() -> list[Example]:
    text = doc_text()
    found = []
    for match in FENCE.finditer(text):
        body = match.group(1)
        line = text.count("\n", 0, match.start()) + 2
        expect = EXPECT.match(body)
        content = [ln for ln in body.splitlines() if ln.strip() and not ln.lstrip().startswith("#")]
        if re.search(r"^deck:", body, re.MULTILINE):
            kind = "deck"
        elif content and re.match(r"\s*- id:", content[0]):
            kind = "questions"
        else:
            kind = "fragment"
        timeout = float(expect.group(1)) if expect and expect.group(1) else None
        code = expect.group(3) if expect else None
        lesson = MESSAGES[code].lesson if expect and expect.group(2) and code in MESSAGES else None
        found.append(Example(line, body, kind, code, timeout, lesson))
    return found


EXAMPLES = yaml_examples()
CLEAN = [e for e in EXAMPLES if e.kind != "fragment" and e.expect is None]


def lint_deck(
    tmp_path: Path, text: str, eval_timeout: float | None = None, lesson: str | None = None
):
    path = tmp_path / "deck.yaml"
    path.write_text(text, encoding="utf-8")
    lessons = None
    if lesson is not None:
        folder = tmp_path / "lessons"
        folder.mkdir()
        (folder / "lesson.txt").write_text(lesson, encoding="utf-8")
        lessons = load_lessons(folder)
    if eval_timeout is None:
        return lint([path], lessons=lessons).diagnostics
    return lint([path], eval_budget=eval_timeout, lessons=lessons).diagnostics


def test_the_doc_has_examples_of_each_kind() -> None:
    kinds = {e.kind for e in EXAMPLES}
    assert {"deck", "questions", "fragment"} <= kinds
    assert any(e.expect for e in EXAMPLES)


@pytest.mark.parametrize("example", CLEAN, ids=str)
def test_example_lints_clean(example: Example, tmp_path: Path) -> None:
    diagnostics = lint_deck(tmp_path, example.deck)
    assert not diagnostics, f"{example}:\n" + "\n".join(d.format() for d in diagnostics)


@pytest.mark.parametrize("example", [e for e in EXAMPLES if e.expect], ids=str)
def test_example_produces_the_code_it_shows(example: Example, tmp_path: Path) -> None:
    diagnostics = lint_deck(tmp_path, example.deck, example.eval_timeout, example.lesson)
    codes = {d.code for d in diagnostics}
    assert codes == {example.expect}, f"{example}: {codes}"


STUB = "  - id: stub\n    type: flashcard\n    prompt: P\n    explanation: E\n"
STUB += "    difficulty: easy\n    tags: [t]\n    back: B\n"


@pytest.mark.parametrize("example", [e for e in EXAMPLES if e.kind == "fragment"], ids=str)
def test_fragment_is_valid_yaml(example: Example, tmp_path: Path) -> None:
    compose(example.text)  # raises on a syntax error
    if re.match(r"    [a-z_]+:", example.text):
        # Keys of one question (a `compute:` block, say): lint them inside a flashcard.
        diagnostics = lint_deck(tmp_path, example_deck(STUB + example.text))
        assert not diagnostics, f"{example}:\n" + "\n".join(d.format() for d in diagnostics)


def _keys(node: Node | None, into: set[str]) -> set[str]:
    if isinstance(node, MappingNode):
        for key, value in node.value:
            if isinstance(key, ScalarNode):
                into.add(key.value)
            _keys(value, into)
    elif isinstance(node, SequenceNode):
        for item in node.value:
            _keys(item, into)
    return into


# Fields whose section is written by someone else right now; remove a name once its section
# has an example.
PENDING_FIELDS: set[str] = set()


def test_every_field_of_the_format_appears_in_a_clean_example() -> None:
    used: set[str] = set()
    for example in CLEAN:
        _keys(compose(example.deck), used)
    tables = [
        F.FILE_FIELDS,
        F.DECK_FIELDS,
        F.COMMON_QUESTION_FIELDS,
        *F.TYPE_FIELDS.values(),
        F.CHOICE_FIELDS,
        F.STEP_FIELDS,
        F.COMPUTE_FIELDS,
        F.NUMERIC_ANSWER_FIELDS,
        F.TRAP_FIELDS,
    ]
    every = {key for table in tables for key in table}
    missing = sorted(every - used - PENDING_FIELDS)
    assert not missing, f"fields of quizapp/bank/fields.py with no example in the guide: {missing}"


def test_every_question_type_has_a_clean_example() -> None:
    used = set()
    for example in CLEAN:
        root = compose(example.deck)
        assert isinstance(root, MappingNode)
        questions = next(v for k, v in root.value if k.value == "questions")
        for question in questions.value:
            used |= {v.value for k, v in question.value if k.value == "type"}
    assert used == {t.value for t in F.TYPE_FIELDS}


def test_the_stated_limits_are_the_real_ones() -> None:
    from quizapp.bank.loader import MAX_FILE_BYTES, MIN_VISIT_BUDGET, VISITS_PER_BYTE
    from quizapp.bank.validate import MAX_ERRORS_PER_FILE
    from quizapp.bank.yaml12 import MAX_NESTING
    from quizapp.experiments.spec import Arg

    text = doc_text()
    assert MAX_FILE_BYTES == 4 * 1024 * 1024 and "4 MiB" in text
    assert f"{MAX_FILE_BYTES:,} bytes" in text
    assert f"{MAX_NESTING} levels" in text
    assert VISITS_PER_BYTE == 1 and f"{MIN_VISIT_BUDGET:,} nodes" in text
    assert f"{MAX_ERRORS_PER_FILE} errors" in text
    assert f"at most {F.ID_MAX_LENGTH} characters" in text
    assert f"at most {Arg('a', 'str', None, '').max_length}" in text
    assert f"{F.MIN_CHOICES} to {F.MAX_CHOICES}" in text
    assert f"{F.MIN_STEPS} to {F.MAX_STEPS}" in text


# -- (4) each entry's demonstration -------------------------------------------------------------


@pytest.mark.parametrize(
    "message", [m for m in CATALOGUE if m.corpus], ids=lambda m: f"{m.code}:{m.corpus}"
)
def test_corpus_file_produces_its_code(message: Message) -> None:
    assert message.corpus_path is not None
    path = REPO / message.corpus_path
    assert path.is_file(), f"{message.code}: {message.corpus_path} does not exist"
    # The file must mean to show this code, not produce it by accident.
    assert re.search(
        rf"^# expect: \d+:\d+ {re.escape(message.code)}\b",
        path.read_text(encoding="utf-8", errors="replace"),
        re.MULTILINE,
    ), f"{path.name} declares no '# expect: ... {message.code}'"
    produced = [d for d in lint([path]).diagnostics if d.code == message.code]
    assert produced, f"{message.corpus_path} does not produce {message.code}"
    assert {d.severity for d in produced} == {message.severity}


def test_corpus_dir_is_the_real_one() -> None:
    assert (REPO / CORPUS_DIR).is_dir()


@pytest.mark.parametrize("message", [m for m in CATALOGUE if m.example], ids=lambda m: m.code)
def test_example_produces_its_code(message: Message, tmp_path: Path) -> None:
    assert message.example is not None
    diagnostics = lint_deck(
        tmp_path, example_deck(message.example), message.eval_timeout, message.lesson
    )
    assert {d.code for d in diagnostics} == {message.code}, [d.format() for d in diagnostics]
    assert {d.severity for d in diagnostics} == {message.severity}
