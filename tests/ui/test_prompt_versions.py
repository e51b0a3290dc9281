"""The rewrite bar's versions control (issue 29): 1 to 4 versions, the engine's own bounds,
default 1; a draft asks for one (the control is hidden with the rewrite rows)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtWidgets import QWidget
from pytestqt.qtbot import QtBot

from engine.core.config import BOUNDS, SamplerSettings
from ui.prompt import InstructionBar


@pytest.fixture
def prompt(qtbot: QtBot) -> Iterator[InstructionBar]:
    host = QWidget()
    qtbot.addWidget(host)
    shown = InstructionBar(host)
    host.show()
    yield shown  # (yield, not return: the host must outlive the test)


def test_versions_default_to_one_and_stay_within_the_engines_bounds(
    prompt: InstructionBar,
) -> None:
    prompt.open_for(draft=False)
    assert prompt.alternatives() == SamplerSettings().alternatives == 1
    prompt.set_alternatives(3)
    assert prompt.alternatives() == 3
    prompt.set_alternatives(9)
    assert prompt.alternatives() == BOUNDS["alternatives"].high == 4
    prompt.set_alternatives(0)
    assert prompt.alternatives() == BOUNDS["alternatives"].low == 1


def test_a_draft_asks_for_one_version(prompt: InstructionBar) -> None:
    prompt.open_for(draft=False)
    prompt.set_alternatives(3)
    prompt.open_for(draft=True)
    assert not prompt.shows_strength() and prompt.alternatives() == 1
    prompt.open_for(draft=False)
    assert prompt.alternatives() == 3  # the choice is kept for the next rewrite
