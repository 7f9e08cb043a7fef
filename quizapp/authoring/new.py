"""`quizapp new`: a commented template question, printed or appended to a deck file.

The template is a valid question of the asked type, with a live `compute:` block (a real
computation, its arguments and an `expect:` claim that holds). It loads and lints clean apart
from `todo-left`: each TODO marks a text the author must write, and once those are written
`quizapp lint --strict` finds nothing (tests/authoring/test_new.py fills them and checks). Its
id is unique across the deck file and the bank it joins: `<deck topic>-new-<type>-<N>`.

Appending never corrupts the file: the new text goes to a temporary file beside it, which is
loaded with quizapp's own loader and must give the same deck, the same questions and the same
errors as before plus the new question; only then does it replace the file (os.replace, by
the rules of `quizapp.authoring.output_file`). A file whose top-level `questions:` list is
not the last thing in it, or that does not load to a deck, is refused and left untouched; so
is anything but a regular file (a FIFO, a device). A deck given as a symbolic link is
followed: the file it points to is edited, and the link stays a link.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import yaml

from quizapp.authoring.output_file import (
    OutputError,
    OutputPathError,
    check_output,
    write_output,
)
from quizapp.bank import fields as F
from quizapp.bank.discovery import discover
from quizapp.bank.model import Deck, QuestionType
from quizapp.bank.yaml12 import NULL, MappingNode, ScalarNode, SequenceNode, compose

_ID_RE = re.compile(F.ID_PATTERN)

_HEAD = """\
# New {type} question (quizapp new). Replace every TODO, then run `quizapp lint`.
# Rename the id now if you like: once students have reviewed it, it must never change.
- id: {id}
  type: {type}
  difficulty: medium  # easy, medium or hard
  tags: [todo]  # one or more short lowercase tags, e.g. [exam-trap, rope]
  # topic: another-topic  # overrides the deck's topic
  # source: "Lesson … › Section"  # where in the course the question comes from
"""

_TAIL = """\
  explanation: |
    TODO: the reasoning behind the answer, not just the key.
  compute:  # the live computation behind the explanation: `quizapp compute --list` for yours
    name: mha_params  # an example that runs: name yours, with its arguments
    args: {d_model: 512, n_heads: 8}
    expect:  # claims over its values that must hold: `quizapp lint` runs it to check them
      - claim: params_single_head == params_multi_head
        says: "TODO: what the claim shows the student, in words (write your own claim)."
"""

_BODIES: dict[QuestionType, str] = {
    QuestionType.SINGLE_CHOICE: """\
  prompt: "TODO: the question, in Markdown."
  choices:  # 2 to 9 options, exactly one correct; shown shuffled
    - text: "TODO: the correct option"
      correct: true
      why: "TODO: why it is right."
    - text: "TODO: a tempting wrong option"
      why: "TODO: which trap it is."
    - text: "TODO: another wrong option"
      why: "TODO: why it is wrong."
  # shuffle: false  # keep the options in this order (e.g. for "all of the above")
""",
    QuestionType.MULTIPLE_CHOICE: """\
  prompt: "TODO: the question (select all that apply), in Markdown."
  choices:  # 2 to 9 options, at least one correct; shown shuffled
    - text: "TODO: a correct option"
      correct: true
      why: "TODO: why it is right."
    - text: "TODO: another correct option"
      correct: true
      why: "TODO: why it is right too."
    - text: "TODO: a tempting wrong option"
      why: "TODO: which trap it is."
  # shuffle: false  # keep the options in this order
""",
    QuestionType.TRUE_FALSE: """\
  prompt: "TODO: a statement that is either true or false."
  answer: false  # true or false
  why_true: "TODO: why answering true is tempting, and wrong (the trap)."
  why_false: "TODO: why the statement is false."
""",
    QuestionType.NUMERIC: """\
  prompt: "TODO: the question; say which unit the answer is in."
  answer:
    from: params_multi_head  # the key, from the computation below; or `value: 1048576`
    tolerance: 0  # absolute; or `relative_tolerance: 0.01`; with neither, exact
    unit: parameters
  # traps:  # common wrong answers and the mistake behind each
  #   - value: 131072
  #     why: "TODO: the mistake that gives this number."
