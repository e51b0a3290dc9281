"""What a key press would edit, worked out before the editor lets it through.

The editor asks this before every key reaches Qt, so a key that would change locked text can be
refused without touching the document. Where Qt's exact reach is platform-dependent (a word, a
line end), the answer errs towards the larger range: refusing a harmless key is a nuisance,
letting a harmful one through would break a lock.

Public API: :func:`key_edit_span`, :func:`inserts_text`.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeyEvent, QKeySequence, QTextCursor

_S = QKeySequence.StandardKey
_M = QTextCursor.MoveOperation
# Deletion keys and how far each reaches when nothing is selected (DeleteCompleteLine: the line).
_DELETIONS = (
    (_S.DeleteStartOfWord, _M.PreviousWord),
    (_S.DeleteEndOfWord, _M.NextWord),
    (_S.DeleteEndOfLine, _M.EndOfBlock),
    (_S.DeleteCompleteLine, _M.EndOfBlock),
    (_S.Delete, _M.NextCharacter),
    (_S.Backspace, _M.PreviousCharacter),
)


def key_edit_span(
    event: QKeyEvent, cursor: QTextCursor, overwrite: bool = False
) -> tuple[int, int, bool] | None:
    """``(start, end, inserting)``: the document range the key would replace and whether it
    types text there; None for keys that edit nothing (movement, shortcuts). ``cursor`` is the
    editor's cursor (a copy: it is moved here)."""
    move = _deletion_move(event)
    if move is not None:
        if not cursor.hasSelection():
            _select_for_deletion(cursor, move, event.matches(_S.DeleteCompleteLine))
        return cursor.selectionStart(), cursor.selectionEnd(), False
    if not inserts_text(event):
        return None
    start, end = cursor.selectionStart(), cursor.selectionEnd()
    if overwrite and start == end:
        end = min(end + 1, cursor.document().characterCount() - 1)
    return start, end, True


def inserts_text(event: QKeyEvent) -> bool:
    """Whether Qt would type something for this key (Enter included, Ctrl+letter not)."""
    if event.matches(_S.InsertParagraphSeparator) or event.matches(_S.InsertLineSeparator):
        return True
    mods = event.modifiers()
    ctrl = Qt.KeyboardModifier.ControlModifier
    alt = Qt.KeyboardModifier.AltModifier
    # Ctrl+Alt is AltGr on some layouts, which does type characters.
    if (mods & ctrl and not mods & alt) or mods & Qt.KeyboardModifier.MetaModifier:
        return False
    text = event.text()
    return bool(text) and (text[0].isprintable() or text[0] == "\t")


def _deletion_move(event: QKeyEvent) -> QTextCursor.MoveOperation | None:
    shift = Qt.KeyboardModifier.ShiftModifier
    if event.key() == Qt.Key.Key_Backspace and not event.modifiers() & ~shift:
        return _M.PreviousCharacter
    for key, move in _DELETIONS:
        if event.matches(key):
            return move
    return None


def _select_for_deletion(
    cursor: QTextCursor, move: QTextCursor.MoveOperation, whole_line: bool
) -> None:
    """Select what a deletion key removes."""
    keep = QTextCursor.MoveMode.KeepAnchor
    if whole_line:
        block = cursor.block()
        cursor.setPosition(max(0, block.position() - 1))
        last = cursor.document().characterCount() - 1
        cursor.setPosition(min(block.position() + block.length(), last), keep)
        return
    at = cursor.position()
    cursor.movePosition(move, keep)
    if move == _M.EndOfBlock and cursor.position() == at:
        # At a line's end, "delete to end of line" joins the next line instead.
        cursor.movePosition(_M.NextCharacter, keep)
