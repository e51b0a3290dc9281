"""What a change of wording may not change: negation, contrast, numbers, names and the verb.

A rewrite may say the same thing in other words, never another thing. Fluency cannot tell the
two apart (the model reads "so" after a clause as well as "but"), so a few plain signs of
meaning are compared between a passage as it was and as rewritten:

- **negation**: how many negating words there are ("not", "never", "without", any "n't"):
  "can't" becoming "cannot" keeps one, "is not" becoming "is" drops one;
- **contrast**: how many contrastive connectives ("but", "although", "however", ...): one
  swapped for another is the same contrast; one swapped for "so" or "and" is not;
- **numbers**: the numbers said, digits and number words alike ("four" is "4"; "1,200" is
  "1200"), as a multiset;
- **names**: capitalised words that do not open a sentence (a case fix, "english" to
  "English", is no new name; a name moved to a sentence's start is still there);
- **a verb**: a sentence with a verb must not become one without (a fragment). Which words
  are verb forms is lemminflect's lexicon of English inflections (no tagger model can be
  downloaded here): a word counts when it is an auxiliary or its only readings are verbs, so
  that "cost" or "plan", nouns as often as verbs, never make a fragment look like a sentence;
  and a verb inside a relative clause set off by commas (", which took four years,") is the
  clause's, not the sentence's.

The word lists are general English in ``data/meaning.json``. Pure functions over strings.
"""

from __future__ import annotations

import re
from collections import Counter
from functools import cache

from lemminflect import getAllLemmas

from engine.language.en.data import load_json, word_set

NEGATIONS = word_set("meaning.json", "negations")
NEGATION_SUFFIX: str = load_json("meaning.json")["negation_suffix"]
CONTRASTIVE = word_set("meaning.json", "contrastive")
NUMBER_WORDS: dict[str, str] = load_json("meaning.json")["number_words"]
ALWAYS_CAPITALISED = word_set("meaning.json", "always_capitalised")
VERB_CONTRACTIONS = tuple(load_json("meaning.json")["verb_contractions"])  # "n't", "'re", ...
# lemminflect's universal parts of speech: a word with only verb readings, or any auxiliary
# reading ("can", "will", nouns too), is a verb form.
VERB_TAGS = frozenset({"VERB", "AUX"})
AUX_TAG = "AUX"

WORD = re.compile(r"\d[\d,.]*\d(?:st|nd|rd|th)?|\d(?:st|nd|rd|th)?|[A-Za-z]+(?:'[A-Za-z]+)*")
# A word opens a sentence when only non-word characters (quotes, list and heading marks,
# spaces) stand between it and the text's start, a sentence's end, a colon or a line break.
OPENS_SENTENCE = re.compile(r"(?:\A|[.!?:\n])[\W\d_]*\Z")
SENTENCE_END = re.compile(r"[.!?]+(?=\s|\Z)|\n+")
# A relative clause set off by a comma (", which took four years,") says something of a noun:
# its verb is not the sentence's.
RELATIVES = "|".join(load_json("meaning.json")["relative_pronouns"])
RELATIVE_CLAUSE = re.compile(rf",\s*(?:{RELATIVES})\b[^,.;!?\n]*,?", re.IGNORECASE)
APOSTROPHES = str.maketrans({"\u2019": "'", "\u2018": "'"})


def words(text: str) -> list[str]:
    """The words and numbers of ``text``, as written (curly apostrophes made straight)."""
    return WORD.findall(text.translate(APOSTROPHES))


def negations(text: str) -> int:
    """How many negating words ``text`` has."""
    lowered = (w.lower() for w in words(text))
    return sum(1 for w in lowered if w in NEGATIONS or w.endswith(NEGATION_SUFFIX))


def contrasts(text: str) -> int:
    """How many contrastive connectives ``text`` has."""
    return sum(1 for w in words(text) if w.lower() in CONTRASTIVE)


def numbers(text: str) -> Counter[str]:
    """The numbers ``text`` says, digits and number words in one spelling."""
    found: Counter[str] = Counter()
    for word in words(text):
        if word[0].isdigit():
            found[word.replace(",", "")] += 1
        elif word.lower() in NUMBER_WORDS:
            found[NUMBER_WORDS[word.lower()]] += 1
    return found


def names(text: str) -> set[str]:
    """Capitalised words of ``text`` that do not open a sentence ("I" aside)."""
    text = text.translate(APOSTROPHES)
    found = set()
    for match in WORD.finditer(text):
        word = match.group()
        if not word[0].isupper() or word.split("'")[0] in ALWAYS_CAPITALISED:
            continue
        if not OPENS_SENTENCE.search(text[: match.start()]):
            found.add(word)
    return found


@cache
def is_verb(word: str) -> bool:
    """Whether ``word`` is surely a verb form: an auxiliary, a word whose every reading in
    lemminflect's lexicon is a verb's, or a contracted verb ("don't", "we're")."""
    word = word.lower()
    if word.endswith(VERB_CONTRACTIONS):
        return True
    readings = set(getAllLemmas(word))
    return AUX_TAG in readings or (bool(readings) and readings <= VERB_TAGS)


def sentences(text: str) -> list[str]:
    """The sentences (and lines) of ``text`` that have words."""
    return [s for s in SENTENCE_END.split(text) if words(s)]


def verbless(text: str) -> int:
    """How many sentences of ``text`` have no verb form outside their relative clauses."""
    main_clauses = (RELATIVE_CLAUSE.sub(" ", s) for s in sentences(text))
    return sum(1 for s in main_clauses if not any(is_verb(w) for w in words(s)))


def names_changed(was: str, now: str) -> bool:
    """Whether a name of one text is missing from the other (in any case, anywhere in it)."""
    words_was = {w.lower() for w in words(was)}
    words_now = {w.lower() for w in words(now)}
    lost = {n for n in names(was) if n.lower() not in words_now}
    gained = {n for n in names(now) if n.lower() not in words_was}
    return bool(lost or gained)


def meaning_change(was: str, now: str) -> str | None:
    """Which sign of meaning rewording ``was`` as ``now`` changed, or ``None``: "negation",
    "contrast", "number", "name" or "verb" (a sentence left without one)."""
    if negations(was) != negations(now):
        return "negation"
    if contrasts(was) != contrasts(now):
        return "contrast"
    if numbers(was) != numbers(now):
        return "number"
    if names_changed(was, now):
        return "name"
    if verbless(now) > verbless(was):
        return "verb"
    return None
