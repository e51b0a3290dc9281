"""The DiffusionGemma family: edits driven through the stock ``DiffusionGemmaForBlockDiffusion``.

The model's own ``generate`` runs the denoising loop (uniform-noise canvases, entropy-bound
acceptance, self-conditioning, adaptive stop). This backend prepares its inputs and plugs into
its seams (:mod:`engine.backends.gemma.hooks`): the prompt carries the instruction and the
document on both sides of the target (the decoder sees only prompt + canvas, so the text after
the target must be in the prompt); locks and allowed-token sets enter as a logits processor; a
rewrite starts from the original text through ``decoder_input_ids`` and a seeded sampler.

``generate`` blocks, so it runs on a helper thread and streams each step back in lock-step
(:mod:`engine.backends.gemma.stream`): :meth:`GemmaBackend.denoise` is a plain generator that
yields one :class:`StepResult` per decoder forward, and closing it stops the model within that
step. Settings map onto ``generate``'s keyword arguments in one place,
:meth:`GemmaBackend.generate_kwargs`, because misspelled ones are silently ignored there.
"""

from __future__ import annotations

import importlib
import threading
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import torch
from transformers import LogitsProcessorList
from transformers.models.diffusion_gemma.generation_diffusion_gemma import (
    DiffusionGemmaGenerationConfig,
    EntropyBoundSamplerConfig,
)

from engine.backends.base import StepResult
from engine.backends.gemma.hooks import (
    RecordingStopper,
    SeededSampler,
    SharedProcessors,
    plan_allowed,
)
from engine.backends.gemma.prompt import prompt_ids
from engine.backends.gemma.stream import (
    CanvasView,
    DraftStreamer,
    Failure,
    Finished,
    GenerationCancelled,
    LockStep,
)
from engine.core.canvas import Canvas, Kind
from engine.core.config import SamplerSettings
from engine.core.errors import ModelLoadError
from engine.core.tokens import TokenTable
from engine.decode.processors import decode_processors

# How many canvases one edit may span: the target's token budget is this many canvas lengths.
CANVASES_PER_EDIT = 4


@dataclass(frozen=True)
class Job:
    """Everything one ``generate`` call needs, prepared on the caller's thread."""

    prompt: torch.Tensor  # (1, P)
    seeds: torch.Tensor  # (canvases, C): the original tokens, filler past the plan's end
    renoisable: torch.Tensor  # (canvases, C): free and slot positions
    processor: SharedProcessors
    kwargs: dict[str, Any]
    length: int
    canvases: int
    settings: SamplerSettings


