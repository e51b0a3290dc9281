"""Two rules of punctuation a proofreader applies: the comma after a sentence's linking phrase
("For example we can" is "For example, we can") and the full stop a paragraph's last sentence
ends with.

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

A passage that ends its paragraph (nothing but a line break or the document's end after it)
and whose last sentence has no end mark is given a full stop, where that sentence is one: a
line of :data:`SHORTEST_SENTENCE` words or more with a word that only a clause has (a subject
pronoun, a form of "be", a modal or an auxiliary), not a list item, a heading or a table row
(its line opens with a mark), and not a title ("Notes from the trip" has no such word).

Both fixes are offered like a capital, as rules of writing: made unless the passage then reads
far worse to the model (:mod:`engine.passes.offers`). Pure functions over word texts.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache

from lemminflect import getAllLemmas

from engine.language.en.cut_safety import core
from engine.language.en.data import load_json, word_set
from engine.language.en.forms import NOUN_CLASS, VERB_CLASS
from engine.language.en.meaning import SUBJECT_PRONOUNS
from engine.language.en.rewordings import Rewording

COMMA = ","
SEMICOLON = ";"
SENTENCE_ENDS = (".", "!", "?")
MARKS = ",.;:!?\"')]"
# Word classes of a word a linking phrase modifies rather than opens a clause before.
MODIFIED_CLASSES = frozenset({"ADJ", "ADV"})
PHRASE_CONTINUERS = word_set("grammar.json", "phrase_continuers")
FULL_STOP = "."
# A line of fewer words is a label or a title more often than a sentence ("Learn more").
SHORTEST_SENTENCE = 4
# Words only a clause has: a subject, a form of "be", a modal, an auxiliary ("do", "let").
CLAUSE_SIGNS = (
    SUBJECT_PRONOUNS
    | word_set("word_tiers.json", "be_forms")
    | word_set("word_tiers.json", "modals")
    | word_set("grammar.json", "clause_auxiliaries")
)
# What a line that is no prose paragraph opens with: a heading, a list item, a quote, a table.
LINE_MARKS = ("#", "-", "*", "+", ">", "|")
ITEM_NUMBER = re.compile(r"\d+[.)]")  # an ordered list item's number, "2." or "2)"


@cache
def linking_phrases() -> tuple[tuple[str, ...], ...]:
    """The linking phrases as word tuples, longest first ("in other words" before "in fact")."""
    phrases = {tuple(p.split()) for p in load_json("grammar.json")["introductory_phrases"]}
    return tuple(sorted(phrases, key=len, reverse=True))


def opens_clause(words: Sequence[str], index: int, opens: bool) -> bool:
    """Whether word ``index`` starts a sentence (:func:`starts_sentence`) or follows ";"."""
    after_semicolon = index > 0 and words[index - 1].rstrip().endswith(SEMICOLON)
    return after_semicolon or starts_sentence(words, index, opens)


def starts_clause(word: str) -> bool:
    """Whether ``word``, after a linking phrase, begins the clause the phrase links."""
    letters = core(word)
    if not letters.isalpha() or letters in PHRASE_CONTINUERS:
        return False
    lemmas = getAllLemmas(letters)
    classes = set(lemmas)
    if VERB_CLASS in classes and NOUN_CLASS not in classes:
        # a participle opens an inverted clause, not one a comma sets off ("Also included
        # are", "Attached is"); a verb's own form may open an imperative ("Also, remember")
        return letters in lemmas[VERB_CLASS]
    return not classes or not classes <= MODIFIED_CLASSES


def unmarked(words: Sequence[str]) -> bool:
    """No mark inside or after the run: "For example, we" has its comma already."""
    return all(w.rstrip() == w.rstrip(MARKS) for w in words)


def comma_fixes(words: Sequence[str], index: int, opens: bool) -> list[Rewording]:
    """The linking phrase opening a clause at ``index`` with a comma after it; where it opens
    a sentence in lower case, also with its capital (the capital's own fix touches the same
    word, and a word is changed once: the model reads which of the three is best)."""
    if not opens_clause(words, index, opens):
        return []
    for phrase in linking_phrases():
        stop = index + len(phrase)
        if stop >= len(words) or tuple(core(w) for w in words[index:stop]) != phrase:
            continue
        if not (unmarked(words[index:stop]) and starts_clause(words[stop])):
            return []
        phrase_text = "".join(words[index:stop])
        capital = capitalised(words[index]) + "".join(words[index + 1 : stop])
        if capital == phrase_text or not starts_sentence(words, index, opens):
            return [Rewording(index, stop, phrase_text + COMMA)]
        return [
            Rewording(index, stop, capital + COMMA),
            Rewording(index, stop, phrase_text + COMMA),
        ]
    return []


def starts_sentence(words: Sequence[str], index: int, opens: bool) -> bool:
    """Whether word ``index`` starts a sentence: the first where ``opens``, or after . ! ?
    (a clause after ";" does not)."""
    return opens if index == 0 else words[index - 1].rstrip().endswith(SENTENCE_ENDS)


def capitalised(word: str) -> str:
    """``word`` (with its leading space) with its first character a capital: a sentence's
    first word (its capital fix in :mod:`engine.language.en.grammar`, and the comma's
    rewording, "for example" → "For example,")."""
    at = len(word) - len(word.lstrip())
    return word[:at] + word[at : at + 1].upper() + word[at + 1 :]


def closes_paragraph(following: str) -> bool:
    """Whether text followed by ``following`` ends its paragraph: only spaces before a line
    break or the document's end."""
    rest = following.lstrip(" \t")
    return not rest or rest.startswith(("\n", "\r"))


def marked_line(preceding: str) -> bool:
    """Whether text after ``preceding`` stands on a line that opens with a mark: a list item,
    a heading, a quote or a table row whose mark is before the text (often locked: "- ")."""
    line = preceding.rsplit("\n", 1)[-1].lstrip()
    return line.startswith(LINE_MARKS) or bool(ITEM_NUMBER.match(line))


def ends_prose_paragraph(preceding: str, following: str) -> bool:
    """Whether text between ``preceding`` and ``following`` closes a paragraph of prose: the
    place a missing full stop is offered (:func:`final_stop`)."""
    return closes_paragraph(following) and not marked_line(preceding)


def final_stop(words: Sequence[str]) -> list[Rewording]:
    """The last word of ``words`` (a passage that ends its paragraph) given a full stop, where
    its last sentence is a sentence with no end mark (see the module's docstring)."""
    if not words or not words[-1].rstrip()[-1:].isalnum():
        return []
    start = last_sentence_start(words)
    sentence = [core(w) for w in words[start:]]
    if len(sentence) < SHORTEST_SENTENCE or marked_line(words[start]):
        return []
    if not CLAUSE_SIGNS.intersection(sentence):
        return []
    return [Rewording(len(words) - 1, len(words), words[-1] + FULL_STOP)]


def last_sentence_start(words: Sequence[str]) -> int:
    """The index of the last sentence's first word: after the last end mark or line break."""
    for index in range(len(words) - 1, 0, -1):
        if "\n" in words[index] or words[index - 1].rstrip().endswith(SENTENCE_ENDS):
            return index
    return 0
