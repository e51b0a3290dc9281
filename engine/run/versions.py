"""Several versions of one rewrite (``SamplerSettings.alternatives``, issue 29).

The review offers, per hunk, every version that differs there, and the user picks per hunk, so
the applied text can combine them. Version 1 is the rewrite as one version settles it, bit for
bit. Every later version settles *the first version's changes* again and varies a few of its
*near misses*: the target as the user wrote it, with each word the first version kept locked
(an engine lock the review shows as free text), its cuts made as it made them
(:func:`only_cuts`), each of its other hunks open from the user's words, and the next near
misses (:mod:`engine.run.near_misses`: the tokens it kept where its canvas was least sure,
never in a pronoun, determiner, quantifier or preposition) open as varied segments, where the
canvas must commit its next choice; the meaning check puts back a varied segment that changes
one of those words ("have more by" for "have it by"). Each later version
has its own seed and samples at least at :data:`VERSION_TEMPERATURE`. It is an ordinary plan
through the one pipeline, so the same passes and checks run (proofreading, the Markdown locks,
the reread, the meaning check, ``check_proposal``) and its frames are yielded as it settles;
the proofreader does not offer an earlier version's text again (``EditPlan.avoid``: it gives
up its least saving change instead), and a version that still comes back as an earlier one
is settled again over the next near misses while the request has :data:`EXTRA_TRIES` left.

Why not the whole target with another seed: on the embedded model the passes before the canvas
are deterministic and the reread puts back nearly every change the canvas samples, so the
versions collapsed into the first (on 12 dev rewrites, three distinct versions in 1) and cost
2.2x one. Only the first version's changes and its near misses are where the model had a
choice, and a version settling only those positions costs about what trying one change again
costs. Why near misses: a first version that changed little or nothing gave later versions
nowhere to differ (three distinct versions in 11 of the 102 dev rewrites before them). What
they gave is measured in ``docs/benchmarks.md``'s review section: the model's next choice at a
kept word mostly reads worse, and the reread puts it back.

Versions 2..N settle one after another by default. With ``SamplerSettings.batch_versions`` on,
on a backend that batches (the masked family, :class:`engine.backends.base.Batching`;
DiffusionGemma settles them one after another either way), they settle as one batch: each is
planned from the first version and shaped by its passes in turn, then their canvases settle
together (:mod:`engine.run.together`: one forward per round over every canvas still open, each
with its own seed, locks, guards and commit; each version's frames are shown whole, in turn),
and the passes after the model and the checks run per version, as for one. A batched version's
plan avoids the first version's text and the texts the batched ones before it were shaped to,
not what they settle to (they have not settled yet), so one that came back as another batched
version is settled again one after another, avoiding it, at no extra try (:func:`settled_again`);
one that came back as the first version or the user's text is tried again as one after another
would. Why one after another is the default: on the 2-core CPU (``python -m tools.bench.review
--only alternatives``, the 102 dev rewrites, both ways in one run, ``docs/benchmarks.md``'s
review section) three versions took 1.24x the time of one one after another and 1.34x batched
(medians; 20 and 21 model reads, 21 forward calls each way). A forward over three canvases
costs less than three (a cached step 91 against 238 ms), but a later version settles only a
few positions, so its time is mostly the passes' reads, which stay per version, and the batch
saved 18 forward calls over the 59 cases where both ways read alike; in the other 43 the batch
settled versions that one after another, trying the versions in turn, did not need (40 of them
read more). The same versions came back in 99 of the 102.

Identical versions are merged: a version whose text equals the proposal's, an earlier
version's, or the user's own text (what rejecting every hunk gives) is not offered again, and
:func:`merged` says what became of each one asked for and not offered (the proposal's note,
:func:`engine.run.answers.versions_note`). A first version with no hunk to settle again and no
near miss has nowhere to differ: its later versions are not settled.
"""

from __future__ import annotations

from collections.abc import Generator, Sequence
from dataclasses import dataclass, replace

