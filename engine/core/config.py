"""Sampler settings: the one source of defaults for the engine, the worker, the CLI and the window.

The CLI builds its flags from these fields (their ``metadata["help"]``), so a default can only
be changed here. ``SamplerSettings`` is frozen and picklable: it travels inside requests.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, fields, replace
from typing import Any

# Every rewrite pass, in the order they run (engine.passes.order.PASSES builds them).
PASS_NAMES: tuple[str, ...] = ("markdown", "proofread", "shorten", "reread", "meaning")
# The on/off switches the passes list replaced, and the pass each one named: old flags, old
# --set keys and old wire fields keep working through :func:`settings_from_values`.
LEGACY_SWITCHES: dict[str, str] = {"proofread": "proofread", "self_check": "reread"}
# Settings renamed so that one word names one concept ("verify": the base model keeping the
# canvas's tokens; "check": the invariants before a proposal leaves the engine).
LEGACY_NAMES: dict[str, str] = {"draft_check": "verify_drafts", "value_check": "verify_values"}


def _opt(default: Any, help_text: str) -> Any:
    return field(default=default, metadata={"help": help_text})


@dataclass(frozen=True)
class Bound:
    """The values a numeric setting accepts: finite, from ``low`` (excluded when ``open_low``)
    up to ``high``; ``None`` only where ``optional``."""

    low: float
    high: float
    open_low: bool = False
    optional: bool = False
    whole: bool = False  # a count: 2.5 versions is refused, not rounded

    def problem(self, name: str, settings: SamplerSettings) -> str | None:
        """Why ``settings.<name>`` is refused, or ``None`` when it is accepted."""
        value = getattr(settings, name)
        if value is None and self.optional:
            return None
        if isinstance(value, bool) or not isinstance(value, int | float):
            return f"{name} must be a number (got {value!r})"
        if self.whole and math.isfinite(value) and not float(value).is_integer():
            return f"{name} must be a whole number (got {value})"
        below = value <= self.low if self.open_low else value < self.low
        if math.isfinite(value) and not below and value <= self.high:
            return None
        lo, hi = number(self.low), number(self.high)
        if isinstance(value, int) and not self.open_low:
            return f"{name} must lie between {lo} and {hi} (got {value})"
        low = f"> {lo}" if self.open_low else f">= {lo}"
        return f"{name} must be {low} and <= {hi} (got {value})"


def number(value: float) -> str:
    """A bound as people write it: whole numbers without a decimal point."""
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


# Every numeric setting's bounds, in one place: the settings refuse anything else when they are
# built, so the CLI, the window, the worker and the remote engine's wire all enforce them.
BOUNDS: dict[str, Bound] = {
    "steps": Bound(1, 4096),
    "threshold": Bound(0.0, 1.0, open_low=True, optional=True),
    "block_length": Bound(0, 4096),
    "temperature": Bound(0.0, 100.0),
    "strength": Bound(0.0, 1.0, open_low=True),
    "seed": Bound(-(2**63), 2**63 - 1),
    "draft_tokens": Bound(1, 4096),
    "slack": Bound(0.0, 10.0),
    "context_tokens": Bound(0, 2**24),  # the edit-cost bench opens the whole document
    "suffix_tokens": Bound(0, 2**24),
    "order_bias": Bound(0.0, 100.0),
    "verify_drafts": Bound(0.0, 1.0),
    "verify_values": Bound(0.0, 1.0),
    "entropy_bound": Bound(0.0, 1000.0, open_low=True),
    "alternatives": Bound(1, 4, whole=True),
}


@dataclass(frozen=True)
class SamplerSettings:
    """How a request is denoised; validated on construction, so bad values never reach a model."""

    # 64 steps in blocks of 8: a 64-token draft settles one token per forward, nearly left to
    # right. The quality suite's drafts read far more fluently so (judge NLL 2.35 against 3.08
    # at 32 steps in blocks of 32, H200 continuation adapter) for 0.29x the AR model's speed
    # against 0.41x; rewrites and cloze gaps scored the same (docs/quality-runs/9-*, 10-*).
    steps: int = _opt(64, "denoising steps at most (masked: spread over blocks; Gemma: per canvas)")
    threshold: float | None = _opt(
        None, "confidence threshold for parallel decoding (commit every token above it, >=1 a step)"
    )
    block_length: int = _opt(8, "semi-autoregressive block length in tokens (0: whole canvas)")
    temperature: float = _opt(0.0, "sampling temperature (0: greedy)")
    # 0.5 ("polish", the window's preset too): the quality suite kept 73% of a paragraph's
    # content words at 0.5 and 15% at 1.0 on the embedded model (docs/quality.md).
    strength: float = _opt(
        0.5, "rewrite strength: share of the original tokens renoised (0.3 polishes, 1 rewrites)"
    )
    seed: int = _opt(0, "random seed; the same seed gives the same output")
    # Versions of one rewrite, settled together where batching pays (issue 29): the review
    # shows, per hunk, the versions that differ there, and the user picks per hunk.
    alternatives: int = _opt(1, "versions of a rewrite to settle and offer (1-4)")
    # Off: on the 2-core CPU three versions took longer batched than one after another (the
    # later versions settle few positions, so a batch saves few forwards, and settling them
    # together settles some a version after another would have had no need of); ``python -m
    # tools.bench.review --only alternatives`` measures both ways in one run
    # (docs/benchmarks.md's review section). An accelerator may well turn this around.
    batch_versions: bool = _opt(
        False,
        "alternatives: settle versions 2..N as one batch on a backend that batches (masked); "
        "off: one after another",
    )
    draft_tokens: int = _opt(64, "token budget of a draft inserted at the cursor")
    slack: float = _opt(0.1, "extra room a rewritten gap gets over its original token count")
    # 512 + 128: a 4 KB file already fills the window, so an edit costs the same in a 4 KB and a
    # 20 MB file (make bench's edit-cost table), and each step reads less than before.
    context_tokens: int = _opt(512, "tokens of document context kept before the target")
    suffix_tokens: int = _opt(128, "tokens of document context kept after the target")
    show_passage: bool = _opt(
        True, "rewrites: show the model the original passage before the document context"
    )
    # On: the quality suite's drafts settle 1.9x faster (0.56x the AR model's speed against
    # 0.29x) and rewrites 1.6x (0.92x against 0.59x) on the embedded model, for a draft judge
    # NLL of 2.16 against 2.07 and a rewrite NLL of 4.08 against 4.15 (docs/quality-runs/12-*).
    # 1.0 (confidences are at most 1): a block's quota settles left to right, as the text is
    # read, while a confidence threshold may still commit any sure token. Drafts: judge NLL
    # 1.67 against 2.16 without it (0.1: 1.82; blocks of 2: 2.00), same speed, cloze 28/42
    # against 27; rewrites 4.13 against 4.14 (docs/quality-runs/16*).
    order_bias: float = _opt(
        1.0, "masked: confidence taken off per position right of a block's first open one"
    )
    kv_cache: bool = _opt(
        True,
        "masked: reuse the canvas's keys and values between steps, refreshed per block "
        "(Fast-dLLM's dual cache: each step runs only the block's open rows; approximate)",
    )
    # The passes a rewrite goes through, in order (engine.passes.order): all on by default.
    # reread: the quality suite's rewrites read at 3.66 nats per token against 4.01 without it
    # (the original paragraphs: 3.62), keeping 95% of content words against 89%; they change 7%
    # of the words instead of 14%, at 0.69x the AR speed against 0.80x (docs/quality-runs/19*).
    # proofread: rewrites read at 3.50 against 3.63 without it (the originals: 3.62); "fix
    # grammar" fixes all 13 errors in its four paragraphs, where the canvas alone fixed 2
    # (docs/quality-runs/28*). shorten: a "tighter" rewrite's budget and cuts.
    passes: tuple[str, ...] = _opt(
        PASS_NAMES,
        "rewrite passes to run, in order: markdown (lock the passage's Markdown structure and "
        "put back a result that re-parses otherwise), proofread (each word's other forms and the "
        "instruction's phrase table, kept where the model reads better), shorten (a shorter "
        "rewrite's budget and model-priced cuts), reread (keep a changed run only where the "
        "model finds it at least as fluent as the original; masked models that read causally), "
        "meaning (put back a change to a negation, contrast, number, name or verb)",
    )
    # 1.0: a continuation is exactly the base model's greedy text under the draft's constraints
    # and repeat bans, with the canvas's guesses kept where they agree. The quality suite's
    # drafts read at 1.12 nats per token against 1.56 from the canvas alone (0.5: 1.19, 9%
    # faster), at 0.87 tokens per forward against 1.00 and about the same time (0.52x the AR
    # speed; docs/quality-runs/20*); ended at sentence ends, 1.11 at 0.45x (shorter drafts).
    verify_drafts: float = _opt(
        1.0,
        "drafts that continue the text: keep a token the canvas proposes only while the base "
        "model (the adapter switched off) gives it at least this share of its likeliest token's "
        "probability (1: only its own choice; 0: off, the canvas alone decides; adapted models)",
    )
    # 1.0: the quality suite's template values went from 71 to 79 of 79 sensible (a title of
    # "Laversion0001000000" became English), at a median fill of 4.0 s against 2.8 s: each value
    # the base rewrites costs a forward per token (docs/quality-runs/21*).
    verify_values: float = _opt(
        1.0,
        "template text values: after a fill settles, keep a value's token only while the base "
        "model (the adapter switched off), reading the template left to right, gives it at "
        "least this share of its likeliest token's probability; from the first token it "
        "rejects, the base model writes on (0: off; adapted models)",
    )
    entropy_bound: float = _opt(
        1.0, "DiffusionGemma: entropy bound of the sampler (higher: more tokens per step)"
    )
    adaptive_stop: bool = _opt(
        True, "DiffusionGemma: stop a canvas once it is stable and confident"
    )

    def __post_init__(self) -> None:
        problems = [p for name, bound in BOUNDS.items() if (p := bound.problem(name, self))]
        unknown = [name for name in self.passes if name not in PASS_NAMES]
        if unknown:
            problems.append(f"unknown passes {unknown} (known: {', '.join(PASS_NAMES)})")
        if problems:
            raise ValueError("; ".join(problems))

    def with_changes(self, **changes: Any) -> SamplerSettings:
        return replace(self, **changes)


# Speed–quality presets: the window's slider and the CLI's --quality pick one of these.
PRESETS: dict[str, dict[str, Any]] = {
    "fast": {"steps": 8, "threshold": 0.7, "entropy_bound": 2.0},
    "balanced": {"steps": 32, "threshold": 0.9, "entropy_bound": 1.0},
    "best": {"steps": 64, "threshold": None, "entropy_bound": 0.5},
}

# Rewrite-strength presets (DESIGN §4).
STRENGTH_PRESETS: dict[str, float] = {"fix": 0.3, "polish": 0.5, "rewrite": 1.0}


def setting_fields() -> list[tuple[str, Any, str]]:
    """(name, default, help) for every setting, in declaration order: what the CLI derives from
    (a numeric setting's help ends with its bounds)."""
    return [
        (f.name, f.default, f.metadata.get("help", "") + bounds_note(f.name))
        for f in fields(SamplerSettings)
    ]


def bounds_note(name: str) -> str:
    """``"; from 1 to 4096"`` for a bounded setting, else nothing."""
    bound = BOUNDS.get(name)
    if bound is None:
        return ""
    low = f"above {number(bound.low)}" if bound.open_low else f"from {number(bound.low)}"
    return f"; {low} to {number(bound.high)}"


def settings_from_values(values: dict[str, Any]) -> SamplerSettings:
    """Settings from field values, where the old switches (``proofread``, ``self_check``) may
    stand for their pass (``False`` takes it out of ``passes``, ``True`` puts it back) and the
    old names of renamed settings (``draft_check``, ``value_check``) for the new ones."""
    values = {LEGACY_NAMES.get(name, name): value for name, value in values.items()}
    passes = list(values.get("passes", PASS_NAMES))
    for switch, name in LEGACY_SWITCHES.items():
        if switch not in values:
            continue
        on = values.pop(switch)
        if on and name not in passes:
            passes.append(name)
        elif not on and name in passes:
            passes.remove(name)
    # In the order they run; an unknown name stays, for the settings' own check to refuse.
    values["passes"] = (
        *(n for n in PASS_NAMES if n in passes),
        *(n for n in passes if n not in PASS_NAMES),
    )
    return SamplerSettings(**values)
