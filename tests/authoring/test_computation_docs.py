"""docs/computations.md is generated from the registry and its value documentation, and
cannot drift from them; `quizapp compute --list NAME` says the same in plain text."""

from __future__ import annotations

from pathlib import Path

import pytest

from quizapp.authoring import computation_docs
from quizapp.experiments.registry import COMPUTATIONS
from quizapp.experiments.value_docs import value_docs
from tests.conftest import REPO

DOC = REPO / "docs" / "computations.md"


def section(name: str) -> str:
    text = DOC.read_text(encoding="utf-8")
    return text.split(f"\n## `{name}`\n", 1)[1].split("\n## ", 1)[0]


def test_the_doc_is_up_to_date() -> None:
    assert DOC.read_text(encoding="utf-8") == computation_docs.page(), (
        f"docs/computations.md is stale; run `{computation_docs.REGENERATE}`"
    )


@pytest.mark.parametrize("spec", COMPUTATIONS, ids=lambda spec: spec.name)
def test_each_computation_has_its_purpose_arguments_and_values(spec) -> None:
    own = section(spec.name)
    assert f"**{spec.title}.** {spec.description}" in own
    if spec.notes:
        assert " ".join(spec.notes.split()) in own
    for arg in spec.args:
        assert f"| `{arg.name}` | {computation_docs.kind(arg)} |" in own
    for doc in value_docs(spec.name, spec.values):
        meaning = doc.meaning.replace("|", "\\|")  # a Markdown cell escapes its bars
        assert f"| `{doc.name}` | {doc.unit or '-'} | {meaning} |" in own
    assert f"Try it: `{computation_docs.try_it(spec)}`" in own


@pytest.mark.parametrize("spec", COMPUTATIONS, ids=lambda spec: spec.name)
def test_list_name_text_names_every_argument_and_value_with_its_unit(spec) -> None:
    text = computation_docs.describe(spec)
    assert text.startswith(f"{spec.name}: {spec.title}\n")
    arguments, values = text.split("\nvalues (name, unit, meaning)", 1)

    def rows(part: str) -> dict[str, str]:  # a row starts in column 3; its wrapped lines later
        lines = part.splitlines()
        return {
            line.split()[0]: line
            for line in lines
            if line.startswith("  ") and not line.startswith("   ")
        }

    for arg in spec.args:
        assert f" {computation_docs.kind(arg)} " in rows(arguments)[arg.name]
    for doc in value_docs(spec.name, spec.values):
        assert f" {doc.unit or '-'} " in rows(values)[doc.name]
    prose = [line for line in text.splitlines() if not line.startswith("try: ")]  # a command
    assert all(len(line) <= computation_docs.WIDTH for line in prose)


def test_check_and_write(tmp_path: Path) -> None:
    stale = tmp_path / "computations.md"
    stale.write_text(
        DOC.read_text(encoding="utf-8").replace("| bytes | size of one number", "| B | size"),
        encoding="utf-8",
    )
    assert computation_docs.main(["--check", str(stale)]) == 1
    assert computation_docs.main(["--write", str(stale)]) == 0
    assert stale.read_text(encoding="utf-8") == DOC.read_text(encoding="utf-8")
    assert computation_docs.main(["--check", str(stale)]) == 0
    assert computation_docs.main(["--check", str(tmp_path / "missing.md")]) == 2
