"""Scheduling settings from `config.toml` in the platform's config folder.

    # ~/.config/quizapp/config.toml (Linux; `quizapp stats --json` prints the path in use)
    desired_retention = 0.9     # FSRS target recall probability, 0.7-0.99
    new_cards_per_day = 20      # new questions a drill introduces per day
    fast_seconds = 10           # a right answer faster than this rates Easy
    slow_seconds = 60           # a right answer slower than this rates Hard
    exam_pass_threshold = 0.7   # share of questions right to pass a mock exam
    exam_date = 2027-01-15      # the real exam: drills follow a plan to it (absent: no plan)
    study_minutes_per_day = 20  # the plan's daily budget, 1-1440
    theme = "nord"              # the app's theme; picking one in the palette writes it here
    quiz_reschedules = false    # false: a quiz is practice and leaves the schedule alone
    db = "postgresql://ada@db.example.org/class"  # the history (default: a SQLite file)
    student = "ada"             # whose history, on a PostgreSQL one (README: A class on PostgreSQL)

`QUIZAPP_CONFIG` names another file. A missing file means the defaults; a broken one is a
one-line error naming the file, the line and the key. The app writes a setting back when it
is changed on screen (the theme, the exam date, whether quizzes reschedule), each time only
that line: the rest of the file, comments included, is kept.
"""

from __future__ import annotations

import json
import os
import re
import stat
import tempfile
from dataclasses import dataclass, fields
from datetime import date, datetime
from pathlib import Path


class ConfigError(ValueError):
    pass


@dataclass(frozen=True)
class Settings:
    desired_retention: float = 0.9
    new_cards_per_day: int = 20
    fast_seconds: float = 10.0
    slow_seconds: float = 60.0
    exam_pass_threshold: float = 0.7
    exam_date: date | None = None  # None: no exam date, no plan (quizapp/srs/plan.py)
    study_minutes_per_day: float = 20.0
    theme: str | None = None  # None: Textual's default. A name; the app checks it is a theme.
    # Drills always reschedule. A quiz reschedules the cards it asks only when this is true
    # (Anki's filtered decks' default); otherwise its answers are recorded as practice.
    quiz_reschedules: bool = False
    # The review history, as --db takes it (a SQLite path or a postgresql:// URL), and the
    # student whose it is on PostgreSQL; --db/QUIZAPP_DB and --student/QUIZAPP_STUDENT win.
    db: str | None = None
    student: str | None = None

    def __post_init__(self) -> None:
        checks = {
            "desired_retention": 0.7 <= self.desired_retention <= 0.99,
            "new_cards_per_day": 0 <= self.new_cards_per_day <= 10_000,
            "fast_seconds": 0 <= self.fast_seconds <= 3600,
            "slow_seconds": self.fast_seconds <= self.slow_seconds <= 86_400,
            "exam_pass_threshold": 0 < self.exam_pass_threshold <= 1,
            "study_minutes_per_day": 1 <= self.study_minutes_per_day <= 1440,
        }
        for name, ok in checks.items():
            if not ok:
                raise ConfigError(f"{name} = {getattr(self, name)!r} is out of range")
        if self.student is not None:
            from quizapp.srs.history import student_problem

            problem = student_problem(self.student)
            if problem:
                raise ConfigError(f"student = {self.student!r} {problem}")


def config_path() -> Path:
    override = os.environ.get("QUIZAPP_CONFIG")
    if override:
        return Path(override)
    import platformdirs

    return Path(platformdirs.user_config_dir("quizapp", appauthor=False)) / "config.toml"


