"""``settle retry``: settle one hunk of a saved proposal again, with everything else kept.

``settle rewrite FILE --json > P.json`` saves a proposal with its hunks numbered as the review
numbers them; ``settle retry FILE --proposal P.json --hunk K [--note "keep 'Tuesday'"]`` builds
the same request the window's "try this change again" sends (:func:`engine.run.retry.retry_edit`:
the hunk put back to the user's words, quoted note words locked, the rest of the note added to
the instruction, a new seed per attempt), runs it through the one engine path, and prints the
proposal's JSON again with that hunk's text replaced and every other character as it was.
``--out`` writes it to a file instead (it may be ``P.json`` itself). It says so when the try came
back unchanged, and when a quoted word of the note is not in the hunk.

:func:`run_engine` is what every edit command shares: the model here, or ``settle serve``'s.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from app.cli_options import add_engine_options, report_load
from app.files import read_text_file, write_atomically
from app.newlines import Layout, restore
from app.proposal_json import SavedProposal, hunk_json, hunks_of, read_saved
from app.serve_cli import add_remote_options
from app.textdiff import unified_diff
from engine.core.config import LEGACY_NAMES, LEGACY_SWITCHES, setting_fields, settings_from_values
from engine.core.protocol import Edit, Proposal, SegmentText, Span
from engine.core.worddiff import Hunk
from engine.run.answers import retry_notes
from engine.run.retry import HunkRetry, missing_words, read_note, retried_span, retry_edit
from ui.wording import metrics_summary


def add_retry_command(commands: Any) -> None:
    retry = commands.add_parser(
        "retry", help="settle one hunk of a saved proposal again (from `rewrite --json`)"
    )
    retry.add_argument("file", type=Path, help="the file the proposal was made for")
    retry.add_argument("--proposal", required=True, type=Path, help="the saved proposal JSON")
    retry.add_argument("--hunk", required=True, type=int, help='the hunk\'s id (its "id")')
    retry.add_argument("--note", default="", help="what was wrong; quoted words are kept")
    retry.add_argument(
        "--attempt", type=positive, default=None,
        help="which try of this hunk (its own seed; default: one more than the file's tries)",
    )  # fmt: skip
    retry.add_argument("--out", type=Path, help="write the updated proposal JSON here")
    add_engine_options(retry)
    add_remote_options(retry)
    retry.set_defaults(handler=run_retry)


def positive(text: str) -> int:
    if not text.strip().isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number from 1, got {text!r}")
    return int(text)


def run_engine(edit: Edit, args: argparse.Namespace) -> tuple[Proposal, str]:
    """Run ``edit`` on the engine the options name: ``--engine`` (a remote ``settle serve``)
    or the model here; the proposal and the model's name."""
    if args.engine:
        from app.serve_cli import run_remote

        return run_remote(edit, args)
    from app.headless import run_request  # imports torch: only once the input is known good

    return run_request(edit, args.model, args.device, args.allow_remote_code, report_load)


def run_retry(args: argparse.Namespace) -> int:
    text, layout = read_text_file(args.file)
    saved = read_saved(args.proposal, text)
    hunks = saved.hunks(text)
    hunk = chosen_hunk(hunks, args.hunk)
    retry = hunk_retry(saved, text, hunk, args)
    edit = retry_edit(1, retry, settings_over(saved, args))  # refuses a note that is too long
    missing = missing_words(edit.text, edit.target, read_note(args.note).keep)
    proposal, model_name = run_engine(edit, args)
    span = retried_span(retry, edit)
    updated = saved.text[: span.start] + proposal.text + saved.text[span.end :]
    notes = (*proposal.notes, *retry_notes(saved.text[span.start : span.end], proposal.text))
    record = {
        "hunk": hunk.index, "attempt": retry.attempt, "note": args.note, "notes": list(notes),
        "missing": list(missing), "unchanged": updated == saved.text, "model": model_name,
        "metrics": metrics_summary(proposal.metrics),
    }  # fmt: skip
    data = updated_json(saved, text, layout, str(args.file), span, proposal.text, record)
    report(args, data, record, missing)
    return 0


def chosen_hunk(hunks: list[Hunk], wanted: int) -> Hunk:
    if not 0 <= wanted < len(hunks):
        have = f"ids 0 to {len(hunks) - 1}" if hunks else "none"
        raise ValueError(f"no hunk {wanted}: the proposal has {len(hunks)} hunks ({have})")
    return hunks[wanted]


