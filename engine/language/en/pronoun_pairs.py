"""Two people joined by "and", each pronoun in the case its place asks.

A pronoun's case follows its place, and joined to another person by "and" it is the one word
of the pair whose form says which place that is. Speech blurs it both ways, and writing keeps
the blur: "Me and my sister cooked" (the subject's pronoun in the object's case) and "send it
to my husband and I" (the object's in the subject's, a correction carried too far). A single
pronoun's case is a form like any other and the model reading the passage chooses it; but
beside "and" the reading is no guide, since the blurred pair is what it read most often. So
here the place decides, as a rule of writing:

- **a pair that opens a clause** and is followed by its verb ("Me and my sister cooked",
  "Him and his partner run", "My cousin and me are"): each pronoun in the subject's case,
  and "I" last, as English puts the speaker ("My sister and I cooked", "He and his
  partner run");
- **a pair right after a preposition** whose pronoun follows "and" and ends the phrase at
  a mark, another preposition or a phrase of time ("to my husband and I before Friday",
  "for Sam and she.", "to Sam and I next week"):
  the pronoun in the object's case. Not before any other word, where the pronoun may open a
  clause of its own ("after Sam and I left", "in this case and I also think").

A person of the pair is a pronoun, a name (a capitalised word inside a sentence), or a
determiner and up to :data:`MOST_PHRASE_WORDS` more words ending on a noun ("my older
sister"). The pronouns' cases are language data (``data/grammar.json``); which words may be a
noun or a verb is lemminflect's lexicon. Pure functions over word texts (each with its leading
whitespace).
"""

from __future__ import annotations

from collections.abc import Sequence

from lemminflect import getAllLemmas

from engine.language.en.cut_safety import core
from engine.language.en.data import load_json, word_set
from engine.language.en.noun_subjects import determiner_phrase_stop
from engine.language.en.punctuation import starts_sentence
from engine.language.en.rewordings import Rewording, lead
from engine.language.en.sentence_time import time_phrase_at
from engine.language.en.verb_patterns import MARKS, plain

# An object pronoun and the subject's form of the same person ("me": "I").
SUBJECT_CASE: dict[str, str] = load_json("grammar.json")["subject_case"]
OBJECT_CASE = {subject: obj for obj, subject in SUBJECT_CASE.items()}
# Pronouns of one form in both places ("you", "it"): a person of a pair, never changed.
EITHER_CASE = word_set("grammar.json", "object_case_too")
PRONOUNS = frozenset(SUBJECT_CASE) | frozenset(OBJECT_CASE) | EITHER_CASE
SPEAKER = "i"  # always written as a capital, and last of the pair
AND = "and"
DETERMINERS = word_set("grammar.json", "determiners")
PREPOSITIONS = word_set("word_tiers.json", "prepositions")
# Words after which a clause opens, as at a sentence's start ("because me and Sam were").
CLAUSE_OPENERS = word_set("word_tiers.json", "subordinators") | word_set(
    "grammar.json", "complementizers"
)
MOST_PHRASE_WORDS = 2  # after its determiner: "my older sister", not a longer phrase
VERB, AUXILIARY = "VERB", "AUX"


def pair_fixes(words: Sequence[str], index: int, opens: bool) -> list[Rewording]:
    """The fixes of this module starting at word ``index`` (``opens``: whether the passage's
    first word starts a sentence)."""
    return [*subject_pair(words, index, opens), *object_pair(words, index)]


def subject_pair(words: Sequence[str], index: int, opens: bool) -> list[Rewording]:
    """ "Me and my sister cooked" → "My sister and I cooked": a pair opening a clause, before
    its verb, with a pronoun in the object's case."""
    if not (starts_sentence(words, index, opens) or _after_opener(words, index)):
        return []
    pair = _pair(words, index, first_at_opening=True)
    if pair is None:
        return []
    first, second, stop = pair
    if stop >= len(words) or not _may_be_verb(words[stop]):
        return []
    people = [_in_case(words[i:j], SUBJECT_CASE) for i, j in (first, second)]
    if not any(p[1] for p in people):
        return []
    ordered = sorted((p[0] for p in people), key=lambda person: person == SPEAKER.upper())
    text = f" {AND} ".join(ordered)
    return [Rewording(index, stop, _like(words[index], words[stop - 1], text))]


