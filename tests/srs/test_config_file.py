"""Writing `theme` into config.toml: one line changes, the rest of the file stays as written."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from quizapp.srs.config import ConfigError, Settings, load_settings
from quizapp.srs.config_file import set_config_value

COMMENTED = (
    "# my settings, kept by hand\n"
    "desired_retention = 0.85   # a bit lower than the default\n"
    "\n"
    "# new_cards_per_day = 50\n"
    "new_cards_per_day = 35\n"
)


def test_a_missing_file_is_created_with_the_theme(tmp_path: Path) -> None:
    path = tmp_path / "quizapp" / "config.toml"  # the folder does not exist yet either
    set_config_value(path, "theme", "nord")
    assert load_settings(path) == Settings(theme="nord")
    assert path.read_text().startswith("# quizapp settings")


def test_the_theme_is_added_and_every_other_line_kept(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text(COMMENTED)
    set_config_value(path, "theme", "gruvbox")
    assert path.read_text() == COMMENTED + 'theme = "gruvbox"\n'
    assert load_settings(path) == Settings(
        desired_retention=0.85, new_cards_per_day=35, theme="gruvbox"
    )


def test_an_existing_theme_line_is_replaced_in_place_with_its_comment(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text("theme = 'nord'  # dark, please\r\nfast_seconds = 5\r\n")
    set_config_value(path, "theme", "textual-light")
    assert path.read_bytes() == b'theme = "textual-light"  # dark, please\r\nfast_seconds = 5\r\n'


def test_a_file_without_a_final_newline_gets_one_before_the_theme(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text("fast_seconds = 5")
    set_config_value(path, "theme", "nord")
    assert path.read_text() == 'fast_seconds = 5\ntheme = "nord"\n'


def test_the_theme_goes_before_the_first_table(tmp_path: Path) -> None:
    # quizapp's own settings are top-level; a table (from a later version, or a user's notes)
    # must not swallow the key.
    path = tmp_path / "config.toml"
    path.write_text("fast_seconds = 5\n[notes]\ntext = 'hello'\n")
    set_config_value(path, "theme", "nord")
    assert path.read_text() == "fast_seconds = 5\ntheme = \"nord\"\n[notes]\ntext = 'hello'\n"


def test_a_file_that_does_not_parse_is_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text("fast_seconds = = 5\n")
    with pytest.raises(ConfigError, match="not saved"):
        set_config_value(path, "theme", "nord")
    assert path.read_text() == "fast_seconds = = 5\n"


def test_a_theme_line_the_writer_cannot_edit_safely_is_left_alone(tmp_path: Path) -> None:
    text = 'theme = """nord"""\n'  # a multi-line string: not a plain line
    path = tmp_path / "config.toml"
    path.write_text(text)
    with pytest.raises(ConfigError, match="not a plain one"):
        set_config_value(path, "theme", "gruvbox")
    assert path.read_text() == text


def test_a_symlinked_config_is_written_through_to_its_target(tmp_path: Path) -> None:
    target = tmp_path / "dotfiles" / "quizapp.toml"
    target.parent.mkdir()
    target.write_text("fast_seconds = 5\n")
    link = tmp_path / "config.toml"
    link.symlink_to(target)
    set_config_value(link, "theme", "nord")
    assert link.is_symlink()
    assert target.read_text() == 'fast_seconds = 5\ntheme = "nord"\n'


def test_the_file_keeps_its_permissions_and_no_temporary_file_is_left(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text("fast_seconds = 5\n")
    path.chmod(0o600)
    set_config_value(path, "theme", "nord")
    assert path.stat().st_mode & 0o777 == 0o600
    assert sorted(p.name for p in tmp_path.iterdir()) == ["config.toml"]


def test_a_special_file_is_never_replaced(tmp_path: Path) -> None:
    fifo = tmp_path / "config.toml"
    os.mkfifo(fifo)
    with pytest.raises(ConfigError, match="not a regular file"):
        set_config_value(fifo, "theme", "nord")


def test_a_value_that_would_need_escaping_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    with pytest.raises(ConfigError):
        set_config_value(path, "theme", 'nord"\nfast_seconds = 1')
    assert not path.exists()


@settings(max_examples=40, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            [
                "# a comment\n",
                "\n",
                "fast_seconds = 5\n",
                "slow_seconds = 90 # slow\n",
                'theme = "dracula"\n',
                "  theme='monokai'   # indented\n",
                "# theme = 'commented out'\n",
            ]
        ),
        max_size=6,
        unique=True,
    ),
    st.sampled_from(["nord", "gruvbox", "textual-dark"]),
)
def test_only_the_theme_changes_whatever_the_file_holds(lines: list[str], theme: str) -> None:
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "config.toml"
        text = "".join(lines)
        path.write_text(text)
        try:
            before = load_settings(path)
        except ConfigError:  # two theme lines: not a valid file to begin with
            assume(False)
        set_config_value(path, "theme", theme)
        after = load_settings(path)
        assert after == Settings(**{**before.__dict__, "theme": theme})
        kept = [line for line in path.read_text().splitlines() if "theme" not in line]
        assert kept == [line for line in text.splitlines() if "theme" not in line]
