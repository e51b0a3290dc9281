"""A rewrite's JSON (``settle rewrite --json``) and its reading back (``settle retry``).

The JSON holds what a user reviews: the proposal's text and segments, its hunks with ids (the
id of a hunk is its index in :func:`engine.core.worddiff.word_diff`'s hunks, so the CLI and the
window number the same changes alike), and every version of the rewrite with its own hunks. It also
holds what a retry needs to rebuild the request: the document's digest (a proposal is only
retried against the text it was made for), the instruction, the lock spans and the settings.

:func:`read_saved` reads such a file back and refuses, with a message that says what is wrong,
anything ``settle rewrite --json`` did not write for this document.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from engine.core.config import SamplerSettings, settings_from_values
from engine.core.protocol import Edit, EditMode, Proposal, SegmentText, Span
from engine.core.worddiff import Hunk, word_diff

# The keys a saved proposal must have for a retry to rebuild its request.
REQUIRED = ("text", "range", "segments", "source")


def digest(text: str) -> str:
    """The document's fingerprint: SHA-256 of its text as the engine reads it."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def hunk_json(hunk: Hunk) -> dict[str, Any]:
    """One hunk: its id, the user's words (``old``, target-relative) and the proposed ones."""
    return {
        "id": hunk.index,
        "start": hunk.start,
        "end": hunk.end,
        "old": hunk.old,
        "new": hunk.new,
        "new_start": hunk.new_start,
        "new_end": hunk.new_end,
    }


def hunks_of(target: str, segments: tuple[SegmentText, ...], locks: list[Span]) -> list[Hunk]:
    """The word-level hunks of ``segments`` against ``target``, as the review numbers them;
    ``locks`` are target-relative."""
    spans = [(lock.start, lock.end) for lock in locks]
    return list(word_diff(target, segments, spans).hunks)


def version_json(
    number: int, text: str, segments: tuple[SegmentText, ...], notes: tuple[str, ...],
    hunks: list[Hunk],
) -> dict[str, Any]:  # fmt: skip
    return {
        "version": number,
        "text": text,
        "segments": [asdict(segment) for segment in segments],
        "notes": list(notes),
        "hunks": [hunk_json(hunk) for hunk in hunks],
    }


def rewrite_json(edit: Edit, proposal: Proposal, model_name: str, diff: str) -> dict[str, Any]:
    """Everything ``--json`` prints for an edit: the proposal, its hunks and versions, and the
    request it came from."""
    target = edit.text[edit.target.start : edit.target.end]
    locks = [Span(s.start - edit.target.start, s.end - edit.target.start) for s in edit.locks]
    versions = [(proposal.text, proposal.segments, proposal.notes)]
    versions += [(v.text, v.segments, v.notes) for v in proposal.alternatives]
    listed = [
        version_json(n, text, segments, notes, hunks_of(target, segments, locks))
        for n, (text, segments, notes) in enumerate(versions, start=1)
    ]
    return {
        "text": proposal.text,
        "range": [proposal.target.start, proposal.target.end],
        "locks": list(proposal.locks),
        "segments": [asdict(segment) for segment in proposal.segments],
        "metrics": asdict(proposal.metrics),
        "model": model_name,
        "diff": diff,
        "notes": list(proposal.notes),
        "hunks": listed[0]["hunks"],
        "versions": listed,
        # Versions asked for: ``versions`` holds fewer when some were merged, and ``notes``
        # then says what became of each.
        "versions_asked": edit.settings.alternatives if edit.mode is EditMode.REWRITE else 1,
        "source": {
            "sha256": digest(edit.text),
            "instruction": edit.instruction,
            "lock_spans": [[lock.start, lock.end] for lock in edit.locks],
            "settings": asdict(edit.settings),
        },
    }


