"""Running one request in-process, for the CLI: load the model, run the edit, return the proposal.

Progress goes to a callback (the CLI prints it to stderr); per-step progress is shown on a
terminal only, as one line rewritten in place.
"""

from __future__ import annotations

import sys
from collections.abc import Callable

from engine.errors import SettleError
from engine.protocol import Cancelled, Edit, Frame, LoadModel, LoadProgress, Proposal


def run_request(
    edit: Edit,
    model: str,
    device: str,
    allow_remote_code: bool,
    on_progress: Callable[[LoadProgress], None],
) -> tuple[Proposal, str]:
    """Return the proposal and the loaded model's display name."""
    from engine.models import load
    from engine.runtime import configure_threads
    from engine.session import run_edit

    configure_threads()
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
    if sys.stderr.isatty():
        print(f"\r# step {frame.step}/{frame.max_steps}", end="", file=sys.stderr, flush=True)


def end_steps() -> None:
    if sys.stderr.isatty():
        print(file=sys.stderr)
