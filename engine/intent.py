"""The one reading of a rewrite's instruction: what it asks for, parsed once per request.

Every part of the engine that changes a plan or a result because of what the user asked
(proofreading's candidates, a shorter rewrite's budget and cuts, the notes a proposal carries
about what it could not do) reads this :class:`Intent` instead of matching words in the
instruction itself, so "what does this instruction mean to the engine?" has one answer, here.

The instruction is read as a sequence of whole words, never substrings ("explain" holds no
"plain", "execute" no "cut"). Each family has its phrases, synonyms and forms included
("shorten", "trim", "more concise"; "professional", "polite"; "friendlier", "relaxed"), and a
phrase may stand for several families ("proofread" is grammar and spelling). The longest phrase
at each word wins. A negation ("not", "don't", "without", "rather than") cancels the families
named after it up to the end of its clause (punctuation, or "and", "but"…), so "make it longer,
not shorter" asks for nothing shorter. What no family reads and is not a filler word of
instructions ("make", "it", "please", "tone"…) is kept as :attr:`Intent.free`: the part of the
instruction only an instruction-tuned model can follow ("vivid", "poem", "French").

Every phrase list is language data (``language/en/data/intent.json``), general English only.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from engine.language.en.data import load_json

# The families a phrase of the data file can name; each is a field of :class:`Intent`.
FAMILIES = ("grammar", "spelling", "shorter", "formal", "casual", "clearer", "polish")
# A word of an instruction: letters and digits, with inner apostrophes ("don't"); a hyphen
# separates words ("laid-back" is "laid back"). These marks end a negation's clause too:
WORD = re.compile(r"[a-z0-9]+(?:'[a-z0-9]+)*")
CLAUSE_BREAK = re.compile(r"[,;:.!?()\[\]/\n]")
NEGATION = "negation"  # what a negation cue reads as in the phrase table

Words = tuple[str, ...]


@dataclass(frozen=True)
class Intent:
    """The instruction's families; several may hold at once ("tighter and more formal")."""

    instruction: str = ""
    grammar: bool = False  # fix grammar (inflections, agreement, punctuation)
    casual: bool = False
    formal: bool = False
    clearer: bool = False  # plainer wording
    shorter: bool = False  # a budget below the original's length
    spelling: bool = False  # fix spelling, typos
    polish: bool = False  # smoother, better: what a rewrite with no instruction does
    free: Words = ()  # the words no family reads ("vivid", "poem"): free restyling

    @property
    def styled(self) -> bool:
        """Whether it asks for anything proofreading can offer candidates for."""
        return self.grammar or self.spelling or self.casual or self.formal or self.clearer

    @property
    def proofread(self) -> bool:
        """Whether it asks for grammar and spelling both."""
        return self.grammar and self.spelling

    @property
    def families(self) -> tuple[str, ...]:
        """The families it asks for, in :data:`FAMILIES` order."""
        return tuple(family for family in FAMILIES if getattr(self, family))

    @property
    def asks_free(self) -> bool:
        """Whether part of it is free restyling no family covers."""
        return bool(self.free)


@dataclass(frozen=True)
class Lexicon:
    """The instruction phrases of the language data, as word tuples."""

    phrases: dict[Words, tuple[str, ...]]  # phrase → its families, or (NEGATION,)
    # Phrases that name a family only where nothing more specific does: "correct" is grammar
    # and spelling alone, and only spelling in "correct the spelling".
    generic: frozenset[Words]
    scope_ends: frozenset[str]
    ignorable: frozenset[str]
    longest: int


def split_words(text: str) -> Words:
    return tuple(WORD.findall(text.lower().replace("\u2019", "'")))


@cache
def lexicon() -> Lexicon:
    """The phrase table of ``intent.json``; a negation cue never doubles as a family phrase."""
    data = load_json("intent.json")
    phrases: dict[Words, tuple[str, ...]] = {}
    generic: set[Words] = set()
    for reading in data["readings"]:
        families = tuple(reading["families"])
        for phrase in reading["phrases"]:
            phrases[split_words(phrase)] = families
            if reading.get("generic", False):
                generic.add(split_words(phrase))
    for cue in data["negations"]:
        phrases[split_words(cue)] = (NEGATION,)
    return Lexicon(
        phrases,
        frozenset(generic),
        frozenset(data["scope_ends"]),
        frozenset(data["ignorable"]),
        max(len(words) for words in phrases),
    )


def clauses(instruction: str) -> list[Words]:
    """The instruction's clauses (split at punctuation), each as its words."""
    return [split_words(part) for part in CLAUSE_BREAK.split(instruction)]


def longest_phrase(words: Words, at: int, table: Lexicon) -> tuple[int, tuple[str, ...]]:
    """The length and families of the longest phrase starting at ``words[at]`` (0 if none)."""
    for length in range(min(table.longest, len(words) - at), 0, -1):
        families = table.phrases.get(words[at : at + length])
        if families is not None:
            return length, families
    return 0, ()


def read_clause(words: Words, table: Lexicon, asked: set[str], free: list[str]) -> None:
    """Add the families ``words`` asks for to ``asked`` and its unread words to ``free``."""
    negated = False
    named: set[str] = set()
    fallback: set[str] = set()  # what the clause's generic phrases name, if nothing else does
    at = 0
    while at < len(words):
        length, families = longest_phrase(words, at, table)
        if families == (NEGATION,):
            negated = True
        elif families:
            if not negated:
                generic = words[at : at + length] in table.generic
                (fallback if generic else named).update(families)
        elif words[at] in table.scope_ends:
            negated = False
        elif not negated and words[at] not in table.ignorable:
            free.append(words[at])  # what not to do is followed by not doing it
        at += max(length, 1)
    asked.update(named or fallback)


def read_intent(instruction: str) -> Intent:
    """The families ``instruction`` asks for (none for an empty one), and what none reads."""
    table = lexicon()
    asked: set[str] = set()
    free: list[str] = []
    for words in clauses(instruction):
        read_clause(words, table, asked, free)
    flags = {family: family in asked for family in FAMILIES}
    return Intent(instruction=instruction, free=tuple(free), **flags)