def load_settings(path: Path | None = None) -> Settings:
    path = path or config_path()
    if not path.exists():
        return Settings()
    import tomllib  # here: most runs have no config file, and start-up need not pay for it

    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: cannot read: {exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: {exc}") from None  # tomllib names the line and column
    known = {f.name: f.type for f in fields(Settings)}
    values: dict[str, object] = {}
    for key, value in data.items():
        if key not in known:
            raise ConfigError(f"{path}: unknown setting {key!r} (known: {', '.join(known)})")
        if key == "exam_date":
            values[key] = _exam_date(path, value)
            continue
        if known[key] == "str | None":
            if not isinstance(value, str) or not value.strip():
                raise ConfigError(f"{path}: {key} must be a name in quotes, not {value!r}")
            values[key] = value
            continue
        if known[key] == "bool":
            if not isinstance(value, bool):
                raise ConfigError(f"{path}: {key} must be true or false, not {value!r}")
            values[key] = value
            continue
        expected = int if known[key] == "int" else float
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise ConfigError(f"{path}: {key} must be a number, not {value!r}")
        if expected is int and not float(value).is_integer():
            raise ConfigError(f"{path}: {key} must be a whole number, not {value!r}")
        values[key] = expected(value)
    try:
        return Settings(**values)  # type: ignore[arg-type]
    except ConfigError as exc:
        raise ConfigError(f"{path}: {exc}") from None


def _exam_date(path: Path, value: object) -> date:
    # TOML has a date type: exam_date = 2027-01-15 (a string or a time of day is refused).
    if isinstance(value, date) and not isinstance(value, datetime):
        return value
    raise ConfigError(f"{path}: exam_date must be a date like 2027-01-15, not {value!r}")


_EXAM_DATE_LINE = re.compile(r"^[ \t]*exam_date[ \t]*=.*(?:\n|$)", re.MULTILINE)


def save_exam_date(day: date | None, path: Path | None = None) -> Path:
    """Set (or, with None, remove) `exam_date` in config.toml, keeping every other line.

    The file is checked before and after: a broken config is reported, not rewritten; it is
    replaced atomically, and only if it is a regular file (or does not exist yet).
    """
    path = path or config_path()
    if path.is_symlink():  # a dotfiles link: write where it points, keep the link
        path = path.resolve()
    if path.exists() and not path.is_file():
        raise ConfigError(f"{path}: not a regular file; exam_date not saved")
    load_settings(path)  # a broken file is a ConfigError naming its line
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    line = f"exam_date = {day.isoformat()}\n" if day is not None else ""
    if _EXAM_DATE_LINE.search(text):
        text = _EXAM_DATE_LINE.sub(lambda _: line, text, count=1)
    elif day is not None:
        text = text + ("" if not text or text.endswith("\n") else "\n") + line
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        temporary.write_text(text, encoding="utf-8")
        load_settings(temporary)  # never write a file that would not load
        os.replace(temporary, path)
    except OSError as exc:
        raise ConfigError(f"{path}: cannot write: {exc}") from None
    finally:
        temporary.unlink(missing_ok=True)
    return path


def save_setting(path: Path, key: str, value: bool | int | float | str) -> None:
    """Write `key = value` into the config file: the key's line is replaced if it has one,
    else appended; every other line stays as it was. The file is replaced atomically (a
    symlink's target, not the link), and only by a file that loads without error."""
    if key not in {f.name for f in fields(Settings)}:
        raise ConfigError(f"{path}: unknown setting {key!r}")
    target = path.resolve()
    try:
        mode = target.stat().st_mode
    except FileNotFoundError:
        text, text_mode = "", None
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read: {exc}") from None
    else:
        if not stat.S_ISREG(mode):
            raise ConfigError(f"{path}: not a regular file; the setting was not saved")
        text_mode = stat.S_IMODE(mode)
        try:
            text = target.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise ConfigError(f"{path}: cannot read: {exc}") from None
    line = f"{key} = {_toml_value(value)}"
    # The value runs to the end of the line or to the spaces before a comment, which stays.
    pattern = re.compile(rf"^[ \t]*{re.escape(key)}[ \t]*=[^\n#]*?(?=[ \t]*(?:#|$))", re.MULTILINE)
    if pattern.search(text):
        text = pattern.sub(lambda _: line, text, count=1)
    else:
        text += ("" if not text or text.endswith("\n") else "\n") + line + "\n"
    _check_loads(path, text)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(
            "w", encoding="utf-8", dir=target.parent, prefix=".config-", delete=False
        ) as out:
            out.write(text)
        if text_mode is not None:
            os.chmod(out.name, text_mode)  # the file keeps its permissions
        os.replace(out.name, target)
    except OSError as exc:
        raise ConfigError(f"{path}: cannot write: {exc}") from None


def _check_loads(path: Path, text: str) -> None:
    with tempfile.TemporaryDirectory() as folder:
        trial = Path(folder) / "config.toml"
        trial.write_text(text, encoding="utf-8")
        try:
            load_settings(trial)
        except ConfigError as exc:
            raise ConfigError(f"{path}: {str(exc).removeprefix(f'{trial}: ')}") from None


def _toml_value(value: bool | int | float | str) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    # A TOML basic string: JSON's escapes are TOML's, bar DEL, which TOML wants escaped too.
    return json.dumps(value, ensure_ascii=False).replace("\x7f", "\\u007f")
