"""Contractions written without their apostrophe ("dont", "theyre", "Im"), and what each is.

A writer in a hurry, or on a phone, drops the apostrophe of a contraction: "I dont think
theyre ready". It is a slip of punctuation, not a word of its own, so "fix grammar" puts it
back as it puts back a sentence's capital, and "fix spelling" offers it among a misspelt
word's candidates. The contractions are the ``contractions`` package's
(:data:`engine.language.en.registers.CONTRACTIONS`), never a list typed here.

Which letters are such a slip is a question of whether they are a word already:

- "cant", "wont", "well", "were", "shell", "its" and "lets" are English words (lemminflect's
  lexicon knows them): they are never taken for a contraction, whatever the sentence.
- "dont", "theyre", "hasnt", "im" are no word of the lexicon nor of the spelling dictionary:
  the apostrophe is a rule (:attr:`Dropped.certain`), made unless the passage reads far worse.
- "hes", "whats", "shes", "heres" are in SymSpell's frequency dictionary (it counts what people
  type, slips included) but in no lexicon of English words: the contraction is offered, and the
  model reading the passage chooses, as it chooses a grammar fix's form.

A contraction that opens or closes on its apostrophe ("'em", "o'", "'tis") is left alone: the
letters left are another word ("em", "o") or an archaism. "I" is written with a capital
wherever it stands, so "Im" and "Ive" inside a sentence are the pronoun's contraction too, not
a name.

Pure functions over word texts, and the tables built once on first use.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from lemminflect import getAllLemmas

from engine.language.en.dictionary import dictionary_words
from engine.language.en.registers import APOSTROPHE, CONTRACTIONS, FIRST_PERSON


@dataclass(frozen=True)
class Dropped:
    """A contraction whose apostrophe was dropped: the contraction, and whether putting it
    back is a rule (the letters are no word any dictionary lists) or a choice for the reading."""

    contraction: str
    certain: bool


@cache
def _dropped() -> dict[str, Dropped]:
    found: dict[str, Dropped] = {}
    for short, _ in CONTRACTIONS:
        letters = short.replace(APOSTROPHE, "")
        inner = APOSTROPHE in short.strip(APOSTROPHE) and not short.startswith(APOSTROPHE)
        if not inner or short.endswith(APOSTROPHE) or getAllLemmas(letters):
            continue
        found[letters] = Dropped(short, certain=letters not in dictionary_words())
    return found


@cache
def dropped_apostrophes() -> dict[str, str]:
    """The slips no dictionary word undoes, and their contraction ("dont": "don't"): what
    spelling offers beside a misspelt word's dictionary candidates."""
    return {letters: d.contraction for letters, d in _dropped().items() if d.certain}


def dropped(letters: str, opens: bool) -> Dropped | None:
    """The contraction the word ``letters`` (letters only, as written) stands for with its
    apostrophe dropped, with a capital where the word has one or opens its sentence;
    ``None`` for any other word, and for a capitalised word inside a sentence (a name) unless
    it is "I"'s ("Im", "Ive")."""
    found = _dropped().get(letters.lower())
    if found is None or (letters[0].isupper() and not opens and not _first_person(found)):
        return None
    contraction = found.contraction
    if letters[0].isupper() or opens or _first_person(found):
        contraction = contraction[0].upper() + contraction[1:]
    return Dropped(contraction, found.certain)


def _first_person(found: Dropped) -> bool:
    return found.contraction.startswith(FIRST_PERSON.lower() + APOSTROPHE)
