"""The hostile numbers, sizes and dates of issue 21, as a user meets them on the command line:
each one located line, the right exit code, quickly, and never a traceback."""

from __future__ import annotations

import subprocess
import sys
import time
from datetime import timedelta
from pathlib import Path

import pytest

from quizapp.bank.fields import DEFAULT_CSV_ROWS
from quizapp.srs.clock import local_today
from quizapp.srs.config import exam_horizon
from tests.conftest import REPO

HUGE = "1" + "0" * 400
HEADER = "id,type,prompt,explanation,difficulty,tags,answer,tolerance\n"


def one_error_line(result: subprocess.CompletedProcess, status: int) -> str:
    assert result.returncode == status, result.stderr
    assert "Traceback" not in result.stderr and "internal error" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, lines
    return lines[0]


def test_a_400_digit_exam_weight_is_a_located_lint_error(run_cli, tmp_path: Path) -> None:
    deck = tmp_path / "deck.yaml"
    deck.write_text(
        f"deck: {{id: d, title: T, topic: t, domain: D, exam_weight: {HUGE}}}\n"
        "questions:\n  - {id: q, type: flashcard, prompt: P, explanation: E, difficulty: easy,"
        " tags: [t], back: B}\n"
    )
    result = run_cli("lint", "--no-eval", str(deck))
    assert result.returncode == 1 and "Traceback" not in result.stderr + result.stdout
    assert f"{deck}:1:" in result.stdout and "1e100" in result.stdout


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["stats", "--days", "99999999999"], "--days: must be a whole number from 1 to 36500"),
        (["export", "--format", "csv", "--out", ""], "--out: must not be empty"),
        (["serve", "--host", ""], "--host: must not be empty"),
        (["serve", "--port", "0"], "--port: must be a whole number from 1 to 65535"),
        (["forecast", "--exam-date", "2100-01-01"], "--exam-date: 2100-01-01 is more than 3 years"),
        (["drill", "--exam-date", "2000-01-01"], "--exam-date: 2000-01-01 has passed"),
        (["import", "x.csv", "--max-rows", "0"], "--max-rows: must be a whole number from 1"),
        (["compute", "head_parallelism", f"d_model={HUGE}"], "d_model: a number written with 401"),
        (["compute", "head_parallelism", "d_model=1e400"], "d_model: 1e400 is out of range"),
    ],
)
def test_hostile_flags_are_one_line_usage_errors(run_cli, tmp_path: Path, args, fragment) -> None:
    started = time.monotonic()
    result = run_cli(*args, cwd=tmp_path)
    assert fragment in one_error_line(result, 2)
    assert time.monotonic() - started < 30  # no hang: each is refused before any work


def test_the_farthest_exam_date_allowed_is_accepted_by_the_parser(run_cli, tmp_path) -> None:
    """The edge itself is in range (checked by parsing only: --help after it)."""
    farthest = exam_horizon(local_today())
    beyond = farthest + timedelta(days=1)
    ok = run_cli("forecast", "--exam-date", farthest.isoformat(), "--questions", "x")
    assert "--exam-date" not in ok.stderr and "--questions" in ok.stderr
    refused = run_cli("forecast", "--exam-date", beyond.isoformat())
    assert f"give a date from {local_today().isoformat()} to {farthest}" in one_error_line(
        refused, 2
    )


def test_a_config_file_with_a_huge_number_or_a_far_exam_date_is_one_located_line(
    tmp_path: Path,
) -> None:
    import os

    for line, fragment in (
        (f"new_cards_per_day = {HUGE}", "new_cards_per_day is out of range: must be a whole"),
        ("exam_date = 2100-01-01", "exam_date 2100-01-01 is more than 3 years ahead"),
    ):
        config = tmp_path / "config.toml"
        config.write_text(f"# mine\n{line}\n")
        result = subprocess.run(
            [sys.executable, "-m", "quizapp", "forecast", "--db", str(tmp_path / "h.db")],
            capture_output=True,
            text=True,
            timeout=120,
            cwd=REPO,
            env={**os.environ, "QUIZAPP_CONFIG": str(config)},
        )
        error = one_error_line(result, 2)
        assert f"{config}:2:" in error and fragment in error


def test_huge_numbers_in_csv_cells_reject_their_rows_with_the_range(run_cli, tmp_path) -> None:
    sheet = tmp_path / "deck.csv"
    sheet.write_text(
        HEADER
        + f"a,numeric,P,E,easy,t,{HUGE},0\n"
        + "b,numeric,P,E,easy,t,3,1e400\n"
        + "c,numeric,P,E,easy,t,3,0\n"
    )
    result = run_cli("import", str(sheet), "--no-default-bank", "--out", str(tmp_path / "d.yaml"))
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert f"{sheet}: row 2, question 'a': answer must be a number from -1e100 to 1e100" in (
        result.stderr
    )
    assert "row 3, question 'b': tolerance must be a number from -1e100 to 1e100" in result.stderr
    assert "1 question(s) imported" in result.stderr


# The peak of this process's own memory: VmHWM belongs to the address space made at exec.
# Not getrusage's ru_maxrss, which Linux carries across exec from the (v)forking parent, so
# a child of a large pytest process would report the parent's size.
MEASURE = """
import re, sys
from quizapp.cli import main
status = main(sys.argv[1:])
with open("/proc/self/status") as status_file:
    peak_kib = re.search(r"VmHWM:\\s*(\\d+) kB", status_file.read()).group(1)
print(status, peak_kib, file=sys.stderr)
"""


def test_a_million_row_csv_is_refused_in_bounded_memory_before_any_row_is_imported(
    tmp_path: Path,
) -> None:
    rows = 1_000_000
    sheet = tmp_path / "big.csv"
    with sheet.open("w") as out:  # 30 MB: under the size limit, over the row limit
        out.write(HEADER)
        out.writelines(f"q{n},numeric,P,E,easy,t,3,0\n" for n in range(rows))
    started = time.monotonic()
    result = subprocess.run(
        [sys.executable, "-c", MEASURE, "import", str(sheet), "--no-default-bank"],
        capture_output=True,
        text=True,
        timeout=120,  # unbounded, the import would lint a million rows
        cwd=REPO,
    )
    took = time.monotonic() - started
    *messages, measured = result.stderr.strip().splitlines()
    status, peak_kib = (int(word) for word in measured.split())
    assert status == 2 and "Traceback" not in result.stderr
    # Refused at the first row past the limit, which is on this line of the file.
    assert messages == [
        f"quizapp import: error: {sheet}:{DEFAULT_CSV_ROWS + 2}: more than "
        f"{DEFAULT_CSV_ROWS:,} rows; split the file, or raise --max-rows (at most 5,000, a "
        "deck's size)"
    ]
    assert result.stdout == ""  # nothing imported
    # The file's bytes and text are held (64 MiB at most, by the size limit), never a
    # million parsed rows: before the bound this import took about 1 GB.
    assert peak_kib < 250 * 1024, f"{peak_kib / 1024:.0f} MiB"
    assert took < 60
