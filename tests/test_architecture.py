"""The shape of the code: layers import one way, modules import without cycles, and none grows past MAX_LINES.

Every import counts - at the top, inside functions, and under TYPE_CHECKING -
since a typing-only import still ties the two modules together.
"""

from __future__ import annotations

import ast
import functools
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "mqsh"
MAX_LINES = 500

# The layers, highest first: a module imports only from its own layer and the layers below it.
# An entry names a module, or a package with all below it; a module belongs to the entry that names
# the longest part of its name, so that a package's own order can be held too (model.qsg beneath the
# queue manager that reaches it). The top package (mqsh, which holds the version) names itself only.
LAYERS: tuple[tuple[str, ...], ...] = (
    ("mqsh.__main__", "mqsh.cli"),  # the program: arguments, then the shell, a script or a control command
    ("mqsh.shell",),  # the interactive shell and runmqsc's batch mode over a session
    ("mqsh.render",),  # responses shown as MQSC, a table, JSON or CSV
    ("mqsh.lab",),  # LAB commands: accidents and load for rehearsing recoveries
    ("mqsh.commands",),  # MQSC and control commands, answered in MQ's words
    # Over the queue managers: the installation of them all, and the groups they share.
    ("mqsh.model.installation", "mqsh.model.sharing_groups"),
    # The channels between queue managers and the clusters they form, which reach the queue managers
    # they join; the installation builds them at their first use.
    ("mqsh.model.network", "mqsh.model.cluster"),
    ("mqsh.model",),  # a queue manager and its parts
    ("mqsh.model.qsg",),  # a group's shared state, which a member's parts reach
    # A queue manager's log and catalog, which the group's shared-message records go to, what every
    # part is built with, and the status of its channel instances, which it holds for the network.
    (
        "mqsh.model.journal",
        "mqsh.model.catalog",
        "mqsh.model.config",
        "mqsh.model.logspace",
        "mqsh.model.interrupts",
        "mqsh.model.basics",
        "mqsh.model.network.state",
    ),
    ("mqsh.recovery",),  # replay, media recovery, CFSTRUCT and space-map recovery, the cluster audit
    ("mqsh.core",),  # the domain values every layer uses
    # What reads and writes bytes and words, and knows nothing of queue managers; the package's
    # own __init__ (its version) and the responses commands give back.
    ("mqsh.store", "mqsh.language", "mqsh.responses", "mqsh"),
)


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _modules() -> dict[str, Path]:
    return {_module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def _imports(name: str, path: Path, known: set[str]) -> set[str]:
    """The mqsh modules a module imports: `from mqsh.x import y` names mqsh.x.y when that is a module."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = f"{anchor}.{base}" if base else anchor
            for alias in node.names:
                found.add(f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base)
    return {module for module in found if module in known and module != name}


@functools.cache  # the modules do not change during a test session: parsed once for the four tests
def import_graph() -> dict[str, set[str]]:
    modules = _modules()
    return {name: _imports(name, path, set(modules)) for name, path in modules.items()}


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle, as the modules around it (the first repeated at the end), or None."""
    done: set[str] = set()
    path: list[str] = []
    on_path: set[str] = set()

    def visit(module: str) -> list[str] | None:
        path.append(module)
        on_path.add(module)
        for imported in sorted(graph[module]):
            if imported in on_path:
                return path[path.index(imported) :] + [imported]
            if imported not in done:
                cycle = visit(imported)
                if cycle:
                    return cycle
        path.pop()
        on_path.discard(module)
        done.add(module)
        return None

    for module in sorted(graph):
        if module not in done:
            cycle = visit(module)
            if cycle:
                return cycle
    return None


def test_the_graph_sees_every_kind_of_import():
    graph = import_graph()
    assert "mqsh.model.qmgr" in graph["mqsh.model.installation"]  # at the top
    assert "mqsh.store.columnar" in graph["mqsh.model.journal"]  # inside a function
    assert "mqsh.model.installation" in graph["mqsh.commands.context"]  # under TYPE_CHECKING


def layer_of(module: str, layers: tuple[tuple[str, ...], ...] = LAYERS) -> int:
    """The index in layers of the entry naming the longest prefix of module (0 is the highest)."""
    found = [
        (len(prefix), index)
        for index, entries in enumerate(layers)
        for prefix in entries
        if module == prefix or ("." in prefix and module.startswith(prefix + "."))
    ]
    if not found:
        raise LookupError(f"{module} is in no layer: add it to LAYERS")
    return max(found)[1]


def upward_imports(graph: dict[str, set[str]], layers: tuple[tuple[str, ...], ...] = LAYERS) -> list[str]:
    """Every import from a lower layer to a higher one, as "importer -> imported"."""
    return [
        f"{module} -> {imported}"
        for module in sorted(graph)
        for imported in sorted(graph[module])
        if layer_of(imported, layers) < layer_of(module, layers)
    ]


def test_a_cycle_is_found_and_named():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert find_cycle(graph) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None


def test_no_module_imports_itself_through_others():
    cycle = find_cycle(import_graph())
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


def test_an_upward_import_is_found_and_named():
    layers = (("q.p.top",), ("q.p",), ("q.p.low",), ("q",))
    graph = {
        "q.p.top.a": {"q.p.b", "q.p.low.c"},
        "q.p.b": {"q.p.low.c", "q"},
        "q.p.low.c": {"q.p.b"},
        "q": set(),
    }
    assert upward_imports(graph, layers) == ["q.p.low.c -> q.p.b"]
    assert layer_of("q.p.low.c.d", layers) == 2
    assert layer_of("q.p.lower", layers) == 1  # an entry is a whole module or package name
    with pytest.raises(LookupError):
        layer_of("q.new", layers)  # a package the table forgot is not taken for the top package


def test_every_module_has_a_layer():
    for module in import_graph():
        layer_of(module)


def test_no_layer_imports_one_above_it():
    upward = upward_imports(import_graph())
    assert not upward, "imports from a lower layer to a higher one: " + "; ".join(upward)


def test_no_module_is_longer_than_the_limit():
    lengths = {name: len(path.read_text().splitlines()) for name, path in _modules().items()}
    too_long = {name: lines for name, lines in lengths.items() if lines > MAX_LINES}
    assert not too_long, f"modules over {MAX_LINES} lines: {too_long}"


def test_the_shell_starts_without_the_engines_libraries():
    """pyarrow, pandas, numpy and pyspark load only for work that needs them: every mqsh process starts,
    and most end, without paying for them (a start that replays little, a command that recovers nothing);
    numpy is no dependency of mqsh's at all."""
    import subprocess
    import sys

    heavy = ("pyarrow", "pandas", "numpy", "pyspark")
    probe = f"import sys, mqsh.cli; print(sorted(m for m in {heavy!r} if m in sys.modules))"
    loaded = subprocess.run(
        [sys.executable, "-c", probe],
        capture_output=True,
        text=True,
        check=True,
        cwd=Path(__file__).resolve().parents[1],
    ).stdout.strip()
    assert loaded == "[]"
