"""Which words of a passage are misspelt, and what each may be instead.

"Fix spelling" used to read as grammar's other forms of each word, which fixes a misspelt
inflection ("sended") and nothing else: of 40 real misspellings ("recieved", "definately",
"becuse") it fixed one. A misspelling is no form of any word, so its candidates have to come
from a dictionary: here, SymSpell (symspellpy) with the English frequency dictionary it ships
(82,765 words), every word within :data:`MAX_EDIT_DISTANCE` edits of the misspelt one, the
closest and most frequent first, and :data:`SOUND_CANDIDATES` more that sound like it
(:mod:`engine.language.en.sounds`: "imidatly" is four edits from "immediately" and sounds the
same). The dictionary only proposes; the model reading the passage chooses
(:mod:`engine.passes.proofread`), each candidate priced by how likely its slip is (its edits
weighed by kind, :mod:`engine.language.en.channel`, and its sound), so "adress" can be
"address" in one sentence and "dress" in another.

symspellpy was measured beside pyspellchecker on the spelling set's tuning half (195 real
misspellings, 5,909 words of clean sentences): the right word was among SymSpell's candidates
for 180 misspellings (pyspellchecker: 164), its candidates took 4 ms a word (pyspellchecker's
distance-2 edits: about a second), in context (proofreading the first 54 pairs) the model
chose the right word as often from either (42, with :data:`engine.passes.proofread.
SPELLING_EDIT_NATS`), and the words it does not know in clean text are mostly
American spellings and inflections ("traveled"), which :meth:`Speller.is_known` also accepts
as forms of a dictionary word by lemminflect's lexicon.

A word is never "corrected" when it is anything but a plain lower-case word of prose: a name (a
capital anywhere but where a sentence opens; such a word of six letters or more that no
dictionary knows may only become a proper word one edit away: a month, a weekday, a major
language or a country, from the calendar module and babel's CLDR names, so "Itallian" can be
"Italian" and "Febuary" "February", while a person's name has nothing to become), an
acronym, anything holding a digit, an inner mark (a URL, an e-mail address, a path,
``snake_case``, a hyphenated or contracted word) or a code mark. Nor when the dictionary,
lemminflect's lexicon, the model's vocabulary (a word it holds whole, unless it is a slip of
one of the commonest words: :data:`COMMON_COUNT`) or the user's own dictionary knows it.

A rare dictionary word one edit from a far commoner one ("noe", "alow") is offered that word
too, at a dearer margin (:mod:`engine.language.en.real_words`); the editor does not underline
it. Two slips no dictionary word undoes are offered too: a contraction with its apostrophe dropped
("dont", from the ``contractions`` package) and two words run together ("inorder", by
SymSpell's word segmentation). On JFLEG's tuning half both were among the misspellings the
references fixed and proofreading kept ("dont", "inorder", "allday"; "ther" was the
vocabulary's). Locked text and code spans never reach this module: the passes only offer it
the free text.

Pure functions over word texts, and the dictionary (built once per process, on first use).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import cache

from lemminflect import getAllLemmas

from engine.language.en import sounds
from engine.language.en.apostrophes import dropped_apostrophes
from engine.language.en.channel import FULL_EDIT, slip_edits
from engine.language.en.dictionary import (
    MAX_EDIT_DISTANCE,
    dictionary_counts,
    dictionary_words,
    edit_distance,
    is_rare,
    symspell_index,
)
from engine.language.en.forms import regularised_forms
from engine.language.en.real_words import commoner_neighbours
from engine.language.en.registers import (
    APOSTROPHE,
    CONTRACTED,
    STRAIGHT_APOSTROPHES,
)
from engine.language.en.sounds import key_edits, sound_alike
from engine.language.en.varieties import DEFAULT_VARIETY, in_variety, variety_of

# Candidates offered per misspelt word: on the tuning half the right word was among the first
# five for 178 of the 180 misspellings it was found for at all; each is one more read.
MAX_CANDIDATES = 5
# Candidates offered beyond those, found by their sound (:mod:`engine.language.en.sounds`):
# a word misspelt by ear is often further than two edits ("imidatly"), or two edits from many
# words that do not sound like it ("rouint": "point", "round", "count" before "routine").
SOUND_CANDIDATES = 3
# Words shorter than this are left alone: "u", "ur" and "im" are chat, not misspellings, and a
# one-letter word has dozens of words within two edits.
MIN_LETTERS = 3
# A capitalised word inside a sentence is a name unless, this long and unknown, it is one edit
# from a proper word (a shorter name is too often one edit from a month or a language).
MIN_PROPER_LETTERS = 6
PROPER_EDITS = 1
PROPER_LOCALE = "en"
ISO_CODE_LETTERS = 2  # a major language's (ISO 639-1) or a country's (ISO 3166) code

# A plain word: letters, and one apostrophe inside a contraction or a possessive ("doesn't",
# "dosen't", "team's"), with the marks that may follow it in prose.
PLAIN_WORD = re.compile(
    r"(?P<lead>[\"'(\[]*)(?P<word>[A-Za-z]+(?:['\u2019][A-Za-z]+)?)(?P<tail>[.,;:!?\"')\]]*)"
)
CURLY_APOSTROPHE = "\u2019"
POSSESSIVE_CLITIC = "s"
SENTENCE_ENDS = (".", "!", "?")
SENTENCE_CLOSERS = "\"')]"

# Whether a lower-case word is one the model knows whole (its vocabulary holds " word").
Lexicon = Callable[[str], bool]
# The model's vocabulary vouches for a word the dictionary lacks ("npm", "ebook") unless one
# of the commonest English words is an edit away: the web text a vocabulary is built from
# repeats the commonest slips often enough to hold them whole ("ther", "wil", "thi"). This
# count is about the 140th word's in the dictionary's counts ("will", "their"); of the embedded
# model's 21,185 whole lower-case words, 2,699 are known only by it, mostly fragments ("gover",
# "creat"), and 142 have such a neighbour (a tenth of this count: 615, with "ebook" and "lol").
COMMON_COUNT = 1_000_000_000
# A word written as two run together ("inorder", "allday") is offered split in two when each
# half is a common word of at least this many letters (SymSpell's word segmentation).
MIN_PART_LETTERS = 2
SPLIT_PARTS = 2
SPLIT_EDITS = 1  # a space left out


def never_known(_word: str) -> bool:
    return False


@dataclass(frozen=True)
class Misspelling:
    """Word ``index`` of a passage (as :func:`misspellings` was given it) is misspelt:
    ``candidates`` are what it may be instead, each spelled as the word stood there (its
    capital, its marks), the dictionary's best first."""

    index: int
    word: str
    candidates: tuple[str, ...]
    edits: tuple[int, ...] = ()  # per candidate: how many edits it is from the word
    sounds: tuple[int, ...] = ()  # per candidate: how many edits its sound is from the word's
    slips: tuple[float, ...] = ()  # per candidate: its edits weighed by kind (channel.slip_edits)
    # A rare dictionary word with a far commoner neighbour, not a misspelling
    # (:mod:`engine.language.en.real_words`): its candidates must save more.
    real_word: bool = False