from engine.backends.base import Backend
from engine.core.config import SamplerSettings
from engine.core.plan import EditPlan, Free, Locked, Segment, plan_text, segment_text
from engine.core.protocol import Alternative, EditMode, Frame, Span
from engine.core.worddiff import Hunk, word_diff
from engine.run.answers import Merged
from engine.run.near_misses import NearMiss, near_misses, next_misses, varies_content
from engine.run.pipeline import Denoised, RunContext, Shaped, denoise_plan, shape_plan
from engine.run.retry import widen_to_words
from engine.run.together import batches, settle_together

# How version ``k``'s seed differs from the first version's: a fixed odd stride gives each
# version its own seed, and the same request settles the same versions again. Another stride
# than a retry's (:data:`engine.run.retry.SEED_STRIDE`), so a hunk's first try again is not
# version 2 settled over again.
VERSION_STRIDE = 0xD1B54A32D192ED03
SEED_BITS = 63
# Tries a request may spend, over one settling per version, on versions that came back as an
# earlier one: each settles the next near misses instead, and costs about what a later version
# costs. Measured on the dev split only (26 of its rewrites, ``--limit 26``, 4 near misses a
# try): three distinct versions in 2 of 26 with 2 tries as without, at 1.41x the time of one
# against 1.30x (the near misses are few and mostly put back); kept, as it only runs when a
# version merged and the whole request stays well inside 2x one.
EXTRA_TRIES = 2
# Greedy decoding (temperature 0, the default) turns every seed's canvas into nearly the same
# text: the seed only chooses which positions start masked, and the argmax fills them alike.
# Versions after the first sample at least at this temperature, so they offer other words.
# Tuned on the dev split only, when versions re-settled the whole target (five rewrite cases,
# every 13th from the fourth, three versions each): versions beyond the first that survived the
# checks and the merging: 2 at 0, 3 at 0.4, 1 at 0.7 (hotter samples read worse, and the reread
# puts them back). Little evidence; kept for versions over the first version's changes.
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
    (version 1 first), or ``None`` when cancelled. A version with nowhere to differ (a first
    version that changed nothing and has no near miss left for it) is not settled."""
    first = yield from denoise_plan(backend, plan, version_settings(settings, 1), document, run)
    if first is None:
        return None
    target, locks = plan_text(plan.segments), user_locks(plan)
    misses = near_misses(target, first, backend.table, locks, varies_content(settings))
    tries = Tries(misses, open_spans(target, word_diff(target, first.segments, locks).hunks, locks))
    versions = [first]
    if batching(backend, plan, settings):
        whole = yield from batched_versions(backend, plan, settings, document, run, versions, tries)
        if not whole:
            return None if run.cancelled() else versions
    while len(versions) < version_count(plan, settings):
        done = yield from settle_version(backend, plan, settings, document, run, versions, tries)
        if done is None:
            return None if run.cancelled() else versions
        versions.append(done)
    return versions


def batched_versions(
    backend: Backend,
    plan: EditPlan,
    settings: SamplerSettings,
    document: str,
    run: RunContext,
    versions: list[Denoised],
    tries: Tries,
) -> Generator[Frame, None, bool]:
    """Versions 2..N settled as one batch (:mod:`engine.run.together`), appended to
    ``versions``; ``False`` when cancelled or when a version had nowhere to differ (none after
    it is settled, as one after another).

    Each is planned from the first version and shaped (its passes before the canvas) before
    the next is planned, so each avoids the first version's text and the texts the ones
    before it were shaped to (not yet what they settle to); each comes back through
    :func:`settled_again`."""
    shaped: list[Shaped] = []
    own: list[SamplerSettings] = []
    for number in range(2, version_count(plan, settings) + 1):
        varied, tries.misses = next_misses(tries.misses, tries.opened)
        foreseen = tuple(plan_text(s.canvas.plan.segments) for s in shaped)
        again = version_plan(plan, versions, varied, foreseen)
        if again is None:
            break
        own.append(version_settings(settings, number))
        shaped.append((yield from shape_plan(backend, again, own[-1], run)))
        if run.cancelled():
            return False
    settled = yield from settle_together(backend, shaped, own, document, run)
    if settled is None:
        return False
    for done in settled:
        offered = yield from settled_again(
            backend, plan, settings, document, run, versions, tries, done
        )
        if offered is None:
            return False
        versions.append(offered)
    return len(shaped) == version_count(plan, settings) - 1


def settled_again(
    backend: Backend,
    plan: EditPlan,
    settings: SamplerSettings,
    document: str,
    run: RunContext,
    versions: list[Denoised],
    tries: Tries,
    done: Denoised,
) -> Generator[Frame, None, Denoised | None]:
    """A batched version as it is offered (``None`` when cancelled while settling it again).

    One that came back as another batched version's text, which its plan could not avoid, is
    settled again one after another, as one after another would have planned it (avoiding
    that text), at no extra try; one that came back as the first version or the user's text is
    settled again over the next near misses while ``tries`` has extra tries, as
    :func:`settle_version` does. Either way its batched forwards count in its own."""
    seen = {plan_text(plan.segments), *(v.text for v in versions)}
    sibling = done.text in {v.text for v in versions[1:]}
    if not sibling and not (done.text in seen and tries.misses and tries.extra):
        return done
    tries.extra -= 0 if sibling else 1
    retry = yield from settle_version(backend, plan, settings, document, run, versions, tries)
    if retry is None:
        return None if run.cancelled() else done
    return replace(retry, retried=retry.retried + done.forwards)


def batching(backend: Backend, plan: EditPlan, settings: SamplerSettings) -> bool:
    """Whether ``plan``'s later versions settle as one batch: asked to (``batch_versions``),
    on a backend that batches, and at least two of them (one has nothing to batch with)."""
    return settings.batch_versions and batches(backend) and version_count(plan, settings) > 2


@dataclass
class Tries:
    """The near misses later versions have not varied yet, what is open in every one of them,
    and the tries left over what the versions take (:data:`EXTRA_TRIES`)."""

    misses: list[NearMiss]
    opened: list[tuple[int, int]]
    extra: int = EXTRA_TRIES


def settle_version(
    backend: Backend,
    plan: EditPlan,
    settings: SamplerSettings,
    document: str,
    run: RunContext,
    versions: list[Denoised],
    tries: Tries,
) -> Generator[Frame, None, Denoised | None]:
    """The next version: settled over the first version's hunks and the next near misses,
    and settled again over the next ones (while ``tries`` has extra tries) when it came back
    as an earlier version or the user's text. ``None`` when it has nowhere to differ or the
    run was cancelled; a version settled more than once counts every try's forwards."""
    number, spent = len(versions) + 1, 0
    seen = {plan_text(plan.segments), *(v.text for v in versions)}
    while True:
        varied, tries.misses = next_misses(tries.misses, tries.opened)
        again = version_plan(plan, versions, varied)
        if again is None:
            return None
        done = yield from denoise_plan(
            backend, again, version_settings(settings, number), document, run
        )
        if done is None:
            return None
        if done.text not in seen or not tries.misses or not tries.extra:
            return replace(done, retried=spent) if spent else done
        tries.extra -= 1
        spent += done.forwards


