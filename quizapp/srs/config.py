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
    session_length = 10         # the home screen's Questions box; written by the app
    db = "postgresql://ada@db.example.org/class"  # the history (default: a SQLite file)
    student = "ada"             # whose history, on a PostgreSQL one (README: A class on PostgreSQL)
    lessons = "lessons"         # `quizapp lint` checks sources against these (relative: to this file)

`QUIZAPP_CONFIG` names another file. A missing file means the defaults; a broken one is a
one-line error naming the file, the line and the key. The app writes a setting back when it
is changed on screen (the theme, the exam date, whether quizzes reschedule, the session
length), each time only that line: the rest of the file, comments included, is kept.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, fields
from datetime import date, datetime
from pathlib import Path

from quizapp.bank.bounded import Bound, OutOfRange


class ConfigError(ValueError):
    pass


# An exam date lies between today and this many years ahead. The plan and the forecast
# simulate every day up to the exam, so a date in 2100 would keep them busy for hours.
EXAM_HORIZON_YEARS = 3


def exam_horizon(today: date) -> date:
    """The last exam date accepted on `today`."""
    year = today.year + EXAM_HORIZON_YEARS
    return (
        today.replace(year=year, day=28)
        if (today.month, today.day) == (2, 29)
        else (today.replace(year=year))
    )


def exam_date_problem(day: date, today: date, *, past_allowed: bool = False) -> str | None:
    """Why `day` is not an exam date on `today` (one line naming the range), or None.

    `past_allowed`: a date in config.toml passes while the app is not looking; it is then
    reported as "the exam date has passed", not refused.
    """
    last = exam_horizon(today)
    if day > last:
        return (
            f"{day.isoformat()} is more than {EXAM_HORIZON_YEARS} years ahead; give a date "
            f"from {today.isoformat()} to {last.isoformat()}"
        )
    if day < today and not past_allowed:
        return (
            f"{day.isoformat()} has passed; give a date from {today.isoformat()} to "
            f"{last.isoformat()}"
        )
    return None


# The numeric settings' ranges (config.toml is read through quizapp.bank.bounded, so a number
# of 400 digits is a one-line error, not an overflow). slow_seconds is also at least fast_seconds.
SETTING_BOUNDS: dict[str, Bound] = {
    "desired_retention": Bound(0.7, 0.99),
    "new_cards_per_day": Bound(0, 10_000, whole=True),
    "fast_seconds": Bound(0, 3600),
    "slow_seconds": Bound(0, 86_400),
    "exam_pass_threshold": Bound(0, 1, low_excluded=True),
    "study_minutes_per_day": Bound(1, 1440),
    "session_length": Bound(1, 10_000, whole=True),  # as --length takes it
}


@dataclass(frozen=True)
class Settings:
    desired_retention: float = 0.9
    new_cards_per_day: int = 20
    fast_seconds: float = 10.0
    slow_seconds: float = 60.0
    exam_pass_threshold: float = 0.7
    exam_date: date | None = None  # None: no exam date, no plan (quizapp/srs/readiness/plan.py)
    study_minutes_per_day: float = 20.0
    theme: str | None = None  # None: Textual's default. A name; the app checks it is a theme.
    # Drills always reschedule. A quiz reschedules the cards it asks only when this is true
    # (Anki's filtered decks' default); otherwise its answers are recorded as practice.
    quiz_reschedules: bool = False
    # Questions per session, as last typed in the home screen's Questions box; None: all of
    # them. --length sets it for one run.
    session_length: int | None = None
    # The review history, as --db takes it (a SQLite path or a postgresql:// URL), and the
    # student whose it is on PostgreSQL; --db/QUIZAPP_DB and --student/QUIZAPP_STUDENT win.
    db: str | None = None
    student: str | None = None
    # The folder of lessons `quizapp lint` checks `source:` fields against (--lessons wins).
    lessons: str | None = None

    def __post_init__(self) -> None:
        for name, bound in SETTING_BOUNDS.items():
            value = getattr(self, name)
            if value is not None and not bound.contains(value):
                raise ConfigError(f"{name} = {getattr(self, name)!r} is out of range")
        if self.slow_seconds < self.fast_seconds:
            raise ConfigError(f"slow_seconds = {self.slow_seconds!r} is out of range")
        if self.student is not None:
            from quizapp.srs.store.history import student_problem

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
        text = path.read_text(encoding="utf-8")
        data = tomllib.loads(text)
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
            values[key] = _exam_date(path, value, text)
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
        expected = int if known[key] in ("int", "int | None") else float
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise ConfigError(f"{path}: {key} must be a number, not {value!r}")
        try:
            values[key] = expected(SETTING_BOUNDS[key].check(value))
        except OutOfRange as exc:
            raise ConfigError(
                f"{path}:{_line_of(text, key)}: {key} is out of range: {exc}"
            ) from None
    try:
        return Settings(**values)  # type: ignore[arg-type]
    except ConfigError as exc:
        raise ConfigError(f"{path}: {exc}") from None


def _line_of(text: str, key: str) -> int:
    """The line `key = ...` is on (tomllib reports no lines for values that parse)."""
    for number, line in enumerate(text.splitlines(), start=1):
        if re.match(rf"\s*{key}\s*=", line):
            return number
    return 1


def _exam_date(path: Path, value: object, text: str) -> date:
    day = _exam_day(path, value)
    from quizapp.srs.clock import local_today

    problem = exam_date_problem(day, local_today(), past_allowed=True)
    if problem:
        raise ConfigError(f"{path}:{_line_of(text, 'exam_date')}: exam_date {problem}")
    return day


def _exam_day(path: Path, value: object) -> date:
    # TOML has a date type: exam_date = 2027-01-15 (a string or a time of day is refused).
    if isinstance(value, date) and not isinstance(value, datetime):
        return value
    # Quoted, as people often write it: "2027-01-15" is read as the date it spells.
    if isinstance(value, str) and re.fullmatch(r"\d{4}-\d{2}-\d{2}", value):
        try:
            return date.fromisoformat(value)
        except ValueError:
            raise ConfigError(
                f"{path}: exam_date {value!r} is not a day of the calendar (write it like 2027-01-15)"
            ) from None
    raise ConfigError(
        f"{path}: exam_date must be a date like 2027-01-15 (quotes optional), not {value!r}"
    )
