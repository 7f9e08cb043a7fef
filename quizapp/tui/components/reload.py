"""Live reload: keep a running app's bank in step with its files, and what a preview shows.

Polled, not evented: each poll lists the watched folders again (new and removed files) and
compares every file's (size, mtime_ns) with the last poll's. Only changed files are parsed
again, with `load_file`. A file that now has errors (a typo, or an editor's half-written
save) keeps the version in use, and its errors are reported; the next good save replaces it.
The bank is then rebuilt as `load_bank` builds it, cross-file duplicate ids included.

Question ids do not change when a file is reloaded, so the review history, which is keyed by
id, is untouched. A session in progress keeps its own question objects.

Pure Python, no Textual: the app polls it from a timer (a bank file parses in a few ms).
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from quizapp.bank.diagnostics import Diagnostic
from quizapp.bank.discovery import BANK_SUFFIXES, discover
from quizapp.bank.model import Bank, Deck, Question

Stamp = tuple[int, int] | None  # (size, mtime_ns); None: the file could not be read


def _stamp(path: Path) -> Stamp:
    try:
        stat = path.stat()
    except OSError:
        return None
    return stat.st_size, stat.st_mtime_ns


@dataclass
class _File:
    stamp: Stamp
    deck: Deck | None = None  # the version in use: the last one that loaded cleanly
    diagnostics: tuple[Diagnostic, ...] = ()  # from the latest load, good or not


@dataclass(frozen=True)
class Reload:
    """What one poll changed. `bank` is the whole bank as it now stands."""

    bank: Bank
    reloaded: tuple[Deck, ...] = ()  # changed files that loaded: the decks now in use
    added: tuple[Deck, ...] = ()  # decks from files that were not there before
    removed: tuple[Deck, ...] = ()  # decks whose file is gone
    kept: tuple[str, ...] = ()  # files with errors whose last good version stays in use
    problems: tuple[Diagnostic, ...] = ()  # errors that were not there before this poll
    cleared: tuple[str, ...] = ()  # files whose errors are all gone

    def size_of(self, deck: Deck) -> int:
        """The deck's questions in the bank (fewer than in its file if ids clash)."""
        in_bank = self.bank.deck(deck.id)
        return len(in_bank.questions) if in_bank is not None and in_bank.path == deck.path else 0


@dataclass
class BankWatcher:
    """Tracks the files behind a bank; `poll()` reloads what changed since the last call."""

    paths: tuple[Path, ...]
    bank: Bank  # the bank as it stands: the app's starting bank until the first change
    _files: dict[Path, _File] = field(default_factory=dict, init=False)
    _order: list[Path] = field(default_factory=list, init=False)
    _problems: list[Diagnostic] = field(default_factory=list, init=False)
    _baseline: bool = field(default=False, init=False)

    @classmethod
    def start(cls, paths: Iterable[str | Path], bank: Bank) -> BankWatcher:
        """Note every file's stamp now. Nothing is parsed: `bank` is what the files hold."""
        watcher = cls(tuple(Path(p) for p in paths), bank)
        in_use = {deck.path: deck for deck in bank.decks}
        watcher._order, watcher._problems = discover(watcher.paths)
        for path in watcher._order:
            watcher._files[path] = _File(_stamp(path), deck=in_use.get(str(path)))
        return watcher

    @property
    def files(self) -> list[Path]:
        return list(self._order)

    def poll(self) -> Reload | None:
        """Reload the files that changed, rebuild the bank; None when nothing changed."""
        order, problems = discover(self.paths)
        stamps = {path: _stamp(path) for path in order}
        changed = [p for p in order if p not in self._files or self._files[p].stamp != stamps[p]]
        gone = [p for p in self._files if p not in stamps]
        if not changed and not gone and order == self._order and problems == self._problems:
            return None
        if not self._baseline:
            # The first change: parse the unchanged files once as well. The starting bank may
            # have dropped questions that clashed with another file's, and rebuilding needs
            # each file's own deck.
            for path in order:
                if path in self._files and path not in changed:
                    deck, diagnostics = _load(path, self.bank.computations)
                    self._files[path] = _File(stamps[path], deck, tuple(diagnostics))
            self._baseline = True

        reloaded: list[Deck] = []
        added: list[Deck] = []
        kept: list[str] = []
        for path in changed:
            before = self._files.get(path)
            deck, diagnostics = _load(path, self.bank.computations)
            now = _File(stamps[path], deck, tuple(diagnostics))
            if any(d.severity == "error" for d in diagnostics) and before and before.deck:
                now.deck = before.deck  # a bad save: the last good version stays in use
                kept.append(str(path))
            elif deck is not None:
                (reloaded if before is not None else added).append(deck)
            self._files[path] = now
        removed = [d for p in gone if (d := self._files.pop(p).deck) is not None]

        self._order, self._problems = order, problems
        before_bank, self.bank = self.bank, self._rebuild()
        old_errors = set(before_bank.errors)
        erring = {d.path for d in self.bank.errors}
        present = {str(p) for p in order} | {str(p) for p in self.paths}
        return Reload(
            bank=self.bank,
            reloaded=tuple(reloaded),
            added=tuple(added),
            removed=tuple(removed),
            kept=tuple(kept),
            problems=tuple(d for d in self.bank.errors if d not in old_errors),
            cleared=tuple(sorted(({d.path for d in old_errors} - erring) & present)),
        )

    def _rebuild(self) -> Bank:
        """The bank from each file's deck in use, exactly as `load_bank` combines files."""
        entries = (
            (str(path), self._files[path].deck, self._files[path].diagnostics)
            for path in self._order
        )
        return Bank.combine(entries, self._problems, self.bank.computations)


