"""The words a member's name and a clause share for one act: a name's own words (what
thing it dates, :func:`own_words`), the act words of a start or an end (:func:`bound_acts`),
and when a clause's word names that act however it is inflected or derived
(:func:`names_act`, :func:`act_words`: "filing" and "filed", "paid" and "payment"; no
compound whose other part the name does not write). Words from ``field_words.json``; the
ranking that uses them is :mod:`.member_days`.
"""

from __future__ import annotations

from functools import lru_cache

from lemminflect import getAllLemmas, getLemma

from engine.language.en.forms import verb_tags
from engine.structured import columns
from engine.structured.words import key_parts, name_words, shares_act

SHORTEST_OWN_WORD = 3  # "paperwork_due_by": "by" names no thing
GERUND = "ing"
PAST_FORMS = frozenset({"VBD", "VBN"})  # "paid", "sent": a past verb names its act


def own_words(key: str) -> frozenset[str]:
    """The words of a member's name that say what thing it dates: not those that only say
    it holds a day ("date"), or that it starts or ends something."""
    listed_words = columns.field_words()
    plain = listed_words["day_name"] | listed_words["start"] | listed_words["end"]
    return frozenset(
        w
        for part in key_parts(key)
        if part not in plain and len(part) >= SHORTEST_OWN_WORD
        for w in act_words(part)
    )


def bound_acts(key: str) -> frozenset[str]:
    """The words of a start's or an end's name that name an act ("issue", "delivered", not
    "start" or "until", the ``bound_words`` of ``field_words.json``): a name with no word of
    its own ("issue_date", "delivered_on") dates the act its sentence writes a day beside."""
    listed_words = columns.field_words()
    plain = listed_words["day_name"] | listed_words["bound_words"]
    return frozenset(
        w
        for part in key_parts(key)
        if part not in plain and len(part) >= SHORTEST_OWN_WORD
        for w in act_words(part)
    )


def bound_verbs(key: str) -> frozenset[str]:
    """The verbs of a name made only of ``bound_words`` and day words ("opened_on": open,
    "start_date": start), where it names no act of its own (:func:`bound_acts`): a lone
    one dates what its sentence writes a day beside ("Account opened 11 June 2024")."""
    listed_words = columns.field_words()
    parts = key_parts(key)
    if bound_acts(key) or not set(parts) <= listed_words["day_name"] | listed_words["bound_words"]:
        return frozenset()
    verbs = [p for p in parts if p not in listed_words["day_name"] and "VERB" in getAllLemmas(p)]
    return frozenset(w for part in verbs for w in act_words(part))


def names_act(own: frozenset[str], word: str) -> bool:
    """Whether a clause's word names the act of a member's ``own`` words: one act however
    inflected (:func:`act_words`), but no compound whose other part the name does not write
    ("half-term" is no ``term``, "pre-order" no ``order``; "e-filed" is ``filed``)."""
    parts = [p for p in word.split("-") if len(p) >= SHORTEST_OWN_WORD]
    other = len(parts) > 1 and any(not shares_act(own, act_words(p)) for p in parts)
    joined = shares_act(own, act_words(word.replace("-", "")))  # "clean-ups": "cleanup"
    return shares_act(own, act_words(word)) and (not other or joined)


def derived_only(key: str, word: str) -> bool:
    """Whether a clause's word names a member's act only as another word made from the same
    verb ("payment terms" for ``paid_date``, beside "paid on 12 March")."""
    plain = frozenset(w for part in key_parts(key) for w in inflected_words(part))
    return not shares_act(plain, inflected_words(word))


@lru_cache(maxsize=4096)
def act_words(word: str) -> frozenset[str]:
    """A word's :func:`inflected_words`, an irregular past verb's lemma ("paid": "pay",
    lemminflect's lexicon), the verb a noun is made from ("payment": "pay",
    :func:`.columns.verb_of`) and a phrasal compound's ("pickup": "pick",
    :func:`.columns.phrasal_verb`): a member's name and a clause name one act however it is
    inflected or derived."""
    derived = columns.verb_of(word) | columns.phrasal_verb(word)
    return inflected_words(word) | derived | past_verb(word)


@lru_cache(maxsize=4096)
def inflected_words(word: str) -> frozenset[str]:
    """A word with its lemmas (:func:`.words.name_words`) and a gerund's verb ("filing" and
    "filed" both "file")."""
    found = name_words(word)
    if word.endswith(GERUND):
        found |= frozenset(getLemma(word, upos="VERB"))
    return found


def past_verb(word: str) -> frozenset[str]:
    """The verb a past form is of, irregular ones too ("paid", "sent", "held")."""
    return (
        frozenset(getAllLemmas(word).get("VERB", ()))
        if verb_tags(word) & PAST_FORMS
        else frozenset()
    )