@dataclass(frozen=True)
class Speller:
    """What counts as known beyond the dictionary: the user's own words (compared in lower
    case) and the model's vocabulary."""

    user_words: frozenset[str] = frozenset()
    in_vocabulary: Lexicon = never_known
    # The spelling variety candidates are written in (:mod:`engine.language.en.varieties`).
    variety: str = DEFAULT_VARIETY

    @classmethod
    def with_words(
        cls,
        words: Iterable[str],
        in_vocabulary: Lexicon = never_known,
        variety: str = DEFAULT_VARIETY,
    ) -> Speller:
        user_words = frozenset(
            word.strip().lower().translate(STRAIGHT_APOSTROPHES) for word in words if word.strip()
        )
        return cls(user_words, in_vocabulary, variety)

    def is_known(self, word: str) -> bool:
        """Whether ``word`` (letters, and perhaps one apostrophe) is spelled as English or as
        its writer wants it. A word with an apostrophe is known as a contraction the
        dictionary or the contractions package holds, or as a known word's "'s"."""
        lower = word.lower().translate(STRAIGHT_APOSTROPHES)
        if lower in self.user_words:
            return True
        if APOSTROPHE in lower:
            head, _, clitic = lower.partition(APOSTROPHE)
            known = lower in dictionary_words() or lower in CONTRACTED
            return known or (clitic == POSSESSIVE_CLITIC and self.is_known(head))
        return (
            lower in dictionary_words()
            or inflects_a_known_word(lower)
            or (self.in_vocabulary(lower) and not slipped(lower))
        )

    def commoner_neighbours(self, letters: str) -> tuple[tuple[str, int], ...]:
        """The far commoner words a rare lower-case word may have slipped from
        (:mod:`engine.language.en.real_words`); none for the user's own word or a word of
        two spellings (the writer chose it), nor for a contraction or a possessive (a known
        one is written as meant: "we'd" is no slip of "wed")."""
        if not letters.isalpha() or not letters.islower() or letters in self.user_words:
            return ()
        if variety_of(letters):
            return ()
        return commoner_neighbours(letters)

    def misspelt(self, letters: str, opens: bool) -> bool:
        """Whether a word of letters only, standing where a sentence opens or not, is one
        spelling would change (the editor's underline)."""
        return is_prose_word(letters, opens) and not self.is_known(letters)

    def suggestions(self, word: str) -> tuple[str, ...]:
        """The dictionary's candidates for ``word``, best first, spelled with its capital
        and in :attr:`variety`; none when it is known, and never ``word`` itself (the other
        variety's spelling of a word, "unequalled", is the word as typed in this one)."""
        spelled = (
            _like(word, in_variety(found.lower(), self.variety)) for found, _ in self.ranked(word)
        )
        return tuple(s for s in dict.fromkeys(spelled) if s != word)

    def ranked(self, word: str) -> tuple[tuple[str, int], ...]:
        """:meth:`suggestions` with how many edits each is from ``word``."""
        if self.is_known(word):
            return ()
        lower = word.lower().translate(STRAIGHT_APOSTROPHES)
        head, mark, clitic = lower.partition(APOSTROPHE)
        if mark and clitic == POSSESSIVE_CLITIC:  # "authour's": the word's candidates, and "'s"
            found = dictionary_candidates(head)
            return tuple((_like(word, w + mark + clitic), edits) for w, edits in found)
        return tuple((_like(word, w), edits) for w, edits in dictionary_candidates(lower))