def _load(path: Path, computations: frozenset[str] | None) -> tuple[Deck | None, list[Diagnostic]]:
    from quizapp.bank.loader import load_file  # the YAML machinery, only once a file changes

    # Held to the computation names the starting bank was (the app's and a preview's are).
    return load_file(path, computations)


# The text width of a toast (60 wide, app.tcss lets it be so at 80 columns, less its padding).
TOAST_TEXT_WIDTH = 56


def located(diagnostic: Diagnostic, width: int = TOAST_TEXT_WIDTH) -> str:
    """`path:line:col` on a line of its own, then the message: the form for notifications.

    A toast is narrow, and a long path wrapped wherever it ran out of room (`…yam` / `l:16:17:`).
    So the location gets a line to itself, a path too long for it cut from the left (the
    file name, the line and the column always show), and the message wraps below it.
    """
    where = f":{diagnostic.line}:{diagnostic.column}"
    path = str(diagnostic.path)
    room = max(8, width - len(where))
    if len(path) > room:
        path = "…" + path[-(room - 1) :]
    return f"{path}{where}\n{diagnostic.message}"


# -- what a preview shows -------------------------------------------------------------------

PreviewTarget = str | Path  # a question id, or a bank file or folder


def looks_like_file(target: str) -> bool:
    """A path separator, a bank suffix or something on disk by that name: a file, not an id."""
    return (
        "/" in target
        or os.sep in target
        or target.endswith(BANK_SUFFIXES)
        or os.path.exists(target)
    )


def within(path: str | Path, target: Path) -> bool:
    """Whether a bank file is the target file, or inside the target folder."""
    resolved, where = Path(path).resolve(), target.resolve()
    return resolved == where or where in resolved.parents


def preview_questions(
    bank: Bank, targets: Sequence[PreviewTarget]
) -> tuple[list[Question], list[PreviewTarget]]:
    """The questions to preview, in the order asked for (a file's in file order), no repeats;
    and the targets that found nothing."""
    by_id = bank.questions
    chosen: dict[str, Question] = {}
    missing: list[PreviewTarget] = []
    for target in targets:
        if isinstance(target, Path):
            found = [q for d in bank.decks if within(d.path, target) for q in d.questions]
        else:
            found = [by_id[target]] if target in by_id else []
        if not found:
            missing.append(target)
        for question in found:
            chosen.setdefault(question.id, question)
    return list(chosen.values()), missing


def problems_in(bank: Bank, targets: Sequence[PreviewTarget]) -> list[Diagnostic]:
    """The bank's errors located in the target files and folders."""
    files = [t for t in targets if isinstance(t, Path)]
    return [d for d in bank.errors if any(within(d.path, f) for f in files)]
