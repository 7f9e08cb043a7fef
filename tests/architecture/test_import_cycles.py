"""No import cycles among quizapp's modules (issue 23), found with grimp, which import-linter
brings: a cycle means neither side can be read, tested or changed alone.

None at run time (a function's lazy import counts too), and none through imports made for
annotations only (`if TYPE_CHECKING:`): a component names what it needs of the app as a
protocol (quizapp/tui/components/host.py), not the app class that imports it.
"""

from __future__ import annotations

import functools
import sys

import grimp
import pytest

from tests.conftest import REPO


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


@pytest.mark.parametrize("type_checking", [False, True], ids=["run time", "annotations too"])
def test_no_module_imports_back_what_imports_it(type_checking: bool) -> None:
    imports = graph(type_checking=type_checking)
    found = rings(imports)
    assert not found, "import cycles:\n" + "\n".join(described(r, imports) for r in found)


def test_the_ring_finder_finds_a_ring() -> None:
    """The check can fail: a made-up graph with a ring of three and a chain beside it."""
    made_up = grimp.ImportGraph()
    for module in ("quizapp.a", "quizapp.b", "quizapp.c", "quizapp.d"):
        made_up.add_module(module)
    for importer, imported in (("a", "b"), ("b", "c"), ("c", "a"), ("c", "d")):
        made_up.add_import(importer=f"quizapp.{importer}", imported=f"quizapp.{imported}")
    assert rings(made_up) == [{"a", "b", "c"}]
