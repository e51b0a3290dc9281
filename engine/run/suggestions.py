"""A misspelt word's suggestions ranked by the model reading each in its sentence (the
editor's spelling menu).

The dictionary orders suggestions by edits and how common a word is, wherever the word
stands: "cleark" is offered "clear" before "clerk" in "the cleark at the desk" as in "the
sky is cleark". "Fix spelling" does better: it reads every candidate in the passage and
keeps the one that saves the most over the word as typed, less the price of the slip it
undoes (:mod:`engine.passes.proofread`, :func:`engine.passes.offers.spelling_margin`). The
menu asks the same question of one word, so :func:`rank_suggestions` reads each suggestion
in the word's place in one batched read (:meth:`engine.backends.base.Reader.read`: the
text before as context, the word and a few characters after as the passage, each
suggestion's changed tokens and :data:`~engine.passes.proofread.LOOKAHEAD` after them as a
variant) and orders them by that net saving, the dictionary's order breaking ties.

A backend with no causal reader (DiffusionGemma) answers the suggestions as they came,
with no nats: the menu then keeps the dictionary's order.
"""

from __future__ import annotations

from engine.backends.base import Backend
from engine.core.canvas import text_before_ids
from engine.core.errors import BadRequest
from engine.core.protocol import RankSuggestions, SuggestionsRanked
from engine.core.tokens import TokenTable
from engine.passes.offers import suggestion_margin
from engine.passes.proofread import AFTER_CHARS, LOOKAHEAD, differing


def rank_suggestions(backend: Backend, request: RankSuggestions) -> SuggestionsRanked:
    """``request``'s suggestions, the one the model reads best in the word's place first
    (net of its slip's price); as they came, with no nats, where the backend cannot read."""
    problem = request.problem()
    if problem:
        raise BadRequest(problem)
    reader = backend.reader()
    if reader is None:
        return SuggestionsRanked(request.request_id, request.word, request.suggestions, ())
    context, tokens, variants = reading(backend.table, request)
    base, reads = reader.read(context, tokens, [(at, tail) for at, _, tail in variants])
    nets = [
        sum(base[at:old_stop]) - sum(nlls) - suggestion_margin(request.word, suggestion)
        for (at, old_stop, _), nlls, suggestion in zip(
            variants, reads, request.suggestions, strict=True
        )
    ]
    order = sorted(range(len(nets)), key=lambda i: -nets[i])  # stable: ties keep their place
    return SuggestionsRanked(
        request.request_id,
        request.word,
        tuple(request.suggestions[i] for i in order),
        tuple(round(nets[i], 3) for i in order),
    )


Variant = tuple[int, int, list[int]]  # where it differs, where the word's tokens stop, its tail


def reading(
    table: TokenTable, request: RankSuggestions
) -> tuple[list[int], list[int], list[Variant]]:
    """The context (the text before, without the space that opens the word: byte-level BPE
    reads a word with its space), the passage (that space, the word, a few characters after)
    and each suggestion's variant of it: its differing tokens and the :data:`LOOKAHEAD`
    after them, with how far the word's own differing tokens (and as many after) reach."""
    lead = request.before.rstrip(" ")
    space = request.before[len(lead) :]
    after = request.after[:AFTER_CHARS]
    tokens = table.encode(space + request.word + after)
    variants = []
    for suggestion in request.suggestions:
        new = table.encode(space + suggestion + after)
        where = differing(tokens, new)
        assert where is not None, "RankSuggestions.problem refuses the word as a suggestion"
        at, old_stop, new_stop = where
        reach = min(old_stop + LOOKAHEAD, len(tokens))
        variants.append((at, reach, new[at : new_stop + LOOKAHEAD]))
    return text_before_ids(lead, table), tokens, variants