def object_pair(words: Sequence[str], index: int) -> list[Rewording]:
    """ "to my husband and I" → "to my husband and me": a pair right after a preposition
    (word ``index``) whose second person is a pronoun in the subject's case, with no verb
    after it."""
    if core(words[index]) not in PREPOSITIONS or not plain(words, index, index + 1):
        return []
    pair = _pair(words, index + 1, first_at_opening=False)
    if pair is None:
        return []
    _, (at, stop), _ = pair
    pronoun = core(words[at])
    if stop - at != 1 or pronoun not in OBJECT_CASE:
        return []
    if not _closes_phrase(words, stop):
        return []  # "in this case and I also think": "I" opens a clause of its own
    tail = words[at].strip()[len(pronoun) :]
    return [Rewording(at, stop, lead(words[at]) + OBJECT_CASE[pronoun] + tail)]


def _pair(
    words: Sequence[str], at: int, first_at_opening: bool
) -> tuple[tuple[int, int], tuple[int, int], int] | None:
    """Two persons joined by "and" from word ``at``, with no mark inside: each one's first and
    stop word, and the stop of the pair."""
    first_stop = _person(words, at, first_at_opening, followed_by_and=True)
    if first_stop is None or first_stop >= len(words) or core(words[first_stop]) != AND:
        return None
    second_stop = _person(words, first_stop + 1, False, followed_by_and=False)
    if second_stop is None or not plain(words, at, second_stop):
        return None
    return (at, first_stop), (first_stop + 1, second_stop), second_stop


def _person(words: Sequence[str], at: int, opening: bool, followed_by_and: bool) -> int | None:
    """The stop of a person starting at word ``at``: a pronoun, a name (not at a sentence's
    opening, where every word has a capital) or a determiner's phrase ending on a noun, the
    longest that a verb (or, ``followed_by_and``, "and") follows."""
    if at >= len(words):
        return None
    word = core(words[at])
    phrase = _phrase(words, at, followed_by_and) if word in DETERMINERS else None
    if phrase is not None:  # "her mother": "her" is a determiner there, not a pronoun
        return phrase
    if word in PRONOUNS:
        return at + 1
    if not opening and words[at].strip()[:1].isupper() and word.isalpha():
        return at + 1
    return None


def _phrase(words: Sequence[str], at: int, followed_by_and: bool) -> int | None:
    """The stop of a determiner's phrase from word ``at`` ending on a noun, the longest that
    a verb (or, ``followed_by_and``, "and") follows; no auxiliary in it ("my uncle will
    stay": "will" is the verb's, though a noun too)."""

    def then(words: Sequence[str], stop: int) -> bool:
        if stop >= len(words):
            return False
        return core(words[stop]) == AND if followed_by_and else _may_be_verb(words[stop])

    def no_auxiliary(phrase: Sequence[str]) -> bool:
        return not any(AUXILIARY in getAllLemmas(core(word)) for word in phrase[1:])

    return determiner_phrase_stop(words, at, MOST_PHRASE_WORDS, no_auxiliary, then)


def _in_case(person: Sequence[str], case: dict[str, str]) -> tuple[str, bool]:
    """A person's words (one pronoun put in ``case``), and whether its case changed; "I" is a
    capital wherever it stands, any other word of the pair in lower case but names."""
    text = "".join(person).strip()
    word = core(text)
    if len(person) == 1 and word in case:
        changed = case[word]
        return (changed.upper() if changed == SPEAKER else changed), True
    if word == SPEAKER:
        return SPEAKER.upper(), False
    first = person[0].strip()
    named = first[:1].isupper() and not (core(first) in DETERMINERS or core(first) in OBJECT_CASE)
    return (text if named else text[:1].lower() + text[1:]), False


def _closes_phrase(words: Sequence[str], stop: int) -> bool:
    """Whether the preposition's phrase ends before word ``stop``: at a mark, the passage's
    end, another preposition ("to Sam and I before Friday") or a phrase of time ("to Sam and I
    next week", :func:`~engine.language.en.sentence_time.time_phrase_at`). After any other
    word the pronoun may be a clause's subject ("after Sam and I left", "and I also think",
    "before Sam and I last met")."""
    if stop >= len(words) or MARKS.search(words[stop - 1]):
        return True
    return core(words[stop]) in PREPOSITIONS or time_phrase_at(words, stop)


def _after_opener(words: Sequence[str], index: int) -> bool:
    return index > 0 and plain(words, index - 1, index) and core(words[index - 1]) in CLAUSE_OPENERS


def _may_be_verb(word: str) -> bool:
    lemmas = getAllLemmas(core(word))
    return VERB in lemmas or AUXILIARY in lemmas


def _like(first_word: str, last_word: str, text: str) -> str:
    """``text`` in place of words from ``first_word`` to ``last_word``: the first one's lead,
    a capital where it had one, and the marks after the last one."""
    if first_word.strip()[:1].isupper():
        text = text[:1].upper() + text[1:]
    tail = last_word.strip()[len(last_word.strip().rstrip(".,;:!?\"')]")) :]
    return lead(first_word) + text + tail