""",
    QuestionType.ORDERING: """\
  prompt: "TODO: what to put in order."
  steps:  # 2 to 9, written in the correct order; the app shuffles them
    - text: "TODO: the first step"
      why: "TODO: why it comes first."
    - text: "TODO: the second step"
      why: "TODO: why it comes next."
    - "TODO: the last step"  # a plain string works too
""",
    QuestionType.FLASHCARD: """\
  prompt: "TODO: the front of the card, in Markdown."
  back: |
    TODO: the back: what the student should recall.
""",
}


class NewQuestionError(Exception):
    """`quizapp new` cannot go on. The message is one line."""


@dataclass(frozen=True)
class Appended:
    id: str
    path: Path
    line: int  # where the new question's `- id:` line is


def template(qtype: QuestionType | str, qid: str, *, indent: int = 2, newline: str = "\n") -> str:
    """The commented template of one question, as an item of a `questions:` list."""
    qtype = QuestionType(qtype)
    text = _HEAD.format(type=qtype.value, id=qid) + _BODIES[qtype] + _TAIL
    pad = " " * indent
    lines = [pad + line if line else line for line in text.splitlines()]
    return newline.join(lines) + newline


def new_id(prefix: str, qtype: QuestionType | str, taken: Iterable[str]) -> str:
    """`<prefix>-new-<type>-<N>`, the smallest N not taken, at most 80 characters."""
    taken = set(taken)
    kind = QuestionType(qtype).value.replace("_", "-")
    stem = f"new-{kind}"
    prefix = re.sub(r"[^a-z0-9]+", "-", prefix.lower()).strip("-")
    n = 1
    while True:
        tail = f"{stem}-{n}"
        room = F.ID_MAX_LENGTH - len(tail) - 1
        head = prefix[:room].rstrip("-_.") if prefix else ""
        candidate = f"{head}-{tail}" if head else tail
        if candidate not in taken:
            return candidate
        n += 1


def check_id(qid: str, taken: dict[str, str]) -> None:
    if len(qid) > F.ID_MAX_LENGTH or not _ID_RE.fullmatch(qid):
        raise NewQuestionError(
            f"--id '{qid[:40]}' must be lowercase letters and digits joined by - _ or . "
            f"(at most {F.ID_MAX_LENGTH} characters)"
        )
    if qid in taken:
        raise NewQuestionError(f"--id '{qid}' is already used in {taken[qid]}")


def collect_ids(paths: Iterable[str | Path]) -> tuple[dict[str, str], dict[str, str]]:
    """Question ids and deck ids written in the bank files under `paths`, each mapped to its
    file. Read from the YAML directly, so a question with errors still holds its id."""
    question_ids: dict[str, str] = {}
    deck_ids: dict[str, str] = {}
    files, _ = discover(paths)
    for file in files:
        for kind, value in _raw_ids(file):
            target = deck_ids if kind == "deck" else question_ids
            target.setdefault(value, str(file))
    return question_ids, deck_ids


def _raw_ids(path: Path) -> list[tuple[str, str]]:
    try:
        root = compose(path.read_bytes().decode("utf-8-sig"))
    except (OSError, UnicodeDecodeError, yaml.YAMLError, ValueError, RecursionError):
        return []
    if not isinstance(root, MappingNode):
        return []
    found: list[tuple[str, str]] = []
    for key, value in root.value:
        if not isinstance(key, ScalarNode):
            continue
        if key.value == "deck" and isinstance(value, MappingNode):
            found += [("deck", v.value) for k, v in value.value if _is_id(k, v)]
        if key.value == "questions" and isinstance(value, SequenceNode):
            for item in value.value:
                if isinstance(item, MappingNode):
                    found += [("question", v.value) for k, v in item.value if _is_id(k, v)]
    return found


def _is_id(key: object, value: object) -> bool:
    return _is_key(key, value, "id")


def _is_key(key: object, value: object, name: str) -> bool:
    return (
        isinstance(key, ScalarNode)
        and key.value == name
        and isinstance(value, ScalarNode)
        and isinstance(value.value, str)
    )


# -- appending --------------------------------------------------------------------------------


def _list_indent(path: Path, text: str) -> tuple[int, str | None]:
    """The column of the `questions:` list's dashes, and the deck's topic when the list is
    still empty. Raises NewQuestionError when the file is not a deck file whose last
    top-level key is a block `questions:` list."""
    try:
        root = compose(text)
    except (yaml.YAMLError, ValueError, RecursionError) as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" (line {mark.line + 1})" if mark is not None else ""
        raise NewQuestionError(f"{path} is not valid YAML{where}; fix it first") from None
    not_deck = f"{path} does not look like a deck file (no top-level 'questions:' list)"
    if not isinstance(root, MappingNode) or root.flow_style:
        raise NewQuestionError(not_deck)
    keys = [k.value if isinstance(k, ScalarNode) else None for k, _ in root.value]
    if "questions" not in keys or "deck" not in keys:
        raise NewQuestionError(not_deck)
    if keys[-1] != "questions":
        raise NewQuestionError(
            f"{path}: 'questions:' is not the last top-level key; move it to the end of the "
            "file to append with quizapp new"
        )
    node = root.value[-1][1]
    if isinstance(node, SequenceNode) and not node.flow_style:
        return node.start_mark.column, None
    if isinstance(node, ScalarNode) and node.tag == NULL and node.value == "":
        # `questions:` with nothing under it yet: a new deck's first question.
        deck = root.value[keys.index("deck")][1]
        fields = {}
        if isinstance(deck, MappingNode):
            fields = {k.value: v.value for k, v in deck.value if _is_key(k, v, k.value)}
        return 2, fields.get("topic") or fields.get("id") or ""
    raise NewQuestionError(
        f"{path}: 'questions:' is not a block list ('- id: ...' items); cannot append to it"
    )


def _summary(deck: Deck) -> tuple[object, list[object]]:
    from quizapp.authoring.export import question_mapping

    meta = (deck.id, deck.title, deck.topic, deck.domain, deck.exam_weight, deck.description)
    return meta, [question_mapping(q) for q in deck.questions]


def _errors(diagnostics: list) -> list[tuple[int, int, str, str]]:
    return sorted(
        (d.line, d.column, d.code, d.message) for d in diagnostics if d.severity == "error"
    )


def deck_header(path: Path) -> str:
    """A new deck file's text for `path`: its `deck:` header, named after the file, and
    `questions:` with nothing under it yet, for `append_question` to add to."""
    slug = re.sub(r"[^a-z0-9]+", "-", path.stem.lower()).strip("-") or "deck"
    title = path.stem.replace("_", " ").replace("-", " ").strip().capitalize() or "Deck"
    return (
        "format: 1\n"
        "deck:\n"
        f"  id: {slug}\n"
        f"  title: {json.dumps(title, ensure_ascii=False)}\n"
        f"  topic: {slug}\n"
        "  domain: LLM architecture\n"
        "  exam_weight: 1  # its share of a mock exam, against the other decks' weights\n"
        "questions:\n"
    )


def start_deck(path: str | Path) -> Path:
    """Create the deck file at `path` with its header (`quizapp new --deck` on a file that
    does not exist yet). Never replaces a file: raises NewQuestionError if one is there, or
    if the file cannot be written."""
    given = Path(path)
    try:
        write_output(given, deck_header(given).encode("utf-8"), replace=False)
    except OutputError as exc:
        raise NewQuestionError(f"{given}: {exc.cause}") from None
    return given


def append_question(
    path: str | Path,
    qtype: QuestionType | str,
    *,
    qid: str | None = None,
    reference_paths: Iterable[str | Path] = (),
) -> Appended:
    """Append a template question to the deck file at `path`; see the module docstring.

    `reference_paths` (files or folders) are the rest of the bank: the id must be unique
    there too. Raises NewQuestionError, leaving the file untouched, or OutputWriteError when
    the file cannot be written (a full disk), also leaving it untouched.
    """
    from quizapp.bank.loader import load_file

    qtype = QuestionType(qtype)
    given = Path(path)
    # A link is followed: the file it points to is the deck, and is edited in place.
    target = given.resolve()
    if not target.exists():
        raise NewQuestionError(f"{given}: no such file")
    try:
        check_output(target, replace=True)  # a regular file: never a FIFO, device or folder
    except OutputError as exc:
        raise NewQuestionError(f"{given}: {exc.cause}") from None
    try:
        raw = target.read_bytes()
        text = raw.decode("utf-8-sig")
    except OSError as exc:
        raise NewQuestionError(f"cannot read {given}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise NewQuestionError(f"{given} is not UTF-8 text") from None
    indent, empty_list_topic = _list_indent(given, text)
    before, diagnostics = load_file(target)
    if before is None and empty_list_topic is None:
        first = next((d for d in diagnostics if d.severity == "error"), None)
        reason = f": {first.message} (line {first.line})" if first else ""
        raise NewQuestionError(f"{given} does not load as a deck{reason}; fix it first")

    taken, _ = collect_ids([*reference_paths, target])
    if qid is None:
        qid = new_id(before.topic if before else empty_list_topic or "", qtype, taken)
    else:
        check_id(qid, taken)
    newline = "\r\n" if "\r\n" in text else "\n"
    item = template(qtype, qid, indent=indent, newline=newline).encode("utf-8")
    body = raw if raw.endswith(b"\n") or not raw else raw + newline.encode()
    expected = _summary(before) if before is not None else None
    errors_before = _errors(diagnostics) if before is not None else []
    failure = "the result did not load"
    # A blank line between questions, as in the bundled files; without it if a `|+` block
    # at the end of the file would swallow the blank line into the last question's text.
    for separator in (newline.encode(), b""):
        candidate = body + (separator if body.strip() else b"") + item
        try:
            outcome = _try_replace(target, candidate, qid, expected, errors_before)
        except OutputPathError as exc:  # it stopped being a regular file meanwhile
            raise NewQuestionError(f"{given}: not changed: {exc.cause}") from None
        if outcome is None:
            line = candidate[: candidate.rfind(f"- id: {qid}".encode())].count(b"\n") + 1
            return Appended(id=qid, path=given, line=line)
        failure = outcome
    raise NewQuestionError(f"{given}: not changed: {failure}")


def _try_replace(
    target: Path,
    content: bytes,
    qid: str,
    expected: tuple[object, list[object]] | None,
    errors_before: list[tuple[int, int, str, str]],
) -> str | None:
    """Write `content` beside `target`, check it, and move it into place. None on success,
    else why not (and `target` is untouched)."""
    from quizapp.bank.loader import load_file

    def verify(written: Path) -> None:
        after, diagnostics = load_file(written)
        problem = _compare(after, diagnostics, qid, expected, errors_before)
        if problem is not None:
            raise _Refused(problem)

    try:
        write_output(target, content, replace=True, before_replace=verify)
    except _Refused as refused:
        return str(refused)
    return None


class _Refused(Exception):
    """The appended file would not be right: the message says why."""


def _compare(
    after: Deck | None,
    diagnostics: list,
    qid: str,
    expected: tuple[object, list[object]] | None,
    errors_before: list[tuple[int, int, str, str]],
) -> str | None:
    new_errors = [e for e in _errors(diagnostics) if e not in errors_before]
    if after is None or new_errors:
        first = new_errors[0] if new_errors else None
        if first is None:
            return "the result would not load"
        return f"the result would not load ({first[3]} at line {first[0]})"
    if not after.questions or after.questions[-1].id != qid:
        return "the new question did not load as the last question"
    if expected is None:  # the list was empty: the new question must be all there is
        return None if len(after.questions) == 1 else "the result has unexpected questions"
    meta, questions = _summary(after)
    if meta != expected[0] or questions[:-1] != expected[1]:
        return "appending would change the questions already in the file"
    return None
