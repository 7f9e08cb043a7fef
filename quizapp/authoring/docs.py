"""Generate the parts of docs/authoring.md that must never drift from the code.

Two sections are generated, each between a pair of marker comments:

    <!-- BEGIN GENERATED: computations -->  ...  <!-- END GENERATED: computations -->
    <!-- BEGIN GENERATED: messages -->      ...  <!-- END GENERATED: messages -->

`computations` comes from the registry (quizapp.experiments.registry) and `messages` from the
lint message catalogue (quizapp.authoring.messages). Regenerate with

    python -m quizapp.authoring.docs --write docs/authoring.md

and check (exit 1 when stale, as CI does) with `--check docs/authoring.md`.
"""

from __future__ import annotations

import argparse
import difflib
import re
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from quizapp.authoring.messages import CATALOGUE, Message
from quizapp.experiments.registry import COMPUTATIONS
from quizapp.experiments.spec import ComputationSpec

SECTIONS = ("computations", "messages")
DEFAULT_DOC = "docs/authoring.md"
REGENERATE = f"python -m quizapp.authoring.docs --write {DEFAULT_DOC}"


def begin_marker(name: str) -> str:
    return f"<!-- BEGIN GENERATED: {name} -->"


def end_marker(name: str) -> str:
    return f"<!-- END GENERATED: {name} -->"


# -- small Markdown helpers ----------------------------------------------------------------------


def _cell(text: str) -> str:
    """Text made safe for one Markdown table cell."""
    return " ".join(text.split()).replace("|", "\\|")


# -- computations ---------------------------------------------------------------------------------


def computations_markdown(computations: Sequence[ComputationSpec] = COMPUTATIONS) -> str:
    """The "Computations" section body: an index of the registry, each computation linked to
    its full section in docs/computations.md (quizapp.authoring.computation_docs)."""
    intro = (
        f"{len(computations)} computations, generated from `quizapp/experiments/registry.py`. "
        "Each has a section in [docs/computations.md](computations.md): its arguments with "
        "types, bounds and defaults, and every value with its meaning and unit. "
        "`quizapp compute --search WORDS` finds computations by what they compute, "
        "`quizapp compute --list NAME` prints one's section, and `quizapp compute NAME "
        "key=value ...` runs it and prints every value."
    )
    table = ["| computation | what it computes | arguments |", "| --- | --- | --- |"]
    table += [
        f"| [`{spec.name}`](computations.md#{spec.name}) | {_cell(spec.title)} "
        f"| {', '.join(f'`{arg.name}`' for arg in spec.args) or 'none'} |"
        for spec in computations
    ]
    return "\n\n".join([intro, "\n".join(table)])


# -- lint messages -------------------------------------------------------------------------------

_STAGE = {
    "load": "found whenever the bank loads: by the app and by `quizapp lint`",
    "lint": "found by `quizapp lint`, which checks compute blocks against the registry",
    "eval": "found by `quizapp lint` when it runs the computation (not with `--no-eval`)",
    "review": "found by `quizapp lint`, which reviews how the items are written",
}


def message_markdown(message: Message) -> str:
    lines = [
        f"### `{message.code}`",
        "",
        f"**{message.severity}**, {_STAGE[message.stage]}.",
        "",
        message.meaning,
        "",
        f"**Fix:** {message.fix}",
    ]
    if message.corpus_path is not None:
        lines += ["", f"Example: [`{message.corpus_path}`](../{message.corpus_path})"]
    if message.example is not None:
        timeout = (
            "" if message.eval_timeout is None else f" --eval-timeout {message.eval_timeout:g}"
        )
        lessons = ""
        if message.lesson is not None:
            lessons = " --lessons"
            lesson = message.lesson.rstrip("\n")
            lines += ["", "With this lesson in the `--lessons` folder:", "", "```text", lesson]
            lines.append("```")
        header = f"# lint{timeout}{lessons}: {message.code}"
        lines += ["", "Example:", "", "```yaml", header, message.example]
        lines[-1] = lines[-1].rstrip("\n")
        lines.append("```")
    return "\n".join(lines)


