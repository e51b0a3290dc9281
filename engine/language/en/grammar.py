"""Confusion sets: the words a grammar fix may put in place of a word, and nothing else.

A 135M model asked to "fix grammar" by renoising a paragraph rewrites whatever it renoises:
it fixed one error in four ("The guide were" → "was") and changed "manager" to "office". The
errors a proofreader meets are mostly a word in the wrong form of itself: a verb's tense or
person ("we goes", "she explain", "sended"), a homophone ("Their going"), a pronoun's case
("Mary and me has"), a doubled comparative ("more better"). So, as language-model-based
grammatical error correction without annotated data does (Bryant & Briscoe 2018), the
candidates for each word are its own forms, and the model reading the passage chooses among
them (:mod:`engine.passes.proofread`): a fix is only ever a form of the word the user wrote.

Forms come from three sources: closed classes listed here (be, have, do, pronouns,
homophones), the irregular verbs with their over-regularised misspellings ("sended",
"goed"), and regular inflection (-s, -es, -ed, -d) kept only where the result is a word the
model's vocabulary holds whole, a cheap lexicon that drops "explainned" and keeps "explained".

Pure functions over word texts: no tokenizer, no model.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from engine.language.en.data import load_json, pairs, word_set
from engine.language.en.rewordings import Rewording, rewordings, spelled

# Whether a lower-case word is one the model knows whole (its vocabulary holds " word").
Lexicon = Callable[[str], bool]

# Closed classes (any member may stand for any other of its set), irregular verbs (base, third
# person, past, past participle, -ing) and a learner's word pairs ("more better" is "better"):
# language data, in ``data/grammar.json``.
CLOSED_SETS: tuple[frozenset[str], ...] = tuple(
    frozenset(words) for words in load_json("grammar.json")["closed_sets"]
)
IRREGULAR_VERBS: tuple[tuple[str, ...], ...] = tuple(
    tuple(forms) for forms in load_json("grammar.json")["irregular_verbs"]
)
GRAMMAR_PHRASES = pairs("grammar.json", "learner_phrases")

# Words of fewer letters are not inflected by rule ("as" → "a", "us" → "u").
INFLECT_MIN_LETTERS = 3


PAST, PRESENT = "past", "present"
# The closed verbs' tenses ("be" and "been" have none).
CLOSED_TENSES: dict[str, str] = dict(load_json("grammar.json")["closed_tenses"])
# Words before a noun: a fix that adds or drops its "-s" changes how many things it says.
DETERMINERS = word_set("grammar.json", "determiners")
# Nats a fix must save beyond the margin when it changes what the sentence says, not only
# how: a verb's tense ("who won" → "who wins"), a noun's number ("the buttons" → "the button").
# An agreement fix ("the buttons is" → "are") is preferred to either.
TENSE_RISK = 3.0
NUMBER_RISK = 3.0


@dataclass(frozen=True)
class Fix:
    """A candidate fix, and the nats it must save beyond the margin (see :data:`TENSE_RISK`)."""

    rewording: Rewording
    risk: float = 0.0


def _verb_forms() -> tuple[dict[str, frozenset[str]], dict[str, str]]:
    """Every irregular form mapped to its verb's forms, with each base's over-regularised past
    ("sended", "goed") mapped to the real past forms only; and each form's tense."""
    forms: dict[str, frozenset[str]] = {}
    tenses = dict(CLOSED_TENSES)
    for entry in IRREGULAR_VERBS:
        base, third, past, participle, _ = entry
        verb = frozenset(entry)
        for form in verb:
            forms[form] = forms.get(form, frozenset()) | verb
        # A participle counts as past: "we seen" is no fix of "we see" the past is not.
        tenses.update({base: PRESENT, third: PRESENT, past: PAST, participle: PAST})
        for wrong in (base + "ed", base + "d", base.rstrip("e") + "ed"):
            if wrong not in verb:
                forms[wrong] = frozenset({past, participle})
    return forms, tenses


