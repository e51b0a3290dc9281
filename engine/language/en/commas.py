"""The comma after a sentence's linking phrase: "For example we can" is "For example, we can".

A phrase that links a sentence to the one before it ("however", "for example", "in
addition", "in other words") and opens it is set off by a comma in edited English; learners
and hurried writers leave it out, and every reference correction of JFLEG's learner essays puts
it back. The phrases are a closed class of English (``introductory_phrases`` in
``data/grammar.json``); the rule reads only where one opens a sentence, or a clause after a
semicolon ("; however, ..."), and a word follows it that starts the clause:

- not a word that continues the phrase instead ("in addition to the fee", "instead of",
  ``phrase_continuers``), and
- not an adjective or adverb that the phrase modifies ("however hard we try", "thus far"),
  read from lemminflect's lexicon: a word it knows only as either.

The fix is offered like a capital, as a rule of writing: made unless the passage then reads
worse to the model (:mod:`engine.passes.offers`). Pure functions over word texts.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from lemminflect import getAllLemmas

from engine.language.en.cut_safety import core
from engine.language.en.data import load_json, word_set
from engine.language.en.rewordings import Rewording

COMMA = ","
SEMICOLON = ";"
SENTENCE_ENDS = (".", "!", "?")
MARKS = ",.;:!?\"')]"
# Word classes of a word a linking phrase modifies rather than opens a clause before.
MODIFIED_CLASSES = frozenset({"ADJ", "ADV"})
PHRASE_CONTINUERS = word_set("grammar.json", "phrase_continuers")


@cache
def linking_phrases() -> tuple[tuple[str, ...], ...]:
    """The linking phrases as word tuples, longest first ("in other words" before "in fact")."""
    phrases = {tuple(p.split()) for p in load_json("grammar.json")["introductory_phrases"]}
    return tuple(sorted(phrases, key=len, reverse=True))


def opens_clause(words: Sequence[str], index: int, opens: bool) -> bool:
    """Whether word ``index`` starts a sentence (``opens`` for the first) or follows ";"."""
    if index == 0:
        return opens
    return words[index - 1].rstrip().endswith((*SENTENCE_ENDS, SEMICOLON))


def starts_clause(word: str) -> bool:
    """Whether ``word``, after a linking phrase, begins the clause the phrase links."""
    letters = core(word)
    if not letters.isalpha() or letters in PHRASE_CONTINUERS:
        return False
    classes = set(getAllLemmas(letters))
    return not classes or not classes <= MODIFIED_CLASSES


def unmarked(words: Sequence[str]) -> bool:
    """No mark inside or after the run: "For example, we" has its comma already."""
    return all(w.rstrip() == w.rstrip(MARKS) for w in words)


def comma_fixes(words: Sequence[str], index: int, opens: bool) -> list[Rewording]:
    """The linking phrase opening a clause at ``index``, its last word given a comma."""
    if not opens_clause(words, index, opens):
        return []
    for phrase in linking_phrases():
        stop = index + len(phrase)
        if stop >= len(words) or tuple(core(w) for w in words[index:stop]) != phrase:
            continue
        if unmarked(words[index:stop]) and starts_clause(words[stop]):
            return [Rewording(stop - 1, stop, words[stop - 1] + COMMA)]
        return []
    return []