class GemmaBackend:
    """Denoises canvases with a DiffusionGemma model; one request at a time per backend."""

    family = "diffusion-gemma"

    def __init__(
        self, model: Any, table: TokenTable, *, device: torch.device | str = "cpu"
    ) -> None:
        self.model = model
        self.table = table
        self.device = torch.device(device)
        self.canvas_length = int(model.config.canvas_length)
        self.vocab_size = int(model.config.get_text_config().vocab_size)
        self.max_canvas_tokens = CANVASES_PER_EDIT * self.canvas_length
        self.eos_ids = _eos_ids(model, table)
        if table.specials.filler_id in self.eos_ids:
            raise ModelLoadError("This model's filler token is also an end-of-sequence token.")
        self._sampler = SeededSampler(self.canvas_length, self.vocab_size)
        self._stopper = RecordingStopper()
        self._busy = threading.Lock()
        _preload_inductor()

    def reader(self) -> None:
        """DiffusionGemma's decoder reads only its canvas over a prompt: it has no causal reader,
        so the passes that read the model (proofread, priced cuts, reread) do not run on it."""
        return None

    def denoise(self, canvas: Canvas, settings: SamplerSettings) -> Iterator[StepResult]:
        if not self._busy.acquire(blocking=False):
            raise RuntimeError("A DiffusionGemma request is already running on this model.")
        try:
            yield from self._run(self.prepare(canvas, settings), canvas)
        finally:
            self._busy.release()

    # --- preparation (caller's thread) ----------------------------------------------------

    def prepare(self, canvas: Canvas, settings: SamplerSettings) -> Job:
        """Prompt, seeds, constraints and ``generate`` arguments for one canvas plan."""
        prompt = prompt_ids(canvas.plan, self.table, settings)
        c = self.canvas_length
        canvases = max(1, -(-len(canvas) // c))
        filler = self.table.specials.filler_id
        seeds = torch.full((canvases * c,), filler, dtype=torch.long)
        seeds[: len(canvas)] = torch.tensor(canvas.seed_ids, dtype=torch.long)
        renoisable = torch.zeros(canvases * c, dtype=torch.bool)
        renoisable[: len(canvas)] = torch.tensor([k is not Kind.LOCKED for k in canvas.kinds])
        allowed = plan_allowed(canvas, self.table, self.vocab_size, c, self.eos_ids)
        return Job(
            prompt=torch.tensor([prompt], dtype=torch.long, device=self.device),
            seeds=seeds.view(canvases, c).to(self.device),
            renoisable=renoisable.view(canvases, c).to(self.device),
            processor=SharedProcessors(
                decode_processors(canvas, self.table, allowed.to(self.device)),
                canvas,
                self._sampler,
                len(prompt),
                c,
            ),
            kwargs=self.generate_kwargs(settings, len(prompt), canvases),
            length=len(canvas),
            canvases=canvases,
            settings=settings,
        )

    def generate_kwargs(
        self, settings: SamplerSettings, prompt_length: int, canvases: int
    ) -> dict[str, Any]:
        """Settings as ``generate`` keyword arguments: the one place they are spelled."""
        config = self.model.generation_config
        t_min, t_max = temperature_schedule(settings.temperature, config)
        stability, confidence = stop_thresholds(settings.adaptive_stop, config)
        new_tokens = canvases * self.canvas_length
        return {
            # Both lengths: with max_new_tokens == 256, generate prefers a checkpoint's max_length.
            "max_new_tokens": new_tokens,
            "max_length": prompt_length + new_tokens,
            "max_denoising_steps": settings.steps,
            "sampler_config": EntropyBoundSamplerConfig(
                entropy_bound=float(settings.entropy_bound)
            ),
            "t_min": t_min,
            "t_max": t_max,
            "stability_threshold": stability,
            "confidence_threshold": confidence,
            # The processor bans EOS anyway; with no EOS id a locked "<eos>" cannot cut a canvas.
            "eos_token_id": None,
            # torch.compile pays off only on CUDA; on the CPU the first call takes minutes.
            "disable_compile": self.device.type != "cuda",
        }

    # --- the run: consumer side ------------------------------------------------------------

    def _run(self, job: Job, canvas: Canvas) -> Iterator[StepResult]:
        channel = LockStep()
        steps = job.settings.steps
        streamer = DraftStreamer(channel, self._sampler, self._stopper, steps, job.canvases)
        view = CanvasView(canvas, self.canvas_length, steps * job.canvases)
        thread = threading.Thread(
            target=self._produce, args=(job, streamer, channel), name="gemma-generate", daemon=True
        )
        thread.start()
        try:
            while True:
                event = channel.take()
                if isinstance(event, Failure):
                    raise event.error
                if isinstance(event, Finished):
                    yield view.final(event)
                    return
                view.apply(event)
                if not event.last:  # the last step is reported with generate's returned ids
                    yield view.result()
                channel.resume()
        finally:
            channel.close()
            thread.join()

    # --- the run: generate's thread ---------------------------------------------------------

    def _produce(self, job: Job, streamer: DraftStreamer, channel: LockStep) -> None:
        try:
            torch.manual_seed(job.settings.seed)
            self._sampler.prepare(job.seeds, job.renoisable, job.settings.strength)
            start = self._sampler.initialize_canvas(1, self.device)
            with self._hooks_installed():
                out = self.model.generate(
                    job.prompt,
                    streamer=streamer,
                    logits_processor=LogitsProcessorList([job.processor]),
                    decoder_input_ids=start,
                    **job.kwargs,
                )
            prompt_length = job.prompt.shape[1]
            ids = out.sequences[0, prompt_length : prompt_length + job.length].tolist()
            channel.finish(Finished(ids))
        except GenerationCancelled:
            return  # the consumer closed the run and is no longer listening
        except BaseException as error:  # handed over, re-raised on the consumer's side
            channel.finish(Failure(error))

    @contextmanager
    def _hooks_installed(self) -> Iterator[None]:
        """Our sampler and stopper for this one call; the model's own methods come back after."""

        def prepare_sampler(config: DiffusionGemmaGenerationConfig) -> SeededSampler:
            self._sampler.entropy_bound = config.sampler_config.entropy_bound
            return self._sampler

        def prepare_stopper(config: DiffusionGemmaGenerationConfig) -> RecordingStopper | None:
            self._stopper.reset()
            if config.stability_threshold is None or config.confidence_threshold is None:
                return None
            self._stopper.configure(config.stability_threshold, config.confidence_threshold)
            return self._stopper

        with _instance_methods(
            self.model,
            _prepare_sampler=prepare_sampler,
            _prepare_diffusion_stopping_criteria=prepare_stopper,
        ):
            yield


_MISSING = object()


def _preload_inductor() -> None:
    """Import what ``generate`` imports on its first step, at load time instead of in an edit.

    Every denoising step calls ``torch.compiler.cudagraph_mark_step_begin()``, whose first call
    imports ``torch._inductor`` (about 4 s on a laptop CPU): paid here, it stays out of the first
    request's time to first frame. torch's own modules raise deprecation warnings on that import.
    """
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        importlib.import_module("torch._inductor.cudagraph_trees")


@contextmanager
def _instance_methods(obj: Any, **methods: Any) -> Iterator[None]:
    """Shadow methods on one instance for the duration of a block, then restore exactly."""
    saved = {name: obj.__dict__.get(name, _MISSING) for name in methods}
    for name, method in methods.items():
        setattr(obj, name, method)
    try:
        yield
    finally:
        for name, previous in saved.items():
            if previous is _MISSING:
                delattr(obj, name)
            else:
                setattr(obj, name, previous)


def _default(config: Any, name: str) -> Any:
    """A generation setting from the checkpoint's config, else the stock global default."""
    value = getattr(config, name, None)
    if value is None:
        value = DiffusionGemmaGenerationConfig._get_default_generation_params()[name]
    return value


def temperature_schedule(temperature: float, config: Any) -> tuple[float, float]:
    """``(t_min, t_max)`` of the linear schedule. 0 keeps the checkpoint's schedule: the result is
    the argmax of the last step either way, and the schedule is part of how the model samples.
    Otherwise ``temperature`` is the starting value and the checkpoint's ratio is kept."""
    t_min, t_max = float(_default(config, "t_min")), float(_default(config, "t_max"))
    if temperature <= 0:
        return t_min, t_max
    return temperature * t_min / t_max, float(temperature)


def stop_thresholds(adaptive: bool, config: Any) -> tuple[int | None, float | None]:
    """Stability and confidence thresholds of the adaptive stop, or ``None`` to run every step."""
    if not adaptive:
        return None, None
    stability = int(_default(config, "stability_threshold"))
    return stability, float(_default(config, "confidence_threshold"))


def _eos_ids(model: Any, table: TokenTable) -> set[int]:
    configured = getattr(model.generation_config, "eos_token_id", None)
    if configured is None:
        configured = getattr(model.config.get_text_config(), "eos_token_id", None)
    if isinstance(configured, int):
        configured = [configured]
    return set(table.specials.eos_ids) | {int(i) for i in configured or ()}
