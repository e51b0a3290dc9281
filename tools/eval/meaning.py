"""Did a rewrite keep the meaning? The suite's own check, written apart from the engine's.

A rewrite may change words, but not what the text says: the number of negations ("not",
"never", "can't"), the numbers, the names, the contrastive connectives ("but", "however")
and whether every sentence still has a verb. Each is compared between the text the case
expects (its paragraph, with the corrections it asks for applied) and the output, both read
as plain text (Markdown marks removed) with contractions written out, so "can't" and
"cannot" count alike. :func:`changes` says what changed, in words a report can quote.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable

from tools.eval.measures import STOPWORDS
from tools.eval.wording import (
    contraction_forms,
    expanded,
    is_auxiliary,
    is_base_verb,
    is_inflected_verb,
    is_known,
    is_plural_noun,
    lexicon,
    plain_text,
    sentences,
    slang_forms,
    word_set,
    words,
    written_out_forms,
)

# What a case may allow: "words" (a translation changes every function word, so negations,
# connectives and verbs are not compared; numbers and names still are).
ALLOW_WORDS = "words"
RELATIVE_CLAUSE = r",\s*(?:{})\b[^,]*(?:,|$)"


def _without_idioms(text: str) -> str:
    """ "whether or not", "not only ... but also": no negation, no contrast, in these."""
    for idiom in word_set("idioms"):
        text = re.sub(rf"\b{re.escape(idiom)}\b", " ", text, flags=re.IGNORECASE)
    return text


def negations(text: str) -> int:
    found = words(_without_idioms(expanded(text, slang=True)))
    return sum(1 for w in found if w.lower() in word_set("negations"))


def contrasts(text: str) -> int:
    found = words(_without_idioms(expanded(text)))
    return sum(1 for w in found if w.lower() in word_set("contrastive"))


def numbers(text: str) -> Counter[str]:
    """Every number, written in digits or in words ("two" and "2" are the same number)."""
    spelled = lexicon()["number_words"]
    found: Counter[str] = Counter()
    for token in re.findall(r"\d[\d,]*(?:\.\d+)?|[A-Za-z]+", text):
        if token[0].isdigit():
            found[token.replace(",", "")] += 1
        elif token.lower() in spelled:
            found[str(spelled[token.lower()])] += 1
    return found


def names(text: str) -> set[str]:
    """Capitalised words inside a sentence, "I" aside, and a sentence's first word when the
    lexicon knows no such common word ("Ada", not "The" or "Yesterday"): names, mostly."""
    found = set()
    for sentence in sentences(text):
        ws = [_without_clitic(w) for w in words(sentence)]
        for i, word in enumerate(ws):
            if word[0].isupper() and not _common(word) and (i > 0 or not is_known(word)):
                found.add(word)
    return found


def _without_clitic(word: str) -> str:
    """A word less its "'s", a possessive's or an "is"/"has": "Ada's" is the name Ada, and
    "Rent's" opening a sentence is the common word "rent" ("Rent's due" written out as "Rent
    is due" loses no name)."""
    return re.sub(r"['\u2019]s$", "", word) or word


def _common(word: str) -> bool:
    """A word that is no name in any position: "I", "The", "Hi", "You'll", "Cannot"."""
    low = word.lower()
    closed = STOPWORDS | word_set("interjections") | contraction_forms() | slang_forms()
    closed |= written_out_forms()
    return low in closed or low.split("'")[0] in STOPWORDS


def _lowered(text: str) -> set[str]:
    return {_without_clitic(w).lower() for w in words(text)}


def _capitalised(text: str) -> set[str]:
    return {_without_clitic(w) for w in words(text) if w[0].isupper()}


def has_verb(sentence: str) -> bool:
    """A finite verb, an auxiliary or an imperative, by the lexicon: a sentence that is only
    a subordinate clause ("Because the vendor is late.") or a noun with a relative clause
    ("The bridge, which cost millions.") has none of its own."""
    text = expanded(sentence)
    relative = RELATIVE_CLAUSE.format("|".join(sorted(word_set("relative_words"))))
    text = re.sub(relative, " ", text, flags=re.IGNORECASE)
    found = words(text)
    if found and found[0].lower() in word_set("subordinators"):
        _, comma, main = text.partition(",")
        return bool(comma) and has_verb(main)
    return _verb_evidence(found)


def _verb_evidence(found: list[str]) -> bool:
    openers = word_set("subjects") | word_set("verb_openers")
    for i, word in enumerate(found):
        if is_auxiliary(word) or is_inflected_verb(word) or _noun_clitic(word):
            return True
        before = found[i - 1].lower() if i else ""
        subject = before in openers or is_auxiliary(before) or is_plural_noun(before)
        if is_base_verb(word) and (i == 0 or subject):
            return True
    return False


def _noun_clitic(word: str) -> bool:
    """A noun's or a name's "'s" left after the contractions were written out: "is" or "has"
    as often as a possessive ("Rent's due"), so the check, erring towards a verb, reads
    it as one."""
    return _without_clitic(word) != word


def verbless(text: str) -> list[str]:
    return [s for s in sentences(text) if not has_verb(s)]


def changes(
    expected: str, output: str, allow: tuple[str, ...] = (), original: str = ""
) -> list[str]:
    """What the output changed of the meaning of ``expected`` (empty: meaning kept).

    All are Markdown paragraphs, read as plain text. ``original`` is the paragraph before the
    corrections a case asks for: a correction left unmade ("insted" for "instead") is not a
    change of meaning, so each measure may match either text."""
    want, got = plain_text(expected), plain_text(output)
    was = plain_text(original) if original else want
    found = []
    if ALLOW_WORDS not in allow:
        found += _count_change("negations", negations, want, was, got)
        found += _count_change("contrastive connectives", contrasts, want, was, got)
    if numbers(got) not in (numbers(want), numbers(was)):
        found.append(f"numbers {sorted(numbers(want))} became {sorted(numbers(got))}")
    # a name may move to the front of a sentence: look for it capitalised anywhere
    lost = (names(want) & names(was)) - _capitalised(got)
    added = names(got) - _capitalised(want) - _capitalised(was)
    # a capital given to a word that was there ("english" → "English") adds no name
    added -= {n for n in added if n.lower() in _lowered(want) | _lowered(was)}
    if lost or added:
        found.append(f"names lost {sorted(lost)}, added {sorted(added)}")
    new = verbless(got) if ALLOW_WORDS not in allow else []
    if len(new) > max(len(verbless(want)), len(verbless(was))):
        found.append(f"a sentence without a verb: {new[-1]!r}")
    return found


def _count_change(
    what: str, count: Callable[[str], int], want: str, was: str, got: str
) -> list[str]:
    n = count(got)
    return [] if n in (count(want), count(was)) else [f"{what} {count(want)} became {n}"]
