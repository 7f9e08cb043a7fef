"""No file a reader cannot hold in one sitting (issue 23): at most three product files over 500
lines, and each says why on its first line ("# Over 500 lines: …")."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import REPO

LIMIT = 500
MOST_OVER = 3
REASON = "# Over 500 lines: "


def long_files(root: Path) -> dict[Path, list[str]]:
    found = {}
    for path in sorted(root.rglob("*.py")):
        lines = path.read_text(encoding="utf-8").splitlines()
        if len(lines) > LIMIT:
            found[path.relative_to(root)] = lines
    return found


def test_at_most_three_product_files_are_over_500_lines() -> None:
    over = long_files(REPO / "quizapp")
    assert len(over) <= MOST_OVER, f"over {LIMIT} lines: {sorted(map(str, over))}"


def test_each_long_file_says_why_on_its_first_line() -> None:
    silent = [
        str(path)
        for path, lines in long_files(REPO / "quizapp").items()
        if not (lines[0].startswith(REASON) and len(lines[0]) > len(REASON) + 10)
    ]
    assert not silent, f"over {LIMIT} lines with no reason at the top: {silent}"


def test_the_check_sees_a_long_file_and_its_reason(tmp_path: Path) -> None:
    (tmp_path / "short.py").write_text("x = 1\n" * LIMIT)
    (tmp_path / "long.py").write_text("x = 1\n" * (LIMIT + 1))
    assert list(long_files(tmp_path)) == [Path("long.py")]