def version_plan(
    plan: EditPlan,
    versions: Sequence[Denoised],
    varied: Sequence[tuple[int, int]] = (),
    foreseen: Sequence[str] = (),
) -> EditPlan | None:
    """The plan a later version settles: ``plan``'s target with the first version's cuts
    made, its other hunks open, the ``varied`` near misses open as varied segments
    (:attr:`Free.vary`) and every other word locked, avoiding each earlier version's text and
    each ``foreseen`` one (a version settling in the same batch, as its passes before the
    canvas left it); ``None`` when it has nowhere to differ (no hunk to settle again, no near
    miss left)."""
    target = plan_text(plan.segments)
    locks = user_locks(plan)
    hunks = word_diff(target, versions[0].segments, locks).hunks
    cut = [(h.start, h.end) for h in hunks if only_cuts(h)]
    again = [h for h in hunks if not only_cuts(h)]
    if not again and not varied:
        return None
    opened = open_spans(target, again, sorted([*locks, *cut]))
    earlier = (*("".join(s.text for s in v.segments) for v in versions), *foreseen)
    segments = segments_over(target, opened, locks, varied, cut)
    return replace(plan, segments=segments, avoid=earlier)


def only_cuts(hunk: Hunk) -> bool:
    """Whether ``hunk`` only took words out. Settled again from the user's words it can only
    come back cut the same way or as the user's words (what rejecting it gives): a shorter
    rewrite's cut is chosen over the whole passage, and a lone hunk's words have nothing
    around them to cut against. So later versions keep it as the first version made it."""
    return not hunk.new.strip() and bool(hunk.old.strip())


