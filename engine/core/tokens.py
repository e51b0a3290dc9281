"""Tokenizer-facing helpers: the special tokens a sampler needs, and cached per-token texts.

Special tokens are named, never magic ids: a family picks its mask and filler by token *string*
from the tokenizer's vocabulary (see :func:`special_tokens`), and a model without a usable mask
token is refused with a clear message.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from engine.core.errors import ModelLoadError
from engine.core.plan import CharsetConstraint, Constraint, ExcludingConstraint, LiteralConstraint


@dataclass(frozen=True)
class SpecialTokens:
    """The ids a sampler treats specially. ``banned`` are never generated at free positions."""

    mask_id: int | None
    filler_id: int
    eos_ids: tuple[int, ...]
    bos_id: int | None
    banned: frozenset[int]
    vocab_size: int


def _token_id(tokenizer: Any, token: str | None) -> int | None:
    if not token:
        return None
    vocab = tokenizer.get_vocab()
    return vocab.get(token)


def _all_special_ids(tokenizer: Any) -> set[int]:
    ids = set(getattr(tokenizer, "all_special_ids", []) or [])
    for token_id, added in getattr(tokenizer, "added_tokens_decoder", {}).items():
        if getattr(added, "special", False):
            ids.add(int(token_id))
    return ids


def special_tokens(
    tokenizer: Any,
    vocab_size: int,
    mask_candidates: Sequence[str] = (),
    filler_candidates: Sequence[str] = (),
    need_mask: bool = True,
) -> SpecialTokens:
    """Pick mask and filler tokens: the tokenizer's own first, then the named candidates.

    Raises :class:`ModelLoadError` when a masked-diffusion model has no usable mask token, since
    guessing one would silently corrupt every generation.
    """
    mask_id = _token_id(tokenizer, getattr(tokenizer, "mask_token", None))
    for name in mask_candidates:
        mask_id = mask_id if mask_id is not None else _token_id(tokenizer, name)
    if need_mask and mask_id is None:
        raise ModelLoadError(
            "This model has no usable mask token (its tokenizer defines none and none of "
            f"{list(mask_candidates) or 'the known candidates'} exists), so it cannot run as a "
            "masked-diffusion model."
        )
    filler_id = _first_present(tokenizer, filler_candidates, exclude={mask_id})
    if filler_id is None:
        filler_id = _token_id(tokenizer, getattr(tokenizer, "pad_token", None))
    if filler_id is None or filler_id == mask_id:
        raise ModelLoadError("This model's tokenizer has no token that can serve as filler.")
    eos = _ids(tokenizer.convert_tokens_to_ids(t) for t in _eos_tokens(tokenizer))
    bos_id = _token_id(tokenizer, getattr(tokenizer, "bos_token", None))
    specials = (
        _all_special_ids(tokenizer) | set(eos) | {i for i in (mask_id, bos_id) if i is not None}
    )
    banned = frozenset(i for i in specials if i != filler_id and i < vocab_size)
    return SpecialTokens(mask_id, filler_id, eos, bos_id, banned, vocab_size)


def _first_present(tokenizer: Any, names: Sequence[str], exclude: set[int | None]) -> int | None:
    for name in names:
        token_id = _token_id(tokenizer, name)
        if token_id is not None and token_id not in exclude:
            return token_id
    return None


def _eos_tokens(tokenizer: Any) -> list[str]:
    token = getattr(tokenizer, "eos_token", None)
    return [token] if token else []


def _ids(values: Iterable[Any]) -> tuple[int, ...]:
    return tuple(int(v) for v in values if isinstance(v, int) and v >= 0)


# What a decoder shows for bytes that are not a whole UTF-8 character.
BROKEN = "\ufffd"
# A UTF-8 character is at most 4 bytes: byte-level tokens holding its parts are at most 4.
CHARACTER_TOKENS = 4
# What may open a word besides a letter: a quotation, a bracket, or Markdown's code and
# emphasis ("'Tea,' she said", "(If", "`settle` runs", "**Note**"; a bullet alone is banned
# where it would open a list item).
WORD_OPENING_MARKS = frozenset("\"'([`*_\u201c\u2018")
# A token that opens a list item (with or without the whitespace around it).
LIST_OPENER = re.compile(r"\s*(?:[-*+\u2022]|\d{1,3}[.)])\s*")


class TokenTable:
    """Per-token display texts and constraint id sets for one tokenizer, computed lazily, cached."""

    def __init__(self, tokenizer: Any, specials: SpecialTokens) -> None:
        self.tokenizer = tokenizer
        self.specials = specials
        self._texts: dict[int, str] = {}
        self._allowed: dict[Constraint, frozenset[int]] = {}
        self._control: frozenset[int] | None = None
        self._list_openers: list[int] | None = None
        self._word_openers: list[int] | None = None
        self._by_first: dict[str, list[int]] | None = None
        self._breaking: frozenset[int] | None = None
        self._spellings: dict[int, frozenset[int]] = {}

    def encode(self, text: str) -> list[int]:
        if not text:
            return []
        # split_special_tokens: a document that contains "<mask>" or "<|im_end|>" as text must
        # stay text; otherwise the model would see real control tokens in the user's words.
        encoded = self.tokenizer(text, add_special_tokens=False, split_special_tokens=True)
        return list(encoded["input_ids"])

    def decode(self, ids: Sequence[int]) -> str:
        kept = [i for i in ids if i != self.specials.filler_id and i != self.specials.mask_id]
        return str(self.tokenizer.decode(kept, skip_special_tokens=False)) if kept else ""

    def is_word(self, token_id: int) -> bool:
        """Whether the token holds a letter (a word piece, not a digit, space or mark)."""
        return any(ch.isalpha() for ch in self.text(token_id))

    def is_blank(self, token_id: int) -> bool:
        """Whether the token is spaces only (a space, a run of them; not a line break)."""
        text = self.text(token_id)
        return bool(text) and not text.strip(" ")

    def text(self, token_id: int) -> str:
        """What one token looks like in the draft overlay (filler and mask show as nothing)."""
        if token_id in (self.specials.filler_id, self.specials.mask_id):
            return ""
        cached = self._texts.get(token_id)
        if cached is None:
            cached = self._texts[token_id] = str(self.tokenizer.decode([token_id]))
        return cached

    def display_texts(self, ids: Sequence[int]) -> list[str]:
        """Each position's text as the overlay shows it, never a broken character.

        A byte-level token may hold part of one UTF-8 character ("Daniel." and the first byte
        of "’"), which decodes alone as U+FFFD: the window showed "Daniel.�" and "��". Such a
        token is shown together with the tokens that complete its character, on the first of
        them (the others show nothing), or, while they are not there yet, not at all.
        """
        out = [self.text(t) for t in ids]
        i = 0
        while i < len(ids):
            if BROKEN not in out[i]:
                i += 1
                continue
            width = self._completing(ids, i)
            if width:
                out[i : i + width] = [self.decode(ids[i : i + width])] + [""] * (width - 1)
            else:
                out[i], width = out[i].replace(BROKEN, ""), 1
            i += width
        return out

    def _completing(self, ids: Sequence[int], at: int) -> int:
        """How many tokens from ``at`` decode to whole characters (0: none within reach)."""
        for width in range(2, min(CHARACTER_TOKENS, len(ids) - at) + 1):
            if BROKEN not in self.decode(ids[at : at + width]):
                return width
        return 0

    def spellings(self, token_id: int) -> frozenset[int]:
        """The token and the single tokens that spell the same text with or without a leading
        space ("Python" and " Python"): what counts as writing that token again."""
        cached = self._spellings.get(token_id)
        if cached is None:
            core = self.text(token_id).strip()
            found = {token_id}
            for variant in (core, " " + core) if core else ():
                ids = self.encode(variant)
                if len(ids) == 1 and ids[0] not in self.specials.banned:
                    found.add(ids[0])
            cached = self._spellings[token_id] = frozenset(found)
        return cached

    def glued_spellings(self, word: str) -> frozenset[int]:
        """Single tokens that spell ``word`` (lower, capitalised or upper case) with no space
        before it: what writing it glued onto the previous token takes."""
        found = set()
        for variant in {word.lower(), word.capitalize(), word.upper()}:
            ids = self.encode(variant)
            if len(ids) == 1 and ids[0] not in self.specials.banned:
                found.add(ids[0])
        return frozenset(found)

    def allowed_ids(self, constraint: Constraint) -> frozenset[int]:
        """Ids whose whole text satisfies ``constraint``, plus the filler; computed once.

        A literal constraint allows the tokens its alternatives encode to, as encoded alone
        (which is how a canvas tokenizes a slot: segment by segment).
        """
        cached = self._allowed.get(constraint)
        if cached is None:
            if isinstance(constraint, LiteralConstraint):
                found: Iterable[int] = self._literal_ids(constraint)
            else:
                found = self._scan(constraint)
            cached = frozenset(found) | {self.specials.filler_id}
            self._allowed[constraint] = cached
        return cached

    def starting_with(self, char: str) -> list[int]:
        """Token ids whose text starts with ``char`` (from the index built once)."""
        return list(self._first_chars().get(char, ()))

    def breaking_ids(self) -> frozenset[int]:
        """Token ids whose text holds a line break; computed once."""
        if self._breaking is None:
            count = min(self.specials.vocab_size, len(self.tokenizer))
            self._breaking = frozenset(i for i in range(count) if "\n" in self.text(i))
        return self._breaking

    def starting_with_whitespace(self) -> list[int]:
        """Token ids whose text starts with any whitespace (a space, an em space, a newline)."""
        index = self._first_chars()
        return sorted(i for char, ids in index.items() if char.isspace() for i in ids)

    def list_openers(self) -> list[int]:
        """Token ids that open a list item: a bullet ("-", "*", "+", "•") or an item number
        ("1.", "2)"), alone or with the space after it. Computed once."""
        if self._list_openers is None:
            self._list_openers = sorted(
                i for i in range(len(self.tokenizer)) if LIST_OPENER.fullmatch(self.text(i))
            )
        return self._list_openers

    def word_openers(self) -> list[int]:
        """Token ids whose text opens a word, after at most one space: a letter or one of
        :data:`WORD_OPENING_MARKS`. Computed once."""
        if self._word_openers is None:
            count = min(self.specials.vocab_size, len(self.tokenizer))
            self._word_openers = [
                token_id
                for token_id in range(count)
                if _opens_word(self.text(token_id).removeprefix(" "))
            ]
        return self._word_openers

    def control_ids(self) -> frozenset[int]:
        """Tokens whose text holds a control character other than newline or tab.

        Prose never wants them, and an editor turns a stray carriage return into a line break,
        which would make the applied text differ from the reviewed one. Computed once.
        """
        if self._control is None:
            self._control = frozenset(
                token_id
                for token_id in range(min(self.specials.vocab_size, len(self.tokenizer)))
                if token_id not in self.specials.banned and _has_control(self.text(token_id))
            )
        return self._control

    def _literal_ids(self, constraint: LiteralConstraint) -> set[int]:
        ids = {i for text in constraint.alternatives for i in self.encode(text)}
        return {i for i in ids if i not in self.specials.banned}

    def _scan(self, constraint: CharsetConstraint | ExcludingConstraint) -> Iterable[int]:
        candidates: Iterable[int] = range(min(self.specials.vocab_size, len(self.tokenizer)))
        if isinstance(constraint, CharsetConstraint):
            # Only tokens that start with an allowed character can qualify: a few, not all.
            index = self._first_chars()
            firsts = constraint.lead[:1] or constraint.chars
            candidates = (i for ch in firsts for i in index.get(ch, ()))
        for token_id in candidates:
            if token_id not in self.specials.banned and constraint.allows(self.text(token_id)):
                yield token_id

    def _first_chars(self) -> dict[str, list[int]]:
        """Token ids by the first character of their text; built once."""
        if self._by_first is None:
            self._by_first = {}
            for token_id in range(min(self.specials.vocab_size, len(self.tokenizer))):
                text = self.text(token_id)
                if text:
                    self._by_first.setdefault(text[0], []).append(token_id)
        return self._by_first


def _opens_word(text: str) -> bool:
    return bool(text) and (text[0].isalpha() or text[0] in WORD_OPENING_MARKS)


def _has_control(text: str) -> bool:
    return any(unicodedata.category(ch) == "Cc" and ch not in "\n\t" for ch in text)


@cache
def charset(
    name: str, chars: str, single: bool = False, min_chars: int = 1, lead: str = ""
) -> CharsetConstraint:
    """Tokens made only of ``chars`` (``single``: of exactly one such character; ``min_chars``:
    of at least that many), after ``lead`` when one is given."""
    return CharsetConstraint(name, frozenset(chars), single, min_chars, lead)
