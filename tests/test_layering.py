"""The layering rules of DESIGN §2, checked on the source: engine never imports Qt or the GUI
packages; ui never imports the ML stack or engine internals (only the plain data modules); and no
import circle exists among the project's modules (function-level imports included: a circle
hidden inside a function is still two modules that cannot be understood apart)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
# Plain data and pure functions: the word diff is what the review shows and the engine offers.
UI_MAY_IMPORT_FROM_ENGINE = {"engine.core.protocol", "engine.core.config", "engine.core.worddiff"}


def imported_modules(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    names: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.append(node.module)
    return names


def sources(package: str, root: Path = ROOT) -> list[Path]:
    return sorted((root / package).rglob("*.py"))


def top(name: str) -> str:
    return name.split(".")[0]


@pytest.mark.parametrize("path", sources("engine"), ids=lambda p: str(p.relative_to(ROOT)))
def test_engine_imports_no_qt_ui_or_app(path: Path) -> None:
    bad = [m for m in imported_modules(path) if top(m) in {"PySide6", "qasync", "ui", "app"}]
    assert not bad, f"{path.relative_to(ROOT)} imports {bad}"


@pytest.mark.parametrize("path", sources("ui"), ids=lambda p: str(p.relative_to(ROOT)))
def test_ui_imports_no_ml_stack_or_engine_internals(path: Path) -> None:
    bad = [
        m
        for m in imported_modules(path)
        if top(m) in {"torch", "transformers", "accelerate", "app"}
        or (top(m) == "engine" and m not in UI_MAY_IMPORT_FROM_ENGINE)
    ]
    assert not bad, f"{path.relative_to(ROOT)} imports {bad}"


def test_protocol_and_config_stay_light() -> None:
    """The GUI imports these two; they must not drag torch or transformers in."""
    for module in ("protocol", "config"):
        heavy = [
            m
            for m in imported_modules(ROOT / "engine" / "core" / f"{module}.py")
            if top(m) in {"torch", "transformers", "accelerate", "numpy"}
            or (top(m) == "engine" and m not in UI_MAY_IMPORT_FROM_ENGINE)
        ]
        assert not heavy, f"engine/core/{module}.py imports {heavy}"


# The engine's own floors (issue 26): the core knows nothing of passes, language or backends'
# internals; a pass reads the model only through the Backend contract; nothing shipped imports
# the tools (benchmarks, the quality suite, the adaptation recipe).
CORE_MAY_NOT_IMPORT = (
    "engine.passes",
    "engine.language",
    "engine.run",
    "engine.backends",
    "engine.decode",
    "engine.models",
    "engine.process",
    "engine.remote",
    "engine.structured",
)
BACKEND_INTERNALS = ("engine.backends.masked", "engine.backends.gemma")


def shipped_sources() -> list[Path]:
    return [p for pkg in ("engine", "app", "ui") for p in sources(pkg)]


@pytest.mark.parametrize("path", sources("engine/core"), ids=lambda p: p.name)
def test_core_imports_no_pass_language_or_backend(path: Path) -> None:
    bad = [m for m in imported_modules(path) if m.startswith(CORE_MAY_NOT_IMPORT)]
    assert not bad, f"{path.relative_to(ROOT)} imports {bad}"


@pytest.mark.parametrize("path", sources("engine/passes"), ids=lambda p: p.name)
def test_passes_import_no_backend_internals(path: Path) -> None:
    bad = [m for m in imported_modules(path) if m.startswith(BACKEND_INTERNALS)]
    assert not bad, f"{path.relative_to(ROOT)} imports {bad}"


def test_nothing_shipped_imports_the_tools() -> None:
    bad = {
        str(p.relative_to(ROOT)): m
        for p in shipped_sources()
        for m in imported_modules(p)
        if top(m) == "tools"
    }
    assert not bad, f"shipped modules import tools/: {bad}"


def test_detector_catches_a_violation(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("from PySide6.QtWidgets import QWidget\nimport torch\n", encoding="utf-8")
    assert imported_modules(bad) == ["PySide6.QtWidgets", "torch"]


# --- import circles ------------------------------------------------------------------------------

PACKAGES = ("engine", "app", "ui", "tools", "tests")


def module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported_names(path: Path, module: str) -> list[str]:
    """Every module name an import in ``path`` may mean, relative imports resolved: for
    ``from a.b import c`` both ``a.b`` and ``a.b.c`` (``c`` may be a submodule)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
    names: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            source = ".".join([*base, *([node.module] if node.module else [])])
            names += [source, *(f"{source}.{alias.name}" for alias in node.names)]
    return names


def import_graph(root: Path, packages: tuple[str, ...] = PACKAGES) -> dict[str, set[str]]:
    """Each project module → the project modules it imports (anywhere in its body)."""
    files = {module_name(p, root): p for pkg in packages for p in sources(pkg, root)}

    def owner(name: str) -> str | None:  # the project module a dotted name lives in
        while name and name not in files:
            name = name.rpartition(".")[0]
        return name or None

    graph: dict[str, set[str]] = {}
    for module, path in files.items():
        found = {owner(n) for n in imported_names(path, module)}
        graph[module] = {m for m in found if m is not None and m != module}
    return graph


def import_circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    circles: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while (top_ := stack.pop()) != node:
                component.append(top_)
            if component:
                circles.append(sorted([node, *component]))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return circles


def test_no_import_circles() -> None:
    circles = import_circles(import_graph(ROOT))
    assert not circles, f"modules that import each other (directly or around a loop): {circles}"


def test_the_circle_check_finds_a_planted_circle(tmp_path: Path) -> None:
    pkg = tmp_path / "engine"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("", encoding="utf-8")
    (pkg / "sub" / "__init__.py").write_text("", encoding="utf-8")
    (pkg / "a.py").write_text("from engine.sub import b\n", encoding="utf-8")
    # the way back hides in a function, through a relative import
    (pkg / "sub" / "b.py").write_text("def f():\n    from .c import x\n", encoding="utf-8")
    (pkg / "sub" / "c.py").write_text("import engine.a\nx = 1\n", encoding="utf-8")
    (pkg / "d.py").write_text("from engine import a\n", encoding="utf-8")  # into it, not back
    graph = import_graph(tmp_path, ("engine",))
    assert graph["engine.sub.b"] == {"engine.sub.c"}
    assert import_circles(graph) == [["engine.a", "engine.sub.b", "engine.sub.c"]]
    (pkg / "sub" / "c.py").write_text("x = 1\n", encoding="utf-8")
    assert import_circles(import_graph(tmp_path, ("engine",))) == []
