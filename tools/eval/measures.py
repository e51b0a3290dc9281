"""Pure measures of one output: the same functions judge the diffusion and the AR model.

Each takes text or token ids and returns a number or a flag, so tests pin them down exactly.
The fluency judge (:func:`judge_nll`) is the only one that needs a model: the base causal model
scores the output given the text before it, as a reader who only reads left to right would.
"""

from __future__ import annotations

import re
import statistics
from collections.abc import Sequence
from difflib import SequenceMatcher
from typing import Any

import torch
import torch.nn.functional as F

# Words that carry no topic: a rewrite may drop them freely.
STOPWORDS = frozenset(
    """a about above after again all also am an and any are as at be because been before being
    below between both but by can could did do does doing down during each few for from further
    had has have having he her here hers him his how i if in into is it its just me more most my
    no nor not now of off on once only or other our out over own same she should so some such
    than that the their them then there these they this those through to too under until up
    very was we were what when where which while who whom why will with would you your yours
    really quite basically gonna it'll we'll can't don't still much many one""".split()  # noqa: SIM905
)
TRAILING = " \t\n.,;:!?\"'`)("


def words(text: str) -> list[str]:
    return re.findall(r"[A-Za-z][A-Za-z'-]*|\d[\d.,:/-]*\d|\d", text)


def content_words(text: str) -> set[str]:
    """Names, nouns and numbers, roughly: every number and every non-stopword of 3+ letters."""
    found = set()
    for word in words(text):
        low = word.lower().strip("'-")
        if word[0].isdigit() or (len(low) >= 3 and low not in STOPWORDS):
            found.add(low)
    return found


def content_kept(original: str, output: str) -> float:
    """Share of the original's content words that the output still has (1.0 when it had none)."""
    wanted = content_words(original)
    if not wanted:
        return 1.0
    return len(wanted & content_words(output)) / len(wanted)


def words_changed(original: str, output: str) -> float:
    """Share of the original's words that the output does not keep in order (0: unchanged).

    A rewrite's fluency alone would reward handing the paragraph back as it was: this says how
    much of it a rewrite actually rewrote."""
    before, after = original.split(), output.split()
    if not before:
        return 0.0
    same = SequenceMatcher(None, before, after, autojunk=False).get_matching_blocks()
    return 1.0 - sum(block.size for block in same) / len(before)


def repeated_word_share(text: str) -> float:
    """Share of the output's content words (four letters or more) said earlier in it: a loop
    of meaning that no repeated 3-gram shows ("The engine is the machine that is the
    computer. It was designed as a computer.")."""
    words = re.findall(r"[a-z]{4,}", text.lower())
    return (len(words) - len(set(words))) / len(words) if words else 0.0


def repeated_trigram_share(ids: Sequence[int]) -> float:
    """Share of the output's token 3-grams that already occurred earlier in it (loops, stutter)."""
    grams = [tuple(ids[i : i + 3]) for i in range(len(ids) - 2)]
    if not grams:
        return 0.0
    seen: set[tuple[int, ...]] = set()
    repeats = 0
    for gram in grams:
        repeats += gram in seen
        seen.add(gram)
    return repeats / len(grams)


def is_empty(text: str) -> bool:
    return not text.strip()


def length_ratio(original: str, output: str) -> float:
    return len(output.strip()) / max(len(original.strip()), 1)


def locks_kept(output: str, locks: Sequence[str]) -> bool:
    """Every locked phrase appears in the output, in order."""
    at = 0
    for phrase in locks:
        found = output.find(phrase, at)
        if found < 0:
            return False
        at = found + len(phrase)
    return True


def _edge_class(char: str | None) -> str:
    if char is None or char.isspace():
        return "space"
    return "word" if char.isalnum() else "mark"


def lock_edges_kept(paragraph: str, output: str, locks: Sequence[str]) -> tuple[int, int]:
    """(edges kept, edges) at the locks' two sides: where the original had whitespace (or the
    paragraph's edge) the output has it too, and no lock is glued to a word it was not glued to.

    "machines1843" for "machines 1843" is the failure this catches: the space beside a lock is
    generated text, so a sampler can eat it. Locks are looked for in order, and where a phrase
    occurs more than once (a model may echo a lock's words beside it: "March 33 March 3") the
    occurrence with the most edges kept is the lock's: the echo is generated text, not the lock.
    """
    kept = total = 0
    cursor = 0
    for phrase in locks:
        total += 2
        want = [_edge_class(c) for c in _edges(paragraph, paragraph.find(phrase), phrase)]
        best, best_at = 0, -1
        for at in _occurrences(output, phrase, cursor):
            got = [_edge_class(c) for c in _edges(output, at, phrase)]
            score = sum(_edge_ok(w, g) for w, g in zip(want, got, strict=True))
            if best_at < 0 or score > best:
                best, best_at = score, at
        if best_at >= 0:
            kept += best
            cursor = best_at + len(phrase)
    return kept, total


def _edges(text: str, at: int, phrase: str) -> tuple[str | None, str | None]:
    return _char_at(text, at - 1), _char_at(text, at + len(phrase))


def _edge_ok(want: str, got: str) -> bool:
    return got == want or (want == "mark" and got != "word")


def _occurrences(text: str, phrase: str, start: int) -> list[int]:
    found, at = [], text.find(phrase, start)
    while at >= 0 and phrase:
        found.append(at)
        at = text.find(phrase, at + 1)
    return found


def _char_at(text: str, index: int) -> str | None:
    return text[index] if 0 <= index < len(text) else None


def cloze_right(fill: str, answers: Sequence[str]) -> bool:
    """The fill starts with an accepted answer at a word boundary (case and marks ignored)."""
    text = fill.strip(TRAILING).lower()
    for answer in answers:
        want = answer.strip(TRAILING).lower()
        if text == want or (text.startswith(want) and not text[len(want)].isalnum()):
            return True
    return False


@torch.inference_mode()
def judge_nll(model: Any, context: Sequence[int], output: Sequence[int]) -> float | None:
    """Mean NLL (nats per token) of ``output`` given ``context`` under a causal model."""
    if not output:
        return None
    ids = torch.tensor([[*context, *output]], dtype=torch.long)
    logits = model(input_ids=ids).logits[0, len(context) - 1 : -1].float()
    return float(F.cross_entropy(logits, ids[0, len(context) :]).item())


def median(values: Sequence[float | None]) -> float | None:
    present = [v for v in values if v is not None]
    return statistics.median(present) if present else None


def mean(values: Sequence[float | None]) -> float | None:
    present = [v for v in values if v is not None]
    return sum(present) / len(present) if present else None
