"""Regenerate the README's screenshots (``make screenshots``) from the real app.

Runs the real window, the real spawned worker and the embedded model on the sample document in
``resources/samples/``, and grabs PNGs into ``docs/screenshots/``: the editor with locks, a
draft mid-settle, the diff review, a draft continuing the sample and its review, the model
picker, a table fill from the template panel under review, a "Fix grammar" rewrite of a
note with errors under review, and the review loop: a casual update made formal in three
versions, with the versions offered on a change where they differ (the picker open), and one
change rejected with a note and tried again, and the spelling menu on one misspelling in two
sentences, ranked by the model (``python -m app.screenshots spelling`` takes only those), and
a JSON fill of a note that counts a deadline from its event, under review (``json`` alone). Needs
a display: ``make screenshots`` runs it
under ``xvfb-run``.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from PySide6.QtGui import QTextCursor
from PySide6.QtWidgets import QApplication, QWidget

from app.gui import Session, build_session
from app.identity import APP_ID, APP_NAME
from engine.core.protocol import Frame
from engine.process.client import WorkerHandle
from ui.prompt import INSTRUCTION_PRESETS

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "resources" / "samples" / "engines.md"
OUT = ROOT / "docs" / "screenshots"
LOCKS = ("Ada Lovelace", "1843")
TABLE_SAMPLE = ROOT / "resources" / "templates" / "meeting-notes.md"
TABLE_ROW = "| Onboarding"
GRAMMAR_SAMPLE = ROOT / "resources" / "samples" / "trip-notes.md"
# A note that dates an event and counts a deadline from it, and a schema for it: the JSON
# fill's review says which values were computed and how.
JSON_SAMPLE = ROOT / "resources" / "samples" / "regatta.md"
JSON_SCHEMA = ROOT / "resources" / "samples" / "regatta.schema.json"
GRAMMAR_PARAGRAPH = "Yesterday"
MID_SETTLE_STEP = 6
MID_DRAFT_STEP = 40  # forwards: two per round of a verified draft, about half of 64 tokens
VERSIONS = 3  # the versions the review-loop screenshot asks for
# A casual paragraph whose formal rewrite the embedded model settles in more than one
# version (tried with `settle rewrite --alternatives 3` first; two at stop 43): where a
# register change has more than one reading, the versions differ on a change.
VERSIONS_SAMPLE = ROOT / "resources" / "samples" / "friday-update.md"
VERSIONS_PARAGRAPH = "hey folks"
VERSIONS_INSTRUCTION = "make it formal"
RETRY_NOTE = "keep it short"
# One misspelling in two sentences that want different words: the menu's model order differs.
SPELLING_TEXT = (
    "Notes from the hotel\n\nThe cleark at the front desk gave us the key at noon.\n\n"
    "By then the sky was cleark and blue again.\n"
)
SPELLING_WORD = "cleark"
INDEX_SECONDS = 120.0


async def grab(widget: QWidget, name: str) -> None:
    # Let the loop paint first; processEvents() inside a task would re-enter qasync.
    await asyncio.sleep(0.1)
    path = OUT / f"{name}.png"
    widget.grab().save(str(path))
    print(f"wrote {path.relative_to(ROOT)}")


def select(session: Session, start: int, end: int) -> None:
    cursor = session.window.editor.textCursor()
    cursor.setPosition(start)
    cursor.setPosition(end, QTextCursor.MoveMode.KeepAnchor)
    session.window.editor.setTextCursor(cursor)


def target_paragraph(text: str) -> tuple[int, int]:
    start = text.index(LOCKS[0])
    start = text.rfind("\n\n", 0, start) + 2
    return start, text.index("\n\n", start)


async def wait_for(signal: object, timeout: float) -> object:
    future: asyncio.Future[object] = asyncio.get_event_loop().create_future()

    def done(value: object) -> None:
        if not future.done():
            future.set_result(value)

    signal.connect(done)  # type: ignore[attr-defined]
    try:
        return await asyncio.wait_for(future, timeout)
    finally:
        signal.disconnect(done)  # type: ignore[attr-defined]


async def shoot(session: Session) -> None:
    window, editor = session.window, session.window.editor
    session.files.open_path(SAMPLE)
    text = editor.plain_text()
    for phrase in LOCKS:
        at = text.index(phrase)
        select(session, at, at + len(phrase))
        editor.toggle_lock()
    session.models.load_saved()
    await wait_for(session.client.modelReady, 600)
    start, end = target_paragraph(text)
    select(session, end, end)  # no selection: the lock tint shows
    await grab(window, "editor-with-locks")
    select(session, start, end)
    defaults = session.edits.settings
    session.edits.settings = defaults.with_changes(steps=24, block_length=0)
    session.edits.begin_rewrite()
    window.bar.set_instruction("tighter")
    await submit_and_grab(session, MID_SETTLE_STEP, "draft-settling", "diff-review")
    session.edits.settings = defaults
    await shoot_continuation(session)
    session.models.choose()
    assert session.models.picker is not None
    await grab(session.models.picker, "model-picker")
    session.models.picker.close()
    await shoot_templates(session)
    await shoot_json_fill(session)
    await shoot_grammar(session)
    await shoot_review_loop(session)
    await shoot_spelling(session)


async def shoot_continuation(session: Session) -> None:
    """A draft at the end of the sample, mid-way (the canvas's guesses ahead of the text the
    base model kept) and under review."""
    window = session.window
    end = len(window.editor.plain_text())
    select(session, end, end)
    session.edits.begin_draft()
    await submit_and_grab(session, MID_DRAFT_STEP, "draft-continuing", "draft-review")


async def submit_and_grab(session: Session, step: int, mid: str, review: str) -> None:
    """Submit the bar's request; grab the window at forward ``step`` and under review."""
    window = session.window
    window.bar.submit()
    while True:
        frame = await wait_for(session.client.frame, 300)
        if isinstance(frame, Frame) and frame.step >= step:
            break
    await grab(window, mid)
    await wait_for(session.client.proposal, 300)
    await grab(window, review)
    window.review.cancel()


