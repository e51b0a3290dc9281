"""The headless command line: ``settle rewrite|draft|retry|fill-json|fill-table|models``.

It runs the same engine generator as the window (:func:`engine.run.edit_run.run_edit`), in-process:
there is no editor to protect, so no worker process is needed. Sampler flags are derived from
:class:`engine.core.config.SamplerSettings` (:mod:`app.cli_options`), so their defaults cannot drift
from the engine's. The structured-infill commands live in :mod:`app.structured_cli`, ``retry`` (one
hunk of a saved ``--json`` proposal settled again) in :mod:`app.review_cli`.

Exit codes: 0 success, 2 bad input (nothing written), 3 the model could not be loaded,
1 anything else.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from dataclasses import asdict
from pathlib import Path

from app.cli_options import add_engine_options, settings_from
from app.dictionary import DictionaryError, UserDictionary
from app.files import DocumentError, read_text_file, write_text_file
from app.newlines import Layout, restore
from app.proposal_json import rewrite_json
from app.review_cli import add_retry_command, run_engine
from app.serve_cli import EngineUnreachable, add_remote_options, add_serve_command
from app.structured_cli import add_commands as add_structured_commands
from app.textdiff import unified_diff
from engine.core.errors import BadRequest, ModelLoadError, SettleError
from engine.core.plan import find_locks, validate_edit
from engine.core.protocol import Edit, EditMode, Span
from ui.wording import counted, metrics_summary

EXIT_BAD_INPUT = 2
EXIT_MODEL = 3
EXIT_ENGINE = 4  # the remote engine could not be reached or refused us


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.handler(args))
    except (BadRequest, DocumentError, ValueError) as error:
        print(f"settle: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except ModelLoadError as error:
        print(f"settle: {error}", file=sys.stderr)
        return EXIT_MODEL
    except EngineUnreachable as error:
        print(f"settle: {error}", file=sys.stderr)
        return EXIT_ENGINE
    except SettleError as error:
        print(f"settle: {error}", file=sys.stderr)
        return 1


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="settle", description="Settle: diffusion-powered editing."
    )
    commands = parser.add_subparsers(dest="command", required=True)
    rewrite = commands.add_parser("rewrite", help="rewrite a range of a file, keeping locked text")
    rewrite.add_argument("file", type=Path)
    rewrite.add_argument(
        "--range", required=True, type=parse_range, help="START:END character offsets"
    )
    rewrite.add_argument(
        "--lock",
        action="append",
        default=[],
        metavar="TEXT",
        help="keep every occurrence of TEXT in the range (repeatable)",
    )
    rewrite.add_argument("--instruction", default="", help='e.g. "tighter", "formal"')
    rewrite.add_argument(
        "--dictionary",
        type=Path,
        default=None,
        metavar="FILE",
        help="your own words, one a line, never corrected (default: the window's, "
        "dictionary.txt in Settle's configuration folder)",
    )
    rewrite.set_defaults(handler=run_rewrite)
    draft = commands.add_parser("draft", help="draft new text at an offset of a file")
    draft.add_argument("file", type=Path)
    draft.add_argument("--at", required=True, type=int, help="character offset to insert at")
    draft.add_argument("--prompt", default="", help="what to write")
    draft.set_defaults(handler=run_draft)
    for sub in (rewrite, draft):
        add_engine_options(sub)
        add_remote_options(sub)
        sub.add_argument(
            "--write", action="store_true", help="save the result into the file (atomic)"
        )
        sub.add_argument(
            "--json", action="store_true", help="print one JSON object instead of a diff"
        )
    add_retry_command(commands)
    add_structured_commands(commands)
    add_serve_command(commands)
    models = commands.add_parser("models", help="list the models Settle can find")
    models.add_argument("--json", action="store_true")
    models.set_defaults(handler=run_models)
    return parser


def parse_range(value: str) -> Span:
    start, sep, end = value.partition(":")
    if not sep or not start.strip().isdigit() or not end.strip().isdigit():
        raise argparse.ArgumentTypeError(f"expected START:END character offsets, got {value!r}")
    return Span(int(start), int(end))


def run_rewrite(args: argparse.Namespace) -> int:
    text, layout = read_text_file(args.file)
    locks = find_locks(text, args.range, args.lock) if args.lock else ()
    known = known_words(args.dictionary, text[args.range.start : args.range.end])
    edit = Edit(
        1, text, args.range, locks, args.instruction, EditMode.REWRITE, settings_from(args), known
    )
    return finish(args, text, layout, edit)


def known_words(path: Path | None, passage: str) -> tuple[str, ...]:
    """The words of the user's dictionary (``path``, else the window's) in ``passage``."""
    if path is not None and not path.is_file():
        raise DictionaryError(f"No dictionary file at {path}.")
    return UserDictionary(path).known_in(passage)


def run_draft(args: argparse.Namespace) -> int:
    text, layout = read_text_file(args.file)
    edit = Edit(
        1, text, Span(args.at, args.at), (), args.prompt, EditMode.DRAFT, settings_from(args)
    )
    return finish(args, text, layout, edit)


def finish(args: argparse.Namespace, text: str, layout: Layout, edit: Edit) -> int:
    """Run the edit; print a diff (or JSON); with ``--write`` save it, every byte outside the
    range as it was (BOM and line endings included). ``--json`` holds the hunks and every
    version (:mod:`app.proposal_json`), which ``settle retry`` reads back."""
    validate_edit(edit)
    proposal, model_name = run_engine(edit, args)  # here, or `settle serve` on that machine
    updated = text[: edit.target.start] + proposal.text + text[edit.target.end :]
    diff = unified_diff(restore(layout, text), restore(layout, updated), str(args.file))
    if args.json:
        print(
            json.dumps(rewrite_json(edit, proposal, model_name, diff), ensure_ascii=False, indent=2)
        )
    else:
        sys.stdout.write(diff or "(no change)\n")
        print(f"# {model_name}: {metrics_summary(proposal.metrics)}", file=sys.stderr)
        for note in proposal.notes:  # why it is unchanged, what it could not follow
            print(f"# {note}", file=sys.stderr)
        if proposal.alternatives:  # the diff is version 1's; --json holds every version
            others = counted(len(proposal.alternatives), "other version")
            print(f"# {others}: see --json", file=sys.stderr)
    if args.write and updated != text:
        write_text_file(args.file, layout, updated)
        print(f"# wrote {args.file}", file=sys.stderr)
    return 0


def run_models(args: argparse.Namespace) -> int:
    from engine.models.registry import discover

    specs = discover()
    if args.json:
        print(json.dumps([asdict(spec) for spec in specs], default=str, indent=2))
        return 0
    for spec in specs:
        consent = "  (runs its own code: needs consent)" if spec.needs_remote_code else ""
        print(f"{spec.id:40}  {spec.family:16}  {spec.display_name}{consent}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