def hunk_retry(saved: SavedProposal, text: str, hunk: Hunk, args: argparse.Namespace) -> HunkRetry:
    """The retry of ``hunk`` in ``saved``: its try number is ``--attempt`` or one more than the
    tries the file records, so each run of the command settles with a new seed."""
    attempt = args.attempt or len(saved.data.get("retries", [])) + 1
    return HunkRetry(
        text, saved.target, saved.text, Span(hunk.start, hunk.end),
        Span(hunk.new_start, hunk.new_end), saved.instruction, args.note, attempt,
        locked_spans(saved.segments),
    )  # fmt: skip


def locked_spans(segments: tuple[SegmentText, ...]) -> tuple[Span, ...]:
    """Where the locked segments stand in the proposal's text."""
    spans, at = [], 0
    for segment in segments:
        if segment.locked:
            spans.append(Span(at, at + len(segment.text)))
        at += len(segment.text)
    return tuple(spans)


def settings_over(saved: SavedProposal, args: argparse.Namespace) -> Any:
    """The rewrite's own settings, with any sampler flag given on this command over them."""
    values: dict[str, Any] = {k: getattr(saved.settings, k) for k, _, _ in setting_fields()}
    for name in [n for n, _, _ in setting_fields()] + list(LEGACY_SWITCHES) + list(LEGACY_NAMES):
        if getattr(args, name, None) is not None:
            values[name] = getattr(args, name)
    return settings_from_values(values)


def updated_json(
    saved: SavedProposal, text: str, layout: Layout, name: str, span: Span, settled: str,
    record: dict[str, Any],
) -> dict[str, Any]:  # fmt: skip
    """The saved JSON with ``span`` of its text settled again: text, segments, hunks and diff
    follow (hunk ids are the new text's, as the review would number them), the try is
    recorded under ``retries``, and everything else is as it was read."""
    segments = splice_segments(saved.segments, span, settled)
    updated = "".join(segment.text for segment in segments)
    target = text[saved.target.start : saved.target.end]
    start = saved.target.start
    locks = [Span(lock.start - start, lock.end - start) for lock in saved.locks]
    hunks = [hunk_json(hunk) for hunk in hunks_of(target, segments, locks)]
    document = text[:start] + updated + text[saved.target.end :]
    listed = [{"text": s.text, "locked": s.locked} for s in segments]
    data = dict(saved.data)
    data.update(text=updated, segments=listed, hunks=hunks)
    data["diff"] = unified_diff(restore(layout, text), restore(layout, document), name)
    versions = data.get("versions")
    if isinstance(versions, list) and versions and isinstance(versions[0], dict):
        data["versions"] = [{**versions[0], "text": updated, "segments": listed, "hunks": hunks},
                            *versions[1:]]  # fmt: skip
    data["retries"] = [*saved.data.get("retries", []), record]
    return data


def splice_segments(
    segments: tuple[SegmentText, ...], span: Span, settled: str
) -> list[SegmentText]:
    """``segments`` with the characters of ``span`` (inside free text, never a lock) replaced
    by ``settled``: the segments it touches become one free segment, the others stay."""
    bounds, at = [], 0
    for segment in segments:
        bounds.append((at, at + len(segment.text)))
        at += len(segment.text)
    touched = [
        i for i, (start, end) in enumerate(bounds)
        if start <= span.end and span.start <= end and not segments[i].locked
    ]  # fmt: skip
    if not touched:  # an empty proposal: the settled text is all there is
        return [*segments, SegmentText(settled, False)] if settled else list(segments)
    first, last = touched[0], touched[-1]
    if any(segments[i].locked and len(segments[i].text) for i in range(first, last + 1)):
        raise ValueError("the retried span crosses a locked segment")
    head = segments[first].text[: span.start - bounds[first][0]]
    tail = segments[last].text[span.end - bounds[last][0] :]
    joined = SegmentText(head + settled + tail, False)
    return [*segments[:first], joined, *segments[last + 1 :]]


def report(
    args: argparse.Namespace, data: dict[str, Any], record: dict[str, Any], missing: tuple[str, ...]
) -> None:
    """The updated JSON on stdout (or in ``--out``); what the try did on stderr."""
    body = json.dumps(data, ensure_ascii=False, indent=2) + "\n"
    if args.out is not None:
        write_atomically(args.out, body)
        print(f"# wrote {args.out}", file=sys.stderr)
    else:
        sys.stdout.write(body)
    print(f"# {record['model']}: hunk {record['hunk']}, try {record['attempt']}: "
          f"{record['metrics']}", file=sys.stderr)  # fmt: skip
    for note in record["notes"]:
        print(f"# {note}", file=sys.stderr)
    for words in missing:
        print(f"# not in this hunk, so nothing to keep: \u2018{words}\u2019", file=sys.stderr)
