"""What an instruction lets a rewrite's words change to, and what each change must save.

:func:`style_for` reads an instruction's :class:`~engine.intent.Intent` as a :class:`Style`:
the phrase tables it may swap from, the changes it asks for (a register's contractions, each
with how much worse it may read), whether it offers each word's other forms (grammar) and a
misspelt word's dictionary candidates (spelling), and a noun's "'s" written out or in.
:func:`offered` finds every such change in a passage's words, each with the nats it must save
(its margin: a grammar fix's risk, a misspelling's noisy channel) and how it is read.
:mod:`engine.passes.proofread` reads them with the model and keeps the ones that save their
margin. The margins and tolerances are here, each with what it was measured on.

Pure functions over word texts; no model.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from engine.intent import Intent
from engine.language.en.clitics import contracted_nouns, noun_clitics
from engine.language.en.grammar import Fix, fixes
from engine.language.en.meaning import tense_switched
from engine.language.en.real_words import REAL_WORD_NATS
from engine.language.en.registers import (
    CASUAL_PHRASES,
    CONTRACTING,
    EXPANSIONS,
    FORMAL_GREETINGS,
    FORMAL_SWAPS,
    FORMAL_WORDS,
    question_tags,
)
from engine.language.en.rewordings import CONCISE, Rewording, rewordings
from engine.language.en.sounds import key_edits
from engine.language.en.spelling import Misspelling, Speller, misspellings, slip_of

# Nats a grammar fix must save to be made (see engine.passes.proofread's docstring).
GRAMMAR_MARGIN = 1.0
# Nats a register change or a plain rewording must save: none, it only must not read worse.
REGISTER_MARGIN = 0.0
# A rule of writing (a capital, a linking phrase's comma, a paragraph's full stop) is made
# unless the passage reads this many nats worse with it, and is read whole, never pruned by
# its first token. The model's reading guards against a rule misread (a "sentence" opening
# after an abbreviation); it is no judge of the rule: it read "the school teachers" at a
# passage's start as 1.9 nats likelier than "The school teachers". On JFLEG's tuning half:
# 45.08 as "no worse" (0), 45.66 at 3 and 45.72 at 6, each step only adding capitals.
RULE_TOLERANCE = 6.0
# A register swap may also read no worse per token instead of in total: "I would like to
# inform you that" is more tokens than "just wanted to let you know", and in total more tokens
# nearly always cost more however natural each reads; "We're happy to welcome" is fewer tokens
# than "It is with great pleasure that we welcome", each less predictable.
REGISTER_PER_TOKEN = True
# Nats a spelling candidate must save over the word as written (which stays a candidate: a
# word the dictionary lacks may be right), for a slip of one edit that sounds alike. Tuned on
# the spelling set's tuning half, where clean sentences had no word flagged at all.
SPELLING_MARGIN = 1.5
# The noisy channel of spelling correction (Kernighan, Church & Gale 1990): the less likely the
# slip a candidate undoes, the more it must save. Edits are weighed by kind
# (engine.language.en.channel: a doubled letter or a swap is half of one). Each edit beyond the
# first costs SPELLING_EDIT_NATS, or SOUND_EDIT_NATS when the candidate sounds like the
# misspelling (the same Metaphone key, engine.language.en.sounds: "imidatly", "immediately"):
# a slip of the ear, where letters count for less. A slip lighter than one edit earns
# SPELLING_EDIT_NATS per edit it falls short, down to LIGHTEST_MARGIN: such a fix is made even
# where the model reads it a little worse than the misspelling ("comments" beside "moments" for
# "coments": no dictionary knows the word as written, and the channel says which was meant). A
# candidate that sounds otherwise pays SOUND_NATS per edit of its sound, up to SOUND_APART.
# On the tuning half (proofreading alone; every candidate read once, the choice simulated from
# those reads): every edit alike and no sound, 2 + 6 nats per edit as before, fixed 153 of 195
# misspellings (149 before sound-alike candidates); these values 165; changing any one of them
# a step (LIGHTEST_MARGIN -3 to 0, the margin 1 to 2.5, the nats per edit 6 to 10, sound 4 to 8
# and 1 to 3): 161 to 165. No other word changed at any of them.
SPELLING_EDIT_NATS = 8.0
SOUND_EDIT_NATS = 6.0
SOUND_NATS = 2.0
SOUND_APART = 2
LIGHTEST_MARGIN = -2.0
# A capitalised word (where a sentence opens: elsewhere it is a name and never checked) may
# still be a name ("Jonh", "Kaitlin"): its candidates must read no worse than it.
NAME_MARGIN = 0.0
# A contraction is what a register asks for, not a guess: formal writes every one out (an
# expansion is always English: a tolerance no reading reaches, finite so that the reading
# still ranks a contraction's expansions, "it's" as "it is" or "it has"); casual makes one
# unless it reads this many nats worse than the words it joins (English allows none at a
# clause's end: "Yes, we're."). The model reading the passage chooses among a phrase's
# contractions ("aren't", not "ain't", for "are not").
EXPANSION_TOLERANCE = 1e6
CONTRACTION_TOLERANCE = 4.0
# Formal writes out a slang or colloquial word ("gonna", "awesome") unless that reads this
# many nats worse: as far as casual goes to make a contraction (the same reasoning: the
# register asks for it, the model only vetoes a reading that breaks the sentence). A casual
# greeting is written out as a contraction is: "Hello" greets wherever "Hey" does, and as a
# text's first word, read with nothing before it, the model can find "Hello," over 4 nats
# worse than "Hey," (a dev case's opening), a veto that breaks nothing.
SLANG_TOLERANCE = CONTRACTION_TOLERANCE
# A candidate whose first token reads this many nats worse than the one it replaces is not
# read on: "we olds", "many old painting" (most candidate forms; see PassageReader.read).
PRUNE_NATS = 2.0


Table = tuple[tuple[str, str], ...]
# The contractions the register tables write out themselves ("it's", "that's").
EXPANDED = frozenset(short for short, _ in EXPANSIONS)
# The first words of the contractions casual's table makes ("it is", "there is").
CONTRACTION_HEADS = frozenset(long.split()[0] for long, _ in CONTRACTING)
# A table whose changes the instruction asks for, and how many nats worse each may read.
Required = tuple[tuple[Table, float], ...]
# Changes an instruction asks for that no table can list, found in a passage's words by a
# function (a noun's "'s" written out or in), each with how many nats worse it may read.
Finders = tuple[tuple[Callable[[Sequence[str]], list[Rewording]], float], ...]


def written_out_clitics(words: Sequence[str]) -> list[Rewording]:
    """Formal's: each noun's "'s" that is a verb, as "is" or "has" (a pronoun's is a table's)."""
    return noun_clitics(words, EXPANDED)


def contracted_clitics(words: Sequence[str]) -> list[Rewording]:
    """Casual's: each noun's "is" that may be its "'s" (a pronoun's is a table's)."""
    return contracted_nouns(words, CONTRACTION_HEADS)


@dataclass(frozen=True)
class Style:
    """What an instruction lets a rewrite's words change to."""

    tables: tuple[Table, ...] = ()
    grammar: bool = False
    required: Required = ()
    spelling: bool = False  # misspelt words' dictionary candidates
    finders: Finders = ()  # asked-for changes a function finds, as ``required`` a table's
    # Whether a grammar fix may put a verb in another time ("go" → "went"): where grammar was
    # asked for. Formal fixes agreement too, but "came" → "come" would change when it was.
    retime: bool = True

    def __or__(self, other: Style) -> Style:
        tables, required = self.tables + other.tables, self.required + other.required
        spelling, finders = self.spelling or other.spelling, self.finders + other.finders
        retime = (self.grammar and self.retime) or (other.grammar and other.retime)
        grammar = self.grammar or other.grammar
        return Style(tables, grammar, required, spelling, finders, retime)


