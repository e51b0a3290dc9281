"""ui/ stays light: no torch or transformers, and from the engine only its plain data modules."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

UI = Path(__file__).resolve().parents[2] / "ui"
ALLOWED_ENGINE = {"engine.core.protocol", "engine.core.config", "engine.core.worddiff"}
FORBIDDEN_ROOTS = {"torch", "transformers", "accelerate", "safetensors", "app"}


def _imports(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def test_ui_modules_import_only_what_they_may() -> None:
    modules = sorted(UI.glob("*.py"))
    assert len(modules) >= 9
    for path in modules:
        for name in _imports(path):
            root = name.split(".")[0]
            assert root not in FORBIDDEN_ROOTS, f"{path.name} imports {name}"
            if root == "engine":
                assert name in ALLOWED_ENGINE, f"{path.name} imports {name}"


def test_importing_every_widget_loads_no_heavy_module() -> None:
    names = ", ".join(f"ui.{p.stem}" for p in sorted(UI.glob("*.py")) if p.stem != "__init__")
    code = (
        f"import sys, {names}\n"
        "heavy = sorted({'torch', 'transformers', 'numpy'} & set(sys.modules))\n"
        "assert not heavy, heavy\n"
    )
    root = UI.parent
    subprocess.run([sys.executable, "-c", code], cwd=root, check=True, timeout=120)