def messages_markdown(catalogue: Sequence[Message] = CATALOGUE) -> str:
    """The "Lint messages" section body: every code in quizapp/authoring/messages.py."""
    intro = (
        f"{len(catalogue)} codes, generated from `quizapp/authoring/messages.py`. An *error* "
        "keeps the question out of the bank (or the whole file, when the problem is with the "
        "file); a *warning* does not, unless `--strict`."
    )
    table = ["| code | severity | what it means |", "| --- | --- | --- |"]
    for message in catalogue:
        first = re.split(r"(?<=\.)\s", message.meaning, maxsplit=1)[0]
        table.append(
            f"| [`{message.code}`](#{message.code}) | {message.severity} | {_cell(first)} |"
        )
    return "\n\n".join([intro, "\n".join(table), *(message_markdown(m) for m in catalogue)])


# -- the doc ---------------------------------------------------------------------------------------

GENERATORS: dict[str, Callable[[], str]] = {
    "computations": computations_markdown,
    "messages": messages_markdown,
}


def section_pattern(name: str) -> re.Pattern[str]:
    return re.compile(
        re.escape(begin_marker(name)) + r"\n(.*?)" + re.escape(end_marker(name)), re.DOTALL
    )


def generated_block(name: str) -> str:
    """What goes between one pair of markers (without the markers)."""
    source = (
        "quizapp/experiments/registry.py"
        if name == "computations"
        else "quizapp/authoring/messages.py"
    )
    note = f"<!-- Do not edit: generated from {source} by `{REGENERATE}`. -->"
    return f"{note}\n\n{GENERATORS[name]().rstrip()}\n\n"


def extract(text: str, name: str) -> str:
    """The current content between one pair of markers. Raises ValueError without exactly one."""
    found = section_pattern(name).findall(text)
    if len(found) != 1:
        raise ValueError(
            f"expected one '{begin_marker(name)}' ... '{end_marker(name)}' pair, found {len(found)}"
        )
    return found[0]


def render(text: str) -> str:
    """`text` with every generated section replaced by what the code says now."""
    for name in SECTIONS:
        extract(text, name)  # exactly one pair, or ValueError
        block = generated_block(name)
        text = section_pattern(name).sub(
            lambda _match, name=name, block=block: (
                f"{begin_marker(name)}\n{block}{end_marker(name)}"
            ),
            text,
        )
    return text


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m quizapp.authoring.docs",
        description="Regenerate the computations and lint-messages sections of the authoring "
        "guide. With neither option, print the generated sections.",
    )
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--write", metavar="PATH", help="rewrite the generated sections in place")
    mode.add_argument(
        "--check", metavar="PATH", help="exit 1 when the generated sections are out of date"
    )
    args = parser.parse_args(argv)
    path_name = args.write or args.check
    if path_name is None:
        for name in SECTIONS:
            print(f"{begin_marker(name)}\n{generated_block(name)}{end_marker(name)}\n")
        return 0
    path = Path(path_name)
    try:
        current = path.read_text(encoding="utf-8")
        updated = render(current)
    except (OSError, ValueError) as exc:
        print(f"{parser.prog}: {path}: {exc}", file=sys.stderr)
        return 2
    if args.write:
        if updated != current:
            path.write_text(updated, encoding="utf-8")
            print(f"{path}: generated sections updated", file=sys.stderr)
        return 0
    return report_stale(path, current, updated, f"python -m quizapp.authoring.docs --write {path}")


def report_stale(path: Path, current: str, generated: str, regenerate: str) -> int:
    """0 when a generated doc is current; else the start of its diff and the command that
    regenerates it on stderr, and 1 (shared by every `--check` of generated docs)."""
    if current == generated:
        return 0
    diff = difflib.unified_diff(
        current.splitlines(keepends=True),
        generated.splitlines(keepends=True),
        fromfile=f"{path} (on disk)",
        tofile=f"{path} (generated)",
        n=1,
    )
    sys.stderr.writelines(list(diff)[:60])
    print(f"\n{path} is out of date; run: {regenerate}", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