async def shoot_templates(session: Session) -> None:
    """The template panel on a table from resources/templates, then that fill under review."""
    window = session.window
    session.files.open_path(TABLE_SAMPLE)
    text = window.editor.plain_text()
    select(session, text.index(TABLE_ROW), text.index(TABLE_ROW))
    window.action("view.templates").trigger()
    window.templates.add_rows.setValue(1)
    window.templates.fill_button.click()
    await wait_for(session.client.proposal, 600)
    await grab(window, "template-fill-review")
    window.review.cancel()


async def shoot_json_fill(session: Session) -> None:
    """A JSON fill at the end of a note under review: the values it computed, and how."""
    window = session.window
    session.files.open_path(JSON_SAMPLE)
    end = len(window.editor.plain_text())
    select(session, end, end)
    session.templates.choose_schema(str(JSON_SCHEMA))
    window.templates.fill_button.click()
    await wait_for(session.client.proposal, 600)
    await grab(window, "template-json-review")
    window.review.cancel()


async def only_json_fill(session: Session) -> None:
    """``python -m app.screenshots json``: the JSON fill alone (the template panel open)."""
    session.models.load_saved()
    await wait_for(session.client.modelReady, 600)
    session.window.action("view.templates").trigger()
    await shoot_json_fill(session)


async def shoot_grammar(session: Session) -> None:
    """The "Fix grammar" preset on a note with errors, under review: the proofread forms."""
    window = session.window
    window.action("view.templates").trigger()  # the panel closes again
    session.files.open_path(GRAMMAR_SAMPLE)
    text = window.editor.plain_text()
    start = text.index(GRAMMAR_PARAGRAPH)
    select(session, start, text.index("\n", start))
    session.edits.begin_rewrite()
    window.bar.set_instruction(
        next(p.instruction for p in INSTRUCTION_PRESETS if p.label == "Fix grammar")
    )
    window.bar.submit()
    await wait_for(session.client.proposal, 300)
    await grab(window, "grammar-review")
    window.review.cancel()


async def rewrite(session: Session, span: tuple[int, int], instruction: str, versions: int) -> None:
    """``span`` of the open file rewritten with ``instruction`` in ``versions`` versions."""
    window = session.window
    select(session, *span)
    session.edits.begin_rewrite()
    window.bar.set_instruction(instruction)
    window.bar.set_alternatives(versions)
    window.bar.submit()
    await wait_for(session.client.proposal, 600)


async def shoot_review_loop(session: Session) -> None:
    """A change offered in several versions, then a change rejected with a note and tried
    again: "trying again…" while it settles, and the try in place of the change."""
    await shoot_versions(session)
    await shoot_retry(session)


