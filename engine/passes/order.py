"""Where a request's text is chosen: the passes around the canvas, in the order they run.

A request's plan (:mod:`engine.core.plan`) becomes text in this order:

1. **before the model** (each pass's ``before(plan)``, in list order):

   - :class:`~engine.passes.markdown.MarkdownLocks` (rewrites): Markdown structure (marks, link
     targets, code spans, tags) becomes locked segments, so later passes see it locked; after
     the model, a result that re-parses to other structure is put back to its seed;
   - :class:`~engine.passes.proofread.Proofread` (rewrites asking for grammar, a register or
     clarity): every free word's other forms and the instruction's phrase table are read by
     the model; what reads better becomes the seed;
   - :class:`~engine.passes.shorten.Shorten` (rewrites asking for less): budgets below the
     original, and which words the seed gives up (priced by the model);

2. **the canvas** (:func:`engine.core.canvas.build_canvas`): the plan tokenized, with the seed
   cut the shorten pass chose;
3. **each denoising step** (the backend's ``denoise``): the decode processors of
   :mod:`engine.decode` pick what each position may take (allowed sets, repeat and echo bans,
   the filler tail, reading order), the same list for every backend family;
4. **after the model** (each pass's ``after(result)``):

   - :class:`~engine.passes.reread.Reread` (rewrites): each changed run stays only where the
     model reads it at least as fluently as the original, and says no other content words;
   - :class:`~engine.passes.meaning.MeaningCheck` (rewrites, any backend): each changed run
     that adds or drops a negation, swaps a contrastive connective, changes a number or a
     name, or leaves a sentence without a verb is put back;

5. **assembly and the invariant check** (:func:`engine.core.canvas.assemble`,
   :func:`~engine.core.canvas.check_proposal`): locked text is the user's own string, and
   nothing outside the target changed.

Drafts and structured fills get no passes: a draft has no original to proofread, shorten or
compare against, and a fill's values are chosen and checked by :mod:`engine.structured`.
Which passes run is a setting (``SamplerSettings.passes``); their names are :data:`PASSES`.
"""

from __future__ import annotations

from engine.core.config import PASS_NAMES, SamplerSettings
from engine.core.plan import EditPlan
from engine.core.protocol import EditMode
from engine.passes.base import Pass
from engine.passes.markdown import MarkdownLocks
from engine.passes.meaning import MeaningCheck
from engine.passes.proofread import Proofread
from engine.passes.reread import Reread
from engine.passes.shorten import Shorten

# Every pass by its setting name, in the order they run.
PASSES: dict[str, type[Pass]] = {
    p.name: p for p in (MarkdownLocks, Proofread, Shorten, Reread, MeaningCheck)
}
assert tuple(PASSES) == PASS_NAMES, "config.PASS_NAMES lists the passes in their order"


def passes_for(plan: EditPlan, settings: SamplerSettings) -> list[Pass]:
    """The passes ``plan`` goes through, in order (none for drafts and fills)."""
    if plan.mode is not EditMode.REWRITE:
        return []
    return [make() for name, make in PASSES.items() if name in settings.passes]
