"""The parser class every quizapp (sub)command uses, and the checks made after parsing."""

from __future__ import annotations

import argparse

from quizapp.bank.literal import error_line


class QuizappParser(argparse.ArgumentParser):
    """One-line usage errors (exit 2); no flag takes an empty value."""

    def _get_value(self, action: argparse.Action, arg_string: str) -> object:
        # No flag means anything when empty: `--out ''` would write nowhere, `--host ''` listen
        # everywhere. Refused here, for every flag of every command, before its type runs.
        if action.option_strings and not arg_string.strip():
            raise argparse.ArgumentError(action, "must not be empty")
        return super()._get_value(action, arg_string)

    def error(self, message: str) -> None:  # type: ignore[override]
        # argparse prints the whole usage block; one line naming the problem is easier to act on.
        # The message can quote an argument, which is untrusted text like any other.
        self.exit(2, f"{error_line(self.prog, message)} (see '{self.prog} --help')\n")


def exam_date_problem(args: argparse.Namespace) -> str | None:
    """Why --exam-date is out of range today (between today and 3 years ahead), or None."""
    if getattr(args, "exam_date", None) is None:
        return None
    from quizapp.srs.clock import local_today
    from quizapp.srs.config import exam_date_problem as problem_on

    problem = problem_on(args.exam_date, local_today())
    return f"argument --exam-date: {problem}" if problem else None


__all__ = ["QuizappParser", "exam_date_problem"]
