"""Register tables: what a "formal" or a "casual" rewrite may say instead, phrase by phrase.

Asked for "formal", the embedded model renoised a paragraph and its self-check put every
attempt back: "Hey, just wanted to let you know the report is gonna be late" came back as
written. A 135M model does not know what "formal" asks for, but the style guides do: expand
contractions, write out slang, drop casual openers ("Hey," → "Hello,"); for "casual", the
reverse, and plain words for stiff ones ("commence" → "start").

Contractions, their expansions and slang come from the ``contractions`` package (its
dictionaries of contractions and of slang; it replaced a typed list of 32 contractions and the
slang entries of the formal table). Formal expands every contraction and writes out every
slang word it lists; casual contracts: the same dictionary read backwards, every expansion
offered as each contraction that stands for it (the model picks "aren't", not "ain't", for
"are not"). The quality suite's formal and casual checks (``tools/eval``) detect contractions
with the same package, by code of their own. What no package lists stays as data in
``data/registers.json``: casual openers and phrasal verbs formal says otherwise, stiff words
casual says plainly; every entry general English.

Each entry is offered as one candidate change (:mod:`engine.passes.proofread`), found in a
passage's words like a concise rewording (:func:`engine.language.en.rewordings.rewordings`).
The phrases (:data:`FORMAL_PHRASES`, :data:`CASUAL_PHRASES`) are kept only where the passage
reads no worse with them; the contractions (:data:`CONTRACTIONS`, :data:`CONTRACTING`) are what
the register asks for, and the proofread pass makes them (its tolerances).

Lower-case word sequences (punctuation ignored) and their other register; no model here.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence

import contractions

from engine.language.en.data import load_json, pairs, word_set
from engine.language.en.rewordings import Rewording

Table = tuple[tuple[str, str], ...]

APOSTROPHE = "'"
NOT_CLITIC = "n't"
FIRST_PERSON = "I"
# A word of letters and digits (slang such as "b4"), once its spaces are trimmed.
PLAIN_WORD = re.compile(r"[a-z0-9]+")
# Letters only, with at most one apostrophe: "don't", "'cause", "y'all"; not "I'd've".
CONTRACTION = re.compile(rf"[a-z]*{APOSTROPHE}[a-z]*")


def _contractions(found: Mapping[str, str]) -> Table:
    """The package's contractions with one straight apostrophe, lower-case, and what each
    stands for (the package lists curly spellings apart: a passage's are read as straight),
    less the words formal English writes as they are ("o'clock")."""
    table: dict[str, str] = {}
    kept = word_set("registers.json", "kept_as_written")
    for short, long in found.items():
        key = short.lower()
        if key in kept:
            continue
        if CONTRACTION.fullmatch(key) and long.strip() and key not in table:
            table[key] = _expansion(long)
    return tuple(table.items())


def _expansion(long: str) -> str:
    """What a contraction or slang word stands for, in lower case but for "I" ("What are
    you" for "whatcha" is lowered: it replaces a word inside a sentence as often as first)."""
    first, _, rest = long.strip().partition(" ")
    if first != FIRST_PERSON and not first.startswith(FIRST_PERSON + APOSTROPHE):
        first = first.lower()
    return f"{first} {rest}" if rest else first


def _slang(words: Iterable[str], expansions: Mapping[str, str]) -> Table:
    """Slang words and what they stand for, less any that is a contraction with its
    apostrophes dropped: "shell" for "she'll" and "cause" for "'cause" are ordinary words."""
    dropped = {k.lower().replace(APOSTROPHE, "") for k in expansions if APOSTROPHE in k}
    out: dict[str, str] = {}
    for word in words:
        key = word.strip().lower()
        if PLAIN_WORD.fullmatch(key) and key not in dropped and key not in out:
            out[key] = _expansion(expansions[word])
    return tuple(out.items())


def _contracting(table: Table) -> Table:
    """Casual's half of the same dictionary: each expansion and the contractions that stand
    for it, where a contraction starts with its expansion's first word ("we are" → "we're";
    not "it is" → "'tis") or is a negation ("will not" → "won't"). A contraction keeps its
    first word's capital ("I am" → "I'm")."""
    out = []
    for short, long in table:
        first = long.split()[0].lower()
        if short.endswith(NOT_CLITIC) or (short.startswith(first) and len(long.split()) > 1):
            out.append((long.lower(), short[0].upper() + short[1:] if long[0].isupper() else short))
    return tuple(out)


# The package's dictionaries: contractions (with some fused forms: "gonna") and slang.
CONTRACTIONS = _contractions(contractions.contractions_dict)
_FUSED = [k for k in contractions.contractions_dict if PLAIN_WORD.fullmatch(k.lower())]
SLANG = _slang(
    [*_FUSED, *contractions.slang_dict],
    {**contractions.contractions_dict, **contractions.slang_dict},
)


def _other_readings(table: Table, readings: Iterable[Sequence[str]]) -> Table:
    """Each contraction whose clitic reads two ways, with the reading the package does not
    give: "it's" is "it is" or "it has", "we'd" "we would" or "we had"."""
    out = []
    for clitic, given, other in readings:
        for short, long in table:
            first, _, last = long.rpartition(" ")
            if short.endswith(clitic) and last == given and first:
                out.append((short, f"{first} {other}"))
    return tuple(out)


CONTRACTING = _contracting(CONTRACTIONS)
# Every contraction the package writes ("don't", "y'all"), and curly apostrophes made straight,
# as every reader of contractions compares them.
CONTRACTED = frozenset(short for short, _ in CONTRACTIONS)
STRAIGHT_APOSTROPHES = str.maketrans({"\u2019": APOSTROPHE, "\u2018": APOSTROPHE})
# Formal's expansions: the package's, and a clitic's other reading, the model choosing.
EXPANSIONS = (
    *CONTRACTIONS,
    *_other_readings(CONTRACTIONS, load_json("registers.json")["clitic_readings"]),
)
# What each register may say otherwise, beyond its contractions (the model reading decides).
# Formal writes out slang and a colloquial word ("gonna", "awesome", "ok") the way it writes
# out a contraction, unless that reads far worse there ("diff" is also a noun): the package's
# slang stands for its expansion word for word, and a colloquial word has formal words for
# each of its senses ("ok": "all right", "fine", "acceptable"), the reading choosing. Kept
# only where they read no worse, colloquial words stayed in 3 of the dev split's 4
# unfollowed formal rewrites ("awesome", "ok"). Other casual phrases ("thanks" → "thank you",
# "lots of" → "many") are swaps the reading must find no worse: they are not always drop-in
# ("thanks a lot", "lots of water").
FORMAL_WORDS: Table = (*SLANG, *pairs("registers.json", "colloquial"))
# A casual greeting has one formal word, a greeting too wherever it stands ("Hey," → "Hello,"):
# formal writes it out as it writes a contraction out, however the passage reads after it.
FORMAL_GREETINGS: Table = pairs("registers.json", "greetings")
FORMAL_SWAPS: Table = pairs("registers.json", "formal")
FORMAL_PHRASES: Table = (*FORMAL_WORDS, *FORMAL_GREETINGS, *FORMAL_SWAPS)
CASUAL_PHRASES: Table = pairs("registers.json", "casual")
FORMAL: Table = (*EXPANSIONS, *FORMAL_PHRASES)
CASUAL: Table = (*CONTRACTING, *CASUAL_PHRASES)


# A question tag closing a sentence after a comma ("Push it before noon, ok?"): speech asking
# the reader to agree. Formal English states the sentence instead.
TAG_WORDS = word_set("registers.json", "question_tags")
TAG_MARK = "?"
COMMA = ","
FULL_STOP = "."


def question_tags(words: Sequence[str]) -> list[Rewording]:
    """Each sentence-closing question tag of ``words`` (each with its leading whitespace)
    dropped, with the sentence it closes ending in a full stop ("then, ok?" → "then.")."""
    found = []
    for i in range(1, len(words)):
        tag, before = words[i].strip(), words[i - 1].rstrip()
        if tag.endswith(TAG_MARK) and tag[:-1].lower() in TAG_WORDS and before.endswith(COMMA):
            found.append(Rewording(i - 1, i + 1, before[: -len(COMMA)] + FULL_STOP))
    return found
