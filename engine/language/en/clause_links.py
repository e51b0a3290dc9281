"""A sentence whose two clauses are linked twice: "Although it rained, but we went out."

A subordinator that opens a sentence ("although", "because") already links its clause to the
next one; a coordinator opening that next clause ("but", "so") links them again. Several
languages say it both ways (Chinese pairs "although" with "but", "because" with "so"), and
learners of English carry it over. English keeps one: here the coordinator
goes, as a rule of writing, since the clause after the comma reads the same without it
("Although it rained, we went out"; "Because the bus was late, we walked").

Which subordinator pairs with which coordinator is language data (``data/grammar.json``'s
``doubled_links``). Only where the subordinator opens the sentence (after "even" too: "even
though") and the coordinator follows the sentence's first comma: "but" elsewhere is the
writer's own link. Pure functions over word texts (each with its leading whitespace).
"""

from __future__ import annotations

from collections.abc import Sequence

from lemminflect import getAllLemmas

from engine.language.en.cut_safety import core
from engine.language.en.data import load_json
from engine.language.en.rewordings import Rewording
from engine.language.en.sentence_time import sentence_of

# A subordinator that opens a sentence, and the coordinators that would link its clause twice.
DOUBLED_LINKS: dict[str, frozenset[str]] = {
    opener: frozenset(links) for opener, links in load_json("grammar.json")["doubled_links"].items()
}
EVEN = "even"  # "even though", "even if": the subordinator is the second word
COMMA = ","
AUXILIARY = "AUX"


def doubled_link(words: Sequence[str], index: int) -> list[Rewording]:
    """ "Although it rained, but we went" → "Although it rained, we went": word ``index`` is a
    coordinator right after the sentence's first comma, and the sentence opens with a
    subordinator it doubles."""
    if index < 2 or not words[index - 1].rstrip().endswith(COMMA):
        return []
    start, _ = sentence_of(words, index)
    opener_at = start + 1 if core(words[start]) == EVEN else start
    links = DOUBLED_LINKS.get(core(words[opener_at]))
    if not links or core(words[index]) not in links or words[index].strip() != core(words[index]):
        return []
    if any(word.rstrip().endswith(COMMA) for word in words[opener_at : index - 1]):
        return []  # not the first comma: the coordinator links a later clause
    if index + 1 < len(words) and AUXILIARY in getAllLemmas(core(words[index + 1])):
        return []  # "so did the lights": an inverted clause, the coordinator is its own
    return [Rewording(index - 1, index + 1, words[index - 1])]
