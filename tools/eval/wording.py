"""The quality suite's own reading of English: words, sentences, contractions, slang, verbs.

Written apart from the engine on purpose (the engine's checks are what the suite measures, so
sharing code with them would measure nothing). Language knowledge comes from maintained
packages where one exists: contractions and slang from ``contractions``, verb forms from
``lemminflect``'s lexicon; the closed-class words no package lists live in
``resources/eval/suite-words.json``. Markdown is read with markdown-it-py, so a check sees the
words a reader sees, not the markup around them.
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path
from typing import Any

WORDS_FILE = Path(__file__).resolve().parents[2] / "resources" / "eval" / "suite-words.json"
APOSTROPHES = str.maketrans({"’": "'", "‘": "'"})
WORD = re.compile(r"[A-Za-z0-9]+(?:['’][A-Za-z]+)*|['’][A-Za-z]+")
# A sentence ends at . ! or ? (closing quotes or brackets may follow) before a space.
SENTENCE_END = re.compile(r"(?<=[.!?])[\"')\]]*\s+")


@cache
def lexicon() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(WORDS_FILE.read_text(encoding="utf-8"))
    return data


def word_set(name: str) -> frozenset[str]:
    return frozenset(lexicon()[name])


def words(text: str) -> list[str]:
    """The words of ``text`` in order, apostrophes normalised to ASCII, case kept."""
    return [w.translate(APOSTROPHES) for w in WORD.findall(text)]


def plain_text(markdown: str) -> str:
    """What a reader reads: the text of a Markdown paragraph without its marks (a link's
    words, a code span's content), one line per block."""
    from markdown_it import MarkdownIt

    lines = []
    for token in MarkdownIt("commonmark").parse(markdown):
        if token.type == "inline":
            lines.append(_inline_text(token.children or []))
        elif token.type in ("fence", "code_block"):
            lines.append(token.content.strip())
    return "\n".join(line for line in lines if line)


def _inline_text(children: list[Any]) -> str:
    parts = []
    for child in children:
        if child.type in ("text", "code_inline"):
            parts.append(child.content)
        elif child.type in ("softbreak", "hardbreak"):
            parts.append(" ")
    return "".join(parts)


def sentences(text: str) -> list[str]:
    """Sentences of plain text: lines first, then terminal marks, not after an abbreviation."""
    found: list[str] = []
    for line in text.splitlines():
        start = 0
        for end in SENTENCE_END.finditer(line):
            if _abbreviation_before(line, end.start()):
                continue
            found.append(line[start : end.start()].strip())
            start = end.end()
        found.append(line[start:].strip())
    return [s for s in found if words(s)]


def _abbreviation_before(line: str, at: int) -> bool:
    before = re.findall(r"[A-Za-z.]+$", line[:at])
    stem = before[0].rstrip(".").lower() if before else ""
    return stem in word_set("abbreviations") or (len(stem) == 1 and stem.isalpha())


# --- contractions and slang (the contractions package) ----------------------------------


@cache
def contraction_forms() -> frozenset[str]:
    """Every contraction the package knows that is written with an apostrophe, lower-case,
    but the words no register writes otherwise ("o'clock")."""
    import contractions

    keys = [*contractions.contractions_dict, *contractions.leftovers_dict]
    found = {k.translate(APOSTROPHES).lower() for k in keys if "'" in k or "’" in k}
    return frozenset(found - word_set("not_contractions"))


@cache
def written_out_forms() -> frozenset[str]:
    """The one-word expansions of the package's contractions ("cannot" for "can't", "them"
    for "'em"): common words, whatever their capital ("Cannot find it" names nobody)."""
    import contractions

    found = contractions.contractions_dict.items()
    return frozenset(
        long.strip().lower()
        for short, long in found
        if ("'" in short or "’" in short) and " " not in long.strip()
    )


@cache
def slang_forms() -> frozenset[str]:
    """Slang words: the package's slang and fused forms ("gonna", "kinda") that are not a
    contraction with its apostrophe dropped ("shell" for "she'll" is an ordinary word), plus
    the suite's list of colloquial words the package lacks."""
    import contractions

    dropped = {form.replace("'", "") for form in contraction_forms()}
    fused = [k for k in contractions.contractions_dict if re.fullmatch(r"[A-Za-z]+", k)]
    found = {
        k.strip().lower()
        for k in [*contractions.slang_dict, *fused]
        if re.fullmatch(r"[A-Za-z0-9]+", k.strip()) and k.strip().lower() not in dropped
    }
    return frozenset(found | word_set("informal"))


def contractions_in(text: str) -> list[str]:
    """The contractions written in ``text`` ("can't", "it's", "'cause"), in order."""
    found = []
    for word in words(text):
        low = word.lower()
        if low in contraction_forms() or low.endswith("n't"):
            found.append(word)
    return found


def slang_in(text: str) -> list[str]:
    return [w for w in words(text) if w.lower() in slang_forms()]


def expanded(text: str, slang: bool = False) -> str:
    """The text with its contractions written out (what meaning checks compare); with
    ``slang``, the package's slang too ("dunno": "do not know", which holds a negation)."""
    import contractions

    return str(contractions.fix(text.translate(APOSTROPHES), slang=slang))


# --- verbs (lemminflect's lexicon) -------------------------------------------------------


@cache
def _lemmas(word: str) -> dict[str, tuple[str, ...]]:
    from lemminflect import getAllLemmas

    found: dict[str, tuple[str, ...]] = getAllLemmas(word.lower())
    return found


def is_known(word: str) -> bool:
    """A common word the lexicon has a lemma for (any part of speech)."""
    return bool(_lemmas(word))


def is_auxiliary(word: str) -> bool:
    return "AUX" in _lemmas(word)


def is_inflected_verb(word: str) -> bool:
    """A verb form other than the base ("took", "costs", "running"): a finite verb or a
    participle, by the lexicon; a noun with the same spelling counts too (the check errs
    towards seeing a verb, so it flags fragments only when it is sure)."""
    lemmas = _lemmas(word).get("VERB", ())
    return bool(lemmas) and word.lower() not in lemmas


def is_base_verb(word: str) -> bool:
    return word.lower() in _lemmas(word).get("VERB", ())


def is_plural_noun(word: str) -> bool:
    """A noun form other than its lemma ("backups", "families"): a subject a base-form verb
    can follow ("Backups protect your work")."""
    lemmas = _lemmas(word).get("NOUN", ())
    return bool(lemmas) and word.lower() not in lemmas
