"""What the "'s" of a noun or a name stands for when it is a verb ("the data's a mess":
"is"; "the team's been told": "has"), so that "formal" can write it out.

The ``contractions`` package lists the "'s" of pronouns ("it's", "that's", "nobody's" is not
among them) and nothing else, since after a noun "'s" is a possessive as often as a verb:
"the team's plan" owns, "the team's ready" is. Formal left every such "'s" as written. The
word after it tells them apart, as a reader tells them: a possessive is followed by what it
owns, a noun phrase; a verb by anything a noun phrase cannot start with, an article or a
possessive determiner ("the plan's a good one"), "not", a preposition ("the report's on the
desk"), an adjective that ends its phrase ("nobody's sure where"), an "-ing" form or a
participle that no noun follows ("the printer's making noise", "the file's saved"), but
not an "-ing" form that is also a noun and ends its phrase, which the possessive may own
("the team's meeting." where "the team's meeting today" is "is").

"been", "got" and "gotten" after it make it "has"; an article, a preposition, an adjective or
an "-ing" form make it "is"; after "not", "never" or a participle it may be either, and both are
offered for the model reading the passage to choose, as it chooses between a pronoun's two
readings. Casual reads the same signs the other way: a noun's "is" before such a word may
become its "'s" ("the courier is expected" → "the courier's expected"), and "has" only before
"been" or "got", where no possessive can follow. The word classes come from
``data/word_tiers.json`` and ``data/registers.json``.

Pure functions over word texts; no model.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from lemminflect import getAllLemmas, getInflection

from engine.language.en.cut_safety import (
    ADJECTIVE_TAG,
    ARTICLES,
    CLOSED_CLASSES,
    NOUN_TAG,
    PREPOSITIONS,
    VERB_TAG,
    core,
    may_be_noun,
    readings,
)
from engine.language.en.data import word_set
from engine.language.en.rewordings import Rewording

IS, HAS = "is", "has"
# A word and its "'s" (straight or curly), letters only before it: "data's", "Maria’s".
CLITIC_S = re.compile(r"(?P<lead>\s*)(?P<word>[A-Za-z]+)['\u2019]s(?P<tail>[^\w'\u2019]*)")
HAS_NEXT = word_set("registers.json", "clitic_s_has_next")
EITHER_NEXT = word_set("registers.json", "clitic_s_either_next")
POSSESSIVE_DETERMINERS = word_set("registers.json", "possessive_determiners")
# lemminflect reads "where" and "tomorrow" as nouns too; after an adjective or a participle
# they open a clause or say when, and are nothing a possessive owns.
NOT_OWNED = word_set("registers.json", "not_owned") | word_set("meaning.json", "relative_pronouns")
ING = "ing"
PARTICIPLE_TAG = "VBN"
PHRASE_ENDS = frozenset(",.;:!?")
# A noun ending in a hiss takes "'s" hard ("the box's", "the office's"): casual leaves it.
HISSING_ENDS = tuple(sorted(word_set("registers.json", "hissing_endings")))


def verb_readings(following: str, after: str | None) -> tuple[str, ...]:
    """What the "'s" before ``following`` (and ``after`` it, ``None`` at the passage's end)
    stands for as a verb: ``("is",)``, ``("has",)``, both, or none (a possessive)."""
    low = core(following)
    if not low[:1].isalpha():
        return ()
    if low in HAS_NEXT:
        return (HAS,)
    if low in EITHER_NEXT:
        return (IS, HAS)
    if low in ARTICLES or low in POSSESSIVE_DETERMINERS:
        return (IS,)
    if low in PREPOSITIONS:
        # "up", "out", "inside" also describe a noun: "the car's inside door"
        return () if ADJECTIVE_TAG in readings(low) else (IS,)
    ends_phrase = after is None or following.rstrip()[-1:] in PHRASE_ENDS
    owned = after is not None and may_be_noun(after) and core(after) not in NOT_OWNED
    if not ends_phrase and owned:
        return ()  # what it owns: "the team's new plan", "the company's marketing team"
    if ends_phrase and low.endswith(ING) and NOUN_TAG in getAllLemmas(low):
        return ()  # "the team's meeting." may own it, where "the team's meeting today" is
    return _bare_readings(low)


def _bare_readings(low: str) -> tuple[str, ...]:
    """The readings of the word after "'s" by itself, where no noun follows it: an "-ing"
    form or an adjective is after "is"; a participle after either ("is saved", "has left")."""
    found = getAllLemmas(low)
    if low.endswith(ING) and VERB_TAG in found:
        return (IS,)
    verbs = found.get(VERB_TAG, ())
    if any(low in getInflection(lemma, PARTICIPLE_TAG) for lemma in verbs):
        return (IS, HAS)
    if ADJECTIVE_TAG in found and NOUN_TAG not in found:
        return (IS,)
    return ()


def noun_clitics(words: Sequence[str], known: frozenset[str]) -> list[Rewording]:
    """Each word of ``words`` whose "'s" is a verb, written out in each of its readings
    ("the data's a" → "data is"); words in ``known`` (the contractions a table already
    expands: "it's", "that's") are left to it. The last word has nothing after it to tell."""
    found = []
    for i, word in enumerate(words[:-1]):
        match = CLITIC_S.fullmatch(word)
        if match is None or core(word).replace("\u2019", "'") in known:
            continue
        after = words[i + 2] if i + 2 < len(words) else None
        for verb in verb_readings(words[i + 1], after):
            text = f"{match['lead']}{match['word']} {verb}{match['tail']}"
            found.append(Rewording(i, i + 1, text))
    return found


def contracted_nouns(words: Sequence[str], heads: frozenset[str]) -> list[Rewording]:
    """Casual's half: each noun or name before "is" that reads as the verb it is by the same
    word after it ("the meeting is postponed" → "meeting's"; "has" only before "been" or
    "got": "the team has a plan" contracted would read as a possessive). Not a word ending in
    a hiss ("the office's closed" is hard to say), nor one of ``heads`` (the first words of
    the contractions a table makes: "it is", "there is")."""
    found = []
    for i, word in enumerate(words[:-2]):
        if not _contracts(word, words[i + 1], heads):
            continue
        verb = core(words[i + 1])
        after = words[i + 3] if i + 3 < len(words) else None
        shown = verb_readings(words[i + 2], after)
        if (verb == IS and IS in shown) or (verb == HAS and shown == (HAS,)):
            found.append(Rewording(i, i + 2, f"{word.rstrip()}'s"))
    return found


def _contracts(word: str, verb: str, heads: frozenset[str]) -> bool:
    """Whether ``word`` may take the "'s" of ``verb`` ("is" or "has", as written, no mark)."""
    letters = word.strip()
    if not letters.isalpha() or verb.strip() not in (IS, HAS):
        return False
    low = letters.lower()
    if low in heads or low in CLOSED_CLASSES or low.endswith(HISSING_ENDS):
        return False
    return letters[0].isupper() or NOUN_TAG in readings(low)
