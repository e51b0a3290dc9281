"""``python -m tools.adapt eval``: score the three models, save the numbers, write the card.

Loads the base twice in the dtype the app picks on this CPU: once plain, scored
bidirectionally and autoregressively, and once with the adapter merged through the very code
the registry uses (:func:`engine.models.adapters.merge_lora`), so the numbers describe what ships.
"""

from __future__ import annotations

import json
import platform
import time
from pathlib import Path
from typing import Any

import torch

from engine.models.adapters import CONFIG, adapter_attention, merge_lora
from tools.adapt import corpus
from tools.adapt.evaluate import EvalSet, eval_set, samples, scores
from tools.adapt.train import TRAINING_LOG, cpu_name, specials_for

EVAL_JSON = "eval.json"
CARD = "MODEL_CARD.md"

# The suite's table of recipe and sampler variants (python -m tools.eval.ablations).
ABLATIONS = Path(__file__).resolve().parents[2] / "docs" / "quality-runs" / "ablations.md"


def load(base: Path, adapter: Path | None) -> Any:
    from transformers import AutoModelForCausalLM

    from engine.models.loading import cpu_has_amx

    # The dtype the app picks on this CPU: bf16 where AMX runs it fast, else fp32 (bf16 without
    # AMX made this evaluation ~10x slower: 50 minutes instead of 3 on a 2-core EPYC).
    dtype = torch.bfloat16 if cpu_has_amx() else torch.float32
    model = AutoModelForCausalLM.from_pretrained(str(base), dtype=dtype)
    if adapter is not None:
        merge_lora(model, adapter)
    return model.eval()


def evaluate_models(
    base: Path, adapter: Path | None, data: EvalSet, tokenizer: Any
) -> dict[str, Any]:
    """Scores and samples for the base (both ways) and, given one, the adapted model."""
    specials = specials_for(tokenizer, len(tokenizer))
    results: dict[str, Any] = {}
    with torch.inference_mode():
        model = load(base, None)
        results["base_bidirectional"] = scores(model, data, specials, causal=False)
        results["autoregressive"] = scores(model, data, specials, causal=True)
        results["samples_before"] = samples(model, tokenizer, specials)
        if adapter is not None:
            prefix = adapter_attention(adapter) == "prefix-causal"
            model = load(base, adapter)
            results["adapted"] = scores(model, data, specials, causal=False, prefix=prefix)
            results["samples_after"] = samples(model, tokenizer, specials, prefix)
    return results


def run_eval(base: Path, cache: Path, adapter: Path, count: int, threads: int, card: bool) -> None:
    from transformers import AutoTokenizer

    torch.set_num_threads(threads)
    started = time.monotonic()
    tokenizer = AutoTokenizer.from_pretrained(str(base))
    specials = specials_for(tokenizer, len(tokenizer))
    data = eval_set(corpus.read(cache / "corpus" / "heldout.jsonl"), tokenizer, specials, count)
    found = adapter if (adapter / CONFIG).is_file() else None
    results = evaluate_models(base, found, data, tokenizer)
    results["sequences"] = count
    results["eval_seconds"] = round(time.monotonic() - started)
    (cache / EVAL_JSON).write_text(json.dumps(results, indent=2), encoding="utf-8")
    print(table(results))
    if card and found is not None:
        (adapter / EVAL_JSON).write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
        write_card(adapter, results, cache)


def table(results: dict[str, Any]) -> str:
    """The evaluation as a Markdown table, one row per metric."""
    columns = [("adapted", "Adapted (this adapter)"), ("base_bidirectional", "Base, bidirectional"),
               ("autoregressive", "Base, autoregressive next-token")]  # fmt: skip
    present = [(key, title) for key, title in columns if key in results]
    metrics = [*results[present[-1][0]], "span+filler"]
    lines = ["| Metric | " + " | ".join(t for _, t in present) + " |",
             "| --- |" + " ---: |" * len(present)]  # fmt: skip
    for metric in dict.fromkeys(metrics):
        cells = [_pct(results[key].get(metric)) for key, _ in present]
        lines.append(f"| {metric} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def _pct(value: float | None) -> str:
    return "n/a" if value is None else f"{100 * value:.1f}%"


def corpus_sizes(cache: Path) -> dict[str, int]:
    sizes: dict[str, int] = {}
    for doc in corpus.read(cache / "corpus" / "train.jsonl"):
        sizes[doc.source] = sizes.get(doc.source, 0) + len(doc.text)
    return sizes


def hardware() -> str:
    return f"{cpu_name()}, torch {torch.__version__}, Python {platform.python_version()}"


def write_card(adapter: Path, results: dict[str, Any], cache: Path) -> None:
    from tools.adapt.card import render

    config = json.loads((adapter / CONFIG).read_text(encoding="utf-8"))
    listing = cache / "corpus" / corpus.PACKAGE_LIST
    debs = json.loads(listing.read_text(encoding="utf-8")) if listing.is_file() else []
    curve_file = adapter / TRAINING_LOG
    curve = (
        [json.loads(line) for line in curve_file.read_text().splitlines()]
        if (curve_file.is_file())
        else []
    )
    ablations = ABLATIONS.read_text(encoding="utf-8") if ABLATIONS.is_file() else ""
    text = render(
        config, results, table(results), corpus_sizes(cache), hardware(), debs, curve, ablations
    )
    (adapter / CARD).write_text(text, encoding="utf-8")
