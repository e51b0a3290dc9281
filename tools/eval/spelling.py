"""Real misspellings in clean sentences: the spelling set, built here and never stored.

Every ``right: wrong1 wrong2`` pair of one half of ``spell-testset2.txt`` (misspellings people
made, from the Birkbeck corpus) is put into one sentence taken from JFLEG dev's reference
corrections of the *same* half, so tuning on the tune half never reads a reported sentence.

Where it goes, deterministically (a seeded generator, sorted candidates):

1. a sentence that has the right word as a whole word: the misspelling replaces it there
   (its capital kept): the sentence is exactly as a person wrote it, one word misspelt;
2. otherwise, a sentence and a word the right word *fits* in: a content word, not the first
   of its sentence, with the same Penn tags by lemminflect's lexicon (a singular noun for a
   singular noun, a past participle for one; where no word has all the same tags, one that
   shares a tag), and no "a"/"an" before it that the new word would disagree with. The
   sentence then says something else but still reads as English, which is all that fixing
   a misspelling in context needs.

Sentences are used once each while unused ones fit. A pair whose misspelling already stands
in the sentence is not put there. The scorer counts misspellings fixed and every other word
changed (:func:`tools.eval.followed.score_corrections`), per 20 sentences as the issue asks.
"""

from __future__ import annotations

import argparse
import random
import re
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from tools.eval.followed import Corrected, score_corrections
from tools.eval.jfleg import read_half
from tools.eval.measures import STOPWORDS
from tools.eval.public import (
    DATA_DIR,
    JFLEG_DIR,
    SPELLING_FILE,
    SPELLING_LINES,
    detokenize,
    missing,
    read_lines,
)
from tools.eval.wording import is_auxiliary, lexicon

SEED = 25
PER_SENTENCES = 20  # "other words changed per 20 sentences"
SENTENCE_WORDS = (8, 30)  # long enough for context, short enough for one rewrite
CLEAN = re.compile(r"[A-Z][A-Za-z0-9 ,.'\-;:?!()\"]*[.!?]")
CONTENT_TAGS = frozenset({"NN", "NNS", "VB", "VBD", "VBG", "VBN", "VBP", "VBZ", "JJ", "JJR",
                          "JJS", "RB"})  # fmt: skip
VOWEL_SOUND = re.compile(r"[aeiouAEIOU]")
FUNCTION_WORDS = frozenset(
    word
    for name in ("negations", "contrastive", "subordinators", "relative_words", "subjects",
                 "verb_openers", "articles")
    for word in lexicon()[name]
)  # fmt: skip


@dataclass(frozen=True)
class Item:
    right: str
    wrong: str
    clean: str  # the sentence with the right word
    misspelt: str  # the same sentence with the misspelling in its place
    placed: str  # "found" (the sentence had the word) or "fits" (put in a word's place)
    # the two as they stand in the sentences (a capital where the sentence starts with it)
    right_as_placed: str = ""
    wrong_as_placed: str = ""

    def correction(self) -> tuple[str, tuple[str]]:
        return (self.wrong_as_placed or self.wrong, (self.right_as_placed or self.right,))


def pairs(half: str, data_dir: Path = DATA_DIR) -> list[tuple[str, str]]:
    """(right, wrong) for every misspelling of one half, in file order."""
    found = []
    for line in read_lines(data_dir / SPELLING_FILE, half, SPELLING_LINES):
        right, _, wrongs = line.partition(":")
        found += [(right.strip(), wrong) for wrong in wrongs.split()]
    return found


def clean_sentences(half: str, data_dir: Path = DATA_DIR) -> list[str]:
    """JFLEG's reference corrections of one half, as typed, deduplicated, plain and sized."""
    _, references = read_half(half, data_dir)
    seen: dict[str, None] = {}
    for lines in references:
        for line in lines:
            text = detokenize(line)
            size = len(text.split())
            sized = SENTENCE_WORDS[0] <= size <= SENTENCE_WORDS[1]
            if sized and CLEAN.fullmatch(text) and all_known(text):
                seen.setdefault(text, None)
    return sorted(seen)


def all_known(sentence: str) -> bool:
    """Every lower-case word is in lemminflect's lexicon or a function word: the learners'
    own misspellings that a reference kept ("successfull") leave the sentence out."""
    return all(
        tags(word) or word in STOPWORDS or word in FUNCTION_WORDS
        for word in re.findall(r"(?<![\w'])[a-z]+(?![\w'])", sentence)
    )


@cache
def tags(word: str) -> frozenset[str]:
    """The Penn tags ``word`` can carry, by lemminflect's lexicon (empty when unknown)."""
    from lemminflect import getAllInflections, getAllLemmas

    found = set()
    for lemmas in getAllLemmas(word.lower()).values():
        for lemma in lemmas:
            for tag, forms in getAllInflections(lemma).items():
                if word.lower() in forms:
                    found.add(tag)
    return frozenset(found)


def _whole(word: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![\w'-]){re.escape(word)}(?![\w'-])", re.IGNORECASE)


def _spell_like(wrong: str, original: str) -> str:
    return wrong[0].upper() + wrong[1:] if original[0].isupper() else wrong


