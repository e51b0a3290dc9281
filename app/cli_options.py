"""What every engine-running command of the CLI shares: its options, settings and load report.

:mod:`app.cli` (rewrite, draft), :mod:`app.structured_cli` (fill-json, fill-table) and
:mod:`app.serve_cli` all import from here, so none of them imports another and the CLI has no
import circle. Sampler flags are derived from :class:`engine.core.config.SamplerSettings`, so their
defaults cannot drift from the engine's.
"""

from __future__ import annotations

import argparse
from typing import Any

from engine.core.config import (
    LEGACY_NAMES,
    LEGACY_SWITCHES,
    PRESETS,
    SamplerSettings,
    setting_fields,
    settings_from_values,
)
from engine.core.protocol import LoadProgress


def add_engine_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--model", default="embedded", help="registry id, cached repo id or folder")
    parser.add_argument("--device", default="auto", choices=["auto", "cpu", "cuda", "mps"])
    parser.add_argument(
        "--allow-remote-code",
        action="store_true",
        help="consent to run this model's own code (LLaDA, Dream)",
    )
    parser.add_argument("--quality", choices=sorted(PRESETS), help="speed-quality preset")
    group = parser.add_argument_group("sampler settings")
    for name, default, help_text in setting_fields():
        flag = "--" + name.replace("_", "-")
        if isinstance(default, tuple):
            group.add_argument(
                flag, dest=name, type=comma_list, default=None,
                help=f"{help_text} (comma-separated; default: {','.join(default)})",
            )  # fmt: skip
        elif isinstance(default, bool):
            group.add_argument(
                flag,
                dest=name,
                action=argparse.BooleanOptionalAction,
                default=None,
                help=f"{help_text} (default: {default})",
            )
        else:
            kind = float if name == "threshold" else type(default)
            group.add_argument(
                flag, dest=name, type=kind, default=None, help=f"{help_text} (default: {default})"
            )

    for old, new in LEGACY_NAMES.items():  # renamed settings keep their old flags
        group.add_argument(
            "--" + old.replace("_", "-"), dest=old, type=float, default=None,
            help=f"the old name of --{new.replace('_', '-')}",
        )  # fmt: skip
    for switch, pass_name in LEGACY_SWITCHES.items():  # the switches the passes list replaced
        group.add_argument(
            "--" + switch.replace("_", "-"), dest=switch, default=None,
            action=argparse.BooleanOptionalAction,
            help=f"run the {pass_name} pass or not (same as editing --passes)",
        )  # fmt: skip


def comma_list(text: str) -> tuple[str, ...]:
    """``"a,b"`` as ``("a", "b")`` (an empty string: none)."""
    return tuple(part.strip() for part in text.split(",") if part.strip())


def settings_from(args: argparse.Namespace) -> SamplerSettings:
    values: dict[str, Any] = dict(PRESETS[args.quality]) if args.quality else {}
    for name in [n for n, _, _ in setting_fields()] + list(LEGACY_SWITCHES) + list(LEGACY_NAMES):
        if getattr(args, name, None) is not None:
            values[name] = getattr(args, name)
    return settings_from_values(values)


def report_load(progress: LoadProgress) -> None:
    """Model load progress on stderr (once a load runs longer than a second)."""
    from app.progress import PROGRESS

    PROGRESS.load(progress)
