"""The adaptation recipe (tools/adapt/) on tiny models: training lowers the loss and resumes,
the adapter round-trips through the registry's merge, the corpus builder fails clearly, the
evaluation and model card run end to end, and the registry names the embedded model by whether
its adapter is present.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Sequence
from pathlib import Path

import pytest
import torch

from engine.models import embedded
from engine.models.adapters import merge_lora
from engine.models.registry import embedded_spec
from tests.helpers.model_folders import save_tiny
from tests.helpers.tiny import CORPUS, tiny_llama, tiny_tokenizer
from tools.adapt import corpus, synthetic
from tools.adapt.clean import html_to_markdown, rst_to_markdown
from tools.adapt.evaluate import canvas_starts, eval_set, predict, scores
from tools.adapt.examples import IGNORE, Specials, Stream, batch
from tools.adapt.lora import TokenRows, inject, save_adapter
from tools.adapt.report import run_eval
from tools.adapt.train import (
    PROBE_STEPS,
    WARM_STEPS,
    State,
    TrainConfig,
    diffusion_loss,
    fitted_steps,
    optimizer_for,
    specials_for,
    train,
)

DOCS = [corpus.Doc("python", f"doc-{i}", text) for i, text in enumerate(CORPUS * 3)]


def tiny_specials() -> Specials:
    return specials_for(tiny_tokenizer(), len(tiny_tokenizer()))


def tiny_stream(seed: int = 0, length: int = 32) -> Stream:
    docs = [*DOCS, corpus.Doc("synthetic", "s", '{"a": 1}', "a JSON object with the field a")]
    return Stream(docs, tiny_tokenizer(), tiny_specials(), length, seed)


def write_corpus(cache: Path) -> None:
    folder = cache / "corpus"
    folder.mkdir(parents=True)
    for name in ("train.jsonl", "heldout.jsonl"):
        lines = [json.dumps(doc.__dict__) for doc in DOCS]
        (folder / name).write_text("\n".join(lines) + "\n", encoding="utf-8")


def lora_model(seed: int = 0) -> tuple[torch.nn.Module, TokenRows]:
    model = tiny_llama(seed)
    model.requires_grad_(False)
    inject(model, rank=4, alpha=8.0)
    specials = tiny_specials()
    rows = TokenRows([specials.mask_id, specials.filler_id], model.config.hidden_size)
    return model, rows


# --- examples and training -------------------------------------------------------------------


def test_examples_mask_only_their_region_and_never_the_start_token() -> None:
    stream, specials = tiny_stream(), tiny_specials()
    for _ in range(50):
        example = stream.draw()
        assert len(example.ids) == len(example.targets) == 32
        assert example.ids[0] == specials.start_id and example.targets[0] == IGNORE
        for token, target in zip(example.ids, example.targets, strict=True):
            assert (target != IGNORE) == (token == specials.mask_id)
    filled = stream.span(length=4, filler=True)
    answers = [t for t in filled.targets if t != IGNORE]
    assert answers[:4] != [specials.filler_id] * 4 and answers[-1] == specials.filler_id


def test_a_training_step_lowers_the_loss_on_a_tiny_llama() -> None:
    torch.manual_seed(0)
    model, rows = lora_model()
    ids, targets, weights = batch([tiny_stream().draw() for _ in range(4)])
    opt = optimizer_for(model, rows, TrainConfig(base=Path(), corpus=Path(), run=Path()))
    losses = []
    for _ in range(6):
        with torch.autocast("cpu", dtype=torch.bfloat16):
            loss = diffusion_loss(model, rows, ids, targets, weights)
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    assert losses[-1] < losses[0]
    assert rows.delta.abs().sum() > 0  # the token rows learn too


def test_training_saves_a_checkpoint_and_resumes_from_it(tmp_path: Path) -> None:
    base = save_tiny(tmp_path / "base")
    write_corpus(tmp_path)
    config = TrainConfig(
        base=base, corpus=tmp_path / "corpus", run=tmp_path / "run", out=tmp_path / "out",
        rank=4, alpha=8.0, length=32, batch=2, steps=2, warmup=1,
    )  # fmt: skip
    assert train(config).step == 2
    resumed = train(TrainConfig(**{**config.__dict__, "steps": 3}))
    assert resumed.step == 3 and resumed.tokens == 3 * 2 * 32
    saved = json.loads((tmp_path / "out" / "adapter_config.json").read_text())
    assert saved["r"] == 4 and saved["training"]["steps"] == 3 and saved["shift"] is True


def test_the_step_count_is_fitted_to_the_budget_from_the_probe_steps(tmp_path: Path) -> None:
    config = TrainConfig(base=tmp_path, corpus=tmp_path, run=tmp_path, budget_s=100.0)
    probe, now = State(step=10, elapsed_s=5.0), State(step=30, elapsed_s=15.0)  # 0.5 s a step
    assert fitted_steps(config, now, probe) == 30 + int(0.97 * 85 / 0.5)
    assert fitted_steps(config, State(step=30, elapsed_s=120.0), probe) == 31  # over: one more


def test_a_fitted_run_stops_at_its_fitted_step_count(tmp_path: Path, capsys) -> None:
    base = save_tiny(tmp_path / "base")
    write_corpus(tmp_path)
    config = TrainConfig(
        base=base, corpus=tmp_path / "corpus", run=tmp_path / "run", out=None, rank=4,
        alpha=8.0, length=32, batch=2, steps=1_000_000, warmup=1, budget_s=3.0, fit_budget=True,
    )  # fmt: skip
    state = train(config)
    printed = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    fitted = next(p["fitted_steps"] for p in printed if "fitted_steps" in p)
    assert WARM_STEPS + PROBE_STEPS <= fitted < 1_000_000  # set by the probe, not --steps
    assert state.step == fitted or state.elapsed_s >= config.budget_s


def test_cached_encodings_draw_the_same_examples_as_fresh_ones() -> None:
    cached, fresh = tiny_stream(seed=3), tiny_stream(seed=3)
    first = [cached.draw() for _ in range(20)]
    again = [cached.draw() for _ in range(20)]  # now from the cache
    fresh_draws = [fresh.draw() for _ in range(40)]
    assert [e.ids for e in first + again] == [e.ids for e in fresh_draws]
    assert cached.encoded  # documents were cached


# --- the adapter -----------------------------------------------------------------------------


def test_the_adapter_saves_loads_and_merges_deterministically(tmp_path: Path) -> None:
    model, rows = lora_model()
    with torch.no_grad():
        for name, param in model.named_parameters():
            if "lora_B" in name:
                param.normal_(0, 0.05)
        rows.delta.normal_(0, 0.5)
    ids = torch.tensor([tiny_stream().diffusion(0.5).ids])
    with torch.no_grad():
        embeds = rows.embed(ids, model.get_input_embeddings()(ids))
        hidden = model.model(inputs_embeds=embeds, is_causal=False).last_hidden_state[0]
        expected = rows.logits(hidden, model.get_output_embeddings()(hidden))
    save_adapter(tmp_path, model, rows, {"peft_type": "LORA", "r": 4, "lora_alpha": 8.0},
                 torch.float32)  # fmt: skip
    merged = []
    for _ in range(2):
        fresh = tiny_llama()
        assert merge_lora(fresh, tmp_path) == 14  # 7 linears in each of 2 layers
        with torch.no_grad():
            merged.append(fresh(input_ids=ids, is_causal=False).logits[0])
    assert torch.equal(merged[0], merged[1])
    torch.testing.assert_close(merged[0], expected, atol=1e-4, rtol=1e-4)
    assert not torch.allclose(tiny_llama()(input_ids=ids, is_causal=False).logits[0], expected)


# --- the corpus ------------------------------------------------------------------------------


def test_a_missing_apt_package_is_a_clear_error(tmp_path: Path) -> None:
    def fake_apt(args: Sequence[str], cwd: Path) -> subprocess.CompletedProcess[str]:
        package = args[-1]
        if package == "rust-doc":
            return subprocess.CompletedProcess(
                args, 100, "", "E: Unable to locate package rust-doc"
            )
        (cwd / f"{package}_1.0_all.deb").write_bytes(b"deb")
        return subprocess.CompletedProcess(args, 0, "", "")

    with pytest.raises(corpus.CorpusError, match=r"'rust-doc'.*Unable to locate.*apt-get update"):
        corpus.fetch(tmp_path, fake_apt)
    assert (tmp_path / "python3.11-doc_1.0_all.deb").is_file()


def test_cleaners_keep_text_and_structure() -> None:
    rst = "Title\n=====\n\n.. index:: single: x\n   pair: y\n\nUse :func:`open` and ``x``.\n"
    assert rst_to_markdown(rst) == "# Title\n\nUse `open` and `x`."
    page = ("<nav><li>Menu</li></nav><main><h2>Slices</h2><p>A <code>&amp;str</code>.</p>"
            "<pre>let s = 1;</pre><script>x()</script></main>")  # fmt: skip
    assert html_to_markdown(page) == "## Slices\n\nA `&str`.\n\n```\nlet s = 1;\n```"


def test_synthetic_documents_are_fixed_by_their_seed() -> None:
    assert synthetic.document(7) == synthetic.document(7)
    kinds = {synthetic.document(seed)[1][0] for seed in range(40)}
    assert kinds >= {"|"} and kinds & {"{", "["}  # tables and JSON both appear
    for seed in range(40):
        text = synthetic.document(seed)[1]
        if text[0] in "{[":
            json.loads(text)


def test_the_split_is_a_function_of_the_document_name() -> None:
    names = [corpus.Doc("python", f"page-{i}.rst.txt", "x") for i in range(400)]
    held = [doc for doc in names if corpus.is_heldout(doc)]
    assert 0 < len(held) < 40 and held == [doc for doc in names if corpus.is_heldout(doc)]


# --- evaluation ------------------------------------------------------------------------------


def test_evaluation_and_model_card_run_end_to_end_on_a_tiny_model(tmp_path: Path) -> None:
    base = save_tiny(tmp_path / "base")
    write_corpus(tmp_path)
    model, rows = lora_model()
    config = {"peft_type": "LORA", "r": 4, "lora_alpha": 8.0, "target_modules": ["q_proj"],
              "base_model": "tiny", "base_sha256": "0", "mask_id": 1, "filler_id": 2,
              "training": {"steps": 1, "tokens": 64, "targets": 9, "seconds": 1, "lr": 1e-3,
                           "length": 32, "batch": 2, "seed": 0}}  # fmt: skip
    save_adapter(tmp_path / "adapter", model, rows, config, torch.bfloat16)
    run_eval(base, tmp_path, tmp_path / "adapter", count=2, threads=1, card=True)
    results = json.loads((tmp_path / "adapter" / "eval.json").read_text())
    for key in ("adapted", "base_bidirectional"):
        assert set(results[key]) == {
            "masked@0.15",
            "masked@0.5",
            "masked@0.9",
            "span",
            "span+filler",
        }
    assert set(results["autoregressive"]) == {"masked@0.15", "masked@0.5", "masked@0.9", "span"}
    assert len(results["samples_after"]) == len(results["samples_before"]) == 10
    card = (tmp_path / "adapter" / "MODEL_CARD.md").read_text()
    assert "| masked@0.5 |" in card and results["samples_after"][0] in card
    assert "Attention made bidirectional" in card and "In all: 64 tokens." in card


def test_the_card_shows_the_lineage_the_attention_and_the_curve() -> None:
    from tools.adapt.card import render

    earlier = {
        "steps": 10,
        "tokens": 1000,
        "targets": 100,
        "seconds": 60,
        "lr": 4e-4,
        "length": 128,
        "batch": 4,
        "seed": 0,
        "device": "cpu",
        "hardware": "Some CPU",
    }
    config = {"r": 4, "lora_alpha": 8.0, "target_modules": ["q_proj"], "base_model": "tiny",
              "base_sha256": "0", "mask_id": 1, "filler_id": 2, "attention": "prefix-causal",
              "training": {**earlier, "tokens": 5000, "device": "cuda", "hardware": "Big GPU",
                           "init": "older"},
              "history": [earlier]}  # fmt: skip
    curve = [
        {"step": 10 * i, "tokens": 100 * i, "ema": 3.0 - i / 10, "lr": 1e-4} for i in range(30)
    ]
    results = {"sequences": 2, "samples_after": []}
    card = render(config, results, "| t |", {}, "Local CPU", [], curve, "| ablation |")
    assert "Prefix-causal attention" in card
    assert "1. Earlier run" in card and "one thread of Some CPU" in card
    assert "2. This run, from `older`" in card and "Big GPU (CUDA)" in card
    assert "In all: 6,000 tokens." in card and "adapted on 0.0 million tokens" in card
    assert "| 290 | 2,900 | 0.100 |" in card  # the curve ends on its last row
    assert "| ablation |" in card


def test_the_eval_set_is_the_same_every_time() -> None:
    first = eval_set(DOCS, tiny_tokenizer(), tiny_specials(), 3)
    second = eval_set(DOCS, tiny_tokenizer(), tiny_specials(), 3)
    assert first == second
    model = tiny_llama()
    with torch.inference_mode():
        assert scores(model, first, tiny_specials(), False) == scores(
            model, second, tiny_specials(), False
        )


# --- the registry ----------------------------------------------------------------------------


def test_the_registry_names_the_adapted_model_when_its_adapter_is_present(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    model, rows = lora_model()
    save_adapter(tmp_path / "adapter", model, rows, {"peft_type": "LORA", "r": 4}, torch.bfloat16)
    monkeypatch.setattr(embedded, "ADAPTER_DIR", tmp_path / "adapter")
    spec = embedded_spec()
    assert spec.adapted and spec.adapter == tmp_path / "adapter"
    assert spec.display_name == "SmolLM2-135M diffusion (adapted)"
    monkeypatch.setattr(embedded, "ADAPTER_DIR", tmp_path / "absent")
    spec = embedded_spec()
    assert not spec.adapted and spec.adapter is None
    assert spec.display_name == "SmolLM2-135M-Instruct (embedded, base, not adapted)"


def test_the_shipped_adapter_fits_the_size_limits() -> None:
    folder = Path(embedded.ADAPTER_DIR)
    if not folder.exists():
        pytest.skip("no adapter shipped yet")
    sizes = [p.stat().st_size for p in folder.iterdir()]
    assert sum(sizes) <= 40_000_000 and max(sizes) <= 16 * 2**20
    assert (folder / "MODEL_CARD.md").is_file()


# --- prefix-causal scoring -------------------------------------------------------------------


def test_canvas_starts_are_the_row_before_each_first_mask() -> None:
    start, mask = tiny_specials().start_id, tiny_specials().mask_id
    ids = torch.tensor(
        [[start, 25, mask, mask, 26], [start, 25, 26, 27, 28], [start, mask, 26, mask, 28]]
    )
    assert canvas_starts(ids, tiny_specials()).tolist() == [1, 4, 0]


def test_prefix_causal_scoring_reads_the_text_before_the_canvas_as_the_base_does() -> None:
    model, specials = tiny_llama(0).eval(), tiny_specials()
    ids = torch.tensor([[specials.start_id, *range(20, 28), specials.mask_id, specials.mask_id]])
    before = torch.zeros_like(ids, dtype=torch.bool)
    before[0, 1:9] = True  # rows 0..7 predict them: all before the canvas (start row 8)
    starts = canvas_starts(ids, specials)
    with torch.inference_mode():
        prefix = predict(model, ids, before, False, specials, starts)
        causal = predict(model, ids, before, True, specials)
        both_ways = predict(model, ids, before, False, specials)
        canvas = torch.zeros_like(before)
        canvas[0, 9:] = True
        in_canvas = predict(model, ids, canvas, False, specials, starts)
        canvas_both = predict(model, ids, canvas, False, specials)
    torch.testing.assert_close(prefix, causal)
    assert not torch.allclose(prefix, both_ways)  # the prefix rows no longer see the masks
    assert not torch.allclose(in_canvas, canvas_both)  # the canvas sees a causally read prefix
