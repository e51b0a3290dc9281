"""What a rewrite says when it did less than it was asked: the one list of reasons.

A rewrite that comes back as it was, or whose instruction the loaded model cannot follow, is
never silent: its :class:`~engine.core.protocol.Proposal` carries notes (shown in the review,
printed by the CLI, in its ``--json``) saying what was done instead, with one reason from the
fixed list below, and which instruction-tuned family of the model picker follows the
instruction (:data:`engine.models.registry.INSTRUCTION_TUNED_FAMILIES`). :func:`rewrite_notes`
is the one place that decides; the pipeline calls it for every rewrite.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.intent import Intent
from engine.models.registry import INSTRUCTION_TUNED_FAMILIES

# --- the reasons ---------------------------------------------------------------------------------
NOTHING_TO_FIX = "nothing to fix found"
LONGER_THAN_ASKED = (
    "it stays longer than four fifths of its length: every further cut would change its meaning"
)
ALL_PUT_BACK = "every change was put back by the check"
CANNOT_READ = "this model cannot read the passage: no proofreading"
PROOFREAD_OFF = "proofreading is switched off"
POLISHED_ONLY = "the loaded model cannot restyle freely: polished only"
FOLLOWED_IN_PART = "the loaded model cannot restyle freely: only what it offers was done"
MODEL_KEPT_IT = "the model kept the text as it was"
STRUCTURE_PUT_BACK = "every change that broke its Markdown structure was put back"
MEANING_PUT_BACK = "a change that altered the meaning was put back"
SAME_AS_BEFORE = "the try settled on the change it was to replace"
NO_OTHER_READING = "the model found no other reading of its changes"
REGISTER_WORDS_ONLY = (
    "the loaded model changes register only through contractions and register words,"
    " and found none to change"
)
# What a register rewrite that changed nothing is told: formal and casual on a model that
# cannot restyle freely swap contractions and words of the register tables
# (:mod:`engine.language.en.registers`); a sentence with none of them needs restructuring.
REGISTER_FAMILIES = frozenset({"casual", "formal"})

REASONS = (
    NOTHING_TO_FIX,
    LONGER_THAN_ASKED,
    ALL_PUT_BACK,
    CANNOT_READ,
    PROOFREAD_OFF,
    POLISHED_ONLY,
    FOLLOWED_IN_PART,
    MODEL_KEPT_IT,
    STRUCTURE_PUT_BACK,
    MEANING_PUT_BACK,
    SAME_AS_BEFORE,
    NO_OTHER_READING,
    REGISTER_WORDS_ONLY,
)
PROOFREAD_PASS = "proofread"  # the pass whose absence explains an unchanged styled rewrite
FAMILY_WORDS = {  # how each intent family is named in a note
    "grammar": "fix grammar",
    "spelling": "fix spelling",
    "shorter": "shorter",
    "formal": "formal",
    "casual": "casual",
    "clearer": "clearer",
    "polish": "polish",
}


@dataclass(frozen=True)
class Outcome:
    """What a rewrite request did, as far as its notes need to know."""

    intent: Intent
    family: str  # the backend's family ("masked", "diffusion-gemma")
    unchanged: bool  # the proposal's text is the original's
    put_back: int  # changed runs the check put back
    can_read: bool  # the backend has a causal reader, so the reading passes ran
    passes: tuple[str, ...]  # the passes the settings let run
    altered_meaning: int = 0  # of the runs put back, those the meaning check put back


def rewrite_notes(outcome: Outcome) -> tuple[str, ...]:
    """The notes a rewrite's proposal carries: none when it did what was asked."""
    notes = []
    follows_free = outcome.family in INSTRUCTION_TUNED_FAMILIES
    free = outcome.intent.asks_free and not follows_free
    if free:
        notes.append(not_followed(outcome.intent))
    if outcome.unchanged:
        notes.append(f"No change: {unchanged_reason(outcome, follows_free)}.")
    if outcome.altered_meaning:
        notes.append(meaning_note(outcome.altered_meaning))
    if (free or outcome.unchanged) and not follows_free:
        notes.append(suggestion())
    return tuple(notes)


def not_followed(intent: Intent) -> str:
    """Which words of the instruction were not followed, and what was done instead."""
    words = " ".join(intent.free)
    if intent.families:
        done = ", ".join(FAMILY_WORDS[family] for family in intent.families)
        return f"Not followed: \u201c{words}\u201d ({FOLLOWED_IN_PART}: {done})."
    return f"Not followed: \u201c{words}\u201d ({POLISHED_ONLY})."


def unchanged_reason(outcome: Outcome, follows_free: bool) -> str:
    """Why an unchanged rewrite is unchanged, from :data:`REASONS`."""
    if outcome.put_back:
        return ALL_PUT_BACK
    if follows_free:
        return MODEL_KEPT_IT
    if outcome.intent.styled and not outcome.can_read:
        return CANNOT_READ
    if outcome.intent.styled and PROOFREAD_PASS not in outcome.passes:
        return PROOFREAD_OFF
    if set(outcome.intent.families) <= REGISTER_FAMILIES and outcome.intent.families:
        return REGISTER_WORDS_ONLY
    return NOTHING_TO_FIX


def meaning_note(runs: int) -> str:
    """The note for changes the meaning check put back (:mod:`engine.passes.meaning`)."""
    changes = "1 change" if runs == 1 else f"{runs} changes"
    return f"Meaning kept: {MEANING_PUT_BACK} ({changes})."


def suggestion() -> str:
    """The instruction-tuned families the model picker offers for what this one cannot do."""
    names = ", ".join(INSTRUCTION_TUNED_FAMILIES.values())
    return f"An instruction-tuned model follows any instruction: {names}, in the model picker."


def retry_notes(previous: str, settled: str) -> tuple[str, ...]:
    """A hunk's try (:mod:`engine.run.retry`) that came back as the change it was to replace:
    ``previous`` is the hunk's text before the try, ``settled`` after it. (A try that came back
    as the user's own words already carries the rewrite's "No change" note.)"""
    return (f"No change: {SAME_AS_BEFORE}.",) if settled == previous else ()


@dataclass(frozen=True)
class Merged:
    """Why version ``version`` of a rewrite is not offered: it came back as version
    ``same_as`` (0: the user's own text) after the checks put back ``put_back`` of its
    changes, or (``same_as`` ``None``) it had nowhere to differ and was not settled."""

    version: int
    same_as: int | None
    put_back: int = 0


def versions_note(asked: int, offered: int, merged: tuple[Merged, ...] = ()) -> tuple[str, ...]:
    """A rewrite asked for ``asked`` versions that offers fewer (``offered``, the first
    included): how many, and what became of each version that is not offered."""
    if offered >= asked:
        return ()
    got = "1 version" if offered == 1 else f"{offered} versions"
    why = "; ".join(merged_text(m) for m in merged) or "the others were the same"
    return (f"{got} of the {asked} asked: {NO_OTHER_READING} ({why}).",)


def merged_text(merged: Merged) -> str:
    """One merged version, in words: "version 3 came back as version 1 once the checks put
    back 2 changes", "version 2 had nowhere to differ"."""
    name = f"version {merged.version}"
    if merged.same_as is None:
        return f"{name} had nowhere to differ"
    like = "your text" if merged.same_as == 0 else f"version {merged.same_as}"
    if not merged.put_back:
        return f"{name} came back as {like}"
    changes = "1 change" if merged.put_back == 1 else f"{merged.put_back} changes"
    return f"{name} came back as {like} once the checks put back {changes}"
