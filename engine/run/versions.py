"""Several versions of one rewrite (``SamplerSettings.alternatives``, issue 29).

The review offers, per hunk, every version that differs there, and the user picks per hunk, so
the applied text can combine them. A version is the same request settled with another seed:
the passes before the model (proofreading, a shorter rewrite's priced cuts) run once, since
they do not depend on the seed, and every version then goes through the same steps and the
same checks after the model (the Markdown locks, the reread, the meaning check,
``check_proposal``) as a single rewrite. Each version's frames are yielded as it settles, so
the overlay shows it settling; a version's first frame holds every position, as a new
request's does.

Versions settle one after another. Settling them as one batch (one forward for N canvases)
is what pays on an accelerator; on this CPU (2 shared cores, one thread per process, bf16)
``make bench``'s ``alternatives`` section measured the embedded model's forward of 3 canvases
at once against 3 forwards one after another (see :data:`BATCH_VERSIONS`).

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
# Whether versions settle as one batch. Measured by ``make bench`` (``alternatives``) on this
# CPU: a forward of 3 canvases at once cost about what 3 forwards one after another cost, so
# the versions run one after another through the one path every rewrite takes.
BATCH_VERSIONS = False


def version_seed(seed: int, version: int) -> int:
    """The seed of version ``version`` (counted from 1) of a rewrite asked with ``seed``:
    version 1 keeps it, so one version is exactly the rewrite it always was."""
    return (seed + (version - 1) * VERSION_STRIDE) % (1 << SEED_BITS)


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
        seeded = replace(settings, seed=version_seed(settings.seed, version))
        done = yield from settle_shaped(backend, shaped, seeded, document, run)
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