@dataclass(frozen=True)
class SavedProposal:
    """A proposal read back from its JSON, checked against the document it was made for."""

    data: dict[str, Any]  # the whole JSON object, as read: a retry changes only what it must
    target: Span
    text: str
    segments: tuple[SegmentText, ...]
    instruction: str
    locks: tuple[Span, ...]  # document spans
    settings: SamplerSettings

    def hunks(self, document: str) -> list[Hunk]:
        target = document[self.target.start : self.target.end]
        relative = [
            Span(s.start - self.target.start, s.end - self.target.start) for s in self.locks
        ]
        return hunks_of(target, self.segments, relative)


def read_saved(path: Path, document: str) -> SavedProposal:
    """The proposal saved in ``path`` for ``document``; ``ValueError`` saying what is wrong
    when the file is missing, is not such a proposal, or was made for other text."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ValueError(
            f"no proposal file {path}: write one with `settle rewrite --json`"
        ) from None
    except (OSError, UnicodeDecodeError) as error:
        raise ValueError(f"cannot read the proposal file {path}: {error}") from None
    except json.JSONDecodeError as error:
        raise ValueError(f"{path} is not JSON ({error})") from None
    try:
        saved = parse_saved(data)
    except (KeyError, TypeError, ValueError) as error:
        raise ValueError(
            f"{path} is not a proposal that `settle rewrite --json` wrote ({error})"
        ) from None
    check_matches(saved, document, path)
    return saved


def parse_saved(data: Any) -> SavedProposal:
    """The fields a retry reads, each checked for its type (raises on any that is wrong)."""
    if not isinstance(data, dict):
        raise TypeError("expected a JSON object")
    missing = [key for key in REQUIRED if key not in data]
    if missing:
        raise KeyError(f"missing {', '.join(missing)}")
    source = data["source"]
    if not isinstance(source, dict):
        raise TypeError("source must be an object")
    settings = source["settings"]
    if not isinstance(settings, dict):
        raise TypeError("source.settings must be an object")
    return SavedProposal(
        data,
        span_of(data["range"], "range"),
        text_of(data["text"], "text"),
        tuple(segment_of(segment) for segment in list_of(data["segments"], "segments")),
        text_of(source["instruction"], "source.instruction"),
        tuple(span_of(lock, "a lock span") for lock in list_of(source["lock_spans"], "locks")),
        settings_from_values(settings),
    )


def check_matches(saved: SavedProposal, document: str, path: Path) -> None:
    """Refuse a proposal made for other text than ``document``, or not settled from it."""
    if saved.data["source"].get("sha256") != digest(document):
        raise ValueError(
            f"{path} was made for other text: the file changed since the rewrite "
            "(run `settle rewrite --json` again)"
        )
    if "".join(segment.text for segment in saved.segments) != saved.text:
        raise ValueError(f"{path} is not a proposal that `settle rewrite --json` wrote "
                         "(its segments do not make its text)")  # fmt: skip
    if not 0 <= saved.target.start <= saved.target.end <= len(document):
        raise ValueError(f"{path}'s range lies outside the file")


def text_of(value: Any, name: str) -> str:
    if not isinstance(value, str):
        raise TypeError(f"{name} must be a string")
    return value


def list_of(value: Any, name: str) -> list[Any]:
    if not isinstance(value, list):
        raise TypeError(f"{name} must be a list")
    return value


def span_of(value: Any, name: str) -> Span:
    pair = list_of(value, name)
    if len(pair) != 2 or not all(type(n) is int for n in pair) or not 0 <= pair[0] <= pair[1]:
        raise ValueError(f"{name} must be [start, end] offsets")
    return Span(pair[0], pair[1])


def segment_of(value: Any) -> SegmentText:
    if not isinstance(value, dict) or set(value) != {"text", "locked"}:
        raise TypeError("a segment must be an object with text and locked")
    if not isinstance(value["locked"], bool):
        raise TypeError("a segment's locked must be true or false")
    return SegmentText(text_of(value["text"], "a segment's text"), value["locked"])
