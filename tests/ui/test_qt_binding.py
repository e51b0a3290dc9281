"""The Qt binding itself must not leak: a guard for a crash seen with PySide6 6.12.0.

On Python 3.11 (where ``None`` is reference-counted), PySide6/shiboken6 6.12.0 drops one
reference to ``None`` on every call of a method that returns nothing (``setFontItalic``,
``setForeground``, …). A long editing session makes tens of thousands of such calls, and the
process then aborts with "Fatal Python error: none_dealloc: deallocating None". 6.11.3 does not
do this. On Python 3.12+ ``None`` is immortal and the count cannot fall.
"""

from __future__ import annotations

import sys

from PySide6.QtGui import QColor, QTextCharFormat
from pytestqt.qtbot import QtBot


def test_void_qt_calls_do_not_steal_references_to_none(qtbot: QtBot) -> None:
    fmt = QTextCharFormat()
    colour = QColor("#123456")
    before = sys.getrefcount(None)
    for _ in range(200):
        fmt.setFontItalic(True)
        fmt.setForeground(colour)
    lost = before - sys.getrefcount(None)
    assert lost < 50, f"{lost} references to None lost in 400 calls: use a PySide6 without the leak"
