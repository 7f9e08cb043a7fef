"""YAML 1.1 habits must not silently change meaning."""

from __future__ import annotations

import pytest
import yaml

from quizapp.bank.yaml12 import compose, scalar_value


def value_of(text: str):
    node = compose(f"key: {text}\n")
    return scalar_value(node.value[0][1])


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("1e-5", 1e-5),
        ("1.0e-5", 1e-5),
        ("-2E3", -2000.0),
        (".5", 0.5),
        ("1_048_576", 1048576),
        ("010", 10),
        ("0x1F", 31),
        ("0o17", 15),
        ("true", True),
        ("False", False),
        ("no", "no"),
        ("yes", "yes"),
        ("off", "off"),
        ("1:30", "1:30"),
        ("2024-01-01", "2024-01-01"),
        ("~", None),
        ("", None),
        ("'1e-5'", "1e-5"),
        ("'true'", "true"),
    ],
)
def test_scalars_resolve_as_yaml_1_2(text: str, expected: object) -> None:
    value = value_of(text)
    assert value == expected
    assert type(value) is type(expected)


def test_pyyaml_itself_differs_which_is_why_we_resolve_ourselves() -> None:
    # If PyYAML ever adopts YAML 1.2, this documents the change rather than hiding it.
    assert yaml.safe_load("a: 1e-5\nb: no") == {"a": "1e-5", "b": False}


def test_python_tags_are_never_constructed() -> None:
    node = compose("a: !!python/name:os.system ''\n").value[0][1]
    assert node.tag == "tag:yaml.org,2002:python/name:os.system"
    with pytest.raises(ValueError, match="unsupported tag"):
        scalar_value(node)
