"""The components' view of the app (quizapp/tui/components/host.py) is the app's.

`AppHost` is what a component or screen may use of the app. Two ways it could drift: a name
on the protocol the app lacks (the component would fail when it runs), or a component using
a name of the app the protocol leaves out (the protocol would no longer say what components
need). Both are checked here, the second by reading each module that takes an `AppHost`.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import quizapp.tui
from quizapp.bank import load_bank
from quizapp.bank.discovery import bundled_bank_path
from quizapp.tui.app import AppOptions, QuizApp
from quizapp.tui.components.host import AppHost

TUI = Path(quizapp.tui.__file__).parent


def protocol_members() -> set[str]:
    return set(AppHost.__annotations__) | {n for n in vars(AppHost) if not n.startswith("_")}


def names_used_of_the_host(source: str) -> dict[str, set[str]]:
    """For each function taking a parameter annotated `AppHost`: the attributes it reads of
    it, keyed by the function's name."""
    used: dict[str, set[str]] = {}
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        hosts = {
            a.arg
            for a in node.args.args + node.args.kwonlyargs
            if a.annotation is not None and ast.unparse(a.annotation) == "AppHost"
        }
        for inner in ast.walk(node):
            if (
                isinstance(inner, ast.Attribute)
                and isinstance(inner.value, ast.Name)
                and inner.value.id in hosts
            ):
                used.setdefault(node.name, set()).add(inner.attr)
    return used


def modules_taking_the_host() -> list[Path]:
    return sorted(
        path
        for path in TUI.rglob("*.py")
        if path.name != "host.py" and "AppHost" in path.read_text(encoding="utf-8")
    )


def test_the_app_has_everything_the_protocol_promises() -> None:
    app = QuizApp(load_bank([bundled_bank_path()]), AppOptions(device="cpu"))
    # Methods and properties on the class (a property like `screen` needs a running app);
    # the state the app sets up in __init__ on the instance.
    missing = sorted(
        name for name in protocol_members() if not hasattr(QuizApp, name) and name not in vars(app)
    )
    assert not missing, f"QuizApp lacks {missing}, which AppHost promises"


def test_components_use_only_what_the_protocol_names() -> None:
    assert len(modules_taking_the_host()) >= 10  # the components, and the screens opened by one
    members = protocol_members()
    beyond = {
        f"{path.relative_to(TUI)}:{function}": sorted(names - members)
        for path in modules_taking_the_host()
        for function, names in names_used_of_the_host(path.read_text(encoding="utf-8")).items()
        if names - members
    }
    assert not beyond, f"add these to AppHost, or stop using them: {beyond}"


@pytest.mark.parametrize(
    "source, expected",
    [
        ("def f(app: AppHost):\n    app.bank; app.start_drill()\n", {"f": {"bank", "start_drill"}}),
        ("def f(app: QuizApp):\n    app.bank\n", {}),
        ("async def g(x, *, app: AppHost):\n    await app.pop_screen()\n", {"g": {"pop_screen"}}),
    ],
)
def test_the_reader_finds_what_a_function_uses_of_the_host(
    source: str, expected: dict[str, set[str]]
) -> None:
    assert names_used_of_the_host(source) == expected
