"""Dialogs and side windows that hand the keyboard back when they close.

When a dialog closes, Qt does not always make the window under it active again: with no window
manager (a bare X server, some kiosk and tiling set-ups) nothing is active afterwards, so every
window shortcut (Ctrl+O, Ctrl+S…) is silently lost until the user clicks into the window, while
the menus, reached with the mouse, still work. Every dialog the window opens goes through
:func:`open_dialog`, and a side window calls :func:`give_focus_back` as it hides: the window
under it is activated again and the widget that had the keyboard gets it back.

Public API: :func:`open_dialog`, :func:`give_focus_back`.
"""

from __future__ import annotations

import shiboken6
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication, QDialog, QWidget


def open_dialog(dialog: QDialog) -> QDialog:
    """Show ``dialog`` with ``open()`` (window-modal, never a nested loop) and, once it has
    closed, give the keyboard back to the widget that had it before."""
    focus = QApplication.focusWidget()
    parent = dialog.parentWidget()
    owner = parent.window() if parent is not None else None
    dialog.finished.connect(lambda _result: give_focus_back(owner, focus))
    dialog.open()
    return dialog


def give_focus_back(window: QWidget | None, focus: QWidget | None = None) -> None:
    """Activate ``window`` again and focus ``focus`` (if it is still in it) once the closing
    window is gone; nothing happens if another dialog has opened over it meanwhile."""
    # After the event loop turns: a choice made in the dialog may have opened the next one.
    QTimer.singleShot(0, lambda: _restore(window, focus))


def _restore(window: QWidget | None, focus: QWidget | None) -> None:
    if window is None or not shiboken6.isValid(window) or not window.isVisible():
        return
    modal = QApplication.activeModalWidget()
    if (modal is not None and modal is not window) or QApplication.activePopupWidget():
        return  # another dialog or a menu took over: it owns the keyboard now
    window.activateWindow()
    if _still_in(focus, window):
        assert focus is not None
        focus.setFocus(Qt.FocusReason.OtherFocusReason)


def _still_in(focus: QWidget | None, window: QWidget) -> bool:
    return (
        focus is not None
        and shiboken6.isValid(focus)
        and focus.isVisible()
        and focus.window() is window
    )
