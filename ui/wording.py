"""How the window and the command line put numbers into words: the one place for plurals.

Every count a user reads ("1 change to review", "3 columns, 1 row", "1 word") goes through
:func:`counted`, so no message says "1 changes". :func:`metrics_summary` is a finished request's
numbers as one line (the review's note, the status bar's tooltip, the CLI's report).

:func:`stage_text` is what a rewrite's frame before its first step says it is doing
("proofreading · 3 reads").

Public API: :func:`counted`, :func:`metrics_summary`, :func:`stage_text`.
"""

from __future__ import annotations

from engine.core.protocol import Frame, Metrics

# What each pass that reads the model before the canvas is doing, as the status line says it
# (the keys are the pass names a frame's ``stage`` holds).
STAGE_WORDS = {"proofread": "proofreading", "shorten": "pricing cuts"}


def counted(count: int, noun: str, plural: str = "") -> str:
    """``count`` with ``noun`` in the right number: "1 change", "0 changes", "2 changes".

    ``plural`` is for a noun whose plural is not the singular plus "s" ("1 entry", "2 entries").
    """
    return f"{count} {noun if count == 1 else plural or noun + 's'}"


def metrics_summary(metrics: Metrics) -> str:
    """A request's numbers: steps, speed, first frame, time to settle, churn, put-backs."""
    checked = f", {metrics.put_back} put back by the model's check" if metrics.put_back else ""
    return (
        f"{counted(metrics.steps, 'step')}, {metrics.tokens_per_forward:.2f} tok/forward, "
        f"{metrics.tokens_per_second:.1f} tok/s, "
        f"first frame {metrics.time_to_first_frame_s * 1000:.0f} ms, "
        f"settled in {metrics.time_to_settle_s:.2f} s, churn {metrics.churn:.0%}{checked}"
    )


def stage_text(frame: Frame) -> str:
    """What a frame before the first denoising step says the engine is doing, with the
    model reads so far ("pricing cuts · 4 reads"); "" for a frame of the steps."""
    if not frame.stage:
        return ""
    doing = STAGE_WORDS.get(frame.stage, frame.stage)
    return f"{doing} · {counted(frame.reads, 'read')}" if frame.reads else f"{doing}…"
