"""Engine status for the status bar, and the banner shown when the engine process stops.

:class:`EngineStatus` is one compact row: a state dot, the model's name, the device, load
progress (stage, bar, time left) while loading, and while drafting the step, tokens per forward
and tokens per second (DESIGN §9). :class:`EngineBanner` is a dismissable strip that says the
engine stopped, that the text is safe, and offers a restart.

Public API of :class:`EngineStatus`:

- ``set_model(info | None)`` — a :class:`engine.core.protocol.ModelInfo`, or None for "no model"
- ``show_loading(progress, model_name="")`` — a :class:`engine.core.protocol.LoadProgress`
  (fraction -1: unknown), optionally naming the model being loaded
- ``show_frame(frame, settled=None)`` — step x/y, or before the first step what the passes
  are doing ("proofreading · 3 reads"); with ``settled`` (tokens settled so far) also
  tokens per forward and tokens per second
- ``show_metrics(metrics)`` — the finished request's :class:`engine.core.protocol.Metrics`
- ``show_cancelling()`` — a cancel was asked for and the engine has not confirmed it yet
- ``show_ended(outcome)`` — the request ended without a proposal (``outcome``: "cancelled",
  "failed"); the engine is ready again. Ignored unless a request was being shown, so a late
  answer never hides a load in progress or a stopped engine
- ``set_stopped(message)`` — the engine died; ``text()`` — everything shown, for tests
- ``show_link(link | None)`` — a remote engine's host and round trip
  (:class:`engine.core.protocol.EngineLink`); None: the engine is local
- ``show_queued(position)`` — a remote engine's queue: requests ahead of ours (0: running)
- ``EngineStatus(clock=time.monotonic)`` — the clock used for the load ETA

Public API of :class:`EngineBanner`: ``show_stopped(message="", action="Restart engine")`` (a
remote engine's banner says "Reconnect"), ``dismiss()``; signals ``restartRequested()`` and
``dismissed()``.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QProgressBar,
    QPushButton,
    QToolButton,
    QWidget,
)

from engine.core.protocol import EngineLink, Frame, LoadProgress, Metrics, ModelInfo
from ui import palette
from ui.wording import counted, metrics_summary, stage_text

_DOT = palette.ENGINE_DOT_HEX


def _eta_text(seconds: float) -> str:
    if seconds < 1:
        return "almost done"
    if seconds < 90:
        return f"~{seconds:.0f} s left"
    return f"~{seconds / 60:.0f} min left"


class EngineStatus(QWidget):
    """Status-bar row about the engine; see the module docstring for the API."""

    def __init__(
        self, parent: QWidget | None = None, clock: Callable[[], float] = time.monotonic
    ) -> None:
        super().__init__(parent)
        self._clock = clock
        self._stage: tuple[str, float] | None = None  # stage name, when it started
        self._showing_request = False  # the step label is about a request (running, queued…)
        self._dot = QLabel("●")
        self._model = QLabel()
        self._device = QLabel()
        self._stage_label = QLabel()
        self._bar = QProgressBar()
        self._bar.setTextVisible(False)
        self._bar.setMaximumSize(120, 10)
        self._eta = QLabel()
        self._step = QLabel()
        self._speed = QLabel()
        self._link = QLabel()
        self._link.hide()
        self._build()
        self.set_model(None)

    @property
    def progress_bar(self) -> QProgressBar:
        """The load progress bar (busy, with no range, while the size is unknown)."""
        return self._bar

    def _build(self) -> None:
        self._device.setStyleSheet(
            f"color: {palette.SECONDARY_HEX}; border: 1px solid {palette.BORDER_HEX}; "
            "border-radius: 8px; padding: 0 6px;"
        )
        for label in (self._stage_label, self._eta, self._step, self._speed, self._link):
            label.setStyleSheet(palette.text_colour(palette.SECONDARY_HEX))
        layout = QHBoxLayout(self)
        layout.setContentsMargins(4, 0, 4, 0)
        layout.setSpacing(8)
        layout.addStretch(1)  # spare width goes left: the row stays packed at the right edge
        for widget in (self._dot, self._model, self._device, self._stage_label, self._bar):
            layout.addWidget(widget)
        for widget in (self._eta, self._step, self._speed, self._link):
            layout.addWidget(widget)

    # --- public API ----------------------------------------------------------------------

    def set_model(self, info: ModelInfo | None) -> None:
        self._stage = None
        self._showing_request = False
        self._show_loading_widgets(False)
        self._step.clear()
        self._speed.clear()
        if info is None:
            self._set_dot("none", "No model loaded")
            self._model.setText("No model")
            self._device.hide()
            return
        self._set_dot("ready", "Ready")
        self._model.setText(info.display_name)
        self._model.setToolTip(
            f"{info.model_id}\n{info.parameters / 1e6:.0f}M parameters\n{info.placement}".strip()
        )
        self._device.setText(info.device)
        self._device.show()

    def show_loading(self, progress: LoadProgress, model_name: str = "") -> None:
        now = self._clock()
        if model_name:
            self._model.setText(model_name)
        if self._stage is None or self._stage[0] != progress.stage:
            self._stage = (progress.stage, now)
        self._showing_request = False
        self._set_dot("loading", progress.message or progress.stage)
        self._show_loading_widgets(True)
        self._step.clear()  # "engine stopped" or the last request's steps no longer hold
        self._speed.clear()
        self._stage_label.setText(progress.stage.capitalize())
        if progress.fraction < 0:
            self._bar.setRange(0, 0)  # busy indicator: no fraction to show
            self._eta.clear()
            return
        self._bar.setRange(0, 1000)
        self._bar.setValue(round(1000 * min(1.0, progress.fraction)))
        elapsed = now - self._stage[1]
        if 0 < progress.fraction < 1 and elapsed > 0:
            self._eta.setText(_eta_text(elapsed * (1 - progress.fraction) / progress.fraction))
        else:
            self._eta.clear()

    def show_frame(self, frame: Frame, settled: int | None = None) -> None:
        self._showing_request = True
        self._set_dot("running", "Drafting")
        self._show_loading_widgets(False)
        stage = stage_text(frame)  # the passes reading the model before the first step
        self._step.setText(stage or f"step {frame.step}/{frame.max_steps}")
        if settled is not None and frame.forwards > 0 and frame.elapsed_s > 0:
            per_forward = settled / frame.forwards
            self._speed.setText(
                f"{per_forward:.2f} tok/forward · {settled / frame.elapsed_s:.1f} tok/s"
            )

    def show_metrics(self, metrics: Metrics) -> None:
        self._showing_request = False
        self._set_dot("ready", "Ready")
        self._step.setText(counted(metrics.steps, "step"))
        self._speed.setText(
            f"{metrics.tokens_per_forward:.2f} tok/forward · {metrics.tokens_per_second:.1f} tok/s"
        )
        self._speed.setToolTip(metrics_summary(metrics))

    def show_link(self, link: EngineLink | None) -> None:
        if link is None:
            self._link.clear()
            self._link.hide()
            return
        rtt = f" · {link.rtt_s * 1000:.0f} ms" if link.rtt_s >= 0 else ""
        self._link.setText(f"⇄ {link.host}{rtt}")
        self._link.setToolTip(f"Remote engine at {link.host}; round trip{rtt or ' unknown'}")
        self._link.show()

    def show_cancelling(self) -> None:
        self._showing_request = True
        self._show_loading_widgets(False)
        self._set_dot("cancelling", "Cancelling: the engine stops at its next step")
        self._step.setText("cancelling…")
        self._speed.clear()

    def show_ended(self, outcome: str) -> None:
        if not self._showing_request:
            return
        self._showing_request = False
        self._set_dot("ready", "Ready")
        self._step.setText(outcome)
        self._speed.clear()

    def show_queued(self, position: int) -> None:
        if position > 0:
            self._showing_request = True
            self._set_dot("loading", "Waiting for the shared engine")
            self._step.setText(f"queued: {position} ahead")

    def set_stopped(self, message: str = "") -> None:
        self._showing_request = False
        self._show_loading_widgets(False)
        self._set_dot("stopped", message or "The engine stopped")
        self._step.setText("engine stopped")
        self._speed.clear()

    def text(self) -> str:
        parts = [self._model, self._device, self._stage_label, self._eta, self._step, self._speed]
        parts.append(self._link)
        return " | ".join(w.text() for w in parts if w.isVisibleTo(self) and w.text())

    # --- internals -----------------------------------------------------------------------

    def _set_dot(self, state: str, tooltip: str) -> None:
        self._dot.setStyleSheet(f"color: {_DOT[state]};")
        self._dot.setToolTip(tooltip)
        self._dot.setProperty("state", state)

    def state(self) -> str:
        return str(self._dot.property("state"))

    def _show_loading_widgets(self, visible: bool) -> None:
        for widget in (self._stage_label, self._bar, self._eta):
            widget.setVisible(visible)


class EngineBanner(QFrame):
    """ "The engine stopped" strip with a restart button; see the module docstring."""

    restartRequested = Signal()
    dismissed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("EngineBanner")
        self.setStyleSheet(
            f"#EngineBanner {{ background: {palette.BANNER_PAPER_HEX}; "
            f"border-bottom: 1px solid {palette.BANNER_BORDER_HEX}; }}"
            f"#EngineBanner QLabel {{ color: {palette.BANNER_INK_HEX}; }}"
        )
        self._message = QLabel()
        self._message.setWordWrap(True)
        self._message.setTextFormat(Qt.TextFormat.PlainText)
        restart = QPushButton("Restart engine")
        restart.setObjectName("EngineBannerAction")
        close = QToolButton()
        close.setText("✕")
        close.setAutoRaise(True)
        close.setToolTip("Dismiss")
        layout = QHBoxLayout(self)
        layout.setContentsMargins(12, 6, 8, 6)
        layout.addWidget(QLabel("⚠"))
        layout.addWidget(self._message, 1)
        layout.addWidget(restart)
        layout.addWidget(close)
        restart.clicked.connect(self.restartRequested)
        restart.clicked.connect(self.hide)
        close.clicked.connect(self.dismiss)
        self._restart = restart
        self.hide()

    def show_stopped(self, message: str = "", action: str = "Restart engine") -> None:
        """``message`` (the worker's own sentence, if any) is shown once, not wrapped in ours."""
        self._restart.setText(action)
        self._message.setText(
            message
            or "The engine stopped. Your text is safe and you can keep editing; "
            "drafting needs a restart."
        )
        self.show()

    def message(self) -> str:
        return self._message.text()

    def dismiss(self) -> None:
        self.hide()
        self.dismissed.emit()

    def restart(self) -> None:
        """What the "Restart engine" button does."""
        self._restart.click()
