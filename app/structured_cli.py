"""``settle fill-json`` and ``settle fill-table``: structured infill from the command line.

Both validate their input fully (schema, template, locks, table, cells) before a model is
loaded, so bad input exits 2 in well under a second and changes nothing. They run the same
engine generators as the window's template panel (:mod:`engine.structured`), in-process.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Iterator
from dataclasses import asdict
from pathlib import Path
from typing import Any

from app.cli_options import add_engine_options, report_load, settings_from
from app.files import read_document, read_text_file, write_atomically, write_text_file
from app.newlines import restore
from app.textdiff import unified_diff
from engine.core.errors import BadRequest, SettleError
from engine.core.protocol import Fill, FillKind, Frame, LoadModel, Span
from ui.wording import counted, metrics_summary

FillRunner = Callable[..., Iterator[Any]]


def add_commands(commands: Any) -> None:
    """Register both subcommands on the CLI's subparsers."""
    for sub in (json_parser(commands), table_parser(commands)):
        add_engine_options(sub)
        sub.add_argument("--json", action="store_true", help="print one JSON object")


def json_parser(commands: Any) -> argparse.ArgumentParser:
    fj = commands.add_parser("fill-json", help="fill a JSON instance that satisfies a JSON Schema")
    fj.add_argument("--schema", required=True, type=Path, help="the JSON Schema (draft 2020-12)")
    fj.add_argument("--template", type=Path, help="an instance to refill (its structure is kept)")
    fj.add_argument(
        "--lock-path", action="append", default=[], metavar="POINTER",
        help="keep the template's value at this JSON pointer, e.g. /customer/name (repeatable)",
    )  # fmt: skip
    fj.add_argument(
        "--include", action="append", default=[], metavar="POINTER",
        help="also fill this optional property, e.g. /notes (repeatable)",
    )  # fmt: skip
    fj.add_argument("--write", type=Path, metavar="OUT", help="save the instance to OUT (atomic)")
    fj.set_defaults(handler=run_fill_json)
    return fj


def table_parser(commands: Any) -> argparse.ArgumentParser:
    ft = commands.add_parser("fill-table", help="fill cells of a Markdown table in a file")
    ft.add_argument("file", type=Path)
    ft.add_argument("--table", type=int, default=1, help="which table, from 1 (default: 1)")
    ft.add_argument("--cells", default="empty", help="empty (default), all, or ROW,COL;ROW,COL")
    ft.add_argument("--add-rows", type=int, default=0, help="append N rows like these, filled")
    budget = Fill.__dataclass_fields__["cell_tokens"].default
    ft.add_argument("--cell-tokens", type=int, default=budget, help="token budget of each cell")
    ft.add_argument("--write", action="store_true", help="save the result into the file (atomic)")
    ft.set_defaults(handler=run_fill_table)
    return ft


def read_json(path: Path, what: str) -> str:
    text = read_document(path)
    try:
        json.loads(text)
    except json.JSONDecodeError as error:
        raise BadRequest(f"The {what} {path} is not valid JSON: {error}.") from error
    return text


def run_fill_json(args: argparse.Namespace) -> int:
    from engine.structured.compiler import compile_json, parse_json_fill

    schema = read_json(args.schema, "schema")
    template = read_json(args.template, "template") if args.template else ""
    fill = Fill(
        1, FillKind.JSON, template, Span(0, len(template)), schema=schema,
        locks=tuple(args.lock_path), include=tuple(args.include), settings=settings_from(args),
    )  # fmt: skip
    compile_json(*parse_json_fill(fill), fill.locks, fill.include)  # refuse before loading
    from engine.structured.fill import run_json

    filled, model_name = run_structured(run_json, fill, args)
    text = json.dumps(filled.value, indent=2, ensure_ascii=False) + "\n"
    report(args, filled, model_name, {"instance": filled.value}, text)
    if args.write:
        write_atomically(args.write, text)
        print(f"# wrote {args.write}", file=sys.stderr)
    return 0


def run_fill_table(args: argparse.Namespace) -> int:
    from engine.structured.markdown import chosen_cells, find_tables

    text, layout = read_text_file(args.file)
    tables = find_tables(text)
    if not 1 <= args.table <= len(tables):
        raise BadRequest(
            f"{args.file} has {counted(len(tables), 'Markdown table')}; "
            f"there is no table {args.table}."
        )
    fill = Fill(
        1, FillKind.TABLE, text, tables[args.table - 1].span, cells=args.cells,
        add_rows=args.add_rows, cell_tokens=args.cell_tokens, settings=settings_from(args),
    )  # fmt: skip
    chosen_cells(fill)  # refuse bad cells before loading the model
    from engine.structured.tables import run_table

    filled, model_name = run_structured(run_table, fill, args)
    span = filled.proposal.target
    updated = text[: span.start] + filled.proposal.text + text[span.end :]
    diff = unified_diff(restore(layout, text), restore(layout, updated), str(args.file))
    diff = diff or "(no change)\n"
    report(args, filled, model_name, {"text": filled.value}, diff)
    if args.write and updated != text:
        write_text_file(args.file, layout, updated)
        print(f"# wrote {args.file}", file=sys.stderr)
    return 0


def run_structured(runner: FillRunner, fill: Fill, args: argparse.Namespace) -> tuple[Any, str]:
    """Load the model, run the fill in-process, return the :class:`Filled` and the model name."""
    from app.headless import end_steps, show_step
    from app.progress import PROGRESS
    from engine.models.loading import load
    from engine.process.runtime import configure_threads
    from engine.structured.slots import Filled

    configure_threads()
    PROGRESS.restart()
    loaded = load(LoadModel(args.model, args.device, args.allow_remote_code), report_load)
    for event in runner(loaded.backend, fill):
        if isinstance(event, Frame):
            show_step(event)
        elif isinstance(event, Filled):
            end_steps()
            return event, loaded.info.display_name
    raise SettleError("The fill ended without a result.")


def report(
    args: argparse.Namespace, filled: Any, model_name: str, value: dict[str, Any], plain: str
) -> None:
    """One JSON object with ``--json`` (the value, metrics, model), else ``plain`` text."""
    if args.json:
        metrics = asdict(filled.proposal.metrics) | filled.stats.as_dict()
        result = {**value, "metrics": metrics, "model": model_name}
        print(json.dumps(result, ensure_ascii=False, indent=2))
        return
    sys.stdout.write(plain)
    print(f"# {model_name}: {metrics_summary(filled.proposal.metrics)}", file=sys.stderr)
