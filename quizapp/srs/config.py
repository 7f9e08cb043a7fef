"""Scheduling settings from `config.toml` in the platform's config folder.

    # ~/.config/quizapp/config.toml (Linux; `quizapp stats --json` prints the path in use)
    desired_retention = 0.9     # FSRS target recall probability, 0.7-0.99
    new_cards_per_day = 20      # new questions a drill introduces per day
    fast_seconds = 10           # a right answer faster than this rates Easy
    slow_seconds = 60           # a right answer slower than this rates Hard
    exam_pass_threshold = 0.7   # share of questions right to pass a mock exam

`QUIZAPP_CONFIG` names another file. A missing file means the defaults; a broken one is a
one-line error naming the file, the line and the key.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, fields
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

    def __post_init__(self) -> None:
        checks = {
            "desired_retention": 0.7 <= self.desired_retention <= 0.99,
            "new_cards_per_day": 0 <= self.new_cards_per_day <= 10_000,
            "fast_seconds": 0 <= self.fast_seconds <= 3600,
            "slow_seconds": self.fast_seconds <= self.slow_seconds <= 86_400,
            "exam_pass_threshold": 0 < self.exam_pass_threshold <= 1,
        }
        for name, ok in checks.items():
            if not ok:
                raise ConfigError(f"{name} = {getattr(self, name)!r} is out of range")


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
