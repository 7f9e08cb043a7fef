"""Scheduling settings: defaults when there is no file, and a one-line error for a broken one."""

from __future__ import annotations

from dataclasses import fields
from pathlib import Path

import pytest

from quizapp.srs.config import ConfigError, Settings, config_path, load_settings
from quizapp.srs.config_file import set_config_value


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_a_missing_file_gives_the_defaults(tmp_path: Path) -> None:
    assert load_settings(tmp_path / "nowhere" / "config.toml") == Settings()


def test_an_empty_file_gives_the_defaults(tmp_path: Path) -> None:
    assert load_settings(write(tmp_path, "")) == Settings()


def test_the_defaults() -> None:
    settings = Settings()
    assert settings.desired_retention == 0.9
    assert settings.new_cards_per_day == 20
    assert settings.fast_seconds == 10.0
    assert settings.slow_seconds == 60.0
    assert settings.exam_pass_threshold == 0.7


def test_values_are_read(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "# my settings\n"
        "desired_retention = 0.85\n"
        "new_cards_per_day = 35\n"
        "fast_seconds = 4\n"
        "slow_seconds = 90.5\n"
        "exam_pass_threshold = 0.8\n",
    )
    settings = load_settings(path)
    assert settings == Settings(
        desired_retention=0.85,
        new_cards_per_day=35,
        fast_seconds=4.0,
        slow_seconds=90.5,
        exam_pass_threshold=0.8,
    )
    assert isinstance(settings.new_cards_per_day, int)
    assert isinstance(settings.fast_seconds, float)


def test_a_partial_file_keeps_the_other_defaults(tmp_path: Path) -> None:
    settings = load_settings(write(tmp_path, "new_cards_per_day = 5\n"))
    assert settings.new_cards_per_day == 5
    assert settings.desired_retention == Settings().desired_retention


def test_a_whole_float_is_accepted_for_an_int_setting(tmp_path: Path) -> None:
    settings = load_settings(write(tmp_path, "new_cards_per_day = 12.0\n"))
    assert settings.new_cards_per_day == 12
    assert isinstance(settings.new_cards_per_day, int)


def test_quizapp_config_names_another_file(tmp_path: Path, monkeypatch) -> None:
    path = write(tmp_path, "new_cards_per_day = 7\n")
    monkeypatch.setenv("QUIZAPP_CONFIG", str(path))
    assert config_path() == path
    assert load_settings().new_cards_per_day == 7


def test_without_the_override_the_path_is_config_toml(monkeypatch) -> None:
    monkeypatch.delenv("QUIZAPP_CONFIG", raising=False)
    assert config_path().name == "config.toml"


def assert_config_error(path: Path, *fragments: str) -> str:
    with pytest.raises(ConfigError) as info:
        load_settings(path)
    message = str(info.value)
    assert str(path) in message
    assert "\n" not in message.strip(), "a one-line error"
    for fragment in fragments:
        assert fragment in message
    return message


def test_an_unknown_key_is_an_error_naming_it(tmp_path: Path) -> None:
    message = assert_config_error(
        write(tmp_path, "new_cards_per_dya = 10\n"), "new_cards_per_dya", "unknown"
    )
    assert "new_cards_per_day" in message  # the known keys are listed


def test_a_table_is_an_unknown_key(tmp_path: Path) -> None:
    assert_config_error(write(tmp_path, "[scheduling]\nnew_cards_per_day = 10\n"), "scheduling")


@pytest.mark.parametrize(
    ("line", "key"),
    [
        ('desired_retention = "high"', "desired_retention"),
        ("new_cards_per_day = true", "new_cards_per_day"),
        ("fast_seconds = [1, 2]", "fast_seconds"),
        ("slow_seconds = { a = 1 }", "slow_seconds"),
        ("exam_pass_threshold = 2025-01-01", "exam_pass_threshold"),
        ("new_cards_per_day = 2.5", "new_cards_per_day"),
        ("new_cards_per_day = inf", "new_cards_per_day"),
        ("new_cards_per_day = nan", "new_cards_per_day"),
    ],
)
def test_a_wrong_type_is_an_error_naming_the_key(tmp_path: Path, line: str, key: str) -> None:
    assert_config_error(write(tmp_path, line + "\n"), key)


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("desired_retention = 0.5", "desired_retention"),
        ("desired_retention = 1.0", "desired_retention"),
        ("desired_retention = nan", "desired_retention"),
        ("new_cards_per_day = -1", "new_cards_per_day"),
        ("new_cards_per_day = 1_000_000", "new_cards_per_day"),
        ("fast_seconds = -0.5", "fast_seconds"),
        ("fast_seconds = 30\nslow_seconds = 20", "slow_seconds"),
        ("slow_seconds = inf", "slow_seconds"),
        ("exam_pass_threshold = 0", "exam_pass_threshold"),
        ("exam_pass_threshold = 1.01", "exam_pass_threshold"),
    ],
)
def test_out_of_range_is_an_error_naming_the_key(tmp_path: Path, text: str, key: str) -> None:
    assert_config_error(write(tmp_path, text + "\n"), key, "out of range")


