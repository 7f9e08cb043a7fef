"""What the authoring commands share (`new`, `import`, `export`, quizapp/cli/authoring.py and
the importers beside it): their one-line errors, the bank new questions join, and writing
bytes to stdout as they are.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
from pathlib import Path

from quizapp.bank.literal import error_line


def usage_error(command: str, message: str) -> int:
    """A usage problem: one line, exit 2."""
    print(error_line(f"quizapp {command}", message), file=sys.stderr)
    return 2


def failure(command: str, message: str) -> int:
    """A failure that is not the user's syntax: one line, exit 1."""
    print(error_line(f"quizapp {command}", message), file=sys.stderr)
    return 1


def reference_paths(args: argparse.Namespace) -> list[Path] | str:
    """The bank the new questions join: bundled + --bank. A string is a usage error."""
    from quizapp.bank import bundled_bank_path

    paths = [Path(p) for p in args.bank]
    for path in paths:
        if not path.exists():
            return f"--bank {path}: no such file or folder"
    if not args.no_default_bank:
        with contextlib.suppress(FileNotFoundError):
            paths.insert(0, bundled_bank_path())
    return paths


def without_file(paths: list[Path], excluded: Path) -> list[Path]:
    """`paths` with the file `excluded` taken out (folders expanded when they hold it)."""
    from quizapp.bank.discovery import discover

    gone = excluded.resolve()
    kept: list[Path] = []
    for path in paths:
        if path.is_dir() and gone.is_relative_to(path.resolve()):
            files, _ = discover([path])
            kept.extend(f for f in files if f.resolve() != gone)
        elif path.resolve() != gone:
            kept.append(path)
    return kept


# -- export -----------------------------------------------------------------------------------


def write_stdout(data: bytes) -> None:
    """Bytes to stdout as they are (a BOM and UTF-8 whatever the terminal's locale)."""
    buffer = getattr(sys.stdout, "buffer", None)
    if buffer is None:
        sys.stdout.write(data.decode("utf-8"))
        return
    sys.stdout.flush()
    buffer.write(data)
    buffer.flush()