def place(right: str, wrong: str, pool: list[str], used: set[str], rng: random.Random) -> Item:
    """Put one pair into a sentence of ``pool`` (see the module's two rules)."""
    found = [s for s in pool if _whole(right).search(s) and not _whole(wrong).search(s)]
    if found:
        sentence = _pick(found, used, rng)
        at = _whole(right).search(sentence)
        assert at is not None
        typed = _spell_like(wrong, at.group())
        misspelt = sentence[: at.start()] + typed + sentence[at.end() :]
        return Item(right, wrong, sentence, misspelt, "found", at.group(), typed)
    free = [s for s in pool if not _whole(wrong).search(s)]
    slots = [(s, m) for s in free for m in _slots(s, right)]
    slots = slots or [(s, m) for s in free for m in _slots(s, right, exact=False)]
    if not slots:
        raise ValueError(f"No sentence fits {right!r}.")
    unused = [slot for slot in slots if slot[0] not in used] or slots
    sentence, at = unused[rng.randrange(len(unused))]
    used.add(sentence)
    clean = sentence[: at.start()] + right + sentence[at.end() :]
    misspelt = sentence[: at.start()] + wrong + sentence[at.end() :]
    return Item(right, wrong, clean, misspelt, "fits", right, wrong)


def _pick(found: list[str], used: set[str], rng: random.Random) -> str:
    unused = [s for s in found if s not in used] or found
    choice = unused[rng.randrange(len(unused))]
    used.add(choice)
    return choice


def _slots(sentence: str, right: str, exact: bool = True) -> list[re.Match[str]]:
    """Words of ``sentence`` the right word can stand in for (rule 2 of the module): with
    the same tags, or (``exact`` off) sharing one."""
    want = tags(right) or frozenset({"NN"})  # a word the lexicon lacks: most likely a noun
    fits = (lambda found: found == want) if exact else (lambda found: bool(found & want))
    found = []
    for match in re.finditer(r"[a-z]{3,}", sentence):
        word = match.group()
        if match.start() == 0 or not sentence[match.start() - 1].isspace():
            continue
        after = sentence[match.end() : match.end() + 1]
        if (after and (after.isalpha() or after in "'’-")) or word == right.lower():
            continue  # part of a longer word ("don" of "don't") or the word itself
        if not (tags(word) & CONTENT_TAGS) or not fits(tags(word)) or is_auxiliary(word):
            continue
        article = re.search(r"\b(an?)\s+$", sentence[: match.start()], re.IGNORECASE)
        if article and (article.group(1).lower() == "an") != bool(VOWEL_SOUND.match(right)):
            continue
        found.append(match)
    return found


def unavailable(data_dir: Path = DATA_DIR) -> str:
    """Why the spelling set cannot be built here (its word list or JFLEG's sentences are
    missing), or ``""``."""
    return missing(data_dir, SPELLING_FILE, f"{JFLEG_DIR}/dev.ref0")


def build(half: str, data_dir: Path = DATA_DIR, seed: int = SEED) -> list[Item]:
    """Every pair of the half in a sentence of the same half's references."""
    pool = clean_sentences(half, data_dir)
    rng = random.Random(f"{seed}-{half}")
    used: set[str] = set()
    return [place(right, wrong, pool, used, rng) for right, wrong in pairs(half, data_dir)]


def run_spelling(
    rewrite: Callable[[str], str],
    half: str,
    limit: int = 0,
    data_dir: Path = DATA_DIR,
    say: Callable[[str], None] = lambda _line: None,
) -> dict[str, Any]:
    """Scores only: misspellings fixed, other words changed (never a sentence)."""
    why = unavailable(data_dir)
    if why:
        return {"half": half, "skipped": why}
    items = build(half, data_dir)[: limit or None]
    scores, changed, seconds = [], 0, []
    for i, item in enumerate(items):
        say(f"spelling {i + 1}/{len(items)}")
        started = time.perf_counter()
        output = rewrite(item.misspelt)
        seconds.append(time.perf_counter() - started)
        scores.append(score_corrections(item.misspelt, output, [item.correction()]))
        changed += output.strip() != item.misspelt.strip()
    return _summary(half, items, scores, changed, seconds)


def _summary(
    half: str, items: list[Item], scores: list[Corrected], changed: int, seconds: list[float]
) -> dict[str, Any]:
    fixed, damaged = sum(s.fixed for s in scores), sum(s.damaged for s in scores)
    return {
        "half": half,
        "pairs": len(items),
        "placed_in_a_sentence_with_the_word": sum(i.placed == "found" for i in items),
        "fixed": fixed,
        "fixed_share": fixed / max(len(items), 1),
        "other_words_changed": damaged,
        "other_words_changed_per_20": PER_SENTENCES * damaged / max(len(items), 1),
        "changed": changed,
        "median_seconds": sorted(seconds)[len(seconds) // 2] if seconds else None,
    }


def main(argv: list[str] | None = None) -> int:
    """``python -m tools.eval.spelling``: how the tune half's pairs were placed (the report
    half is never printed: it is for scoring only)."""
    parser = argparse.ArgumentParser(prog="python -m tools.eval.spelling", description=__doc__)
    parser.add_argument("--show", type=int, default=10, help="tune-half items to print")
    args = parser.parse_args(argv)
    why = unavailable()
    if why:
        print(why, file=sys.stderr)
        return 1
    items = build("tune")
    found = sum(i.placed == "found" for i in items)
    print(f"{len(items)} pairs; {found} in a sentence that had the word, {len(items) - found} fit")
    for item in items[: args.show]:
        print(f"{item.placed:5}  {item.wrong} -> {item.right}: {item.misspelt}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
