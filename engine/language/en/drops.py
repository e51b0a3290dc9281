"""Shortening a rewrite's seed by dropping words across the whole passage, never cutting its end.

A "tighter" instruction gives a gap a budget below its original length (see
:func:`engine.core.canvas.free_budget`), and the model writes into exactly that many positions,
starting from the original tokens it keeps. Cutting the original at the budget would make the
seed, and so the rewrite, lose the passage's last quarter: "make it tighter" would silently drop
the final sentence. Instead :func:`drop_words` removes whole words spread over the passage.

It cuts as a person does (issue 25: "to review budget", "presented figures" and a sentence
left as "The new bridge, which cost 38 million dollars and took four years to build." were
what word-by-word cuts gave users). What may go, cheapest first:

- hedges and filler, alone ("really", "basically") or as phrases ("in fact", "I think");
  wordy phrases swapped for their concise form (:mod:`engine.language.en.rewordings`: "in
  order to" → "to"), hedges opening a sentence and a side clause after a comma
  (:mod:`engine.language.en.cut_phrases`), whole wordy units ("a lot of" → "many", "made a
  decision" → "decided", "that had been delayed" → "delayed":
  :mod:`engine.language.en.cut_units`), each a :class:`Swap`;
- light connectives ("also", the "that" of "said that the"), the "had" of "had reported",
  "-ly" adverbs ("finally");
- an adjective before its noun ("the new page", "a long and tiring flight"), a reflexive
  that only stresses its noun ("the article itself"), a preposition with its object pronoun
  ("reported to us"), the "which is" of a side clause (", which is two weeks later").

Nothing else goes alone: not an article, a determiner or a preposition (the words a noun
phrase needs), not a noun or a verb. Capitalised words, numbers, negations, words carrying
punctuation and the last word are kept, and so are line breaks. Every cut is checked whole
before it is taken (:func:`engine.language.en.cut_safety.cut_damage`): none may leave a
sentence without a verb, change a negation, contrast, number or name, leave "a" before a
vowel, leave a mark dangling or a sentence opening in lower case. Cutting stops at a token
budget or, sooner, at a character target (:class:`Target`: the shorten pass asks for four
fifths of the passage less a margin). When the passage cannot reach it that way, it stays
longer: a shorter rewrite that still reads is worth more than one that fits (the canvas gives
it the room, and the proposal says why).

With a :data:`TokenCosts` reader (the model itself, read causally:
:mod:`engine.backends.masked.reader`) a unit's price is :data:`TIER_PRICE` of its tier plus
the NLL its loss adds to the tokens kept after it, and the cheapest go first; without one they
go in tier order, spread over the passage. A swap is priced like a dropped word: one that does
not fit its sentence ("many water") shows its damage in the words after it.

Pure functions over token texts: no tokenizer, no model, so tests can pin them down.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from engine.language.en.cut_phrases import opens_sentence
from engine.language.en.cut_safety import (
    coordinated_modifier,
    cut_damage,
    droppable_that,
    is_plain,
    may_be_verb,
    modifier_before_noun,
    past_perfect_auxiliary,
    pronoun_after_preposition,
    reduced_clause,
    reduced_relative,
    reflexive_after_noun,
)
from engine.language.en.data import load_json, word_set
from engine.language.en.meaning import SUBJECT_PRONOUNS

# Reads candidate passages, each given as the original's token indices it keeps, and answers
# with the NLL (nats) of every kept token in that candidate, in order: the model read causally.
TokenCosts = Callable[[Sequence[Sequence[int]]], list[list[float]]]

# Cost tiers, cheapest to drop first. Words are compared lower-cased, without surrounding space.
HEDGES = word_set("word_tiers.json", "hedges")
FILLER_PHRASES: tuple[tuple[str, ...], ...] = tuple(
    sorted((tuple(words) for words in load_json("word_tiers.json")["filler_phrases"]), key=len)[
        ::-1
    ]
)
COMPLEMENTIZER = "that"
LIGHT = word_set("word_tiers.json", "light")  # "told us that the ..." reads fine without it
# "-ly" words of 6+ letters are mostly adverbs of manner or time ("finally", "originally"), which
# a sentence reads fine without; these are not (nouns, verbs, or they quantify or negate).
LY_KEPT = word_set("word_tiers.json", "ly_kept")
LY_MIN_LETTERS = 6
FUNCTION = word_set("word_tiers.json", "function")
# Never dropped while anything else can go: dropping one flips the meaning.
NEGATIONS = word_set("word_tiers.json", "negations")
TIER_HEDGE, TIER_LIGHT, TIER_ADVERB, TIER_MODIFIER, TIER_CLAUSE, TIER_KEPT = range(6)
# The tiers a priced cut opens in turn: every word and phrase first, side clauses only after
# (see :func:`drop_words`).
TIER_PHASES = (TIER_MODIFIER, TIER_CLAUSE)
# With a model to read the candidates, a unit's price is the fluency its loss costs the words
# after it (nats) plus what it carries: nothing for a hedge, most for a describing word or a
# side clause (what the passage says, not how).
TIER_PRICE = {
    TIER_HEDGE: 0.0,
    TIER_LIGHT: 0.5,
    TIER_ADVERB: 0.5,
    TIER_MODIFIER: 2.0,
    TIER_CLAUSE: 2.0,
}


def word_spans(pieces: Sequence[str]) -> list[range]:
    """Token index ranges of the words: a piece that starts with whitespace starts a new word
    (byte-level BPE puts a word's space in its first token, or alone just before the word)."""
    spans: list[range] = []
    start = 0
    for i in range(1, len(pieces)):
        if pieces[i][:1].isspace():
            spans.append(range(start, i))
            start = i
    if pieces:
        spans.append(range(start, len(pieces)))
    return spans


@dataclass(frozen=True)
class Swap:
    """A phrase's words and the tokens of the text it leaves instead (a concise form, a
    sentence without its hedging opener), as indices past the passage's own pieces, where the
    caller appended them; ``text`` is that text, which the cut's check reads."""

    words: tuple[int, ...]
    tokens: tuple[int, ...]
    text: str = ""
    tier: int = TIER_HEDGE


@dataclass(frozen=True)
class Unit:
    """What one cut removes: whole words, or a phrase swapped for other text."""

    tier: int
    words: tuple[int, ...]
    swap: tuple[int, ...] = ()
    text: str = ""  # a swap's text, in place of its words

    @property
    def price(self) -> float:
        return TIER_PRICE[self.tier]


@dataclass(frozen=True)
class Passage:
    """A passage's words (each with its leading whitespace) and their token spans."""

    words: list[str]
    spans: list[range]

    def text(self, taken: Sequence[Unit] = ()) -> str:
        """The passage once ``taken`` is cut, each swap's text in its place."""
        dropped = _words_of(taken)
        inserted = {unit.words[0]: unit.text for unit in taken if unit.swap}
        kept = (("" if w in dropped else word) for w, word in enumerate(self.words))
        return "".join(inserted.get(w, "") + word for w, word in enumerate(kept))

    def allows(self, cuts: Sequence[Unit]) -> bool:
        """Whether making ``cuts`` leaves every sentence whole."""
        return cut_damage(self.text(), self.text(cuts)) is None

    def next_cuts(self, units: Sequence[Unit], taken: Sequence[Unit]) -> list[Unit]:
        """The units that may be cut after ``taken``: each shortens the passage and leaves
        every sentence whole, and overlaps no cut taken unless it holds that cut whole (a side
        clause after its "which is" went)."""
        size = _size(self.spans, taken)
        return [
            u
            for u in units
            if u not in taken
            and all(set(t.words) <= set(u.words) for t in taken if set(t.words) & set(u.words))
            and _size(self.spans, _with(taken, u)) < size
            and self.allows(_with(taken, u))
        ]


def _with(taken: Sequence[Unit], unit: Unit) -> list[Unit]:
    """``taken`` and ``unit``, which replaces the cuts it holds whole."""
    return [t for t in taken if not set(t.words) <= set(unit.words)] + [unit]


@dataclass(frozen=True)
class Target:
    """Where cutting stops: at ``budget`` tokens, or sooner once the passage's text is down to
    ``chars`` characters (its leading and trailing space aside), when that is given."""

    budget: int
    chars: int | None = None

    def met(self, passage: Passage, taken: Sequence[Unit]) -> bool:
        if _size(passage.spans, taken) <= self.budget:
            return True
        return self.chars is not None and len(passage.text(taken).strip()) <= self.chars


def drop_words(
    pieces: Sequence[str],
    budget: int,
    costs: TokenCosts | None = None,
    swaps: Sequence[Swap] = (),
    chars: int | None = None,
    dearest: int = TIER_CLAUSE,
) -> list[int]:
    """Indices of the tokens kept so that at most ``budget`` remain (or the text is down to
    ``chars`` characters), if whole-sentence cuts reach it (see the module docstring), more
    otherwise; the passage's end is never cut. No unit of a tier above ``dearest`` goes.

    ``pieces`` are the passage's per-token texts. Nothing is dropped when it already fits.
    Without ``costs`` the units go cheapest tier first, and within a tier the next is the one
    farthest from any unit cut so far, so the cuts spread over the whole passage. ``swaps``
    are phrases that may instead read as other text; a swap's tokens appear in the result
    where its words stood, as the indices the caller gave them. With ``costs`` (the model
    reading candidates) the cuts go by :func:`_priced_drops` first, one :data:`TIER_PHASES`
    phase after another: a side clause goes only once the words and phrases cannot reach the
    target, however cheap the model reads it (a clause's loss costs the words after it little,
    and it took "which was written by ..." before a hedge).
    """
    if budget >= len(pieces):
        return list(range(len(pieces)))
    spans = word_spans(pieces)
    passage = Passage(["".join(pieces[i] for i in span) for span in spans], spans)
    swapped = [Unit(swap.tier, swap.words, swap.tokens, swap.text) for swap in swaps]
    units = [u for u in _units(passage.words) + swapped if u.tier <= dearest]
    target = Target(budget, chars)
    taken: list[Unit] = []
    for phase in TIER_PHASES:
        if costs is None or target.met(passage, taken):
            break
        allowed = [u for u in units if u.tier <= phase]
        taken = _priced_drops(passage, allowed, target, costs, taken)
    return _kept(spans, _fixed_order(passage, units, target, taken))


def _fixed_order(
    passage: Passage, units: Sequence[Unit], target: Target, taken: Sequence[Unit]
) -> list[Unit]:
    """``taken`` and further units until the target is met: the cheapest tier first, and in a
    tier the unit farthest from any cut so far (what goes without a reader, or after it)."""
    taken = list(taken)
    while not target.met(passage, taken):
        dropped = _words_of(taken)
        open_units = passage.next_cuts(units, taken)
        if not open_units:
            break
        cheapest = min(u.tier for u in open_units)
        choices = [u for u in open_units if u.tier == cheapest]
        chosen = max(choices, key=lambda u: (_distance(u.words, dropped), -u.words[0]))
        taken = _with(taken, chosen)
    return taken


def _priced_drops(
    passage: Passage,
    units: Sequence[Unit],
    target: Target,
    costs: TokenCosts,
    taken: Sequence[Unit] = (),
) -> list[Unit]:
    """Units to cut, cheapest by :data:`TIER_PRICE` plus the NLL their loss adds to the tokens
    kept: one batched read of every one-unit-shorter candidate per round.

    A round cuts units cheapest first until the passage fits or the next one sits beside a
    unit cut in the same round (its price was read with that word still there), then reads
    again. A unit is read only while its cut leaves every sentence whole. A swap's new tokens
    add no price of their own: like a dropped word, it is priced by what it does to the words
    kept around it.
    """
    spans = passage.spans
    taken = list(taken)
    while not target.met(passage, taken):
        open_units = passage.next_cuts(units, taken)
        if not open_units:
            break
        priced = _prices(spans, taken, open_units, costs)
        round_words: set[int] = set()
        for _price, order in priced:
            unit = open_units[order]
            if target.met(passage, taken):
                break
            if any(abs(w - t) <= 1 for w in unit.words for t in round_words):
                break  # its price is stale: read again before anything dearer goes
            if round_words and not passage.allows(_with(taken, unit)):
                break  # allowed alone, not beside this round's cuts: read again
            round_words.update(unit.words)
            taken = _with(taken, unit)
    return taken


def _prices(
    spans: Sequence[range], taken: Sequence[Unit], open_units: Sequence[Unit], costs: TokenCosts
) -> list[tuple[float, int]]:
    """Each open unit's price and its index, cheapest first, from one batched read of the
    passage as kept and of every candidate one unit shorter."""
    current = _kept(spans, taken)
    rows = [current] + [_kept(spans, _with(taken, unit)) for unit in open_units]
    read = costs(rows)
    was = dict(zip(current, read[0], strict=True))
    return sorted(
        (
            unit.price + sum(nll - was.get(i, nll) for i, nll in zip(row, nlls, strict=True)),
            order,
        )
        for order, (unit, row, nlls) in enumerate(zip(open_units, rows[1:], read[1:], strict=True))
    )


def _words_of(taken: Sequence[Unit]) -> set[int]:
    return {w for unit in taken for w in unit.words}


def _size(spans: Sequence[range], taken: Sequence[Unit]) -> int:
    """Tokens the passage holds once ``taken`` is cut."""
    gone = sum(len(spans[w]) for unit in taken for w in unit.words)
    return sum(len(span) for span in spans) - gone + sum(len(u.swap) for u in taken)


def _kept(spans: Sequence[range], taken: Sequence[Unit]) -> list[int]:
    """The passage's token indices once ``taken`` is cut, each swap's tokens in its place."""
    dropped = _words_of(taken)
    inserted = {unit.words[0]: unit.swap for unit in taken if unit.swap}
    out: list[int] = []
    for w, span in enumerate(spans):
        out += inserted.get(w, ())
        if w not in dropped:
            out += span
    return out


def _units(words: Sequence[str]) -> list[Unit]:
    """What may be cut: the words of the tiers above, filler phrases whole ("I think" with the
    "that" after it), and the pairs :mod:`engine.language.en.cut_safety` finds: a preposition
    with its object pronoun, "and" with a second adjective, a side clause's "which is", the
    subject and "be" of a clause that reads as its "-ing" verb. The last word is never part of
    one; the first is not one when it is glued to the text before."""
    cores = [w.strip().lower() for w in words]
    units: list[Unit] = []
    last = len(words) - 1
    for i in range(last):
        phrase = _filler_at(words, cores, i)
        if phrase:
            units.append(Unit(TIER_HEDGE, phrase))
        pair = any(
            rule(words, i)
            for rule in (
                pronoun_after_preposition,
                reduced_clause,
                reduced_relative,
                coordinated_modifier,
            )
        )
        if pair and i + 1 < last:
            units.append(Unit(TIER_MODIFIER, (i, i + 1)))
        glued = i == 0 and not words[0][:1].isspace()
        tier = _tier(words, i)
        if not glued and tier < TIER_KEPT:
            units.append(Unit(tier, (i,)))
    return units


def _filler_at(words: Sequence[str], cores: Sequence[str], i: int) -> tuple[int, ...]:
    """The words of the filler phrase starting at word ``i`` (with a "that" after it), or ()."""
    if opens_sentence(words, i):
        return ()  # its capital would go with it: a hedging opener is a swap (cut_phrases)
    if _object_clause(words, cores, i):
        return ()
    for phrase in FILLER_PHRASES:
        stop = i + len(phrase)
        plain = all(is_plain(w) and "\n" not in w for w in words[i:stop])
        if tuple(cores[i:stop]) == phrase and stop < len(words) and plain:
            if cores[stop] == COMPLEMENTIZER and stop + 1 < len(words):
                stop += 1
            return tuple(range(i, stop))
    return ()


def _object_clause(words: Sequence[str], cores: Sequence[str], i: int) -> bool:
    """Whether a pronoun at word ``i`` opens the object of the verb before it ("let you know
    that", "said I think"): then "you know" or "I think" is what is said, not filler."""
    if cores[i] not in SUBJECT_PRONOUNS or words[i - 1].rstrip().endswith(","):
        return False
    return may_be_verb(cores[i - 1])


def _tier(words: Sequence[str], i: int) -> int:
    """Word ``i``'s tier, read with its neighbours (an adjective counts before a noun only)."""
    word = words[i]
    core = word.strip()
    low = core.lower()
    if "\n" in word or not is_plain(word) or core[0].isupper():
        return TIER_KEPT
    if low in NEGATIONS or low.endswith("n't"):
        return TIER_KEPT
    previous = words[i - 1] if i else None
    following = words[i + 1] if i + 1 < len(words) else None
    if low in HEDGES or reflexive_after_noun(words, i):
        return TIER_HEDGE
    if low == COMPLEMENTIZER:
        return TIER_LIGHT if droppable_that(previous, following) else TIER_KEPT
    if low in LIGHT or past_perfect_auxiliary(word, _past_adverbs(words, i + 1)):
        return TIER_LIGHT
    if _is_adverb(word):
        return TIER_ADVERB
    if modifier_before_noun(word, following):
        return TIER_MODIFIER
    return TIER_KEPT


def _is_adverb(word: str) -> bool:
    """An "-ly" adverb a cut may take ("originally")."""
    low = word.strip().lower()
    long_ly = low.endswith("ly") and len(low) >= LY_MIN_LETTERS
    return is_plain(word) and long_ly and low not in LY_KEPT


def _past_adverbs(words: Sequence[str], start: int) -> str | None:
    """The first word from ``start`` on that is no "-ly" adverb: the participle of "had
    originally promised", where the "had" may go too."""
    return next((w for w in words[start:] if not _is_adverb(w)), None)


def _distance(unit: tuple[int, ...], dropped: set[int]) -> float:
    """Words between ``unit`` and the nearest dropped word (infinite before the first drop)."""
    return min((min(abs(w - d) for w in unit) for d in dropped), default=float("inf"))
