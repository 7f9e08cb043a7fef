"""No import cycles among quizapp's modules (issue 23), found with grimp, which import-linter
brings: a cycle means neither side can be read, tested or changed alone.

Imports made at run time, anywhere in a module (a function's lazy import too), may form no
cycle at all. Imports for annotations only (`if TYPE_CHECKING:`) still form the ring listed
in TYPE_ONLY_RINGS, which is to go (a protocol for what a component needs of `QuizApp`); no
new one may appear, and a listed one may only shrink.
"""

from __future__ import annotations

import functools
import sys

import grimp
import pytest

from tests.conftest import REPO

# The rings that annotations alone still close, as they stand. Each is a set of modules under
# quizapp. (the TUI's components name `QuizApp` in their signatures).
TYPE_ONLY_RINGS = [
    {
        "tui.app",
        "tui.components.live_reload",
        "tui.components.palette",
        "tui.components.quitting",
        "tui.components.sessions",
        "tui.components.startup",
        "tui.components.drill",
        "tui.components.hidden",
        "tui.components.learning_wait",
        "tui.components.quiz_mode",
        "tui.screens.fit",
        "tui.screens.home",
        "tui.screens.quiz",
        "tui.screens.readiness",
        "tui.screens.stats",
        "tui.components.trap_drill",
        "tui.widgets.readiness_line",
    },
]


def rings(graph: grimp.ImportGraph) -> list[set[str]]:
    """The strongly connected groups of more than one module (Tarjan), each a ring of imports,
    named without the leading "quizapp."."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[set[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        for imported in graph.find_modules_directly_imported_by(module):
            if imported not in index:
                visit(imported)
                low[module] = min(low[module], low[imported])
            elif imported in on_stack:
                low[module] = min(low[module], index[imported])
        if low[module] == index[module]:
            ring = set()
            while True:
                member = stack.pop()
                on_stack.discard(member)
                ring.add(member.removeprefix("quizapp."))
                if member == module:
                    break
            if len(ring) > 1:
                found.append(ring)

    for module in sorted(graph.modules):
        if module not in index:
            visit(module)
    return found


@functools.cache
def graph(*, type_checking: bool) -> grimp.ImportGraph:
    sys.path.insert(0, str(REPO))  # this checkout's quizapp, whatever is installed
    try:
        return grimp.build_graph(
            "quizapp", exclude_type_checking_imports=not type_checking, cache_dir=None
        )
    finally:
        sys.path.remove(str(REPO))


def described(ring: set[str], graph: grimp.ImportGraph) -> str:
    """A ring with the import lines that close it."""
    lines = [", ".join(sorted(ring))]
    for importer in sorted(ring):
        for imported in sorted(ring):
            for detail in graph.get_import_details(
                importer=f"quizapp.{importer}", imported=f"quizapp.{imported}"
            ):
                lines.append(f"  {importer}:{detail['line_number']} imports {imported}")
    return "\n".join(lines)


def test_no_module_imports_back_what_imports_it_at_run_time() -> None:
    runtime = graph(type_checking=False)
    found = rings(runtime)
    assert not found, "import cycles:\n" + "\n".join(described(r, runtime) for r in found)


def test_annotations_close_no_ring_beyond_the_listed_ones() -> None:
    annotated = graph(type_checking=True)
    new = [
        ring for ring in rings(annotated) if not any(ring <= listed for listed in TYPE_ONLY_RINGS)
    ]
    assert not new, "new import cycles through annotations:\n" + "\n".join(
        described(r, annotated) for r in new
    )


def test_the_ring_finder_finds_a_ring() -> None:
    """The check can fail: a made-up graph with a ring of three and a chain beside it."""
    made_up = grimp.ImportGraph()
    for module in ("quizapp.a", "quizapp.b", "quizapp.c", "quizapp.d"):
        made_up.add_module(module)
    for importer, imported in (("a", "b"), ("b", "c"), ("c", "a"), ("c", "d")):
        made_up.add_import(importer=f"quizapp.{importer}", imported=f"quizapp.{imported}")
    assert rings(made_up) == [{"a", "b", "c"}]


@pytest.mark.parametrize("ring", TYPE_ONLY_RINGS, ids=lambda r: sorted(r)[0])
def test_each_listed_ring_is_still_there(ring: set[str]) -> None:
    """A ring broken is taken off the list (which otherwise would let it come back)."""
    assert any(ring <= found for found in rings(graph(type_checking=True))), (
        f"{sorted(ring)} is no longer a ring: take it off TYPE_ONLY_RINGS"
    )