def user_locks(plan: EditPlan) -> list[tuple[int, int]]:
    """The user's locks as spans of the target."""
    spans, at = [], 0
    for segment in plan.segments:
        if isinstance(segment, Locked) and not segment.structure:
            spans.append((at, at + len(segment.text)))
        at += len(segment_text(segment))
    return spans


def open_spans(
    target: str, hunks: Sequence[Hunk], locks: Sequence[tuple[int, int]]
) -> list[tuple[int, int]]:
    """Where a later version may write: each hunk's words with the whitespace on either side
    (so a version that drops the words drops a space with them), merged where they touch; a
    hunk that only inserted opens the word on each side of it, as a try of that change does.
    Never into a lock of the user's."""
    spans: list[tuple[int, int]] = []
    for hunk in hunks:
        low = max((b for a, b in locks if b <= hunk.start), default=0)
        high = min((a for a, b in locks if a >= hunk.end), default=len(target))
        span = Span(hunk.start, hunk.end)
        if not target[span.start : span.end].strip():
            span = widen_to_words(target, span, Span(low, high))
        start, end = span.start, span.end
        while start > low and target[start - 1].isspace():
            start -= 1
        while end < high and target[end].isspace():
            end += 1
        if spans and start <= spans[-1][1]:
            spans[-1] = (spans[-1][0], max(end, spans[-1][1]))
        elif end > start:
            spans.append((start, end))
    return spans


def segments_over(
    target: str,
    opened: Sequence[tuple[int, int]],
    locks: Sequence[tuple[int, int]],
    varied: Sequence[tuple[int, int]] = (),
    cut: Sequence[tuple[int, int]] = (),
) -> tuple[Segment, ...]:
    """``target`` as segments: the opened spans free (seeded with the user's words), the
    ``varied`` ones free and varied, the ``cut`` ones gone, the user's locks locked, every
    other stretch an engine lock (shown to the user as free)."""
    marks = sorted(
        [(a, b, "open") for a, b in opened]
        + [(a, b, "vary") for a, b in varied]
        + [(a, b, "cut") for a, b in cut]
        + [(a, b, "lock") for a, b in locks]
    )
    segments: list[Segment] = []
    at = 0
    for start, end, kind in marks:
        if start > at:
            segments.append(Locked(target[at:start], structure=True))
        text = target[start:end]
        if kind == "lock":
            segments.append(Locked(text))
        elif kind != "cut":
            segments.append(Free(seed=text, vary=kind == "vary"))
        at = end
    if at < len(target):
        segments.append(Locked(target[at:], structure=True))
    return tuple(segments)


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


def merged(versions: Sequence[Denoised], original: str, asked: int) -> tuple[Merged, ...]:
    """What became of each of the ``asked`` versions that :func:`alternatives` does not
    offer: the version it came back as (0: ``original``), or not settled at all."""
    texts = {original: 0, versions[0].text: 1}
    fates: list[Merged] = []
    for number, version in enumerate(versions[1:], start=2):
        same = texts.setdefault(version.text, number)
        if same != number:
            fates.append(Merged(number, same, version.put_back))
    fates += [Merged(number, None) for number in range(len(versions) + 1, asked + 1)]
    return tuple(fates)
