"""Load both systems once and run the chosen tasks: the suite's composition root.

The diffusion side is the registry's embedded model (adapter merged), the window's default
settings unless ``--set`` changes them; the AR side and the judge are the base causal model
from the same converted folder. Both run on one torch thread, as the worker does.
"""

from __future__ import annotations

import platform
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tools.eval.cases import REPORTED_SPLIT, Cases, Rewrite
from tools.eval.jfleg import run_jfleg
from tools.eval.menu import run_menu
from tools.eval.public import half_of
from tools.eval.spelling import run_spelling
from tools.eval.systems import Autoregressive, Diffusion
from tools.eval.tasks import Judge, cloze_task, draft_task, rewrite_task

# JFLEG's references correct spelling as well as grammar ("fluency edits" of learner essays), so
# the instruction a user would give is "proofread" (grammar and spelling), not "fix grammar",
# which offers no spelling candidates. Chosen on the tune half (lines 1-377, one run each, stop
# 36): GLEU 44.16 under "proofread" against 38.77 under "fix grammar" (source 34.99).
JFLEG_INSTRUCTION = "proofread"

SYSTEMS = ("diffusion", "autoregressive")


def load_systems(
    changes: dict[str, Any], adapter: Path | None = None
) -> tuple[Diffusion, Autoregressive, Any]:
    from transformers import AutoTokenizer, LlamaForCausalLM

    from engine.core.config import settings_from_values
    from engine.core.protocol import LoadModel
    from engine.models.loading import load
    from engine.models.registry import embedded
    from engine.process.runtime import configure_threads

    configure_threads()
    if adapter is not None:  # a candidate from tools.adapt, measured before it is shipped
        embedded.ADAPTER_DIR = adapter.resolve()
    loaded = load(LoadModel("embedded", device="cpu"), lambda _: None)
    backend = loaded.backend
    dtype = next(backend.model.parameters()).dtype
    folder = embedded.converted_folder()
    causal = LlamaForCausalLM.from_pretrained(folder, dtype=dtype).eval()
    tokenizer = AutoTokenizer.from_pretrained(folder)
    specials = backend.table.specials
    start = specials.bos_id if specials.bos_id is not None else min(specials.eos_ids)
    ar = Autoregressive(causal, tokenizer, start)
    return Diffusion(backend, settings_from_values(changes)), ar, loaded


def run_suite(
    cases: Cases,
    tasks: list[str],
    changes: dict[str, Any],
    limit: int,
    adapter: Path | None = None,
    done: Callable[[dict[str, Any]], None] = lambda _results: None,
    split: str = REPORTED_SPLIT,
    only: tuple[str, ...] = SYSTEMS,
    baseline: Path | None = None,
) -> dict[str, Any]:
    """Every chosen task in turn; ``done`` gets the results so far after each (a long run that
    fails late still leaves what it measured). ``only`` picks the systems that write; the
    autoregressive model is loaded either way, as the judge."""
    diffusion, ar, loaded = load_systems(changes, adapter)
    every = {"diffusion": diffusion, "autoregressive": ar}
    systems = {name: every[name] for name in only}
    judge = Judge(ar.model, ar.encode, ar.start_id)
    cut = (lambda items: items[:limit]) if limit else (lambda items: items)
    meta = {"model": loaded.info.display_name, "settings": diffusion.settings.__dict__}
    meta.update(machine=_machine(), limit=limit, adapter=str(adapter or "shipped"))
    results: dict[str, Any] = {"meta": {**meta, "split": split, "systems": list(only)}}
    results["tasks"] = {}
    runners: dict[str, Callable[[], dict[str, Any]]] = {
        "cloze": lambda: cloze_task(cut(cases.cloze), systems, ar.encode),
        "draft": lambda: draft_task(cut(cases.drafts), systems, judge),
        "rewrite": lambda: rewrite_task(cut(cases.rewrites), systems, judge),
        "structured": lambda: structured(diffusion.backend, ar, diffusion.settings),
        "values": lambda: template_values(diffusion, limit, {"split": split, "baseline": baseline}),
        "jfleg": lambda: public_task(run_jfleg, JFLEG_INSTRUCTION, systems, split, limit),
        "spelling": lambda: public_task(run_spelling, "fix spelling", systems, split, limit),
        "menu": lambda: menu_task(diffusion.backend, split, limit),
    }
    for name, run in runners.items():
        if name in tasks:
            results["tasks"][name] = run()
            done(results)
    return results


def _machine() -> str:
    return f"{platform.processor() or platform.machine()}, {platform.python_version()}"


def public_task(
    runner: Callable[..., dict[str, Any]],
    instruction: str,
    systems: dict[str, Any],
    split: str,
    limit: int,
) -> dict[str, Any]:
    """One public set through each system, the half the split reads (scores only)."""
    half = half_of(split)

    def rewrite_with(system: Any) -> Callable[[str], str]:
        return lambda sentence: system.rewrite(Rewrite(instruction, "", sentence, "", ())).text

    say = lambda line: print(f"[eval] {line}", file=sys.stderr, flush=True)  # noqa: E731
    summary = {
        name: runner(rewrite_with(system), half, limit, say=say) for name, system in systems.items()
    }
    return {"summary": summary}


def structured(backend: Any, ar: Autoregressive, settings: Any) -> dict[str, Any]:
    from tools.eval.structured import structured_task

    return structured_task(backend, ar, settings)


def template_values(diffusion: Diffusion, limit: int, options: dict[str, Any]) -> dict[str, Any]:
    from tools.eval.values import values_task

    split, baseline = options.get("split", "test"), options.get("baseline")
    return values_task(diffusion.backend, diffusion.settings, split, limit, baseline)


def menu_task(backend: Any, split: str, limit: int) -> dict[str, Any]:
    """The spelling menu's order on the public set's half (the diffusion side's engine)."""
    say = lambda line: print(f"[eval] {line}", file=sys.stderr, flush=True)  # noqa: E731
    return {"summary": {"diffusion": run_menu(backend, half_of(split), limit, say=say)}}