def test_bad_toml_names_the_file_and_the_line(tmp_path: Path) -> None:
    path = write(tmp_path, "desired_retention = 0.9\nnew_cards_per_day 20\nfast_seconds = 3\n")
    assert_config_error(path, "line 2")


def test_bad_toml_on_another_line(tmp_path: Path) -> None:
    path = write(tmp_path, "# comment\n\n\n\nfast_seconds = = 3\n")
    assert_config_error(path, "line 5")


def test_a_duplicate_key_is_bad_toml(tmp_path: Path) -> None:
    path = write(tmp_path, "fast_seconds = 3\nfast_seconds = 4\n")
    assert_config_error(path, "line 2")


def test_undecodable_bytes_are_an_error_naming_the_file(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_bytes(b"fast_seconds = 3\n\xff\xfe\x00garbage\n")
    assert_config_error(path)


def test_a_folder_at_the_path_is_an_error_naming_it(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.mkdir()
    assert_config_error(path)


def test_settings_refuse_out_of_range_values_directly() -> None:
    with pytest.raises(ConfigError, match="desired_retention"):
        Settings(desired_retention=0.2)
    with pytest.raises(ConfigError, match="slow_seconds"):
        Settings(fast_seconds=50.0, slow_seconds=40.0)


def test_every_setting_is_documented_in_the_module() -> None:
    import quizapp.srs.config as module

    for field in fields(Settings):
        assert field.name in (module.__doc__ or "")


# -- the exam date ---------------------------------------------------------------------------


def test_the_exam_date_and_the_daily_budget_are_read(tmp_path: Path) -> None:
    from datetime import date

    settings = load_settings(
        write(tmp_path, "exam_date = 2027-01-15\nstudy_minutes_per_day = 35\n")
    )
    assert settings.exam_date == date(2027, 1, 15)
    assert settings.study_minutes_per_day == 35.0
    assert Settings().exam_date is None and Settings().study_minutes_per_day == 20.0


@pytest.mark.parametrize(
    "line",
    [
        'exam_date = "2027-02-30"',
        'exam_date = "15/01/2027"',
        "exam_date = 2027-01-15T09:00:00",
        "exam_date = 20270115",
        "exam_date = 09:00:00",
    ],
)
def test_an_exam_date_that_is_not_a_date_is_an_error(tmp_path: Path, line: str) -> None:
    assert_config_error(write(tmp_path, line + "\n"), "exam_date", "2027-01-15")


@pytest.mark.parametrize("value", ["0", "0.5", "1441", "inf"])
def test_the_daily_budget_is_bounded(tmp_path: Path, value: str) -> None:
    assert_config_error(
        write(tmp_path, f"study_minutes_per_day = {value}\n"), "study_minutes_per_day"
    )


def test_saving_the_exam_date_keeps_every_other_line(tmp_path: Path) -> None:
    from datetime import date

    path = write(tmp_path, "# my settings\nnew_cards_per_day = 5\nexam_date = 2027-01-01\n")
    set_config_value(path, "exam_date", date(2027, 1, 15))
    assert path.read_text() == "# my settings\nnew_cards_per_day = 5\nexam_date = 2027-01-15\n"
    set_config_value(path, "exam_date", None)
    assert path.read_text() == "# my settings\nnew_cards_per_day = 5\n"
    set_config_value(path, "exam_date", date(2027, 2, 1))
    assert load_settings(path).exam_date == date(2027, 2, 1)
    fresh = tmp_path / "new" / "config.toml"
    set_config_value(fresh, "exam_date", date(2027, 3, 1))
    assert fresh.read_text().endswith("\nexam_date = 2027-03-01\n")  # after a header comment
    assert sorted(p.name for p in tmp_path.iterdir()) == ["config.toml", "new"]  # no leftovers


def test_saving_the_exam_date_follows_a_link_and_refuses_what_it_cannot_keep(
    tmp_path: Path,
) -> None:
    from datetime import date

    target = write(tmp_path, "fast_seconds = 4\n")
    link = tmp_path / "link.toml"
    link.symlink_to(target)
    set_config_value(link, "exam_date", date(2027, 1, 15))
    assert link.is_symlink() and "exam_date = 2027-01-15" in target.read_text()

    broken = tmp_path / "broken.toml"
    broken.write_text("fast_seconds = = 3\n")
    with pytest.raises(ConfigError, match="line 1"):
        set_config_value(broken, "exam_date", date(2027, 1, 15))
    assert broken.read_text() == "fast_seconds = = 3\n"  # left as it was

    folder = tmp_path / "folder.toml"
    folder.mkdir()
    with pytest.raises(ConfigError, match="not a regular file"):
        set_config_value(folder, "exam_date", date(2027, 1, 15))


def test_the_theme_is_read_as_a_name(tmp_path: Path) -> None:
    assert load_settings(write(tmp_path, 'theme = "nord"\n')).theme == "nord"
    assert Settings().theme is None  # Textual's default


@pytest.mark.parametrize("value", ["5", "true", '""', "['nord']"])
def test_a_theme_that_is_not_a_name_is_refused(tmp_path: Path, value: str) -> None:
    with pytest.raises(ConfigError, match="theme must be a name in quotes"):
        load_settings(write(tmp_path, f"theme = {value}\n"))


# -- quiz_reschedules, and writing a setting back -----------------------------------------------


def test_quizzes_are_practice_unless_the_file_says_otherwise(tmp_path: Path) -> None:
    assert Settings().quiz_reschedules is False
    assert load_settings(write(tmp_path, "quiz_reschedules = true\n")).quiz_reschedules is True


@pytest.mark.parametrize("value", ["1", '"yes"', "0.0"])
def test_quiz_reschedules_must_be_true_or_false(tmp_path: Path, value: str) -> None:
    assert_config_error(write(tmp_path, f"quiz_reschedules = {value}\n"), "quiz_reschedules")


def test_a_saved_setting_keeps_every_other_line(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "# my settings\nnew_cards_per_day = 35\nquiz_reschedules = false  # for now\n"
        "fast_seconds = 4",
    )
    path.chmod(0o640)
    set_config_value(path, "quiz_reschedules", True)
    assert path.read_text() == (
        "# my settings\nnew_cards_per_day = 35\nquiz_reschedules = true  # for now\n"
        "fast_seconds = 4"
    )
    assert path.stat().st_mode & 0o777 == 0o640
    set_config_value(path, "new_cards_per_day", 12)
    settings = load_settings(path)
    assert (settings.new_cards_per_day, settings.quiz_reschedules) == (12, True)


def test_a_setting_is_appended_to_a_file_without_it_or_to_a_new_one(tmp_path: Path) -> None:
    path = write(tmp_path, "new_cards_per_day = 35")  # no final newline
    set_config_value(path, "quiz_reschedules", True)
    assert path.read_text() == "new_cards_per_day = 35\nquiz_reschedules = true\n"
    fresh = tmp_path / "new" / "folder" / "config.toml"
    set_config_value(fresh, "quiz_reschedules", False)
    assert fresh.read_text().endswith("\nquiz_reschedules = false\n")  # after a header comment


def test_a_symlinked_config_stays_a_symlink(tmp_path: Path) -> None:
    real = write(tmp_path, "new_cards_per_day = 35\n")
    link = tmp_path / "link.toml"
    link.symlink_to(real)
    set_config_value(link, "quiz_reschedules", True)
    assert link.is_symlink() and "quiz_reschedules = true" in real.read_text()


def test_nothing_is_written_over_a_broken_file_a_folder_or_with_a_bad_value(
    tmp_path: Path,
) -> None:
    broken = write(tmp_path, "new_cards_per_day 20\n")
    with pytest.raises(ConfigError, match="line 1"):
        set_config_value(broken, "quiz_reschedules", True)
    assert broken.read_text() == "new_cards_per_day 20\n"
    folder = tmp_path / "folder.toml"
    folder.mkdir()
    with pytest.raises(ConfigError, match="not a regular file"):
        set_config_value(folder, "quiz_reschedules", True)
    good = tmp_path / "good.toml"
    good.write_text("new_cards_per_day = 5\n")
    with pytest.raises(ConfigError, match="out of range"):
        set_config_value(good, "new_cards_per_day", -1)
    with pytest.raises(ConfigError, match="unknown setting"):
        set_config_value(good, "colour", "red")
    assert good.read_text() == "new_cards_per_day = 5\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "config.toml",
        "folder.toml",
        "good.toml",
    ]  # no temporary file left behind


def test_removing_a_setting_that_is_not_there_writes_nothing(tmp_path: Path) -> None:
    missing = tmp_path / "config.toml"
    set_config_value(missing, "exam_date", None)
    assert not missing.exists()  # no file is made only to hold nothing


def test_one_writer_for_every_kind_of_value(tmp_path: Path) -> None:
    from datetime import date

    path = write(tmp_path, "theme = 'nord'  # mine\n")
    set_config_value(path, "desired_retention", 0.85)
    set_config_value(path, "quiz_reschedules", True)
    set_config_value(path, "exam_date", date(2027, 1, 15))
    set_config_value(path, "student", "Zoë")
    set_config_value(path, "theme", "gruvbox")
    settings = load_settings(path)
    assert (settings.desired_retention, settings.quiz_reschedules) == (0.85, True)
    assert (settings.exam_date, settings.student, settings.theme) == (
        date(2027, 1, 15),
        "Zoë",
        "gruvbox",
    )
    assert path.read_text().startswith('theme = "gruvbox"  # mine\n')
    with pytest.raises(ConfigError, match="out of range"):
        set_config_value(path, "desired_retention", 1.5)
    assert load_settings(path).desired_retention == 0.85


def test_a_quoted_exam_date_is_read_as_the_day_it_spells(tmp_path: Path) -> None:
    from datetime import date

    assert load_settings(write(tmp_path, 'exam_date = "2027-01-15"\n')).exam_date == date(
        2027, 1, 15
    )
