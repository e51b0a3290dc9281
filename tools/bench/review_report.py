"""The review loop's section of ``docs/benchmarks.md`` (:mod:`tools.bench.review`'s results)."""

from __future__ import annotations

from typing import Any

from tools.bench.markdown import failed, fmt, table

GOAL_READS = 0.3
GOAL_TIME = 2.0


def review_section(section: Any) -> list[str]:
    lines = ["## The review loop: a hunk's re-roll and alternatives (issue 29)", ""]
    problem = failed("review", section)
    if problem:
        return lines + problem
    if "reroll" in section:
        lines += reroll_lines(section["reroll"])
    if "alternatives" in section:
        lines += alternatives_lines(section["alternatives"])
    return lines


def reroll_lines(reroll: dict[str, Any]) -> list[str]:
    rows = [
        ["rewrite cases (dev split) / with a hunk", f"{reroll['cases']} / {reroll['with_a_hunk']}"],
        ["median model reads: rewrite", fmt(reroll["median_rewrite_reads"])],
        ["median model reads: re-roll of its first hunk", fmt(reroll["median_reroll_reads"])],
        [f"median re-roll / rewrite reads (goal <= {GOAL_READS})", fmt(reroll["median_ratio"])],
        ["judge NLL (nats/token): rewrite", fmt(reroll["mean_rewrite_nll"])],
        ["judge NLL (nats/token): after the re-roll", fmt(reroll["mean_reroll_nll"])],
        ["re-rolls that came back unchanged", reroll["unchanged"]],
    ]
    return [
        "Every forward counted (denoising steps and the passes' reads), shipped settings, "
        "seed 0; the judge is the base causal model reading the paragraph after its context "
        "(mean over the cases with a hunk).",
        "",
        *table(["re-roll of one hunk", "value"], rows),
    ]


LABELS = {"batched": "batched", "one_after_another": "one after another"}


def alternatives_lines(alt: dict[str, Any]) -> list[str]:
    if "modes" not in alt:
        return ["(an older run without batched versions: rerun `--only alternatives`)", ""]
    batch, modes = alt["batch"], alt["modes"]

    def row(label: str, key: str) -> list[Any]:
        return [label, *(fmt(modes[mode][key]) for mode in LABELS)]

    rows = [
        row(f"median three / one time (goal <= {GOAL_TIME})", "median_ratio"),
        row("median time, three versions (s)", "median_three_s"),
        row("median model reads, three versions", "median_three_forwards"),
        row("median model forward calls, three versions", "median_model_calls"),
        row("cases with two distinct versions", "two_distinct"),
        row("cases with three distinct versions", "three_distinct"),
        row("cases whose three versions each differ in a hunk", "each_differs"),
    ]
    forwards = [
        ["whole window", fmt(batch["whole_batched_ms"]), fmt(batch["whole_one_after_another_ms"])],
        [
            f"cached step ({batch['open_rows']} rows)",
            fmt(batch["step_batched_ms"]),
            fmt(batch["step_one_after_another_ms"]),
        ],
    ]
    return [
        f"Alternatives on the embedded model, {alt['cases']} rewrite cases (dev split): one "
        f"version took {fmt(alt['median_one_s'])} s and {fmt(alt['median_one_forwards'])} model "
        "reads (median). Versions 2 and 3 settle the first version's changes again and vary "
        "its near misses (none in a pronoun, determiner, quantifier or preposition), tried "
        "again while the request has tries left when one comes back as an earlier version; "
        "settled as one batch or one after another, in the same run (the order alternating "
        "per case). A batched forward is one call for its canvases and one read for each.",
        "",
        *table(["three versions", *LABELS.values()], rows),
        f"Faster: {LABELS[alt['faster']]}; the default: {LABELS[alt['default']]}. Both ways "
        f"gave the same versions in {alt['same_versions']} of {alt['cases']} cases.",
        "",
        f"The model's forward over 3 sequences of {batch['length']} positions at once against "
        "3 forwards one after another (ms, median):",
        "",
        *table(["forward", "batched", "one after another"], forwards),
    ]
