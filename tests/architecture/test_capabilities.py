"""The capability packages of reviewer/ form a graph without cycles, and docs/architecture.md
names every one of them (the map stays true)."""

from __future__ import annotations

import re
from pathlib import Path

import grimp

ROOT = Path(__file__).resolve().parents[2]
KERNEL = {"errors", "keys", "atomic", "outputs", "assets", "changes", "json_input",
          "text_rules", "input_bytes", "unfinished", "settings_files",
          "settings_write"}


def capability_graph() -> dict[str, set[str]]:
    """Which capability package (or kernel module) of reviewer/ imports which."""
    graph = grimp.build_graph("reviewer")
    edges: dict[str, set[str]] = {}
    for module in graph.modules:
        parts = module.split(".")
        if len(parts) < 2:
            continue
        source = parts[1]
        for target in graph.find_modules_directly_imported_by(module):
            other = target.split(".")
            if len(other) >= 2 and other[1] != source:
                edges.setdefault(source, set()).add(other[1])
    return edges


def cycle(edges: dict[str, set[str]]) -> list[str] | None:
    """One cycle of the graph, as a path, or None."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(edges.get(node, ())):
            if state.get(nxt) == 1:
                return [*stack[stack.index(nxt):], nxt]
            if nxt not in state and (found := visit(nxt)):
                return found
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(edges):
        if node not in state and (found := visit(node)):
            return found
    return None


def test_capabilities_import_each_other_without_cycles() -> None:
    assert cycle(capability_graph()) is None


def test_the_kernel_imports_no_capability() -> None:
    edges = capability_graph()
    assert {k: sorted(v - KERNEL) for k, v in edges.items() if k in KERNEL and v - KERNEL} == {}


def test_architecture_map_names_every_package_and_module() -> None:
    """Each package of reviewer/ and ui/, and each of their modules, is named in the map."""
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    named = set(re.findall(r"`([\w/]+(?:\.py)?)`", text))
    missing = []
    for top in ("reviewer", "ui", "models"):
        for path in sorted((ROOT / top).rglob("*.py")):
            rel = path.relative_to(ROOT)
            if path.name == "__init__.py" or "migrations" in rel.parts:
                continue
            inner = rel.relative_to(top)
            # A module is named by its path: `review/queue.py` (inside the top package's
            # section) or `reviewer/review/queue.py`; a top-level module by its file name.
            short = {str(rel), str(inner)}
            if not short & named:
                missing.append(str(rel))
    assert missing == [], "docs/architecture.md does not name: " + ", ".join(missing)