VERB_FORMS, TENSES = _verb_forms()


def tense(word: str) -> str | None:
    """A lower-case word's tense where it shows: listed verbs, and "-ed" as past."""
    if word in TENSES:
        return TENSES[word]
    return PAST if word.endswith("ed") else None


def risk(word: str, form: str, before: str) -> float:
    """What putting ``form`` for ``word`` (after the word ``before``) changes in meaning."""
    was, now = tense(word), tense(form)
    if was != now and PAST in (was, now):
        return TENSE_RISK
    if before in DETERMINERS and form.rstrip("es") == word.rstrip("es") and form != word:
        return NUMBER_RISK
    return 0.0


def alternatives(word: str, known: Lexicon) -> list[str]:
    """Lower-case forms ``word`` (a lower-case word, no marks) may be corrected to; never
    itself. Closed sets and irregular verbs first, then regular inflections the lexicon knows."""
    found: dict[str, None] = {}
    for closed in CLOSED_SETS:
        if word in closed:
            found.update(dict.fromkeys(sorted(closed)))
    found.update(dict.fromkeys(sorted(VERB_FORMS.get(word, ()))))
    if word not in found and len(word) >= INFLECT_MIN_LETTERS and word.isalpha():
        found.update(dict.fromkeys(w for w in regular_forms(word) if known(w)))
    found.pop(word, None)
    return list(found)


def regular_forms(word: str) -> list[str]:
    """The regular inflections of ``word`` and the stems it may be an inflection of."""
    if word.endswith("ies"):
        stem = word[:-3] + "y"
        return [stem, word[:-3] + "ied"]
    if word.endswith("ied"):
        stem = word[:-3] + "y"
        return [stem, word[:-3] + "ies"]
    if word.endswith("ed"):
        return [word[:-2], word[:-1], word[:-2] + "s", word[:-1] + "s"]
    if word.endswith("ss"):
        return [word + "es", word + "ed"]
    if word.endswith(("ches", "shes", "sses", "xes")):
        return [word[:-2], word[:-2] + "ed"]
    if word.endswith("s"):
        return [word[:-1], word[:-1] + "d", word[:-1] + "ed"]
    if word.endswith("y") and len(word) > 3 and word[-2] not in "aeiou":
        return [word[:-1] + "ies", word[:-1] + "ied"]
    if word.endswith(("ch", "sh", "x")):
        return [word + "es", word + "ed"]
    if word.endswith("e"):
        return [word + "s", word + "d"]
    return [word + "s", word + "ed"]


def fixes(words: Sequence[str], known: Lexicon) -> list[Fix]:
    """Every candidate fix in ``words`` (each with its leading whitespace): each word's other
    forms, and the learner's word pairs. Capitalised words other than a sentence's first
    (names), words holding digits, and words with inner marks are left as they are."""
    found = [Fix(r) for r in rewordings(words, GRAMMAR_PHRASES, keep_last=False)]
    for index, word in enumerate(words):
        letters = re.sub(r"[.,;:!?\"()]+$", "", word.strip())
        if not re.fullmatch(r"[A-Za-z]+(?:'[A-Za-z]+)?", letters):
            continue
        opens = _opens_sentence(words, index)
        if letters[0].isupper() and not opens and letters != "I":
            continue
        before = words[index - 1].strip().lower() if index else ""
        lower = letters.lower()
        for form in alternatives(lower, known):
            text = spelled(word, word, form)
            if form == "i":  # "I" is capitalised anywhere, its other forms only where they open
                text = text.replace("i", "I", 1)
            elif letters == "I" and not opens:
                text = text.replace(form[0].upper(), form[0], 1)
            found.append(Fix(Rewording(index, index + 1, text), risk(lower, form, before)))
    return found


def _opens_sentence(words: Sequence[str], index: int) -> bool:
    """Whether the word at ``index`` starts a sentence (the passage's first, or after . ! ?)."""
    return index == 0 or words[index - 1].rstrip().endswith((".", "!", "?"))
