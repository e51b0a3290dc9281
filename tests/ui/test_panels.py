"""Instruction bar, model picker, engine status, banner and the shortcut table."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QKeyEvent, QKeySequence
from PySide6.QtWidgets import QFileDialog, QLineEdit, QToolButton, QWidget
from pytestqt.qtbot import QtBot

from engine.core.config import STRENGTH_PRESETS
from engine.core.protocol import Frame, LoadProgress, Metrics, ModelInfo
from engine.process.client import WORKER_DIED
from ui.model_dialog import ModelEntry, ModelPicker
from ui.prompt import INSTRUCTION_PRESETS, InstructionBar
from ui.shortcuts import SHORTCUTS, ShortcutsWindow, key_sequences, matches
from ui.status import EngineBanner, EngineStatus

# --- instruction bar ---------------------------------------------------------------------


@pytest.fixture
def bar(qtbot: QtBot) -> Iterator[InstructionBar]:
    host = QWidget()  # embedded, as in the window (a top-level bar makes offscreen Qt warn)
    qtbot.addWidget(host)
    widget = InstructionBar(host)
    widget.open_for()
    yield widget


def test_enter_submits_the_instruction_and_strength(qtbot: QtBot, bar: InstructionBar) -> None:
    qtbot.keyClicks(bar.field, "  tighter ")
    with qtbot.waitSignal(bar.submitted, timeout=1000) as blocker:
        qtbot.keyClick(bar.field, Qt.Key.Key_Return)
    assert blocker.args == ["tighter", STRENGTH_PRESETS["polish"]]


def test_escape_closes_the_bar(qtbot: QtBot, bar: InstructionBar) -> None:
    with qtbot.waitSignal(bar.closed, timeout=1000):
        qtbot.keyClick(bar.field, Qt.Key.Key_Escape)
    assert bar.isHidden()


def _chip(bar: InstructionBar, text: str) -> QToolButton:
    return next(b for b in bar.findChildren(QToolButton) if b.text() == text)


def test_presets_fill_the_instruction_and_set_the_strength(bar: InstructionBar) -> None:
    label, instruction, _ = INSTRUCTION_PRESETS[0]
    _chip(bar, label).click()
    assert bar.instruction() == instruction
    for name, value in STRENGTH_PRESETS.items():
        _chip(bar, name.capitalize()).click()
        assert bar.strength() == pytest.approx(value)
        assert _chip(bar, name.capitalize()).isChecked()


def test_an_instruction_preset_sets_its_own_strength(qtbot: QtBot, bar: InstructionBar) -> None:
    fix = next(p for p in INSTRUCTION_PRESETS if p.label == "Fix grammar")
    _chip(bar, "Rewrite").click()  # a strength-1 rewrite came first
    assert bar.strength() == pytest.approx(STRENGTH_PRESETS["rewrite"])
    _chip(bar, fix.label).click()
    assert bar.strength() == pytest.approx(STRENGTH_PRESETS[fix.strength]) != 1.0
    assert _chip(bar, fix.strength.capitalize()).isChecked()
    with qtbot.waitSignal(bar.submitted, timeout=1000) as blocker:
        qtbot.keyClick(bar.field, Qt.Key.Key_Return)
    assert blocker.args == [fix.instruction, STRENGTH_PRESETS["fix"]]
    for preset in INSTRUCTION_PRESETS:  # every chip names a strength the bar offers
        _chip(bar, preset.label).click()
        assert bar.strength() == pytest.approx(STRENGTH_PRESETS[preset.strength])


def test_strength_between_presets_checks_no_preset_and_never_reaches_zero(
    bar: InstructionBar,
) -> None:
    bar.set_strength(0.72)
    assert bar.strength() == pytest.approx(0.7)
    assert not any(_chip(bar, n.capitalize()).isChecked() for n in STRENGTH_PRESETS)
    bar.set_strength(0.0)
    assert 0 < bar.strength() <= 0.05


def test_a_draft_offers_no_rewrite_presets(qtbot: QtBot, bar: InstructionBar) -> None:
    chips = {b.text(): b for b in bar.findChildren(QToolButton)}
    preset_chips = [chips[preset.label] for preset in INSTRUCTION_PRESETS]
    assert bar.shows_presets() and all(chip.isVisibleTo(bar) for chip in preset_chips)
    bar.open_for(draft=True)
    assert not bar.shows_presets()
    assert not any(chip.isVisibleTo(bar) for chip in preset_chips)
    assert "written" in bar.field.placeholderText()
    bar.open_for(draft=False)  # a rewrite next: the presets are back
    assert bar.shows_presets() and all(chip.isVisibleTo(bar) for chip in preset_chips)


def test_a_draft_hides_the_strength_row(bar: InstructionBar) -> None:
    bar.open_for(draft=True)
    assert not bar.shows_strength()
    bar.open_for(draft=False, instruction="formal")
    assert bar.shows_strength()
    assert bar.instruction() == "formal"


# --- model picker ------------------------------------------------------------------------

MODELS = [
    {"id": "embedded:smollm2", "display_name": "SmolLM2-135M", "source": "embedded"},
    ModelEntry("GSAI-ML/LLaDA-8B-Instruct", "LLaDA 8B", "Hugging Face cache", True),
]


@pytest.fixture
def picker(qtbot: QtBot) -> ModelPicker:
    dialog = ModelPicker()
    qtbot.addWidget(dialog)
    dialog.set_models(MODELS)
    return dialog


def test_load_emits_the_model_and_device(qtbot: QtBot, picker: ModelPicker) -> None:
    picker.set_current("embedded:smollm2", "cpu")
    seen: list[tuple[object, ...]] = []
    picker.modelChosen.connect(lambda *args: seen.append(args))
    picker.modelRequested.connect(lambda *args: seen.append(args))
    picker.load()
    assert seen == [("embedded:smollm2", "cpu"), ("embedded:smollm2", "cpu", False)]


def test_remote_code_needs_consent_for_that_model(qtbot: QtBot, picker: ModelPicker) -> None:
    picker.set_current("GSAI-ML/LLaDA-8B-Instruct")
    assert not picker.load_button.isEnabled()
    with qtbot.assertNotEmitted(picker.modelChosen):
        picker.load()
    picker.consent_box.setChecked(True)
    with qtbot.waitSignal(picker.modelRequested, timeout=1000) as blocker:
        picker.load()
    assert blocker.args == ["GSAI-ML/LLaDA-8B-Instruct", "auto", True]
    picker.set_current("embedded:smollm2")
    picker.set_current("GSAI-ML/LLaDA-8B-Instruct")
    assert not picker.consent_box.isChecked(), "consent must be asked again"


def test_unavailable_devices_are_disabled(picker: ModelPicker) -> None:
    picker.set_current("embedded:smollm2", "cuda")
    picker.set_available_devices(["cpu"])
    model = picker.device_box.model()
    enabled = {picker.device_box.itemData(r): model.item(r).isEnabled() for r in range(4)}
    assert enabled == {"auto": True, "cuda": False, "mps": False, "cpu": True}
    assert picker.device() == "auto"


# The file dialog is a top-level window, and the offscreen platform warns that it cannot pass
# size hints to the window system; that warning is the platform's, not ours.
@pytest.mark.qt_log_ignore("does not support propagateSizeHints")
def test_the_folder_chooser_opens_without_blocking_and_adds_the_folder(
    qtbot: QtBot, picker: ModelPicker, tmp_path
) -> None:  # type: ignore[no-untyped-def]
    chooser = picker.choose_folder()  # returns at once: open(), not exec()
    assert isinstance(chooser, QFileDialog) and chooser.isVisible()
    chooser.fileSelected.emit(str(tmp_path))
    chooser.close()
    assert picker.selected() == ModelEntry(
        str(tmp_path), tmp_path.name, "folder", note=str(tmp_path)
    )


def test_exec_is_refused(picker: ModelPicker) -> None:
    with pytest.raises(RuntimeError, match="open"):
        picker.exec()


# --- status and banner -------------------------------------------------------------------

INFO = ModelInfo(
    "embedded:smollm2", "SmolLM2-135M (base, not adapted)", "masked", "cpu", 134_515_008
)


def test_loading_shows_stage_progress_and_time_left(qtbot: QtBot) -> None:
    now = [100.0]
    status = EngineStatus(clock=lambda: now[0])
    qtbot.addWidget(status)
    status.show_loading(LoadProgress("loading weights", 0.0), "SmolLM2")
    now[0] = 106.0
    status.show_loading(LoadProgress("loading weights", 0.4))
    assert status.text() == "SmolLM2 | Loading weights | ~9 s left"
    assert status.state() == "loading"
    status.show_loading(LoadProgress("converting GGUF", -1))
    assert (status.progress_bar.minimum(), status.progress_bar.maximum()) == (0, 0)


def test_drafting_and_finished_numbers(qtbot: QtBot) -> None:
    status = EngineStatus()
    qtbot.addWidget(status)
    status.set_model(INFO)
    assert status.state() == "ready"
    status.show_frame(Frame(1, 12, 32, 64, (), forwards=12, elapsed_s=0.5), settled=41)
    assert status.text() == (
        "SmolLM2-135M (base, not adapted) | cpu | step 12/32 | 3.42 tok/forward · 82.0 tok/s"
    )
    status.show_metrics(Metrics(0.05, 1.2, 20, 20, 64, 3.2, 0.1, 53.3))
    assert "20 steps" in status.text() and "53.3 tok/s" in status.text()
    status.set_stopped("worker died")
    assert status.state() == "stopped" and "engine stopped" in status.text()
    status.show_loading(LoadProgress("loading tokenizer", 0.0, "Loading the tokenizer…"))
    assert "engine stopped" not in status.text() and "steps" not in status.text()


def test_a_cancel_shows_cancelling_then_idle_and_a_late_end_never_hides_a_load(
    qtbot: QtBot,
) -> None:
    status = EngineStatus()
    qtbot.addWidget(status)
    status.set_model(INFO)
    status.show_frame(Frame(1, 7, 25, 64, (), forwards=7, elapsed_s=0.5), settled=20)
    status.show_cancelling()
    assert status.state() == "cancelling"
    assert "cancelling…" in status.text() and "step" not in status.text()
    status.show_ended("cancelled")
    assert status.state() == "ready" and status.text().endswith("| cancelled")
    status.show_frame(Frame(2, 3, 25, 64, (), forwards=3, elapsed_s=0.5), settled=9)
    status.show_loading(LoadProgress("loading weights", 0.5), "another model")
    status.show_ended("cancelled")  # the load cancelled the draft; its answer comes after
    assert status.state() == "loading" and "cancelled" not in status.text()


def test_before_the_first_step_the_status_line_says_what_the_passes_are_doing(
    qtbot: QtBot,
) -> None:
    status = EngineStatus()
    qtbot.addWidget(status)
    status.set_model(INFO)
    status.show_frame(Frame(1, 0, 32, 64, (), stage="proofread"))
    assert status.text().endswith("| proofreading…") and status.state() == "running"
    status.show_frame(Frame(1, 0, 32, 64, (), stage="shorten", reads=3))
    assert status.text().endswith("| pricing cuts · 3 reads")
    status.show_frame(Frame(1, 1, 32, 64, (), forwards=1, elapsed_s=0.5), settled=4)
    assert "| step 1/32 |" in status.text() and "reads" not in status.text()


def test_banner_offers_a_restart_and_can_be_dismissed(qtbot: QtBot) -> None:
    host = QWidget()
    qtbot.addWidget(host)
    banner = EngineBanner(host)
    assert not banner.isVisibleTo(host)
    banner.show_stopped("exit code -11")
    assert banner.isVisibleTo(host) and "exit code -11" in banner.message()
    with qtbot.waitSignal(banner.restartRequested, timeout=1000):
        banner.restart()
    assert not banner.isVisibleTo(host)
    banner.show_stopped(WORKER_DIED)
    assert banner.message().count("Your text is safe") == 1
    banner.show_stopped()
    assert "engine stopped" in banner.message()
    with qtbot.waitSignal(banner.dismissed, timeout=1000):
        banner.dismiss()
    assert not banner.isVisibleTo(host)


# --- shortcuts ---------------------------------------------------------------------------

# Keys there only act while the panel (or that window) has the focus.
_PANELS = {"Instruction bar", "Diff review", "Shortcuts window"}


def test_every_shortcut_parses_and_no_key_is_bound_twice_in_one_context() -> None:
    assert len({s.action for s in SHORTCUTS}) == len(SHORTCUTS)
    contexts: Counter[tuple[str, str]] = Counter()
    for entry in SHORTCUTS:
        for sequence in key_sequences(entry.action):
            assert not sequence.isEmpty(), entry
            context = entry.group if entry.group in _PANELS else "window"
            contexts[(context, sequence.toString())] += 1
    assert [key for key, count in contexts.items() if count > 1] == []


def _press(
    key: Qt.Key, modifiers: Qt.KeyboardModifier = Qt.KeyboardModifier.NoModifier
) -> QKeyEvent:
    return QKeyEvent(QKeyEvent.Type.KeyPress, key, modifiers)


def test_matching_tells_modifiers_apart_and_ignores_the_keypad() -> None:
    assert matches("review.accept", _press(Qt.Key.Key_A))
    assert not matches("review.accept", _press(Qt.Key.Key_A, Qt.KeyboardModifier.ShiftModifier))
    assert matches("review.accept_all", _press(Qt.Key.Key_A, Qt.KeyboardModifier.ShiftModifier))
    assert matches("review.accept", _press(Qt.Key.Key_Enter, Qt.KeyboardModifier.KeypadModifier))
    assert matches("edit.lock", _press(Qt.Key.Key_L, Qt.KeyboardModifier.ControlModifier))
    assert key_sequences("edit.lock") == [QKeySequence("Ctrl+L")]


def test_the_shortcuts_window_lists_the_table_and_filters(qtbot: QtBot) -> None:
    window = ShortcutsWindow()
    qtbot.addWidget(window)
    tree = window.tree
    rows = [
        tree.topLevelItem(g).child(r)
        for g in range(tree.topLevelItemCount())
        for r in range(tree.topLevelItem(g).childCount())
    ]
    assert [row.text(0) for row in rows] == [s.description for s in SHORTCUTS]
    window.set_filter("lock")
    visible = [row.text(0) for row in rows if not row.isHidden()]
    assert visible == ["Lock or unlock the selection"]


@pytest.mark.parametrize("typing_in_the_filter", [True, False])
def test_esc_closes_the_shortcuts_window(qtbot: QtBot, typing_in_the_filter: bool) -> None:
    window = ShortcutsWindow()
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    field = window.findChild(QLineEdit)
    if typing_in_the_filter:
        qtbot.keyClicks(field, "undo")
    target = field if typing_in_the_filter else window.tree
    qtbot.keyClick(target, Qt.Key.Key_Escape)
    assert not window.isVisible()
