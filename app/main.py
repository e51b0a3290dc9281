"""The ``settle`` entry point: a subcommand runs the headless CLI, otherwise the window opens."""

from __future__ import annotations

import multiprocessing
import sys
from collections.abc import Sequence

CLI_COMMANDS = {"rewrite", "draft", "retry", "fill-json", "fill-table", "models", "serve"}


def main(argv: Sequence[str] | None = None) -> int:
    # In a PyInstaller bundle the spawned worker re-enters here: this runs it instead.
    multiprocessing.freeze_support()
    args = list(sys.argv[1:] if argv is None else argv)
    if args and (args[0] in CLI_COMMANDS or args[0] in {"-h", "--help"}):
        from app.cli import main as cli_main

        return cli_main(args)
    from app.gui import run_gui

    return run_gui(args)


if __name__ == "__main__":
    raise SystemExit(main())
