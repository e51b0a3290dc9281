"""What a document calls the thing it dates: the name a template's ``name`` or ``title`` takes.

An event template filled from "The three-day film marathon ends on 23 October 2027 in Ghent."
got names the base model made up ("Theft of Time"): nothing told it the document names the
event already. The thing a document is about is the one whose days it states, so its name is
the subject of the first sentence that writes a day (:func:`engine.structured.stated.read`'s
phrases): a determiner, up to :data:`MAX_NAME_WORDS` words, then the sentence's verb, a form of
"be" or a modal (lemminflect's AUX) or an inflected verb ending in "-s" ("ends", "opens",
"runs"): "film" in "film marathon" is a verb too, but not one a singular subject takes. The
names offered are that phrase and, when it opens with describing words ("three-day", "annual"),
its last words alone, each with a capital ("Three-day film marathon", "Film marathon").

A sentence without a determiner before its verb names no such thing ("Ana Souza joins on 3
May": a person, whose name is the model's to copy), nor one whose verb a capitalised name
follows ("The new contact is Ana Souza"), and a document that writes no day names nothing here.
"""

from __future__ import annotations

import re
from functools import lru_cache

from lemminflect import getAllLemmas

from engine.structured.named_days import SENTENCE_END, sentence_phrases
from engine.structured.periods import CALENDAR_WORDS

MAX_NAME_WORDS = 5  # "the annual open-air jazz festival": longer is a clause, not a name
DETERMINERS = ("The", "Our", "This", "Its", "Their")
WORD = re.compile(r"[A-Za-z][\w'’-]*")


@lru_cache(maxsize=16)  # a template's members each ask of the same document
def subject_names(document: str) -> tuple[str, ...]:
    """The names the first dated sentence of ``document`` gives its subject, the whole phrase
    first; none when that sentence opens with no determiner and a verb within reach."""
    for sentence in SENTENCE_END.split(document):
        found = sentence_phrases(sentence)
        if not found.points and not found.periods:
            continue
        phrase = subject_of(sentence.strip())
        return () if phrase is None else names_of(phrase)
    return ()


def subject_of(sentence: str) -> list[str] | None:
    """The words between a sentence's opening determiner and its verb, or ``None``."""
    words = WORD.findall(sentence)
    if not words or words[0] not in DETERMINERS:
        return None
    for at, word in enumerate(words[1 : MAX_NAME_WORDS + 2], start=1):
        if finite_verb(word):
            after = words[at + 1] if at + 1 < len(words) else ""
            if after[:1].isupper() and after not in CALENDAR_WORDS:
                return None  # "The new contact is Ana Souza": the subject is a role, not a name
            return words[1:at] if at > 1 else None
    return None


def finite_verb(word: str) -> bool:
    """Whether ``word`` reads as a singular subject's verb: an auxiliary ("is", "will"), or
    an inflected verb ending in "-s" ("opens", "ends"; not "film")."""
    lemmas = getAllLemmas(word.lower())
    if "AUX" in lemmas:
        return True
    verbs = lemmas.get("VERB", ())
    return word.islower() and word.endswith("s") and any(v != word for v in verbs)


def names_of(phrase: list[str]) -> tuple[str, ...]:
    """The phrase with a capital, then its last words alone when describing words open it
    (words lemminflect knows only as adjectives, or hyphened ones: "three-day")."""
    whole = capitalised(" ".join(phrase))
    start = 0
    while start < len(phrase) - 1 and describing(phrase[start]):
        start += 1
    head = capitalised(" ".join(phrase[start:]))
    return (whole,) if head == whole else (whole, head)


def describing(word: str) -> bool:
    lemmas = getAllLemmas(word.lower())
    return "-" in word or (bool(lemmas) and set(lemmas) <= {"ADJ"})


def capitalised(text: str) -> str:
    return text[:1].upper() + text[1:]
