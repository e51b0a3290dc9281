"""Several versions of one rewrite, aligned on the target's words, with a choice per change.

A rewrite may come back as up to four versions (``SamplerSettings.alternatives``), and any
change may be tried again. The review shows one change per *slot*: a stretch of the target
that at least one version changes. Each slot holds its *options*, the distinct texts the
versions (and the tries) put there; identical texts are one option that names every version it
came from, and a version that leaves the slot as it is adds no option (rejecting the change
keeps the user's words). Choosing an option per slot and applying the accepted slots gives the
combined text; text outside the slots is the target's, byte for byte.

Slots are the union of every version's word-level hunks
(:func:`engine.core.worddiff.word_diff`) where they overlap or touch, so with one version the
slots are exactly its hunks. Locked text is never in a hunk, hence never in a slot.

Pure Python (no Qt). Public API:

- :class:`Option` — a slot's text in some versions (``versions``, 1-based) or one try;
  ``label()`` names it, ``describe()`` adds its words.
- :class:`Slot` — ``target[start:end]`` (``old``) and its options; ``differs(count)``.
- :class:`VersionSet` — the target, its locks, the slots and how many versions there were.
- :func:`align_versions` — build a :class:`VersionSet` from each version's segments.
- :func:`version_choices` — the option each slot takes in one version (``None``: unchanged).
- :func:`combine` — the target with one option (or the user's words) per slot.
- :func:`with_try` — the set with a try's text added to a slot (or the option it equals).
- :func:`chosen_diff` — the :class:`~engine.core.worddiff.WordDiff` of the chosen options, one hunk
  per slot, for the review panel and the controller's apply.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from engine.core.protocol import SegmentText
from engine.core.worddiff import Hunk, WordDiff, word_diff

DELETED = "(removed)"  # how the picker lists an option that deletes the words
PREVIEW_CHARS = 48  # an option's words in the picker: enough to tell versions apart


@dataclass(frozen=True)
class Option:
    """A slot's text in the versions numbered ``versions`` (from 1), or in try ``attempt``."""

    text: str
    versions: tuple[int, ...] = ()
    attempt: int = 0  # 0: from the versions; n: the n-th try of this change

    def describe(self) -> str:
        """How the picker lists it: its label and its words ("version 2: Ring")."""
        words = " ".join(self.text.split())
        if len(words) > PREVIEW_CHARS:
            words = words[: PREVIEW_CHARS - 1] + "…"
        return f"{self.label()}: {words or DELETED}"

    def label(self) -> str:
        """How the picker names it: "version 2", "versions 1 and 3", "try 2"."""
        if self.attempt:
            return f"try {self.attempt}"
        if len(self.versions) == 1:
            return f"version {self.versions[0]}"
        listed = ", ".join(str(v) for v in self.versions[:-1])
        return f"versions {listed} and {self.versions[-1]}"


@dataclass(frozen=True)
class Slot:
    """``target[start:end]`` (``old``) may become any of ``options`` (distinct, none ``old``)."""

    start: int
    end: int
    old: str
    options: tuple[Option, ...]

    def option_of(self, version: int) -> int | None:
        """The option version ``version`` puts here; ``None`` when it keeps the user's words."""
        for index, option in enumerate(self.options):
            if version in option.versions:
                return index
        return None

    def differs(self, count: int) -> bool:
        """Whether the ``count`` versions disagree here (one of them keeps the user's words,
        or two put different words): the review then names the versions."""
        return not (len(self.options) == 1 and len(self.options[0].versions) == count)

    def tries(self) -> int:
        """How many tries of this change have come back with a new text."""
        return sum(1 for option in self.options if option.attempt)


@dataclass(frozen=True)
class VersionSet:
    """Everything the review offers: ``locks`` are ``(start, end)`` spans of ``target``."""

    target: str
    slots: tuple[Slot, ...]
    count: int = 1
    locks: tuple[tuple[int, int], ...] = ()


def align_versions(
    target: str,
    versions: Sequence[Sequence[SegmentText]],
    locks: Iterable[tuple[int, int]] = (),
) -> VersionSet:
    """Align each version's changes on the target (raises ``ValueError`` as
    :func:`~engine.core.worddiff.word_diff` does, for a version that does not keep the locks)."""
    if not versions:
        raise ValueError("a review needs at least one version")
    lock_spans = tuple(locks)
    diffs = [word_diff(target, segments, lock_spans) for segments in versions]
    spans = _merged_spans(h for diff in diffs for h in diff.hunks)
    slots = tuple(_slot(target, start, end, diffs) for start, end in spans)
    return VersionSet(target, slots, len(versions), diffs[0].locks)


