"""Trying one change of a proposal again, with everything else kept: the request it becomes.

A left-to-right model answers "not this change" by writing the whole selection again, and
throws away the changes the user liked. A diffusion canvas can open only the positions of one
hunk and settle them again, with every other word locked. So a re-roll is not a new kind of
run: it is an ordinary :class:`~engine.core.protocol.Edit` whose document is the proposal as it
stands (every other hunk as the review shows it) and whose target is that one hunk, put back
to the user's own words so the canvas renoises *their* text, as the first try did. The same
passes and checks run on it as on any rewrite (proofreading, the Markdown locks, the meaning
check, the self-check), and it costs a fraction of the rewrite because only the hunk's
positions are free.

A note on the rejection steers the next try: words quoted in it ("keep 'Tuesday'") are locked
where they stand in the hunk's old text, and the rest is added to the instruction, for this
span only, read by the same :func:`~engine.intent.read_intent` as the rewrite box.

Pure functions over strings and spans: the window, the CLI and the remote engine build the
same request from the same hunk.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from engine.core.config import SamplerSettings
from engine.core.protocol import Edit, EditMode, Span

# A quoted word or phrase in a note: straight or curly, single or double quotes. A single
# quote only opens after a non-word character, so "don't" is not a quote.
QUOTED = re.compile(r"\"([^\"]+)\"|“([^”]+)”|‘([^’]+)’|(?<!\w)'([^']+)'(?!\w)")
# Characters a note may have: a short sentence, as the review's field allows.
MAX_NOTE_CHARS = 200
# Joins the note's words to the rewrite's instruction: one instruction, read once.
INSTRUCTION_JOINER = "; "
# How the seed of try ``n`` differs from the first try's: any fixed odd stride gives a new
# seed per try, and the same try of the same proposal settles the same way again.
SEED_STRIDE = 0x9E3779B97F4A7C15
SEED_BITS = 63


@dataclass(frozen=True)
class HunkRetry:
    """One hunk of a proposal to settle again.

    ``text`` is the document as it stands (the proposal not applied), ``target`` the
    proposal's span in it, ``proposal`` the target's text as the review shows it now (every
    hunk in its current version), ``old`` the hunk's span in ``text[target]`` and ``new`` its
    span in ``proposal``. ``locked`` are the spans of ``proposal`` the rewrite kept locked (its
    locked segments): a hunk that only inserted opens the words beside it, never those.
    """

    text: str
    target: Span
    proposal: str
    old: Span
    new: Span
    instruction: str = ""
    note: str = ""
    attempt: int = 1  # the how-many-th retry of this hunk: each gets its own seed
    locked: tuple[Span, ...] = ()


@dataclass(frozen=True)
class NoteReading:
    """A rejection note split in two: the quoted words to keep and the rest of it."""

    keep: tuple[str, ...]
    rest: str


def read_note(note: str) -> NoteReading:
    """The quoted words of ``note`` (to lock) and its other words (to instruct)."""
    keep = tuple(
        quoted.strip()
        for match in QUOTED.finditer(note)
        for quoted in match.groups()
        if quoted and quoted.strip()
    )
    rest = " ".join(QUOTED.sub(" ", note).split())
    return NoteReading(keep, rest)


def check_retry(retry: HunkRetry) -> None:
    """Raise ``ValueError`` with a clear message when ``retry`` does not describe one hunk."""
    if not 0 <= retry.target.start <= retry.target.end <= len(retry.text):
        raise ValueError("the proposal's target is outside the document")
    target_text = retry.text[retry.target.start : retry.target.end]
    if not 0 <= retry.old.start <= retry.old.end <= len(target_text):
        raise ValueError("the hunk's old span is outside the proposal's target")
    if not 0 <= retry.new.start <= retry.new.end <= len(retry.proposal):
        raise ValueError("the hunk's new span is outside the proposal")
    if len(retry.note) > MAX_NOTE_CHARS:
        raise ValueError(f"a note has at most {MAX_NOTE_CHARS} characters")
    if retry.attempt < 1:
        raise ValueError("a retry's attempt counts from 1")
    if any(lock.overlaps(retry.new) for lock in retry.locked if len(lock)):
        raise ValueError("the hunk overlaps a locked span of the proposal")


def retry_document(retry: HunkRetry) -> tuple[str, Span]:
    """The document the retry settles, and the hunk's span in it.

    The proposal stands in place of its target, with this hunk put back to the user's words.
    A hunk that only inserted has no words of its own; it opens the word before and the word
    after it instead (within the proposal), so the canvas has somewhere to settle.
    """
    old_text = retry.text[retry.target.start + retry.old.start : retry.target.start + retry.old.end]
    before = retry.text[: retry.target.start] + retry.proposal[: retry.new.start]
    after = retry.proposal[retry.new.end :] + retry.text[retry.target.end :]
    document = before + old_text + after
    span = Span(len(before), len(before) + len(old_text))
    if old_text.strip():
        return document, span
    return document, widen_to_words(document, span, open_around(retry, span))


def open_around(retry: HunkRetry, span: Span) -> Span:
    """Where a widened ``span`` (in the retry's document) may reach: the proposal's target,
    up to the nearest locked span of the proposal on either side."""
    grown = len(retry.old) - len(retry.new)  # how the proposal's text after the hunk moved
    low = retry.target.start
    high = retry.target.start + len(retry.proposal) + grown
    for lock in retry.locked:
        if lock.end <= retry.new.start:
            low = max(low, retry.target.start + lock.end)
        elif lock.start >= retry.new.end:
            high = min(high, retry.target.start + lock.start + grown)
    return Span(min(low, span.start), max(high, span.end))


def widen_to_words(text: str, span: Span, within: Span) -> Span:
    """``span`` grown by one word on each side, never past ``within``."""
    start = span.start
    while start > within.start and text[start - 1].isspace():
        start -= 1
    while start > within.start and not text[start - 1].isspace():
        start -= 1
    end = span.end
    while end < within.end and text[end].isspace():
        end += 1
    while end < within.end and not text[end].isspace():
        end += 1
    return Span(start, end)


def note_locks(document: str, span: Span, keep: tuple[str, ...]) -> tuple[Span, ...]:
    """Where each kept word stands in ``span`` of ``document`` (whole words, every time)."""
    region = document[span.start : span.end]
    locks: list[Span] = []
    for words in keep:
        pattern = re.compile(rf"(?<!\w){re.escape(words)}(?!\w)")
        locks.extend(
            Span(span.start + m.start(), span.start + m.end()) for m in pattern.finditer(region)
        )
    return tuple(sorted(set(locks)))


def missing_words(document: str, span: Span, keep: tuple[str, ...]) -> tuple[str, ...]:
    """The kept words of a note that are not in the hunk: there is nothing there to lock."""
    found = {document[lock.start : lock.end] for lock in note_locks(document, span, keep)}
    return tuple(words for words in keep if words not in found)


def open_words(document: str, span: Span, locks: tuple[Span, ...]) -> bool:
    """Whether ``span`` keeps any word free of ``locks``: else there is nothing to settle."""
    free = list(document[span.start : span.end])
    for lock in locks:
        free[lock.start - span.start : lock.end - span.start] = " " * len(lock)
    return bool("".join(free).strip())


def retry_instruction(instruction: str, rest: str) -> str:
    """The rewrite's instruction with the note's words added, for this span only."""
    parts = [part for part in (instruction.strip(), rest.strip()) if part]
    return INSTRUCTION_JOINER.join(parts)


def retry_seed(seed: int, attempt: int) -> int:
    """The seed of try ``attempt`` of a rewrite settled with ``seed``."""
    return (seed + attempt * SEED_STRIDE) % (1 << SEED_BITS)


def retry_edit(request_id: int, retry: HunkRetry, settings: SamplerSettings) -> Edit:
    """The :class:`Edit` that settles ``retry``'s hunk again (raises ``ValueError`` when the
    hunk does not fit its proposal): same settings as the rewrite, a new seed per try, and
    one version (a rewrite asked for several; a try is one answer for one hunk)."""
    check_retry(retry)
    document, span = retry_document(retry)
    if not document[span.start : span.end].strip():
        raise ValueError("the hunk has no words to settle again")
    note = read_note(retry.note)
    locks = note_locks(document, span, note.keep)
    if not open_words(document, span, locks):
        raise ValueError("the note keeps every word of this change: reject it instead")
    return Edit(
        request_id,
        document,
        span,
        locks,
        retry_instruction(retry.instruction, note.rest),
        EditMode.REWRITE,
        replace(settings, seed=retry_seed(settings.seed, retry.attempt), alternatives=1),
    )


def retried_span(retry: HunkRetry, edit: Edit) -> Span:
    """The span of ``retry.proposal`` that the try's text (for ``edit.target``) replaces: the
    hunk, with the words it opened beside it when it only inserted."""
    start = edit.target.start - retry.target.start
    grown = len(retry.new) - len(retry.old)
    return Span(start, edit.target.end - retry.target.start + grown)


def retried_text(retry: HunkRetry, edit: Edit, settled: str) -> str:
    """The proposal's whole text after the try: ``settled`` (the text the try proposes for
    ``edit.target``) in place of the span it settled again, every other character kept."""
    span = retried_span(retry, edit)
    return retry.proposal[: span.start] + settled + retry.proposal[span.end :]
