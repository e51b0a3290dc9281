"""Cuts longer than a word that change the words around them: hedging openers and side clauses.

Dropping words one at a time cannot take "Basically, the plan works" down to "The plan works":
the next word must take the sentence's capital. Nor can it drop a side clause set off by
commas ("the bridge, which was built in a hurry, opened") without leaving the comma before
it ("the bridge, opened"). Both are written here as :class:`~engine.language.en.rewordings.
Rewording` objects (the words they replace and the text they leave), which
:mod:`engine.passes.shorten` offers as swaps, priced by the model like any other cut:

- :func:`hedge_openers`: a hedge opening a sentence ("To be honest,", "I think"), with
  the "that" after a verb of thinking ("I think that the meeting" → "The meeting"), its
  comma, and the next word capitalised;
- :func:`simple_verbs`: a modal's progressive read as its simple form ("will be sending" →
  "will send"), the base form from lemminflect;
- :func:`reader_haves`: a clause that only wonders whether the reader has what the noun
  before it names ("any questions you might have" → "any questions"), where it closes its
  clause: what the noun says is asked either way;
- :func:`side_clauses`: a relative clause after a comma (", which ... ,", ", who ... .") up to
  the next comma or its sentence's end, the comma before it taken with it, unless it holds a
  negation, a number or a name (what a reader checks a rewrite by; dropping those changes what
  the passage says).

The openers are general English in ``data/word_tiers.json``. Pure functions over words, each
with its leading whitespace (as :func:`engine.language.en.drops.word_spans` splits them).
"""

from __future__ import annotations

from collections.abc import Sequence

from lemminflect import getAllLemmas, getInflection

from engine.language.en import meaning
from engine.language.en.cut_safety import (
    ADJECTIVE_TAG,
    ING,
    VERB_TAG,
    core,
    is_plain,
    may_be_noun,
)
from engine.language.en.data import load_json, word_set
from engine.language.en.rewordings import Rewording

OPENERS: tuple[tuple[str, ...], ...] = tuple(
    sorted(
        (tuple(phrase.split()) for phrase in load_json("word_tiers.json")["hedge_openers"]),
        key=len,
        reverse=True,  # the longest first: "as a matter of fact" before "in fact"
    )
)
# A hedge word opens a sentence too ("Basically, we need" → "We need").
HEDGES = word_set("word_tiers.json", "hedges")
COMPLEMENTIZER = "that"
SENTENCE_ENDS = (".", "!", "?", ":")
FULL_STOPS = (".", "!", "?")  # the marks that end a sentence itself
EMPHASIS = "*_"  # Markdown's emphasis marks, which may close after a sentence's end
CLAUSE_COMMA = ","
RELATIVES = frozenset(load_json("meaning.json")["relative_pronouns"])
MODALS = word_set("word_tiers.json", "modals")
# "in my view", "to our mind": a preposition, a possessive and a noun of opinion (data/cuts.json)
STANCE: frozenset[tuple[str, str]] = frozenset(
    (prep, noun) for prep, noun in load_json("cuts.json")["stance_phrases"]
)
POSSESSIVES = word_set("cuts.json", "possessives")
STANCE_WORDS = 3
# "in my own view", "in my personal opinion": a word that only says whose the stance is.
STANCE_ADJECTIVES = word_set("cuts.json", "stance_adjectives")
PROGRESSIVE_BE = "be"
BASE_TAG = "VB"  # lemminflect's (Penn) tag of a verb's base form


def opens_sentence(words: Sequence[str], index: int) -> bool:
    """Whether word ``index`` starts a sentence: the passage's first word (with space or at the
    text's start), or one after a sentence end or a line break."""
    if index == 0:
        return True
    previous = words[index - 1].rstrip().rstrip(EMPHASIS)  # "*Note:* it": the colon ends it
    return "\n" in words[index] or previous.endswith(SENTENCE_ENDS)


def hedge_openers(words: Sequence[str]) -> list[Rewording]:
    """Every hedge opening a sentence of ``words``, read as the sentence without it."""
    found = []
    for first in range(len(words)):
        if not opens_sentence(words, first) or not words[first].strip()[:1].isupper():
            continue
        stop = _opener_end(words, first)
        if stop is None or stop >= len(words) - 1:
            continue  # no opener, or the passage's last word would go with it
        following = words[stop]
        if not is_plain(following.rstrip(",;:.!?")):
            continue
        lead = words[first][: len(words[first]) - len(words[first].lstrip())]
        text = following.strip()
        found.append(Rewording(first, stop + 1, lead + text[:1].upper() + text[1:]))
    return found


def stance_at(cores: Sequence[str], i: int) -> int:
    """How many words a stance phrase ("in my view", "in our own experience", "in my personal
    opinion") starting at word ``i`` has (0: none)."""
    if i + 2 >= len(cores) or cores[i + 1] not in POSSESSIVES:
        return 0
    own = cores[i + 2] in STANCE_ADJECTIVES and i + 3 < len(cores)  # "in my own view"
    return STANCE_WORDS + own if (cores[i], cores[i + 2 + own]) in STANCE else 0


def _opener_end(words: Sequence[str], first: int) -> int | None:
    """Where the sentence goes on after the openers at ``first``: past each one's words, the
    "that" of a verb of thinking and a comma after either, and past another opener right after
    it ("In my view, I think that"); ``None`` without an opener."""
    stop = _one_opener_end(words, first)
    while stop is not None:
        further = _one_opener_end(words, stop)
        if further is None:
            return stop
        stop = further
    return None


