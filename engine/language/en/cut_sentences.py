"""Whole sentences a person cuts when shortening: the ones that say again what the passage says.

A paragraph a reader asks to be shorter often restates its point ("Tomatoes grow well in a
garden with sun." after "The garden gets sun. Tomatoes grow well in it."), or closes on a
sentence that sums up the one before. No cut of single words reaches four fifths of such
a passage while every sentence stays; dropping the restating sentence does, and a person
tightening the paragraph drops it first.

Which sentence restates is read from the passage itself, not from a list of phrases: a
sentence is redundant when most of its content words (:data:`REDUNDANT_SHARE`), as lemmas
from lemminflect's lexicon ("grew" is "grow", "gardens" is "garden"), stand in the rest of the
passage. Sentences that only repeat each other are not both cut: each is read without the
ones already found redundant, the most redundant first. The cut is a
:class:`~engine.language.en.rewordings.Rewording` of the sentence and the word before it (the
previous sentence's end), which :mod:`engine.passes.shorten` prices by the model like every
cut and :func:`engine.language.en.cut_safety.cut_damage` checks: a sentence that holds a
number, a name, a negation or a contrast the rest does not say again never goes. A sentence
opening its line (a heading, a list item, a paragraph's first) stays: it carries the block.

A short courtesy to the reader (:func:`courtesy_sentences`: "Thanks for your patience.") is cut
the same way, by its shape: a verb of thanking or hoping and a "you" in a few words.

Pure functions over words, each with its leading whitespace (as
:func:`engine.language.en.drops.word_spans` splits them).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from lemminflect import getAllLemmas

from engine.language.en.cut_phrases import FULL_STOPS, opens_sentence
from engine.language.en.cut_safety import CLOSED_CLASSES, core, is_plain
from engine.language.en.data import word_set
from engine.language.en.rewordings import Rewording

# A sentence restates the passage when more than half of what it names is named elsewhere:
# three of five content words, so that one shared subject ("users") never makes a sentence
# that adds two new facts look redundant.
REDUNDANT_SHARE = 0.6
# A sentence of one content word says too little to be judged by its words.
MIN_CONTENT_WORDS = 2
# Words that name nothing: the closed classes, auxiliaries, modals and hedges.
NOT_CONTENT = (
    CLOSED_CLASSES
    | word_set("word_tiers.json", "function")
    | word_set("word_tiers.json", "modals")
    | word_set("word_tiers.json", "hedges")
    | word_set("word_tiers.json", "light")
)
HYPHEN = "-"
# A courtesy longer than a dozen words says something of its own.
MAX_COURTESY_WORDS = 12
COURTESY_LEMMAS = word_set("cuts.json", "courtesy_lemmas")
READER_WORDS = word_set("cuts.json", "reader_words")


@dataclass(frozen=True)
class Sentence:
    """Words ``first`` up to (not including) ``stop`` of a passage: one sentence."""

    first: int
    stop: int


def sentence_spans(words: Sequence[str]) -> list[Sentence]:
    """The passage's sentences, by where each opens (:func:`opens_sentence`)."""
    starts = [i for i in range(len(words)) if opens_sentence(words, i)]
    return [Sentence(a, b) for a, b in zip(starts, [*starts[1:], len(words)], strict=True)]


@cache
def lemmas(word: str) -> frozenset[str]:
    """A lower-case word and every lemma lemminflect's lexicon gives it, any part of speech."""
    found = {word}
    for forms in getAllLemmas(word).values():
        found.update(forms)
    return frozenset(found)


def content_words(words: Sequence[str]) -> list[str]:
    """The words that name something (lower-case, marks stripped; a hyphenated word counts as
    its parts, "one-week" as "one" and "week")."""
    found = []
    for word in words:
        for part in core(word).split(HYPHEN):
            if part.isalpha() and part not in NOT_CONTENT:
                found.append(part)
    return found


def covered_share(sentence: Sequence[str], rest: Sequence[str]) -> float:
    """The share of ``sentence``'s content words whose lemmas stand among ``rest``'s words."""
    said = content_words(sentence)
    if len(said) < MIN_CONTENT_WORDS:
        return 0.0
    known = set().union(*(lemmas(w) for w in content_words(rest)))
    return sum(bool(lemmas(w) & known) for w in said) / len(said)


def droppable(words: Sequence[str], sentence: Sentence) -> bool:
    """Whether a sentence stands after another on its line, ends with a full stop and holds
    no line break: a cut of it leaves every block and the passage's start as they were."""
    first, stop = sentence.first, sentence.stop
    if first == 0 or not words[first][:1].isspace() or "\n" in "".join(words[first:stop]):
        return False
    ends = words[stop - 1].strip().endswith(FULL_STOPS)
    return ends and words[first - 1].rstrip().endswith(FULL_STOPS) and is_plain(words[first])


def redundant_sentences(words: Sequence[str]) -> list[Rewording]:
    """Every sentence whose content the rest of the passage says (see the module docstring),
    as the word before it: the sentence dropped, the previous one's end as it was. The most
    redundant go first, and each later one is read without them, so that two sentences that
    only say each other's words are never both cut."""
    everything = sentence_spans(words)

    def share(sentence: Sentence, without: Sequence[Sentence]) -> float:
        rest = [
            w for s in everything if s not in (sentence, *without) for w in words[s.first : s.stop]
        ]
        return covered_share(words[sentence.first : sentence.stop], rest)

    spans = [s for s in everything if droppable(words, s)]
    ranked = sorted(spans, key=lambda s: (-share(s, ()), -s.first))
    chosen: list[Sentence] = []
    for sentence in ranked:
        if share(sentence, chosen) >= REDUNDANT_SHARE:
            chosen.append(sentence)
    return [Rewording(s.first - 1, s.stop, words[s.first - 1]) for s in chosen]


def courtesy_sentences(words: Sequence[str]) -> list[Rewording]:
    """Every short sentence of courtesy addressed to the reader ("Thanks for your patience.",
    "Hope you had a good weekend."): a lemma of thanking or hoping and a "you", in at most
    :data:`MAX_COURTESY_WORDS` words. The passage's first goes with the next word capitalised;
    any other with the previous sentence's end kept."""
    found = []
    for sentence in sentence_spans(words):
        first, stop = sentence.first, sentence.stop
        said = [core(w) for w in words[first:stop]]
        if stop - first > MAX_COURTESY_WORDS or not set(said) & READER_WORDS:
            continue
        if not {lemma for w in said for lemma in lemmas(w)} & COURTESY_LEMMAS:
            continue
        if not words[stop - 1].strip().endswith(FULL_STOPS) or "\n" in "".join(words[first:stop]):
            continue
        if droppable(words, sentence):
            found.append(Rewording(first - 1, stop, words[first - 1]))
        elif first == 0 and stop < len(words) and is_plain(words[stop]):
            following = words[stop].strip()
            found.append(Rewording(first, stop + 1, following[:1].upper() + following[1:]))
    return found