def style_for(intent: Intent) -> Style | None:
    """The style ``intent`` asks for, or ``None`` when it asks for none of them."""
    if not intent.styled:
        return None
    tables = (
        *((CASUAL_PHRASES,) if intent.casual else ()),
        *((FORMAL_SWAPS,) if intent.formal else ()),
        *((CONCISE,) if intent.clearer else ()),
    )
    required = (
        *(((CONTRACTING, CONTRACTION_TOLERANCE),) if intent.casual else ()),
        *(
            (
                (EXPANSIONS, EXPANSION_TOLERANCE),
                (FORMAL_GREETINGS, EXPANSION_TOLERANCE),
                (FORMAL_WORDS, SLANG_TOLERANCE),
            )
            if intent.formal
            else ()
        ),
    )
    finders = (
        *(((written_out_clitics, EXPANSION_TOLERANCE),) if intent.formal else ()),
        *(((question_tags, SLANG_TOLERANCE),) if intent.formal else ()),
        *(((contracted_clitics, CONTRACTION_TOLERANCE),) if intent.casual else ()),
    )
    # "fix spelling" alone offers no other forms of correct words: it asks for none.
    grammar = intent.grammar or intent.formal
    return Style(tables, grammar, required, intent.spelling, finders, intent.grammar)


@dataclass(frozen=True)
class Offer:
    """What a request's candidates come from: its style and the speller (with the user's
    own words and the model's vocabulary)."""

    style: Style
    speller: Speller = field(default_factory=Speller)