def misspellings(words: Sequence[str], speller: Speller) -> list[Misspelling]:
    """Every misspelt plain word of ``words`` (each with its leading whitespace, as
    :func:`engine.core.worddiff.split_words` gives them) with its candidates."""
    found = []
    for index, word in enumerate(words):
        letters = checkable(words, index)
        proper = letters is None and capitalised(words, index)
        if proper:
            letters = proper
        if not letters:
            continue
        ranked = proper_candidates(letters, speller) if proper else speller.ranked(letters)
        if ranked:
            found.append(_priced(index, word, letters, ranked, speller.variety))
        elif near := speller.commoner_neighbours(letters):  # a rare word, a likely slip ("noe")
            found.append(_priced(index, word, letters, near, speller.variety, real_word=True))
    return found


def _priced(
    index: int,
    word: str,
    letters: str,
    ranked: Sequence[tuple[str, int]],
    variety: str,
    real_word: bool = False,
) -> Misspelling:
    """Word ``index``'s candidates, each priced by its slip from the letters typed and then
    spelt in ``variety``: a word of two spellings costs what the nearer one does (the
    variety is the document's, not the typist's slip), and comes once, at its first place."""
    typed = letters.lower()
    priced: dict[str, tuple[int, int, float]] = {}
    for candidate, edits in ranked:
        lower = candidate.lower()
        spelled = _like(candidate, in_variety(lower, variety))
        if CURLY_APOSTROPHE in letters:  # the writer's apostrophe, as typed
            spelled = spelled.replace(APOSTROPHE, CURLY_APOSTROPHE)
        price = (edits, key_edits(typed, lower), slip_of(typed, lower))
        was = priced.get(spelled, price)
        priced[spelled] = (min(was[0], price[0]), min(was[1], price[1]), min(was[2], price[2]))
    prices = list(priced.values())
    return Misspelling(
        index,
        letters,
        tuple(word.replace(letters, spelled, 1) for spelled in priced),
        tuple(price[0] for price in prices),
        tuple(price[1] for price in prices),
        tuple(price[2] for price in prices),
        real_word,
    )


