"""Property tests: whatever the bytes, the loader answers with diagnostics and never raises."""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from quizapp.bank import load_file
from tests.conftest import CORPUS

GOOD = (CORPUS / "good" / "every_type.yaml").read_text()
GOOD_LINES = GOOD.splitlines(keepends=True)
SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

_yaml_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=20),
    st.sampled_from(["no", "yes", "1e-5", "~", "*a", "&a x", "!!python/none", "<<", "- ", ": "]),
)
_yaml_values = st.recursive(
    _yaml_scalars,
    lambda children: st.one_of(
        st.lists(children, max_size=4),
        st.dictionaries(
            st.one_of(
                st.sampled_from(
                    ["deck", "questions", "id", "type", "choices", "answer", "compute"]
                ),
                st.text(max_size=8),
            ),
            children,
            max_size=4,
        ),
    ),
    max_leaves=25,
)


def check(data: bytes) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "case.yaml"
        path.write_bytes(data)
        deck, diagnostics = load_file(path)
    if deck is None:
        assert any(d.severity == "error" for d in diagnostics)
    for d in diagnostics:
        assert d.line >= 1 and d.column >= 1
        assert "\n" not in d.message and d.message


def render(value: object, indent: int = 0) -> str:
    """A crude YAML-ish writer: deliberately not always valid, to reach odd parser states."""
    pad = "  " * indent
    if isinstance(value, dict):
        return (
            "".join(f"{pad}{k}:\n{render(v, indent + 1)}" for k, v in value.items())
            or f"{pad}{{}}\n"
        )
    if isinstance(value, list):
        return "".join(f"{pad}-\n{render(v, indent + 1)}" for v in value) or f"{pad}[]\n"
    return f"{pad}{value}\n"


@SETTINGS
@given(st.binary(max_size=400))
def test_random_bytes(data: bytes) -> None:
    check(data)


@SETTINGS
@given(_yaml_values)
def test_random_yaml_structures(value: object) -> None:
    check(render(value).encode())


@SETTINGS
@given(st.data())
def test_mutated_good_file(data: st.DataObject) -> None:
    lines = list(GOOD_LINES)
    for _ in range(data.draw(st.integers(1, 4))):
        i = data.draw(st.integers(0, len(lines) - 1))
        op = data.draw(
            st.sampled_from(["delete", "duplicate", "swap", "indent", "dedent", "replace"])
        )
        if op == "delete" and len(lines) > 1:
            del lines[i]
        elif op == "duplicate":
            lines.insert(i, lines[i])
        elif op == "swap":
            j = data.draw(st.integers(0, len(lines) - 1))
            lines[i], lines[j] = lines[j], lines[i]
        elif op == "indent":
            lines[i] = "  " + lines[i]
        elif op == "dedent":
            lines[i] = lines[i][2:]
        else:
            position = data.draw(st.integers(0, max(0, len(lines[i]) - 1)))
            char = data.draw(st.sampled_from(list(":-[]{}&*!|>'\"#%@` \t\\0")) | st.characters())
            lines[i] = lines[i][:position] + char + lines[i][position + 1 :]
    check("".join(lines).encode("utf-8", "surrogatepass"))
