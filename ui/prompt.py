"""The instruction bar: what to do with the selection, and how strongly to rewrite it.

A slim bar (like a find bar) with a line edit for the instruction, one-click instruction
presets, and a rewrite-strength slider with the presets of
:data:`engine.core.config.STRENGTH_PRESETS`
("fix" polishes lightly, "rewrite" starts from scratch; DESIGN §4). Enter submits, Esc closes.
For a draft at the cursor the presets and the strength row are hidden: they say how to change
the selected text, and a draft has none (it writes new text; with no instruction it continues).

Public API of :class:`InstructionBar`:

- signals ``submitted(str instruction, float strength)``, ``closed()``
- ``open_for(draft=False, instruction="")`` — show, reset the mode, focus the line edit
- ``shows_presets()`` / ``shows_strength()`` — whether the rewrite rows are shown
- ``instruction()`` / ``set_instruction(text)``
- ``strength()`` / ``set_strength(value)`` — clamped to ``[MIN_STRENGTH, 1]``
- ``alternatives()`` / ``set_alternatives(n)`` — how many versions a rewrite asks for (1–4,
  the bounds of ``SamplerSettings.alternatives``; the review offers each change's versions)
- ``submit()`` / ``close_bar()`` — what Enter and Esc do
- ``INSTRUCTION_PRESETS`` — :class:`InstructionPreset` chips: a label, the instruction, and the
  strength preset it runs at (choosing one sets the strength too, so "Fix grammar" after a
  strength-1 rewrite runs lightly, not at 1.00)
"""

from __future__ import annotations

from typing import NamedTuple

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QButtonGroup,
    QFrame,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSlider,
    QSpinBox,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from engine.core.config import BOUNDS, STRENGTH_PRESETS
from ui import palette
from ui.shortcuts import key_text, matches


class InstructionPreset(NamedTuple):
    """One instruction chip: its label, the instruction it fills in, and its strength preset
    (a key of :data:`STRENGTH_PRESETS`)."""

    label: str
    instruction: str
    strength: str


# A fix touches few words, so it renoises little; a restyle needs room to change wording.
INSTRUCTION_PRESETS: tuple[InstructionPreset, ...] = (
    InstructionPreset("Tighter", "Make it tighter: same meaning, fewer words.", "polish"),
    InstructionPreset("Clearer", "Make it clearer and easier to follow.", "polish"),
    InstructionPreset("Formal", "Rewrite it in a formal register.", "polish"),
    InstructionPreset("Casual", "Rewrite it in a relaxed, casual tone.", "polish"),
    InstructionPreset("Fix grammar", "Fix grammar, spelling and punctuation only.", "fix"),
)

REWRITE_PLACEHOLDER = "What should change? e.g. “tighter”, “formal”, “a paragraph on …”"
DRAFT_PLACEHOLDER = "What should be written here? e.g. “a paragraph on …”, or nothing to carry on"

VERSIONS = BOUNDS["alternatives"]  # the engine's bounds on the versions of one rewrite
SLIDER_STEPS = 20  # strength moves in steps of 1/20
MIN_STRENGTH = 1 / SLIDER_STEPS  # the engine refuses 0: nothing would be renoised

_CHIP_STYLE = f"""
QToolButton[chip="true"] {{ border: 1px solid {palette.BORDER_HEX}; border-radius: 11px;
              padding: 2px 8px; background: {palette.CHIP_PAPER_HEX};
              color: {palette.CHIP_INK_HEX}; }}
QToolButton[chip="true"]:hover {{ background: {palette.CHIP_HOVER_HEX};
              border-color: {palette.HOVER_BORDER_HEX}; }}
QToolButton[chip="true"]:checked {{ background: {palette.CHIP_CHECKED_HEX};
              border-color: {palette.ACCENT_HEX}; color: {palette.LINK_BLUE_HEX}; }}
"""


def _tool_button(text: str, tooltip: str, chip: bool = True) -> QToolButton:
    """A button that never takes focus, so typing stays in the line edit."""
    button = QToolButton()
    button.setText(text)
    button.setToolTip(tooltip)
    button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
    button.setProperty("chip", chip)
    return button


