"""Did a rewrite do what its instruction asked? One check per family, written before tuning.

- *formal*: no contraction and no slang left;
- *casual*: at least one contraction;
- *shorter*: at most :data:`SHORTER_RATIO` of the length, and still grammatical (no sentence
  left without a verb, no article cut from between the words it stood between, no word
  doubled);
- *fix grammar* / *fix spelling*: every correction the case expects made, and no other word
  changed (:func:`score_corrections`, which the public spelling set is scored with too).

The checks read the output as the suite's :mod:`tools.eval.wording` reads English and share
no code with the engine's own checks. A family without a check (clearer, the instructions no
small model can follow) is "not measured", never counted as followed.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher
from itertools import pairwise

from tools.eval import meaning
from tools.eval.wording import WORD, contractions_in, plain_text, slang_in, word_set, words

SHORTER_RATIO = 0.8
CHECKED = ("fix grammar", "fix spelling", "shorter", "formal", "casual")
Correction = tuple[str, tuple[str, ...]]  # the wrong words, and every accepted right form


@dataclass(frozen=True)
class Corrected:
    expected: int
    fixed: int
    damaged: int  # words changed that no correction asked for

    @property
    def followed(self) -> bool:
        return self.fixed == self.expected and self.damaged == 0


def followed(check: str, original: str, output: str, fixes: Sequence[Correction] = ()) -> bool:
    """The family check ``check`` on one output; ``ValueError`` for a family without one.
    An output with no words follows nothing (the shortest cut is not a rewrite)."""
    if check not in CHECKED:
        raise ValueError(f"The family {check!r} has no 'followed' check.")
    if not words(output):
        return False
    if check == "formal":
        return not contractions_in(plain_text(output)) and not slang_in(plain_text(output))
    if check == "casual":
        return bool(contractions_in(plain_text(output)))
    if check == "shorter":
        return shorter(original, output)
    return score_corrections(original, output, fixes).followed


def shorter(original: str, output: str) -> bool:
    short = len(output.strip()) <= SHORTER_RATIO * len(original.strip())
    return short and not ungrammatical(original, output)


def ungrammatical(original: str, output: str) -> list[str]:
    """Damage a cut can do: a sentence left without a verb, an article cut, a doubled word."""
    found = []
    if len(meaning.verbless(plain_text(output))) > len(meaning.verbless(plain_text(original))):
        found.append("a sentence without a verb")
    found += [f"article cut: {a!r}" for a in articles_cut(original, output)]
    found += [f"article left dangling: {a!r}" for a in dangling_articles(original, output)]
    ws = [w.lower() for w in words(plain_text(output))]
    found += [f"doubled word: {a!r}" for a, b in pairwise(ws) if a == b]
    return found


def articles_cut(original: str, output: str) -> list[str]:
    """ "review the budget" that came back as "review budget": the article dropped from
    between the same two words (a cut that reads like a telegram, not like a person's)."""
    was = [w.lower() for w in words(plain_text(original))]
    now = " " + " ".join(w.lower() for w in words(plain_text(output))) + " "
    found = []
    for before, article, after in zip(was, was[1:], was[2:], strict=False):
        cut = f" {before} {after} " in now and f" {before} {article} {after} " not in now
        if article in word_set("articles") and cut:
            found.append(f"{before} {article} {after}")
    return found


def dangling_articles(original: str, output: str) -> list[str]:
    """ "the start of the on time": an article before a word no noun phrase starts with,
    where the original had no such pair (what is left when a cut takes the noun)."""
    was = [w.lower() for w in words(plain_text(original))]
    now = [w.lower() for w in words(plain_text(output))]
    before = set(pairwise(was))
    return [
        f"{a} {b}"
        for a, b in pairwise(now)
        if a in word_set("articles") and b in word_set("not_after_article") and (a, b) not in before
    ]


def locate(text: str, fixes: Sequence[Correction]) -> list[tuple[int, int]]:
    """Where each correction's wrong words stand in ``text``, in order, as whole words."""
    spans, cursor = [], 0
    for wrong, _ in fixes:
        found = re.compile(rf"(?<![\w']){re.escape(wrong)}(?![\w'])").search(text, cursor)
        if not found:
            raise ValueError(f"The correction {wrong!r} is not in the text (after {cursor}).")
        spans.append(found.span())
        cursor = found.end()
    return spans


def apply_corrections(
    text: str, fixes: Sequence[Correction], choose: Sequence[str] = ()
) -> tuple[str, list[tuple[int, int]]]:
    """``text`` with every correction made (the first right form, or ``choose``'s), and where
    the right forms stand in it."""
    out, spans, last = [], [], 0
    places = locate(text, fixes)
    for index, ((start, end), (_, rights)) in enumerate(zip(places, fixes, strict=True)):
        right = choose[index] if choose else rights[0]
        out.append(text[last:start])
        at = sum(len(part) for part in out)
        out.append(right)
        spans.append((at, at + len(right)))
        last = end
    out.append(text[last:])
    return "".join(out), spans


def score_corrections(original: str, output: str, fixes: Sequence[Correction]) -> Corrected:
    """Each correction fixed when its right form (any accepted one) comes back where it
    belongs; every other word the output changed, added or dropped is damage. Words are
    compared case and all, marks aside."""
    said = " " + " ".join(words(output)) + " "
    # the longest accepted form the output has: "much cheaper" holds "cheaper" too
    choose = [next((r for r in _longest_first(rights) if f" {' '.join(words(r))} " in said),
                   rights[0]) for _, rights in fixes]  # fmt: skip
    target, spans = apply_corrections(original, fixes, choose)
    tokens = [(m.group().replace("’", "'"), m.start()) for m in WORD.finditer(target)]
    owner = [next((i for i, (a, b) in enumerate(spans) if a <= at < b), -1) for _, at in tokens]
    got = words(output)
    unfixed: set[int] = set()
    damaged = 0
    matcher = SequenceMatcher(None, [t for t, _ in tokens], got, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        touched = _touched(owner, i1, i2)
        unfixed |= touched
        plain = sum(owner[i] < 0 for i in range(i1, i2))
        # words added beside a correction are what is left of the wrong form, not damage
        damaged += plain if touched else max(plain, (j2 - j1) - (i2 - i1 - plain))
    return Corrected(len(fixes), len(fixes) - len(unfixed), damaged)


def _longest_first(rights: Sequence[str]) -> list[str]:
    return sorted(rights, key=lambda right: -len(words(right)))


def _touched(owner: Sequence[int], i1: int, i2: int) -> set[int]:
    """The corrections a change of target words ``i1:i2`` falls in or, when it only adds
    words, stands right beside ("much more better" for "much better")."""
    inside = {owner[i] for i in range(i1, i2) if owner[i] >= 0}
    if i1 == i2:
        inside |= {owner[i] for i in (i1 - 1, i1) if 0 <= i < len(owner) and owner[i] >= 0}
    return inside
