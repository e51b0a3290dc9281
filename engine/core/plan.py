"""Plans: what a request asks the model to produce, as an ordered list of text-level segments.

* :class:`Locked` is copied verbatim (user locks; later, JSON keys and table pipes).
* :class:`Free` is generated text of at most ``budget`` tokens (rewrite and draft regions).
* :class:`Slot` is a constrained value generated under a per-position allowed-token set: a
  charset (every character allowed), an exclusion (no character banned: string-safe text) or a
  set of literal alternatives (enums, booleans: only the tokens those literals are made of).

This module knows no tokenizer: budgets left as ``None`` are derived from the seed text when the
plan becomes a canvas (:mod:`engine.core.canvas`). All validation of a user's edit (selection,
locks)
happens in :func:`plan_edit`, before any model work, and raises :class:`BadRequest`.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise

from engine.core.errors import BadRequest
from engine.core.protocol import MAX_KNOWN_WORD_CHARS, MAX_KNOWN_WORDS, Edit, EditMode, Span


@dataclass(frozen=True)
class CharsetConstraint:
    """Allows a token only when every character of its text is in ``chars``.

    Hashable, so the allowed-id set it yields is computed once per tokenizer and cached.
    """

    name: str
    chars: frozenset[str]
    single: bool = False  # one character per token: a fixed-width run of positions
    min_chars: int = 1  # 2: whole words rather than a letter that starts one
    lead: str = ""  # " ": the token starts with a space, then ``chars`` only (" Marco")

    def allows(self, token_text: str) -> bool:
        if "  " in token_text:  # a slot's value never holds a run of spaces ("Done     done")
            return False
        if self.lead:
            if not token_text.startswith(self.lead):
                return False
            token_text = token_text[len(self.lead) :]
        if (self.single and len(token_text) != 1) or len(token_text) < self.min_chars:
            return False
        return bool(token_text) and all(ch in self.chars for ch in token_text)


@dataclass(frozen=True)
class ExcludingConstraint:
    """Allows a token when no character of its text is in ``banned`` (nor a control character).

    What a JSON string or a table cell needs: anything but a raw quote, backslash, pipe or
    newline, which a charset of allowed characters could not list.
    """

    name: str
    banned: frozenset[str]
    breaks: bool = False  # single newlines allowed (a hard-wrapped paragraph keeps its lines)
    single_spaces: bool = False  # no token holding two spaces in a row (a value, not code)

    def allows(self, token_text: str) -> bool:
        if self.single_spaces and "  " in token_text:
            return False
        if self.breaks and token_text.count("\n") > 1:
            return False  # a blank line would split the one paragraph in two
        return bool(token_text) and not any(
            ch in self.banned or (unicodedata.category(ch) == "Cc" and not self._break(ch))
            for ch in token_text
        )

    def _break(self, ch: str) -> bool:
        return self.breaks and ch == "\n"


@dataclass(frozen=True)
class LiteralConstraint:
    """Allows only the tokens the literal ``alternatives`` tokenize into (enum / boolean slots).

    Per-position sets cannot force a whole literal, so the structured filler snaps what comes
    out to the alternative it spells (:mod:`engine.structured.values`).
    """

    name: str
    alternatives: tuple[str, ...]


Constraint = CharsetConstraint | ExcludingConstraint | LiteralConstraint


@dataclass(frozen=True)
class Locked:
    text: str
    structure: bool = False  # the engine's lock on Markdown structure, shown to the user as free


@dataclass(frozen=True)
class Free:
    """Generated text. ``seed`` is the original text (rewrites start from it at strength < 1).

    ``vary``: the canvas writes other tokens than the seed's here (each seeded position may not
    hold its own seed token, so it is renoised and settles on the model's next choice): a later
    version of a rewrite at a word where the first version nearly chose another
    (:mod:`engine.run.near_misses`)."""

    seed: str = ""
    budget: int | None = None
    vary: bool = False


@dataclass(frozen=True)
class Slot:
    """``min_tokens``: its first positions may not hold the filler, so it is never shorter.
    ``soft_min``: that minimum only guides the canvas (see :class:`engine.structured.shapes.Run`);
    the base model verifying a value may end it earlier."""

    constraint: Constraint
    budget: int
    seed: str = ""
    min_tokens: int = 0
    soft_min: bool = False


Segment = Locked | Free | Slot


def segment_text(segment: Segment) -> str:
    """A segment as the user wrote it: a lock's text, a free or slot segment's seed."""
    return segment.text if isinstance(segment, Locked) else segment.seed


def plan_text(segments: Sequence[Segment]) -> str:
    """The target as the user wrote it, rebuilt from its segments."""
    return "".join(segment_text(segment) for segment in segments)


@dataclass(frozen=True)
class EditPlan:
    """A plan for one edit, with the document context around the target."""

    target: Span
    segments: tuple[Segment, ...]
    before: str  # document text before the target (context / prompt)
    after: str  # document text after the target
    instruction: str
    mode: EditMode
    # Keep the locked text's keys and values across steps (structured fills; masked backend).
    cache_locked: bool = False
    # Words a slot may not glue onto a value (a JSON fill's key names and literals).
    template_words: tuple[str, ...] = ()
    # The user's own words (their dictionary): spelling never changes them.
    known_words: tuple[str, ...] = ()
    # Texts of the target already offered (earlier versions of a rewrite): the proofreader
    # does not offer one of them again (:mod:`engine.run.versions`).
    avoid: tuple[str, ...] = ()

    @property
    def locked_texts(self) -> tuple[str, ...]:
        return tuple(s.text for s in self.segments if isinstance(s, Locked))


def validate_edit(edit: Edit) -> None:
    """Raise :class:`BadRequest`, clearly worded, for any selection or lock a user can get wrong."""
    n = len(edit.text)
    t = edit.target
    if t.start > t.end:
        raise BadRequest(
            f"The selection {t.start}:{t.end} is reversed: its start comes after its end "
            f"(did you mean {t.end}:{t.start}?)."
        )
    if not 0 <= t.start <= t.end <= n:
        raise BadRequest(f"The selection {t.start}:{t.end} lies outside the text (length {n}).")
    if edit.mode is EditMode.REWRITE and t.start == t.end:
        raise BadRequest("The selection is empty: select the text to rewrite.")
    if edit.mode is EditMode.DRAFT and edit.locks:
        raise BadRequest("A draft inserts new text: it has nothing to lock.")
    ordered = sorted(edit.locks)
    for lock in ordered:
        if lock.start >= lock.end:
            raise BadRequest(f"The lock {lock.start}:{lock.end} is empty.")
        if not t.contains(lock):
            raise BadRequest(
                f"The lock {lock.start}:{lock.end} ({edit.text[lock.start : lock.end]!r}) lies "
                f"outside the selection {t.start}:{t.end}."
            )
    for first, second in pairwise(ordered):
        if first.overlaps(second):
            raise BadRequest(
                f"The locks {first.start}:{first.end} and {second.start}:{second.end} overlap."
            )
    if edit.mode is EditMode.REWRITE and _locked_length(ordered) == len(t):
        raise BadRequest("The whole selection is locked: there is nothing left to rewrite.")
    if (
        edit.mode is EditMode.REWRITE
        and ordered
        and not _unlocked_text(edit.text, t, ordered).strip()
    ):
        raise BadRequest("Only spaces lie outside the locks: there is nothing left to rewrite.")
    validate_known_words(edit.known_words)


def validate_known_words(words: tuple[str, ...]) -> None:
    """Raise :class:`BadRequest` unless ``words`` is a bounded list of single words."""
    if not isinstance(words, tuple) or len(words) > MAX_KNOWN_WORDS:
        count = len(words) if isinstance(words, (tuple, list)) else "no list"
        raise BadRequest(
            f"known_words: {count} words; a request carries at most {MAX_KNOWN_WORDS}."
        )
    for word in words:
        if not isinstance(word, str) or not word or len(word) > MAX_KNOWN_WORD_CHARS:
            raise BadRequest(
                f"known_words: {str(word)[:MAX_KNOWN_WORD_CHARS]!r} is not one word of 1 to "
                f"{MAX_KNOWN_WORD_CHARS} characters."
            )
        if any(ch.isspace() or unicodedata.category(ch) == "Cc" for ch in word):
            raise BadRequest(f"known_words: {word!r} holds a space or a control character.")


def _unlocked_text(text: str, target: Span, locks: list[Span]) -> str:
    """The target's text outside its (sorted) locks."""
    pieces, cursor = [], target.start
    for lock in locks:
        pieces.append(text[cursor : lock.start])
        cursor = lock.end
    pieces.append(text[cursor : target.end])
    return "".join(pieces)


