"""The line an export to another quiz system adds to a computed question's explanation.

A live computation cannot run inside Moodle (or any LMS): an export writes the question's key
and explanation as plain text, and this line says where they came from, so an instructor can
find the computation and run it again (`quizapp compute NAME ARG=VALUE ...`).
"""

from __future__ import annotations

from quizapp.bank.model import ComputeSpec


def computation_line(compute: ComputeSpec) -> str:
    """`*Computed in quizapp by `name` with d_model=512, n_heads=8.*` (Markdown, one line)."""
    from quizapp.authoring.export import format_arg

    args = ", ".join(f"{name}={format_arg(value)}" for name, value in compute.args.items())
    with_args = f" with {args}" if args else ""
    return f"*Computed in quizapp by `{compute.name}`{with_args}.*"


__all__ = ["computation_line"]