def from_diff(diff: WordDiff) -> VersionSet:
    """A single version's set, straight from its diff (a fill's one replacement, say)."""
    slots = tuple(
        Slot(h.start, h.end, h.old, (Option(h.new, (1,)),) if h.new != h.old else ())
        for h in diff.hunks
    )
    return VersionSet(diff.target, slots, 1, diff.locks)


def _merged_spans(hunks: Iterable[Hunk]) -> list[tuple[int, int]]:
    """The target spans of the hunks, merged where they overlap or touch."""
    merged: list[list[int]] = []
    for hunk in sorted(hunks, key=lambda h: (h.start, h.end)):
        if merged and hunk.start <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], hunk.end)
        else:
            merged.append([hunk.start, hunk.end])
    return [(start, end) for start, end in merged]


def _slot(target: str, start: int, end: int, diffs: Sequence[WordDiff]) -> Slot:
    old = target[start:end]
    options: list[Option] = []
    for number, diff in enumerate(diffs, start=1):
        text = _text_in(diff, start, end)
        if text == old:
            continue
        same = next((i for i, option in enumerate(options) if option.text == text), None)
        if same is None:
            options.append(Option(text, (number,)))
        else:
            options[same] = replace(options[same], versions=(*options[same].versions, number))
    return Slot(start, end, old, tuple(options))


def _text_in(diff: WordDiff, start: int, end: int) -> str:
    """What ``diff``'s version puts in ``target[start:end]`` (its hunks there all lie inside)."""
    parts: list[str] = []
    at = start
    for hunk in diff.hunks:
        if start <= hunk.start and hunk.end <= end:
            parts += [diff.target[at : hunk.start], hunk.new]
            at = hunk.end
    parts.append(diff.target[at:end])
    return "".join(parts)


def version_choices(versions: VersionSet, version: int) -> list[int | None]:
    """The option each slot takes in version ``version`` (from 1)."""
    return [slot.option_of(version) for slot in versions.slots]


def combine(versions: VersionSet, choices: Sequence[int | None]) -> str:
    """The target with option ``choices[i]`` in slot ``i`` (``None``: the user's words)."""
    if len(choices) != len(versions.slots):
        raise ValueError(f"{len(choices)} choices for {len(versions.slots)} changes")
    parts: list[str] = []
    at = 0
    for slot, choice in zip(versions.slots, choices, strict=True):
        parts += [versions.target[at : slot.start], _chosen_text(slot, choice)]
        at = slot.end
    parts.append(versions.target[at:])
    return "".join(parts)


def _chosen_text(slot: Slot, choice: int | None) -> str:
    return slot.old if choice is None else slot.options[choice].text


def with_try(versions: VersionSet, index: int, text: str) -> tuple[VersionSet, int | None]:
    """``versions`` with ``text`` as a new try of slot ``index``, and the option it is there.

    A try equal to an option already offered is that option (never shown twice); a try that
    came back as the user's own words adds nothing and gives ``None``.
    """
    slot = versions.slots[index]
    if text == slot.old:
        return versions, None
    for position, option in enumerate(slot.options):
        if option.text == text:
            return versions, position
    added = Option(text, attempt=slot.tries() + 1)
    slots = list(versions.slots)
    slots[index] = replace(slot, options=(*slot.options, added))
    return replace(versions, slots=tuple(slots)), len(slot.options)


def chosen_diff(versions: VersionSet, choices: Sequence[int | None]) -> WordDiff:
    """One hunk per slot, its ``new`` the chosen option; the diff's proposal is
    :func:`combine` of the same choices."""
    proposal = combine(versions, choices)
    hunks: list[Hunk] = []
    shift = 0  # how far the proposal has moved from the target before this slot
    for index, (slot, choice) in enumerate(zip(versions.slots, choices, strict=True)):
        new = _chosen_text(slot, choice)
        new_start = slot.start + shift
        hunks.append(
            Hunk(index, slot.start, slot.end, slot.old, new, new_start, new_start + len(new))
        )
        shift += len(new) - len(slot.old)
    return WordDiff(versions.target, proposal, tuple(hunks), versions.locks)