async def shoot_versions(session: Session) -> None:
    """The casual sample made formal in :data:`VERSIONS` versions, on the change whose
    versions disagree the most, with its picker open on the versions offered there."""
    review, editor = session.window.review, session.window.editor
    session.files.open_path(VERSIONS_SAMPLE)
    text = editor.plain_text()
    start = text.index(VERSIONS_PARAGRAPH)
    await rewrite(session, (start, text.index("\n\n", start)), VERSIONS_INSTRUCTION, VERSIONS)
    versions = review.versions()
    offered = max(
        range(len(versions.slots)),
        key=lambda i: (len(versions.slots[i].options), versions.slots[i].differs(versions.count)),
        default=0,
    )
    review.select_hunk(offered)
    picker = review.tools.picker
    picker.showPopup()
    await grab_screen(session.window, "review-alternatives")
    picker.hidePopup()
    review.cancel()


async def grab_screen(window: QWidget, name: str) -> None:
    """Like :func:`grab`, but from the screen, so an open popup (a picker's list, its own
    window) is in the picture too."""
    await asyncio.sleep(0.3)
    frame = window.frameGeometry()
    shot = window.screen().grabWindow(0, frame.x(), frame.y(), frame.width(), frame.height())
    path = OUT / f"{name}.png"
    shot.save(str(path))
    print(f"wrote {path.relative_to(ROOT)}")


async def shoot_retry(session: Session) -> None:
    """The locked paragraph of the sample made "tighter", its last worded change rejected
    with a note and tried again."""
    review, editor = session.window.review, session.window.editor
    session.files.open_path(SAMPLE)
    for phrase in LOCKS:
        at = editor.plain_text().index(phrase)
        select(session, at, at + len(phrase))
        editor.toggle_lock()
    await rewrite(session, target_paragraph(editor.plain_text()), "tighter", 1)
    worded = [i for i, h in enumerate(review.diff().hunks) if h.old.strip()]
    review.accept_all()
    review.select_hunk(worded[-1] if worded else 0)
    review.note_current()
    review.tools.note_field.setText(RETRY_NOTE)
    review.tools.noteSubmitted.emit(RETRY_NOTE)
    review.retry_current()
    await grab(session.window, "review-trying")
    await wait_for(session.client.proposal, 600)
    await grab(session.window, "review-retry")
    review.cancel()


async def shoot_spelling(session: Session) -> None:
    """The spelling menu on one misspelling in two sentences, each in the order the model
    reads its suggestions there (the dictionary's order is the same for both)."""
    editor, spelling = session.window.editor, session.spelling
    assert spelling is not None
    editor.load_text(SPELLING_TEXT)
    await asyncio.get_event_loop().run_in_executor(
        None, spelling.wait_for_suggestions, INDEX_SECONDS
    )
    for name, nth in (("spelling-ranked-desk", 0), ("spelling-ranked-sky", 1)):
        at = SPELLING_TEXT.index(SPELLING_WORD)
        if nth:
            at = SPELLING_TEXT.index(SPELLING_WORD, at + 1)
        cursor = QTextCursor(editor.document())
        cursor.setPosition(at + 2)
        point = editor.cursorRect(cursor).bottomLeft()
        menu = editor.build_context_menu(point)
        menu.popup(editor.viewport().mapToGlobal(point))
        await wait_for(session.client.ranked, 60)
        await grab_screen(session.window, name)
        menu.close()


async def only_spelling(session: Session) -> None:
    """``python -m app.screenshots spelling``: the spelling menus alone (a model loaded)."""
    session.models.load_saved()
    await wait_for(session.client.modelReady, 600)
    await shoot_spelling(session)


def main() -> int:
    import qasync

    OUT.mkdir(parents=True, exist_ok=True)
    app = QApplication(sys.argv[:1])
    app.setApplicationName(APP_NAME)
    app.setDesktopFileName(APP_ID)
    loop = qasync.QEventLoop(app)
    asyncio.set_event_loop(loop)
    session = build_session(WorkerHandle())
    session.settings.set_model("embedded", "cpu")
    session.window.resize(1200, 780)
    session.window.show()
    session.client.start()
    try:
        with loop:
            loop.run_until_complete(
                only_spelling(session)
                if "spelling" in sys.argv
                else only_json_fill(session)
                if "json" in sys.argv
                else shoot(session)
            )
    finally:
        session.client.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
