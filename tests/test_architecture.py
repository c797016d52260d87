"""The shape of the code: modules import one way, and none grows past MAX_LINES.

Every import counts - at the top, inside functions, and under TYPE_CHECKING -
since a typing-only import still ties the two modules together.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "mqsh"
MAX_LINES = 500


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
                return path[path.index(imported):] + [imported]
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


def test_a_cycle_is_found_and_named():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert find_cycle(graph) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None


def test_no_module_imports_itself_through_others():
    cycle = find_cycle(import_graph())
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


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
    loaded = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True,
                            cwd=Path(__file__).resolve().parents[1]).stdout.strip()
    assert loaded == "[]"