def checkable(words: Sequence[str], index: int) -> str | None:
    """The letters of word ``index`` when it is a plain word of prose spelling may change:
    not a name, an acronym, a number, a URL or anything else with inner marks."""
    match = PLAIN_WORD.fullmatch(words[index].strip())
    if match is None:
        return None
    letters = match.group("word")
    return letters if is_prose_word(letters, opens_sentence(words, index)) else None


def capitalised(words: Sequence[str], index: int) -> str:
    """The letters of word ``index`` when it is capitalised inside a sentence (a name, or a
    proper word misspelt) and long enough to be checked as one; empty else."""
    match = PLAIN_WORD.fullmatch(words[index].strip())
    letters = match.group("word") if match else ""
    title = letters[:1].isupper() and letters[1:].islower()
    return letters if title and len(letters) >= MIN_PROPER_LETTERS else ""


def proper_candidates(letters: str, speller: Speller) -> tuple[tuple[str, int], ...]:
    """The proper words one edit from a capitalised word no dictionary knows."""
    if speller.is_known(letters):
        return ()
    distance = edit_distance()
    found = [
        (word, edits)
        for word in proper_words()
        if abs(len(word) - len(letters)) <= PROPER_EDITS
        and 0 < (edits := distance.compare(letters, word, PROPER_EDITS)) <= PROPER_EDITS
    ]
    return tuple(sorted(found, key=lambda pair: pair[1])[:MAX_CANDIDATES])


@cache
def proper_names() -> tuple[str, ...]:
    """Months, weekdays, major languages (ISO 639-1) and countries, by their English names
    (calendar; babel's CLDR data), words of letters only, any length."""
    import calendar

    from babel import Locale

    english = Locale(PROPER_LOCALE)
    names = [*calendar.month_name[1:], *calendar.day_name]
    names += [n for code, n in english.languages.items() if len(code) == ISO_CODE_LETTERS]
    names += [n for code, n in english.territories.items() if len(code) == ISO_CODE_LETTERS]
    return tuple(sorted({n for n in names if n.isalpha()}))


@cache
def proper_words() -> tuple[str, ...]:
    """The :func:`proper_names` of :data:`MIN_PROPER_LETTERS` or more: the capitalised words
    prose most often misspells."""
    return tuple(n for n in proper_names() if len(n) >= MIN_PROPER_LETTERS)


def is_prose_word(letters: str, opens: bool) -> bool:
    """Whether a word of letters only may be checked where it stands: long enough, not an
    acronym, and capitalised only where a sentence opens (elsewhere a capital is a name's)."""
    if len(letters) < MIN_LETTERS or (letters.isupper() and len(letters) > 1):
        return False
    if letters.islower():
        return True
    return letters[0].isupper() and letters[1:].islower() and opens


def opens_sentence(words: Sequence[str], index: int) -> bool:
    """Whether word ``index`` starts a sentence (the passage's first, or after . ! ?)."""
    if index == 0:
        return True
    before = words[index - 1].rstrip().rstrip(SENTENCE_CLOSERS)
    return before.endswith(SENTENCE_ENDS)


def inflects_a_known_word(word: str) -> bool:
    """Whether lemminflect reads lower-case ``word`` as a form of another word the dictionary
    holds ("traveled" of "travel"). Its lexicon also lists common misspellings as lemmas of
    their own ("develope", "dependance"), so a word that is only its own lemma does not count."""
    return any(
        lemma != word and lemma in dictionary_words()
        for lemmas in getAllLemmas(word).values()
        for lemma in lemmas
    )


def _like(word: str, found: str) -> str:
    return found[0].upper() + found[1:] if word[0].isupper() else found


