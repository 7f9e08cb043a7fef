"""`quizapp lint` and `quizapp schema` driven from a shell, as instructors and CI use them."""

from __future__ import annotations

import json
import re
from pathlib import Path

from tests.conftest import CORPUS

LINE = re.compile(
    r"^(?P<path>.+?):(?P<line>\d+):(?P<col>\d+): (?P<sev>error|warning): .+ \[[a-z-]+\]$"
)


def test_lint_reports_editor_readable_lines_and_exits_1(run_cli) -> None:
    result = run_cli("lint", str(CORPUS / "bad"), str(CORPUS / "good"))
    assert result.returncode == 1
    lines = result.stdout.splitlines()
    assert lines and all(LINE.match(line) for line in lines), result.stdout
    assert "Traceback" not in result.stderr
    assert re.search(r"\d+ file\(s\), 8 question\(s\) loaded: \d+ error\(s\)", result.stderr)


def test_lint_warnings_alone_exit_0_and_strict_makes_them_errors(run_cli) -> None:
    good = str(CORPUS / "good")
    relaxed = run_cli("lint", good)
    assert relaxed.returncode == 0
    assert ": warning: " in relaxed.stdout and ": error: " not in relaxed.stdout
    strict = run_cli("lint", "--strict", good)
    assert strict.returncode == 1
    assert ": error: " in strict.stdout and ": warning: " not in strict.stdout


def test_lint_json_output(run_cli) -> None:
    result = run_cli("lint", "--format", "json", str(CORPUS / "bad" / "duplicate_key.yaml"))
    assert result.returncode == 1
    payload = json.loads(result.stdout)
    assert payload["errors"] == 1 and payload["files"] == 1
    [error] = [d for d in payload["diagnostics"] if d["severity"] == "error"]
    assert error["code"] == "duplicate-key" and error["line"] == 11 and error["column"] == 5
    assert error["path"].endswith("duplicate_key.yaml")


def test_lint_missing_path_is_one_line_not_a_traceback(run_cli, tmp_path: Path) -> None:
    result = run_cli("lint", str(tmp_path / "nope.yaml"))
    assert result.returncode == 1
    assert (
        result.stdout.strip()
        == f"{tmp_path / 'nope.yaml'}:1:1: error: no such file or folder [not-found]"
    )
    assert "Traceback" not in result.stderr


def test_bad_arguments_exit_2_with_one_line(run_cli) -> None:
    result = run_cli("lint", "--format", "xml")
    assert result.returncode == 2
    assert len(result.stderr.strip().splitlines()) == 1
    assert "--format" in result.stderr
    unknown = run_cli("frobnicate")
    assert unknown.returncode == 2 and "frobnicate" in unknown.stderr


def test_schema_is_valid_json_schema_and_matches_the_committed_copy(run_cli) -> None:
    import jsonschema

    result = run_cli("schema")
    assert result.returncode == 0
    schema = json.loads(result.stdout)
    jsonschema.Draft202012Validator.check_schema(schema)
    committed = Path(__file__).resolve().parents[2] / "question_bank" / "schema.json"
    assert json.loads(committed.read_text()) == schema, (
        "run: quizapp schema > question_bank/schema.json"
    )
