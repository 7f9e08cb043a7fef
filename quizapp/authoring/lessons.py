"""`unknown-source`: a question's `source:` must name a lesson, and a line of it, that exist.

The lessons are the instructor's, not the project's: `quizapp lint --lessons DIR` (or
`lessons = "DIR"` in config.toml) names a folder of plain-text lessons (`*.txt`, `*.md`).
A lesson's title is its first non-empty line; any line of it can be cited as a heading (in a
`.md` file without its leading `#` marks).

Only sources of the form `Lesson: <title> › <heading>` (or `Lesson: <title>` alone) are
checked; any other source is free text (a paper, a page number) and is left alone. Titles
and headings are compared after white space is collapsed and case is folded: a citation is
wrong when it names text that is not there, not when it capitalises it differently.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from quizapp.bank import Diagnostic, Question

PREFIX = "Lesson:"
SEPARATOR = "›"
SUFFIXES = (".txt", ".md")
MAX_LESSON_BYTES = 4 * 1024 * 1024  # a lesson is a few pages; more is not a lesson
MAX_LINE_CHARACTERS = 300  # a heading is one short line; longer lines are prose
_MARKDOWN_HEADING = re.compile(r"^\s{0,3}#{1,6}\s+")


def normalise(text: str) -> str:
    """White space collapsed and case folded: how titles and headings are compared."""
    return " ".join(text.split()).casefold()


@dataclass(frozen=True)
class Lesson:
    title: str  # as written
    path: Path
    lines: frozenset[str]  # normalised
    shown: dict[str, str] = field(default_factory=dict, compare=False)  # normalised -> as written


@dataclass(frozen=True)
class Lessons:
    folder: Path
    by_title: dict[str, Lesson]  # normalised title -> lesson


class LessonsError(ValueError):
    """The lessons folder cannot be used (one line naming it)."""


def read_lesson(path: Path) -> Lesson | None:
    """One lesson file, or None when it has no non-empty line."""
    with path.open("rb") as handle:
        data = handle.read(MAX_LESSON_BYTES)
    text = data.decode("utf-8", errors="replace")
    markdown = path.suffix == ".md"
    shown: dict[str, str] = {}
    for raw in text.splitlines():
        line = _MARKDOWN_HEADING.sub("", raw) if markdown else raw
        line = " ".join(line.split())
        if line and len(line) <= MAX_LINE_CHARACTERS:
            shown.setdefault(line.casefold(), line)
    if not shown:
        return None
    title = next(iter(shown.values()))
    return Lesson(title, path, frozenset(shown), shown)


def load_lessons(folder: Path) -> Lessons:
    """Every lesson in `folder` (not its subfolders). Raises LessonsError."""
    if not folder.is_dir():
        raise LessonsError(f"{folder}: not a folder of lessons")
    by_title: dict[str, Lesson] = {}
    try:
        paths = sorted(p for p in folder.iterdir() if p.suffix in SUFFIXES and p.is_file())
        for path in paths:
            lesson = read_lesson(path)
            if lesson is not None:
                by_title.setdefault(normalise(lesson.title), lesson)
    except OSError as exc:
        raise LessonsError(f"{folder}: cannot read: {exc}") from None
    if not by_title:
        raise LessonsError(f"{folder}: no lessons (*.txt or *.md files with a title line)")
    return Lessons(folder, by_title)


def parse_source(source: str) -> tuple[str, str | None] | None:
    """(title, heading or None) of a `Lesson: <title> › <heading>` source; None otherwise."""
    text = source.strip()
    if not text.startswith(PREFIX):
        return None
    title, separator, heading = text[len(PREFIX) :].partition(SEPARATOR)
    return title.strip(), (heading.strip() if separator else None)


def _close(word: str, candidates: Iterable[str]) -> str:
    match = difflib.get_close_matches(word, list(candidates), n=1, cutoff=0.6)
    return f"; did you mean '{match[0]}'?" if match else ""


class SourceChecker:
    """Judges sources against the lessons; a citation repeated across a bank is judged once."""

    def __init__(self, lessons: Lessons) -> None:
        self.lessons = lessons
        self._verdicts: dict[str, str | None] = {}

    def problem(self, source: str) -> str | None:
        """Why the source names nothing in the lessons, or None (also for free-text sources)."""
        if source not in self._verdicts:
            self._verdicts[source] = self._judge(source)
        return self._verdicts[source]

    def _judge(self, source: str) -> str | None:
        parsed = parse_source(source)
        if parsed is None:
            return None
        title, heading = parsed
        lesson = self.lessons.by_title.get(normalise(title))
        if lesson is None:
            titles = [lesson.title for lesson in self.lessons.by_title.values()]
            return f"no lesson in {self.lessons.folder} is titled '{title}'{_close(title, titles)}"
        if heading is None or normalise(heading) in lesson.lines:
            return None
        return f"lesson '{lesson.title}' ({lesson.path.name}) has no line '{heading}'" + _close(
            heading, lesson.shown.values()
        )


def unknown_sources(questions: Sequence[Question], lessons: Lessons) -> list[Diagnostic]:
    """An `unknown-source` warning for each question whose source the lessons do not have."""
    checker = SourceChecker(lessons)
    found = []
    for question in questions:
        if question.source is None:
            continue
        problem = checker.problem(question.source)
        if problem is None:
            continue
        where = question.field_locations.get("source", question.location)
        found.append(
            Diagnostic(where.path, where.line, where.column, "warning", "unknown-source", problem)
        )
    return found


def checkable_sources(questions: Iterable[Question]) -> int:
    """How many questions cite a lesson in the checked form (what lint skips without lessons)."""
    return sum(q.source is not None and parse_source(q.source) is not None for q in questions)