@cache
def dictionary_candidates(word: str) -> tuple[tuple[str, int], ...]:
    """What lower-case ``word`` may be written otherwise (:func:`written_otherwise`: its
    contraction, or its real forms), then up to :data:`MAX_CANDIDATES` dictionary words within
    :data:`MAX_EDIT_DISTANCE` edits of it, each with its edits, the fewest edits first, then
    the most frequent (two words it runs together among them, one edit away, as frequent as
    the rarer of the two: "allday" is "all day" before "allay", "becase" "because" before "be
    case"); then up to :data:`SOUND_CANDIDATES` more that sound like it
    (:func:`engine.language.en.sounds.sound_alike`), which may be further in letters."""
    from symspellpy import Verbosity

    found = symspell_index().lookup(word, Verbosity.ALL, max_edit_distance=MAX_EDIT_DISTANCE)
    other = written_otherwise(word)
    taken = {word, *(term for term, _ in other)}
    keys = sorted((item.distance, -item.count, item.term) for item in found)
    close = [key for key in keys if key[2] not in taken][:MAX_CANDIDATES]
    split = split_in_two(word) if word not in dropped_apostrophes() else None
    if split is not None:
        counts = dictionary_counts()
        close = sorted([*close, (SPLIT_EDITS, -min(counts[p] for p in split.split()), split)])
    ranked = tuple((term, edits) for edits, _, term in close)
    offered = taken | {term for term, _ in ranked}
    alike = [pair for pair in sound_alike(word, SOUND_CANDIDATES + len(ranked))
             if pair[0] not in offered]  # fmt: skip
    return other + ranked + tuple(alike[:SOUND_CANDIDATES])


def written_otherwise(word: str) -> tuple[tuple[str, int], ...]:
    """What a misspelling may be beyond the dictionary's words: its contraction, when it is
    one with the apostrophe dropped, and the real forms of a word inflected by a regular rule
    where English does not ("familys": "families",
    :func:`engine.language.en.forms.regularised_forms`); one edit each."""
    contraction = dropped_apostrophes().get(word)
    found = [contraction, *regularised_forms(word)]
    return tuple((term, 1) for term in found if term)


def slip_of(typed: str, candidate: str) -> float:
    """How likely a slip ``typed`` is of ``candidate`` (lower case), in weighed edits: a
    regular ending where English has another form is one slip at most, however many letters
    the two differ by ("familys", "families": two)."""
    slip = slip_edits(typed, candidate)
    return min(slip, FULL_EDIT) if candidate in regularised_forms(typed) else slip


@cache
def slipped(word: str) -> bool:
    """Whether a lower-case word no dictionary knows is a slip the vocabulary may hold
    anyway: a contraction with its apostrophe dropped ("dont"), or one edit from one of the
    commonest words (:data:`COMMON_COUNT`)."""
    if word in dropped_apostrophes():
        return True
    counts = dictionary_counts()
    from symspellpy import Verbosity

    near = symspell_index().lookup(word, Verbosity.ALL, max_edit_distance=1)
    return any(item.term != word and counts.get(item.term, 0) >= COMMON_COUNT for item in near)


def split_in_two(word: str) -> str | None:
    """``word`` as two common words run together, split ("inorder": "in order"), by
    SymSpell's word segmentation with no edit; ``None`` when it is not two such words.

    Both halves must be common (:func:`~engine.language.en.dictionary.is_rare`): the
    dictionary also holds fragments and names ("re", "ching", "varia"), and a split into one
    ("reching" as "re ching", "variatry" as "varia try") led the candidates of a slip of one
    real word on the spelling set's tuning half."""
    found = symspell_index().word_segmentation(word, max_edit_distance=0).corrected_string.split()
    if len(found) != SPLIT_PARTS or "".join(found) != word:
        return None
    fits = all(len(part) >= MIN_PART_LETTERS and not is_rare(part) for part in found)
    return " ".join(found) if fits else None


def warm_up() -> None:
    """Build the dictionary's index and its sounds' now (the window does it on a thread,
    before a menu asks)."""
    symspell_index()
    sounds.warm_up()