def openers_with(openers: Sequence[Rewording], others: Sequence[Rewording]) -> list[Rewording]:
    """Each opener joined to a rewording of the words it leaves opening the sentence
    ("Basically, what we need to do is" → "We need to"): the two overlap in that word, so
    neither could be taken beside the other."""
    joined = []
    for opener in openers:
        for other in others:
            if other.first == opener.stop - 1 and other.text.strip():
                said = other.text.lstrip()
                lead = opener.text[: len(opener.text) - len(opener.text.lstrip())]
                joined.append(
                    Rewording(opener.first, other.stop, lead + said[:1].upper() + said[1:])
                )
    return joined


def _one_opener_end(words: Sequence[str], first: int) -> int | None:
    """Where the sentence goes on after the one opener at ``first`` (see :func:`_opener_end`)."""
    if first >= len(words):
        return None
    cores = [core(w) for w in words]
    hedge = (cores[first],) if cores[first] in HEDGES else ()
    stance = tuple(cores[first : first + stance_at(cores, first)])
    for phrase in (*OPENERS, stance, hedge):
        stop = first + len(phrase)
        if not phrase or tuple(cores[first:stop]) != phrase or stop >= len(words):
            continue
        inner = words[first : stop - 1]
        if not all(is_plain(w) for w in inner) or not _ends_phrase(words[stop - 1]):
            continue
        if cores[stop] == COMPLEMENTIZER and is_plain(words[stop]):
            stop += 1
        return stop
    return None


def _ends_phrase(word: str) -> bool:
    """The opener's last word: plain, or plain with a comma after it."""
    text = word.strip()
    return is_plain(text) or (text.endswith(",") and is_plain(text[:-1]))


def side_clauses(words: Sequence[str]) -> list[Rewording]:
    """Every relative clause after a comma, up to the next comma or its sentence's end, that
    carries no negation, number or name, read as the word before it without its comma ("the
    bridge, which was built in a hurry," → "the bridge"; "the bridge, which we like." → "the
    bridge.")."""
    found = []
    for start in range(1, len(words) - 1):
        previous = words[start - 1].strip()
        if not previous.endswith(",") or core(words[start]) not in RELATIVES:
            continue
        end = next((i for i in range(start, len(words) - 1) if _closes(words[i])), None)
        closing = words[end].strip()[-1:] if end is not None and "\n" not in words[end] else ""
        if end is None or closing not in (CLAUSE_COMMA, *FULL_STOPS):
            continue
        clause = "".join(words[start : end + 1])
        if meaning.negations(clause) or meaning.numbers(clause) or meaning.names(" x " + clause):
            continue
        lead = words[start - 1][: len(words[start - 1]) - len(words[start - 1].lstrip())]
        # a clause that ends its sentence leaves the sentence's end mark after the noun
        kept_mark = "" if closing == CLAUSE_COMMA else closing
        found.append(Rewording(start - 1, end + 1, lead + previous[:-1] + kept_mark))
    return found


READER_HAVES = load_json("cuts.json")["reader_haves"]
HAVE_MODALS = frozenset(READER_HAVES["modals"])


def reader_haves(words: Sequence[str]) -> list[Rewording]:
    """Every "<noun> (that) you may/might/could have" that closes its clause, as the noun
    with the clause's mark ("any questions you might have." → "any questions.")."""
    found = []
    for noun in range(len(words) - 3):
        at = noun + 1 + (core(words[noun + 1]) == READER_HAVES["relative"])
        if at + 2 >= len(words) or not may_be_noun(words[noun]):
            continue
        subject, modal, verb = (core(w) for w in words[at : at + 3])
        last = words[at + 2]
        closes = at + 2 == len(words) - 1 or _closes(last)
        shaped = subject == READER_HAVES["subject"] and verb == READER_HAVES["verb"]
        if not (shaped and modal in HAVE_MODALS and closes):
            continue
        if all(is_plain(w) for w in words[noun : at + 2]):
            mark = last.strip()[len(core(last)) :]
            found.append(Rewording(noun, at + 3, words[noun].rstrip() + mark))
    return found


def _closes(word: str) -> bool:
    """A word that ends a clause: a comma, a sentence end or a line break after it."""
    return "\n" in word or word.rstrip().endswith((",", ";", *SENTENCE_ENDS))


def simple_verbs(words: Sequence[str]) -> list[Rewording]:
    """Every "be" + "-ing" verb after a modal ("will be sending"), read as the verb's base
    form ("will send"): the same time, a word fewer."""
    found: list[Rewording] = []
    for at in range(1, len(words) - 2):
        if core(words[at - 1]) not in MODALS or core(words[at]) != PROGRESSIVE_BE:
            continue
        verb = words[at + 1]
        if not (is_plain(words[at]) and core(verb).endswith(ING)):
            continue
        readings = getAllLemmas(core(verb))
        if ADJECTIVE_TAG in readings:
            continue  # "will be interesting" describes; "will interest" says another thing
        bases = [
            form for lemma in readings.get(VERB_TAG, ()) for form in getInflection(lemma, BASE_TAG)
        ]
        if not bases:
            continue
        base = bases[0]
        lead = words[at][: len(words[at]) - len(words[at].lstrip())]
        tail = verb.strip()[len(core(verb)) :]  # the marks after it
        found.append(Rewording(at, at + 2, lead + base + tail))
    return found