class InstructionBar(QFrame):
    """Instruction line + presets + strength; see the module docstring for the API."""

    submitted = Signal(str, float)
    closed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("InstructionBar")
        self.setStyleSheet(
            f"#InstructionBar {{ background: {palette.BAR_PAPER_HEX}; "
            f"border-top: 1px solid {palette.BAR_RULE_HEX}; }}" + _CHIP_STYLE
        )
        self._edit = QLineEdit()
        self._edit.setPlaceholderText(REWRITE_PLACEHOLDER)
        self._edit.setClearButtonEnabled(True)
        self._run = QPushButton("Run")
        self._run.setToolTip(f"Run the instruction ({key_text('prompt.submit')})")
        self._close = _tool_button("✕", f"Close ({key_text('prompt.close')})", chip=False)
        self._close.setAutoRaise(True)
        self._slider = QSlider(Qt.Orientation.Horizontal)
        self._slider.setRange(1, SLIDER_STEPS)
        self._value = QLabel()
        self._versions = QSpinBox()
        self._strength_presets = QButtonGroup(self)
        self._presets_row = QWidget()
        self._strength_row = QWidget()
        self._build()
        self.set_strength(STRENGTH_PRESETS["polish"])

    @property
    def field(self) -> QLineEdit:
        """The instruction's line edit (what the user types into)."""
        return self._edit

    def shows_presets(self) -> bool:
        """Whether the rewrite presets (Tighter, Formal…) are shown: rewrites only."""
        return self._presets_row.isVisibleTo(self)

    def shows_strength(self) -> bool:
        """Whether the rewrite-strength row is shown (rewrites have one, drafts do not)."""
        return self._strength_row.isVisibleTo(self)

    # --- construction ----------------------------------------------------------------------

    def _build(self) -> None:
        top = QHBoxLayout()
        top.addWidget(self._edit, 1)
        top.addWidget(self._run)
        top.addWidget(self._close)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(10, 8, 10, 8)
        layout.setSpacing(6)
        layout.addLayout(top)
        layout.addLayout(self._lower_row())
        self._edit.returnPressed.connect(self.submit)
        self._run.clicked.connect(self.submit)
        self._close.clicked.connect(self.close_bar)
        self._slider.valueChanged.connect(self._on_slider)
        for button in (self._run, self._close, self._slider):
            button.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # typing stays in the line edit
        self.setFocusProxy(self._edit)

    def _lower_row(self) -> QHBoxLayout:
        row = QHBoxLayout()
        row.setSpacing(6)
        presets = QHBoxLayout(self._presets_row)
        presets.setContentsMargins(0, 0, 0, 0)
        presets.setSpacing(6)
        for preset in INSTRUCTION_PRESETS:
            chip = _tool_button(preset.label, preset.instruction)
            chip.clicked.connect(lambda _=False, chosen=preset: self._use_preset(chosen))
            presets.addWidget(chip)
        row.addWidget(self._presets_row)
        row.addStretch(1)
        row.addWidget(self._strength_row)
        self._build_strength_row()
        return row

    def _build_strength_row(self) -> None:
        strength = QHBoxLayout(self._strength_row)
        strength.setContentsMargins(12, 0, 0, 0)
        strength.setSpacing(6)
        caption = QLabel("Strength")
        caption.setStyleSheet(palette.text_colour(palette.SECONDARY_HEX))
        strength.addWidget(caption)
        for name, value in STRENGTH_PRESETS.items():
            chip = _tool_button(name.capitalize(), f"Strength {value:g}")
            chip.setCheckable(True)
            chip.setProperty("strength", value)
            chip.clicked.connect(lambda _=False, v=value: self.set_strength(v))
            self._strength_presets.addButton(chip)
            strength.addWidget(chip)
        self._slider.setFixedWidth(100)
        self._slider.setToolTip(
            "Share of the original tokens renoised: low keeps more of your text"
        )
        strength.addWidget(self._slider)
        self._value.setMinimumWidth(self.fontMetrics().horizontalAdvance("0.00") + 4)
        strength.addWidget(self._value)
        strength.addSpacing(8)
        versions = QLabel("Versions")
        versions.setStyleSheet(palette.text_colour(palette.SECONDARY_HEX))
        strength.addWidget(versions)
        self._versions.setRange(int(VERSIONS.low), int(VERSIONS.high))
        self._versions.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # typing stays in the line edit
        self._versions.setToolTip(
            "How many versions to settle: the review offers each change's versions to pick from"
        )
        strength.addWidget(self._versions)

    # --- public API ----------------------------------------------------------------------

    def open_for(self, draft: bool = False, instruction: str = "") -> None:
        self._presets_row.setVisible(not draft)
        self._strength_row.setVisible(not draft)
        self._edit.setPlaceholderText(DRAFT_PLACEHOLDER if draft else REWRITE_PLACEHOLDER)
        self._edit.setText(instruction)
        self.show()
        self._edit.setFocus()
        self._edit.selectAll()

    def instruction(self) -> str:
        return self._edit.text().strip()

    def set_instruction(self, text: str) -> None:
        self._edit.setText(text)

    def strength(self) -> float:
        return self._slider.value() / SLIDER_STEPS

    def set_strength(self, value: float) -> None:
        clamped = min(1.0, max(MIN_STRENGTH, value))
        self._slider.setValue(round(clamped * SLIDER_STEPS))
        self._on_slider(self._slider.value())

    def alternatives(self) -> int:
        """How many versions the rewrite asks for (a draft asks for one)."""
        return self._versions.value() if self.shows_strength() else int(VERSIONS.low)

    def set_alternatives(self, count: int) -> None:
        self._versions.setValue(count)  # the spin box clamps to its range

    def submit(self) -> None:
        self.submitted.emit(self.instruction(), self.strength())

    def close_bar(self) -> None:
        self.hide()
        self.closed.emit()

    # --- internals -----------------------------------------------------------------------

    def _use_preset(self, preset: InstructionPreset) -> None:
        self._edit.setText(preset.instruction)
        self.set_strength(STRENGTH_PRESETS[preset.strength])
        self._edit.setFocus()

    def _on_slider(self, position: int) -> None:
        value = position / SLIDER_STEPS
        self._value.setText(f"{value:.2f}")
        self._strength_presets.setExclusive(False)  # lets no chip be checked between presets
        for chip in self._strength_presets.buttons():
            chip.setChecked(abs(float(chip.property("strength")) - value) < 1e-9)
        self._strength_presets.setExclusive(True)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if matches("prompt.close", event):
            self.close_bar()
            event.accept()
            return
        super().keyPressEvent(event)