class Offered(NamedTuple):
    """A change, the nats it must save, whether it may save them per token, how much worse its
    first token may read before it is pruned, whether it corrects an error (the words as
    written are wrong), and whether it respells a misspelt word (a dictionary candidate)."""

    rewording: Rewording
    margin: float
    per_token: bool
    prune: float
    corrects: bool
    respells: bool = False


def offered(
    words: Sequence[str],
    offer: Offer,
    opens: bool = True,
    lead: Sequence[str] = (),
    closes: bool = False,
) -> list[Offered]:
    """The style's changes in ``words``, each with the nats it must save to be made, whether
    it is judged per token (a register swap: see :data:`REGISTER_PER_TOKEN`) and how much
    worse its first token may read before it is pruned (a change the instruction asks for, a
    contraction, never is: its margin is minus its tolerance), and whether it corrects an
    error (a grammar fix, a spelling: the words as written are wrong) or only restyles.
    ``opens``: whether the first word starts a sentence; ``lead``: the words just before
    (across a lock: "the **exact** versions"); ``closes``: whether the words end their
    paragraph."""
    style = offer.style
    found = [
        Offered(r, -tolerance, False, math.inf, False)
        for t, tolerance in style.required
        for r in _in_table(words, t)
    ]
    found += [
        Offered(r, REGISTER_MARGIN, REGISTER_PER_TOKEN, PRUNE_NATS, False)
        for t in style.tables
        for r in _in_table(words, t)
    ]
    found += [
        Offered(r, -tolerance, False, math.inf, False)
        for finder, tolerance in style.finders
        for r in finder(words)
    ]
    if style.grammar:
        found += [
            Offered(f.rewording, grammar_margin(f), False, _prune(f), True)
            for f in fixes(words, opens, lead, closes)
            if style.retime or not retimes(words, f.rewording)
        ]
    if style.spelling:
        found += spelling_changes(words, offer.speller)
    return once_each(found)


def once_each(found: Sequence[Offered]) -> list[Offered]:
    """Each change once, at the least it must save: two sources may offer the same words ("dont"
    is a grammar rule's "don't" and a spelling candidate under proofread), and reading both
    costs a read for a change that would be made at the lower margin anyway."""
    best: dict[Rewording, Offered] = {}
    for change in found:
        held = best.get(change.rewording)
        if held is None or change.margin < held.margin:
            best[change.rewording] = change
    return [change for change in found if best[change.rewording] is change]


