"""Every computation described from the registry and its value documentation: the text of
`quizapp compute --list NAME` and `--search WORDS`, and docs/computations.md.

docs/computations.md is generated whole. Regenerate it with

    python -m quizapp.authoring.computation_docs --write docs/computations.md

and check it (exit 1 when stale, as the tests do) with `--check docs/computations.md`.
"""

from __future__ import annotations

import argparse
import sys
import textwrap
from collections.abc import Sequence
from pathlib import Path

from quizapp.authoring.docs import report_stale
from quizapp.experiments.discover import Match
from quizapp.experiments.registry import COMPUTATIONS
from quizapp.experiments.spec import Arg, ArgValue, ComputationSpec, Rule
from quizapp.experiments.value_docs import value_docs

DEFAULT_DOC = "docs/computations.md"
REGENERATE = f"python -m quizapp.authoring.computation_docs --write {DEFAULT_DOC}"
WIDTH = 100  # the terminal text's width
SEARCH_SHOWN = 8  # results `--search` prints in full


# -- pieces shared by the text and the Markdown ---------------------------------------------------


def number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def yaml_scalar(value: ArgValue) -> str:
    """A value as it would be written in a bank file."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return repr(value) if value.is_integer() else f"{value:g}"
    return str(value)


def kind(arg: Arg) -> str:
    return {
        "int": "integer",
        "float": "number",
        "bool": "boolean",
        "str": "text",
        "choice": "choice",
    }[arg.kind]


def bounds(arg: Arg) -> str:
    if arg.kind == "str":
        return f"at most {arg.max_length} characters"
    low, high = arg.minimum, arg.maximum
    if low is not None and high is not None:
        return f"{number(low)} to {number(high)}"
    if low is not None:
        return f"at least {number(low)}"
    if high is not None:
        return f"at most {number(high)}"
    return ""


def describe_rule(rule: Rule) -> str:
    """A cross-argument rule in words (Markdown), read from the closure the spec helpers build."""
    factory = rule.__qualname__.split(".<locals>")[0]
    cells = dict(
        zip(
            rule.__code__.co_freevars,
            (cell.cell_contents for cell in rule.__closure__ or ()),
            strict=True,
        )
    )
    if factory == "divisible":
        return f"`{cells['numerator']}` must be divisible by `{cells['denominator']}`"
    if factory == "even":
        return f"`{cells['name']}` must be even"
    doc = (rule.__doc__ or "").strip()
    return doc.splitlines()[0] if doc else f"a rule between arguments (`{factory}`)"


def try_it(spec: ComputationSpec) -> str:
    given = [f"{a.name}={yaml_scalar(a.default)}" for a in spec.args if a.default is not None]
    shown = [a if " " not in a else f"'{a}'" for a in given]
    return " ".join(["quizapp compute", spec.name, *shown])


def not_computed(spec: ComputationSpec) -> list[str]:
    """The values a claim over which proves nothing (lint's echo-claim), each with why."""
    fixed = [
        f"`{name}`" + (f" (= `{formula}`)" if formula else "") for name, formula in spec.restated
    ]
    fixed += [f"`{name}` (a constant of the code)" for name in spec.constants]
    fixed += [f"`{name}` (the same as `{same}`)" for name, same in spec.aliases]
    return fixed


def _plain(markdown: str) -> str:
    return markdown.replace("`", "")


# -- `quizapp compute --list NAME` ------------------------------------------------------------------


def _wrapped(text: str, indent: int) -> list[str]:
    """`text` wrapped to WIDTH, continuation lines indented by `indent`."""
    return textwrap.wrap(text, WIDTH, subsequent_indent=" " * indent, break_on_hyphens=False) or [
        ""
    ]


def _rows(cells: Sequence[tuple[str, ...]], indent: int = 2) -> list[str]:
    """Aligned columns; the last column wraps under itself."""
    widths = [max(len(row[i]) for row in cells) for i in range(len(cells[0]) - 1)]
    lines = []
    for row in cells:
        head = " " * indent + "  ".join(c.ljust(w) for c, w in zip(row, widths, strict=False))
        lines += _wrapped(f"{head}  {row[-1]}", len(head) + 2)
    return lines


def _argument_detail(arg: Arg) -> str:
    parts = [arg.doc]
    if arg.kind == "choice":
        parts.append("one of " + ", ".join(arg.choices))
    elif bounds(arg):
        parts.append(bounds(arg))
    return "; ".join(parts)


def describe(spec: ComputationSpec) -> str:
    """`quizapp compute --list NAME`: purpose, arguments, rules, values with meaning and unit."""
    lines = [f"{spec.name}: {spec.title}", *_wrapped(spec.description, 0)]
    if spec.notes:
        lines += ["", *_wrapped(_plain(" ".join(spec.notes.split())), 0)]
    lines.append("")
    if spec.args:
        lines.append("arguments (name, type, default, meaning and bounds):")
        lines += _rows(
            [
                (
                    a.name,
                    kind(a),
                    "unset" if a.default is None else yaml_scalar(a.default),
                    _argument_detail(a),
                )
                for a in spec.args
            ]
        )
        if any(a.optional for a in spec.args):
            lines.append("  An unset argument takes its value from the other arguments.")
    else:
        lines.append("arguments: none")
    if spec.rules:
        rules = "; ".join(_plain(describe_rule(rule)) for rule in spec.rules)
        lines += _wrapped(f"rules: {rules}", 4)
    lines += ["", "values (name, unit, meaning), for a numeric answer's from: and expect claims:"]
    lines += _rows([(d.name, d.unit or "-", d.meaning) for d in value_docs(spec.name, spec.values)])
    fixed = not_computed(spec)
    if fixed:
        text = (
            f"not computed: {_plain(', '.join(fixed))}; a claim over these alone is an echo-claim"
        )
        lines += _wrapped(text, 4)
    lines += ["", f"try: {try_it(spec)}"]
    return "\n".join(lines)


# -- `quizapp compute --search WORDS` ----------------------------------------------------------------


def search_text(text: str, found: Sequence[Match]) -> str:
    """The ranked matches: name, title and description, and the values that matched."""
    words = len(found[0].matched) if found else 0
    full = [m for m in found if len(m.matched) == words]
    shown = found[: max(SEARCH_SHOWN, len(full))]
    head = (
        f"1 computation matches {text.strip()!r}"
        if len(found) == 1
        else f"{len(found)} computations match {text.strip()!r}"
    )
    lines = [f"{head}, best first (quizapp compute --list NAME describes one):"]
    width = max(len(m.spec.name) for m in shown)
    for match in shown:
        spec = match.spec
        first = f"  {spec.name.ljust(width)}  "
        lines += _wrapped(f"{first}{spec.title}: {spec.description}", len(first))
        if match.values:
            units = {d.name: d.unit for d in value_docs(spec.name, match.values)}
            listed = ", ".join(f"{v} ({units[v]})" if units[v] else v for v in match.values)
            lines += _wrapped(f"{' ' * len(first)}values: {listed}", len(first) + 8)
    if len(found) > len(shown):
        lines.append(f"  and {len(found) - len(shown)} more that match fewer of the words")
    return "\n".join(lines)


# -- docs/computations.md ----------------------------------------------------------------------------


def _cell(text: str) -> str:
    """Text made safe for one Markdown table cell."""
    return " ".join(text.split()).replace("|", "\\|")


def _default(arg: Arg) -> str:
    if arg.default is None:
        return "*unset*" if arg.optional else ""
    return f"`{yaml_scalar(arg.default)}`"


def computation_markdown(spec: ComputationSpec) -> str:
    lines = [f"## `{spec.name}`", "", f"**{spec.title}.** {spec.description}", ""]
    if spec.notes:
        lines += [" ".join(spec.notes.split()), ""]
    if spec.args:
        lines += [
            "| argument | type | default | bounds | choices | meaning |",
            "| --- | --- | --- | --- | --- | --- |",
        ]
        lines += [
            f"| `{arg.name}` | {kind(arg)} | {_default(arg)} | {_cell(bounds(arg))} "
            f"| {_cell(', '.join(f'`{c}`' for c in arg.choices))} | {_cell(arg.doc)} |"
            for arg in spec.args
        ]
        lines.append("")
        if any(arg.optional for arg in spec.args):
            lines += ["An *unset* argument takes its value from the other arguments.", ""]
    else:
        lines += ["It takes no arguments.", ""]
    if spec.rules:
        lines += [f"Rules: {'; '.join(describe_rule(rule) for rule in spec.rules)}.", ""]
    lines += ["| value | unit | meaning |", "| --- | --- | --- |"]
    lines += [
        f"| `{doc.name}` | {_cell(doc.unit) or '-'} | {_cell(doc.meaning)} |"
        for doc in value_docs(spec.name, spec.values)
    ]
    lines.append("")
    fixed = not_computed(spec)
    if fixed:
        lines += [
            f"Not computed: {', '.join(fixed)}. A claim over these alone is an "
            "[`echo-claim`](authoring.md#echo-claim).",
            "",
        ]
    lines.append(f"Try it: `{try_it(spec)}`")
    return "\n".join(lines)


def page(computations: Sequence[ComputationSpec] = COMPUTATIONS) -> str:
    """The whole of docs/computations.md."""
    index = ["| computation | what it computes |", "| --- | --- |"]
    index += [
        f"| [`{spec.name}`](#{spec.name}) | {_cell(spec.title)}: {_cell(spec.description)} |"
        for spec in computations
    ]
    intro = f"""# Computations

<!-- Do not edit: generated from quizapp/experiments/registry.py and
quizapp/experiments/value_docs/ by `{REGENERATE}`. -->

Every live computation a question's `compute:` block can name: what it computes, the
arguments `args:` may give it (a default is what an argument left out takes), and the values
it gives, each with its meaning and unit, for a numeric answer's `from:` and for `expect:`
claims ([docs/authoring.md](authoring.md#live-computations-compute) says how to write them).

From a shell, `quizapp compute --search WORDS` finds computations by what they compute,
`quizapp compute --list NAME` prints one of these sections, and `quizapp compute NAME
key=value ...` runs one and prints every value. A unit of `-` is a plain number: a difference,
a variance, a norm or a slope.

{len(computations)} computations:"""
    parts = [intro, "\n".join(index), *(computation_markdown(spec) for spec in computations)]
    return "\n\n".join(parts) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m quizapp.authoring.computation_docs",
        description="Regenerate docs/computations.md from the registry. With neither option, "
        "print it.",
    )
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--write", metavar="PATH", help="rewrite the file")
    mode.add_argument("--check", metavar="PATH", help="exit 1 when the file is out of date")
    args = parser.parse_args(argv)
    generated = page()
    path_name = args.write or args.check
    if path_name is None:
        sys.stdout.write(generated)
        return 0
    path = Path(path_name)
    if args.write:
        try:
            current = path.read_text(encoding="utf-8") if path.exists() else ""
            if current != generated:
                path.write_text(generated, encoding="utf-8")
                print(f"{path}: regenerated", file=sys.stderr)
        except OSError as exc:
            print(f"{parser.prog}: {path}: {exc}", file=sys.stderr)
            return 2
        return 0
    try:
        current = path.read_text(encoding="utf-8")
    except OSError as exc:
        print(f"{parser.prog}: {path}: {exc}", file=sys.stderr)
        return 2
    return report_stale(path, current, generated, REGENERATE)


if __name__ == "__main__":
    sys.exit(main())
