"""The layering rules of DESIGN §2, checked on the source: engine never imports Qt or the GUI
packages; ui never imports the ML stack or engine internals (only the plain data modules)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
UI_MAY_IMPORT_FROM_ENGINE = {"engine.protocol", "engine.config"}


def imported_modules(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    names: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.append(node.module)
    return names


def sources(package: str) -> list[Path]:
    return sorted((ROOT / package).rglob("*.py"))


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
            for m in imported_modules(ROOT / "engine" / f"{module}.py")
            if top(m) in {"torch", "transformers", "accelerate", "numpy"}
            or (top(m) == "engine" and m not in UI_MAY_IMPORT_FROM_ENGINE)
        ]
        assert not heavy, f"engine/{module}.py imports {heavy}"


def test_detector_catches_a_violation(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("from PySide6.QtWidgets import QWidget\nimport torch\n", encoding="utf-8")
    assert imported_modules(bad) == ["PySide6.QtWidgets", "torch"]
