"""Running one request in-process, for the CLI: load the model, run the edit, return the proposal.

Progress goes to a callback (the CLI prints it to stderr); per-step progress goes to
:data:`app.progress.PROGRESS` (in place on a terminal, once a second in a log, after the first
second).
"""

from __future__ import annotations

from collections.abc import Callable

from app.progress import PROGRESS
from engine.core.errors import SettleError
from engine.core.protocol import Cancelled, Edit, Frame, LoadModel, LoadProgress, Proposal


def run_request(
    edit: Edit,
    model: str,
    device: str,
    allow_remote_code: bool,
    on_progress: Callable[[LoadProgress], None],
) -> tuple[Proposal, str]:
    """Return the proposal and the loaded model's display name."""
    from engine.models.loading import load
    from engine.process.runtime import configure_threads
    from engine.run.edit_run import run_edit

    configure_threads()
    PROGRESS.restart()
    loaded = load(LoadModel(model, device, allow_remote_code), on_progress)
    for event in run_edit(loaded.backend, edit):
        if isinstance(event, Frame):
            show_step(event)
        elif isinstance(event, Proposal):
            end_steps()
            return event, loaded.info.display_name
        elif isinstance(event, Cancelled):
            break
    raise SettleError("The request ended without a proposal.")


def show_step(frame: Frame) -> None:
    PROGRESS.step(frame)


def end_steps() -> None:
    PROGRESS.end()
