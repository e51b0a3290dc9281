"""Several versions of one rewrite (``SamplerSettings.alternatives``, issue 29).

The review offers, per hunk, every version that differs there, and the user picks per hunk, so
the applied text can combine them. A version is the same request settled with another seed
(after the first, sampled at least at :data:`VERSION_TEMPERATURE`). The passes before the
model (proofreading, a shorter rewrite's priced cuts) run once, since they do not depend on
the seed, and every version then goes through the same steps and the same checks after the
model (the Markdown locks, the reread, the meaning check, ``check_proposal``) as a single
rewrite. Each version's frames are yielded as it settles, so the overlay shows it settling; a
version's first frame holds every position, as a new request's does.

Versions settle one after another. Settling them as one batch (one forward for N canvases)
is what pays on an accelerator, and it would pay on this CPU too: ``make bench``'s review
section times the embedded model's forward over 3 sequences at once against 3 forwards one
after another (see :data:`BATCH_VERSIONS` for the numbers). It is not built: every per-canvas
part of a masked step (the locked keys and values, the guards, the commit read back to the
host) would need a batch dimension. Since the passes before the model run once, three
versions already cost less than three rewrites.

Identical versions are merged: a version whose text equals the proposal's, an earlier
version's, or the user's own text (what rejecting every hunk gives) is not offered again.
"""

from __future__ import annotations

from collections.abc import Generator, Sequence
from dataclasses import replace

from engine.backends.base import Backend
from engine.core.config import SamplerSettings
from engine.core.plan import EditPlan
from engine.core.protocol import Alternative, EditMode, Frame
from engine.run.pipeline import Denoised, RunContext, settle_shaped, shape_plan

# How version ``k``'s seed differs from the first version's: a fixed odd stride gives each
# version its own seed, and the same request settles the same versions again. Another stride
# than a retry's (:data:`engine.run.retry.SEED_STRIDE`), so a hunk's first try again is not
# version 2 settled over again.
VERSION_STRIDE = 0xD1B54A32D192ED03
SEED_BITS = 63
# Whether versions settle as one batch: not built (above), so one after another through the one
# path every rewrite takes. ``python -m tools.bench.review --limit 12`` (12 dev rewrite cases,
# one run on 2 shared cores, median input 56 positions): a whole-window forward over 3
# sequences took 1872 ms batched against 2326 ms one after another, a cached 8-row step 195
# against 646 ms, so batching would pay here too; three versions took 2.2x the time of one.
BATCH_VERSIONS = False
# Greedy decoding (temperature 0, the default) turns every seed's canvas into nearly the same
# text: the seed only chooses which positions start masked, and the argmax fills them alike.
# Versions after the first sample at least at this temperature, so they offer other words.
# Tuned on the dev split only (five rewrite cases, every 13th from the fourth, three versions
# each): versions beyond the first that survived the checks and the merging: 2 at 0, 3 at 0.4,
# 1 at 0.7 (hotter samples read worse, and the reread puts them back). Little evidence.
VERSION_TEMPERATURE = 0.4


def version_seed(seed: int, version: int) -> int:
    """The seed of version ``version`` (counted from 1) of a rewrite asked with ``seed``:
    version 1 keeps it, so one version is exactly the rewrite it always was."""
    return (seed + (version - 1) * VERSION_STRIDE) % (1 << SEED_BITS)


def version_settings(settings: SamplerSettings, version: int) -> SamplerSettings:
    """The settings version ``version`` settles with: its seed, and after the first at least
    :data:`VERSION_TEMPERATURE`."""
    seed = version_seed(settings.seed, version)
    if version == 1:
        return replace(settings, seed=seed)
    return replace(settings, seed=seed, temperature=max(settings.temperature, VERSION_TEMPERATURE))


def version_count(plan: EditPlan, settings: SamplerSettings) -> int:
    """How many versions ``plan`` settles: a rewrite its setting's, anything else one."""
    return int(settings.alternatives) if plan.mode is EditMode.REWRITE else 1


def denoise_versions(
    backend: Backend,
    plan: EditPlan,
    settings: SamplerSettings,
    document: str,
    run: RunContext,
) -> Generator[Frame, None, list[Denoised] | None]:
    """Settle every version of ``plan``: frames of each in turn, then their checked results
    (version 1 first), or ``None`` when cancelled."""
    shaped = yield from shape_plan(backend, plan, settings, run)
    reader = shaped.ctx.reader
    versions: list[Denoised] = []
    for version in range(1, version_count(plan, settings) + 1):
        if version > 1 and reader is not None:  # each version counts its own reads
            shaped = replace(shaped, reads_before=reader.forwards)
        done = yield from settle_shaped(
            backend, shaped, version_settings(settings, version), document, run
        )
        if done is None:
            return None
        versions.append(done)
    return versions


def alternatives(versions: Sequence[Denoised], original: str) -> tuple[Alternative, ...]:
    """Versions 2..N as the proposal's alternatives, each text offered once: none equal to
    the first version's, to an earlier one's, or to ``original`` (the target as written)."""
    seen = {original, *(v.text for v in versions[:1])}
    offered: list[Alternative] = []
    for version in versions[1:]:
        if version.text in seen:
            continue
        seen.add(version.text)
        offered.append(Alternative(version.text, version.segments, version.notes))
    return tuple(offered)