def _prune(fix: Fix) -> float:
    """A rule of writing is read whole, and so is a fix that takes a word out ("I am agree" →
    "I agree"): its first token is the next word's, which reads worse where the word it
    follows was written than the word it takes out did ("I agree" is nine nats likelier than
    "I am agree", but " agree" after "I" more than two less likely than " am"). Any other fix
    is pruned by its first token."""
    rewording = fix.rewording
    shorter = len(rewording.text.split()) < rewording.stop - rewording.first
    return math.inf if fix.certain or shorter else PRUNE_NATS


def retimes(words: Sequence[str], rewording: Rewording) -> bool:
    """Whether ``rewording`` puts a verb of ``words`` in another time, itself or another."""
    was = "".join(words[rewording.first : rewording.stop])
    return tense_switched(was, rewording.text, forms_fixed=False)


def spelling_changes(words: Sequence[str], speller: Speller) -> list[Offered]:
    """Each misspelt word's candidates, the further from it the more each must save; a
    capitalised one's never less than :data:`NAME_MARGIN` (it may be a name that opens a
    sentence: only a reading that prefers the candidate changes it)."""
    return [
        Offered(Rewording(m.index, m.index + 1, spelled), candidate_margin(m, slip, sound),
                False, math.inf, True, respells=True)
        for m in misspellings(words, speller)
        for spelled, slip, sound in zip(m.candidates, m.slips, m.sounds, strict=True)
    ]  # fmt: skip


def candidate_margin(misspelt: Misspelling, slip: float, sound: int) -> float:
    """What one of ``misspelt``'s candidates must save: its slip's price, never below
    :data:`NAME_MARGIN` for a capitalised word, and :data:`REAL_WORD_NATS` more for a real
    word's (:mod:`engine.language.en.real_words`)."""
    real_word = REAL_WORD_NATS if misspelt.real_word else 0.0
    return word_margin(misspelt.word, slip, sound) + real_word


def suggestion_margin(typed: str, suggestion: str) -> float:
    """What ``suggestion`` must save to replace the misspelt word ``typed``, from the two
    words alone (the editor's menu has no :class:`Misspelling`): the price of the slip it
    undoes, weighed by kind and by sound as :func:`candidate_margin` weighs a candidate,
    never below :data:`NAME_MARGIN` for a capitalised word."""
    lower, wanted = typed.lower(), suggestion.lower()
    return word_margin(typed, slip_of(lower, wanted), key_edits(lower, wanted))


def word_margin(word: str, slip: float, sound: int) -> float:
    """:func:`spelling_margin` for a slip of ``word``, never below :data:`NAME_MARGIN` when
    the word has a capital (it may be a name that opens a sentence)."""
    margin = spelling_margin(slip, sound)
    return margin if word.islower() else max(NAME_MARGIN, margin)


def spelling_margin(slip: float, sound: int = SOUND_APART) -> float:
    """Nats a candidate must save whose weighed edits from the misspelling are ``slip`` and
    whose sound is ``sound`` edits from its sound: the noisy channel's price of the slip it
    undoes (see :data:`SPELLING_EDIT_NATS`)."""
    per_edit = SOUND_EDIT_NATS if sound == 0 and slip >= 1 else SPELLING_EDIT_NATS
    letters = per_edit * (slip - 1)
    return max(LIGHTEST_MARGIN, SPELLING_MARGIN + letters + SOUND_NATS * min(sound, SOUND_APART))


def grammar_margin(fix: Fix) -> float:
    """Nats a grammar fix must save: a rule of writing (a capital) may even read up to
    :data:`RULE_TOLERANCE` nats worse."""
    return -RULE_TOLERANCE if fix.certain else GRAMMAR_MARGIN + fix.risk


def _in_table(words: Sequence[str], table: Table) -> list[Rewording]:
    return rewordings(words, table, keep_last=False, first_only=False)
