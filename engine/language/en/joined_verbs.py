"""A verb joined by "and" to its clause's first verb shares that verb's subject.

"She is very interested in old coins and collect them": "collect" has no subject of its own;
it is "She"'s, as "is" is, and asks the form "She" asks ("collects"). The reading reads the
verb against the words next to it ("coins and collect" reads well enough), so the subject
far back is lost to it. Here that subject is found as :func:`engine.language.en.form_risks.
asked_person` finds a pronoun's, and a verb that does not agree with it is fixed as any
other that does not.

Only where the reading is sure: the clause opens with a subject pronoun and its verb, a present
that agrees with it; no mark, other subject, clause opener or relative stands between that
verb and "and" ("She says that they sing and dance": "dance" is "they"'s); and the word after
"and" is a verb: only a verb in lemminflect's lexicon, or one with an object after it ("She
likes tea and cake": "cake" is a noun).
Pure functions over word texts (each with its leading whitespace).
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.language.en.cut_safety import core
from engine.language.en.data import word_set
from engine.language.en.form_risks import (
    BREAK,
    CLAUSE_WORDS,
    OBJECT_PRONOUNS,
    PLAIN_PRESENT,
    SUBORDINATORS,
    THIRD_SINGULAR,
    asked_person,
)
from engine.language.en.forms import VERB_CLASSES, readings, verb_tags
from engine.language.en.meaning import SUBJECT_PRONOUNS

AND = "and"
# Words that open a clause of their own between the first verb and "and".
CLAUSE_OPENERS = SUBORDINATORS | CLAUSE_WORDS | word_set("grammar.json", "complementizers")
SUBJECTS = THIRD_SINGULAR | PLAIN_PRESENT | SUBJECT_PRONOUNS
# Words that open a verb's object, never a noun's next word ("collect them", "watch the news").
OBJECT_STARTS = (OBJECT_PRONOUNS - SUBJECTS) | word_set("word_tiers.json", "articles")


def joined_verb_person(words: Sequence[str], index: int) -> str | None:
    """The present form the subject of the clause that word ``index`` joins after "and"
    asks of it, or ``None`` where that reading is unsure."""
    if index < 3 or core(words[index - 1]) != AND or BREAK.search(words[index - 2]):
        return None
    if not _read_as_a_verb(words, index):
        return None
    start = _clause_start(words, index - 1)
    if start is None or index - 1 - start < 3:
        return None
    person = asked_person(words, start + 1)
    if person is None or person not in verb_tags(core(words[start + 1])):
        return None  # the first verb must agree: then the subject is read right
    between = (core(word) for word in words[start + 2 : index - 1])
    return None if any(w in SUBJECTS or w in CLAUSE_OPENERS for w in between) else person


def _clause_start(words: Sequence[str], at: int) -> int | None:
    """The first word of word ``at``'s clause, when it is a subject pronoun."""
    start = at
    while start > 0 and not BREAK.search(words[start - 1]):
        start -= 1
    return start if core(words[start]) in SUBJECTS else None


def _read_as_a_verb(words: Sequence[str], index: int) -> bool:
    """Whether word ``index`` is a verb: lemminflect reads it only as one, or as one among
    others with an object after it that only a verb takes ("collect them", "watch the news")."""
    found = readings(core(words[index]))
    if not any(r.part in VERB_CLASSES for r in found) or BREAK.search(words[index]):
        return False
    if all(r.part in VERB_CLASSES for r in found):
        return True
    after = core(words[index + 1]) if index + 1 < len(words) else ""
    return after in OBJECT_STARTS