def _locked_length(locks: list[Span]) -> int:
    return sum(len(lock) for lock in locks)


def plan_edit(edit: Edit) -> EditPlan:
    """Turn a validated edit into Locked/Free segments: locks verbatim, every gap free."""
    validate_edit(edit)
    t = edit.target
    segments: list[Segment] = []
    if edit.mode is EditMode.DRAFT:
        segments.append(Free(seed="", budget=edit.settings.draft_tokens))
    else:
        cursor = t.start
        for lock in sorted(edit.locks):
            if lock.start > cursor:
                segments.append(gap(edit.text[cursor : lock.start]))
            segments.append(Locked(edit.text[lock.start : lock.end]))
            cursor = lock.end
        if cursor < t.end:
            rest = edit.text[cursor : t.end]
            segments.append(gap(rest) if edit.locks else Free(seed=rest))
    return EditPlan(
        target=t,
        segments=tuple(segments),
        before=edit.text[: t.start],
        after=edit.text[t.end :],
        instruction=edit.instruction.strip(),
        mode=edit.mode,
        known_words=edit.known_words,
    )


def gap(text: str) -> Segment:
    """The text between locks: free, unless it is only whitespace. Then it holds no word to
    rewrite, and a canvas given the space between two locked words ("1843 Ada Lovelace")
    wrote a mark into it ("1843 - Ada Lovelace"); it stays as the user wrote it (an engine
    lock, shown as free text)."""
    return Locked(text, structure=True) if not text.strip() else Free(seed=text)


def find_locks(text: str, target: Span, phrases: list[str]) -> tuple[Span, ...]:
    """Lock every occurrence of each phrase inside ``target`` (what the CLI's ``--lock`` means)."""
    spans: list[Span] = []
    for phrase in phrases:
        if not phrase:
            raise BadRequest("A lock phrase is empty.")
        found = _occurrences(text, target, phrase)
        if not found:
            raise BadRequest(
                f"The lock phrase {phrase!r} does not occur in the selection "
                f"{target.start}:{target.end}."
            )
        spans.extend(found)
    return tuple(sorted(spans))


def _occurrences(text: str, target: Span, phrase: str) -> list[Span]:
    found = []
    at = text.find(phrase, target.start, target.end)
    while at != -1:
        found.append(Span(at, at + len(phrase)))
        at = text.find(phrase, at + len(phrase), target.end)
    return found
