"""Colours shared by several widgets, so the lock tint and the ink look the same everywhere
(the editor, the draft overlay and the diff review show the same locked text)."""

from __future__ import annotations

from PySide6.QtGui import QColor

INK = QColor("#1f2328")
ACCENT = QColor("#3d6fd1")
LOCK_TINT = QColor(255, 210, 92, 112)  # amber, translucent so highlighting shows through
