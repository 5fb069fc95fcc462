"""The shape of ui/: no store session opened there, no SQLAlchemy, no import cycle between
its modules (TYPE_CHECKING and function-level imports count: they are how the old circle
window ↔ tools menu ↔ second opinion hid), the tools never reach into the review window,
and every Qt class documents its signals."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
UI = ROOT / "ui"


def ui_files() -> list[Path]:
    return sorted(UI.rglob("*.py"))


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(p): p for p in ui_files()}


def imports_of(path: Path) -> set[str]:
    """The ui modules a file imports, anywhere in it (``from ui.x import y`` counts
    ``ui.x.y`` when that is a module, else ``ui.x``)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [f"{node.module}.{a.name}" if f"{node.module}.{a.name}" in MODULES
                     else node.module for a in node.names]
        found.update(n for n in names if n in MODULES)
    return found - {module_name(path)}


GRAPH = {name: imports_of(path) for name, path in MODULES.items()}


def cycles() -> list[list[str]]:
    """Every import cycle between ui modules (each reported once, from its smallest name)."""
    found: list[list[str]] = []

    def walk(start: str, node: str, path: list[str]) -> None:
        for nxt in sorted(GRAPH[node]):
            if nxt == start:
                found.append([*path, start])
            elif nxt > start and nxt not in path:
                walk(start, nxt, [*path, nxt])

    for start in sorted(GRAPH):
        walk(start, start, [start])
    return found


def test_no_ui_module_opens_a_store_session() -> None:
    offenders = [
        f"{path.relative_to(ROOT)}:{node.lineno}"
        for path in ui_files()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
        and node.func.attr == "session"
    ]
    assert offenders == [], "hand a function of a session to the task manager (ui/tasks.py)"
    assert not [p for p in ui_files() if ".session(" in p.read_text(encoding="utf-8")]


def test_ui_never_imports_sqlalchemy() -> None:
    offenders = []
    for path in ui_files():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            offenders += [f"{path.relative_to(ROOT)}: {n}" for n in names
                          if n.split(".")[0] == "sqlalchemy"]
    assert offenders == [], "name the session type as reviewer.store.Session"


def test_no_import_cycle_between_ui_modules() -> None:
    assert GRAPH["ui.review.window"] >= {"ui.tools.menu", "ui.review.second_opinion"}
    assert cycles() == []


def test_the_tools_never_import_the_review_window_package() -> None:
    assert {(m, i) for m, deps in GRAPH.items() if m.startswith("ui.tools")
            for i in deps if i.startswith("ui.review")} == set()


def test_the_cycle_finder_finds_a_cycle() -> None:
    saved = dict(GRAPH)
    try:
        GRAPH["ui.tasks"] = GRAPH["ui.tasks"] | {"ui.review.window"}
        assert ["ui.review.window", "ui.tasks", "ui.review.window"] in cycles()
    finally:
        GRAPH.clear()
        GRAPH.update(saved)


def signal_names(cls: ast.ClassDef) -> list[str]:
    return [t.id for node in cls.body if isinstance(node, ast.Assign)
            and isinstance(node.value, ast.Call) and isinstance(node.value.func, ast.Name)
            and node.value.func.id == "Signal" for t in node.targets if isinstance(t, ast.Name)]


def test_every_qt_class_documents_its_signals() -> None:
    missing = []
    for path in ui_files():
        for cls in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(cls, ast.ClassDef) or not signal_names(cls):
                continue
            doc = ast.get_docstring(cls) or ""
            section = doc.partition("Signals:")[2]
            missing += [f"{path.relative_to(ROOT)}: {cls.name}.{name}"
                        for name in signal_names(cls) if f"{name}(" not in section]
    assert missing == [], "document each signal in a 'Signals:' section of the class docstring"
