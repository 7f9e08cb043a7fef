"""The command line of one browser session's app process."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

import quizapp


@dataclass(frozen=True)
class SessionOptions:
    """The app options `quizapp serve` passes through to every session, as given.

    Not --no-shuffle: an authoring aid, never a student's session (serve refuses it)."""

    bank: tuple[str, ...] = ()
    no_default_bank: bool = False
    db: str | None = None
    student: str | None = None  # a signed-in session: the student, whose role it runs as
    device: str = "auto"
    theme: str | None = None
    length: int | None = None
    default_parameters: bool = False


def session_argv(options: SessionOptions) -> list[str]:
    """`python -m quizapp` with the options, as an argument list: no shell reads a bank path.

    With the SQLite store every session opens the one local history, as the terminal app does.
    On the class's PostgreSQL store a session is a signed-in student's (quizapp/serve/
    sign_in.py): `db` names their role (no password: that goes in PGPASSWORD), and `student`
    is that role's name, whatever QUIZAPP_STUDENT or config.toml say.
    """
    # --option=value: a value that starts with "-" is still read as the value.
    # Torch at a tab's first computation, not at its start: thirty tabs opened together need
    # not each import it, and hold it, on the home screen (a question prepares its lab).
    argv = [sys.executable, "-m", "quizapp", f"--device={options.device}", "--load-torch=first-use"]
    argv += [f"--bank={path}" for path in options.bank]
    if options.no_default_bank:
        argv.append("--no-default-bank")
    if options.db is not None:
        argv.append(f"--db={options.db}")
    if options.student is not None:
        argv.append(f"--student={options.student}")
    if options.theme is not None:
        argv.append(f"--theme={options.theme}")
    if options.length is not None:
        argv.append(f"--length={options.length}")
    if options.default_parameters:
        argv.append("--default-parameters")
    return argv


def session_environment(environment: dict[str, str]) -> dict[str, str]:
    """The sessions run the quizapp this server runs, wherever the server was started from.

    Each session's computations run on one thread (unless OMP_NUM_THREADS says otherwise):
    a class's tabs share the machine's cores, and torch's default of a thread per core in
    every tab has them fight (OpenMP's idle threads spin) rather than take turns."""
    package_root = str(Path(quizapp.__file__).resolve().parent.parent)
    paths = [package_root, *filter(None, environment.get("PYTHONPATH", "").split(":"))]
    return {
        "PYTHONPATH": ":".join(dict.fromkeys(paths)),
        "OMP_NUM_THREADS": environment.get("OMP_NUM_THREADS", "1"),
    }
