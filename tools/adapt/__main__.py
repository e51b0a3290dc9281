"""``python -m tools.adapt corpus|train|eval``: build the corpus, adapt, evaluate.

Everything transient (the .deb files, the extracted text, checkpoints) lives under the cache
folder (``$SETTLE_CACHE_DIR/adapt``, by default ``~/.cache/settle/adapt``); only ``train``'s
final adapter and ``eval``'s model card go into ``resources/models/smollm2-diffusion/``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from engine.models import embedded


def adapt_cache() -> Path:
    return embedded.cache_dir() / "adapt"


def base_folder() -> Path:
    return embedded.ensure_converted(lambda _progress: None)


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(prog="python -m tools.adapt", description=__doc__)
    commands = top.add_subparsers(dest="command", required=True)
    commands.add_parser("corpus", help="fetch the Debian packages and build the corpus")
    train = commands.add_parser("train", help="adapt (resumes from the run folder)")
    train.add_argument("--steps", type=int, default=1600)
    train.add_argument("--budget-min", type=float, default=60.0, help="training minutes, in all")
    train.add_argument("--rank", type=int, default=24)
    train.add_argument("--batch", type=int, default=4)
    train.add_argument("--length", type=int, default=128)
    train.add_argument("--device", default="cpu")
    train.add_argument("--threads", type=int, default=1)
    train.add_argument("--run", type=Path, default=None, help="default: <cache>/adapt/run")
    train.add_argument("--out", type=Path, default=embedded.ADAPTER_DIR)
    train.add_argument(
        "--attention", choices=("bidirectional", "prefix-causal"), default="bidirectional"
    )
    train.add_argument("--init", type=Path, default=None, help="an adapter to start from")
    train.add_argument("--lr", type=float, default=4e-4, help="peak LoRA learning rate")
    train.add_argument(
        "--fit-budget", action="store_true", help="set --steps from the first steps' speed"
    )
    evaluate = commands.add_parser("eval", help="measure base, adapted and autoregressive")
    evaluate.add_argument("--adapter", type=Path, default=embedded.ADAPTER_DIR)
    evaluate.add_argument("--sequences", type=int, default=40)
    evaluate.add_argument("--threads", type=int, default=1)
    evaluate.add_argument("--card", action="store_true", help="write MODEL_CARD.md next to it")
    return top


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    cache = adapt_cache()
    if args.command == "corpus":
        from tools.adapt import corpus

        print(json.dumps(corpus.build(cache), indent=2))
    elif args.command == "train":
        from tools.adapt.train import TrainConfig, train

        config = TrainConfig(
            base=base_folder(), corpus=cache / "corpus", run=args.run or cache / "run",
            out=args.out, rank=args.rank, alpha=2.0 * args.rank, length=args.length,
            batch=args.batch, steps=args.steps, budget_s=args.budget_min * 60,
            device=args.device, threads=args.threads, attention=args.attention, init=args.init,
            lr=args.lr, fit_budget=args.fit_budget,
        )  # fmt: skip
        print(json.dumps(train(config).__dict__))
    else:
        from tools.adapt.report import run_eval

        run_eval(base_folder(), cache, args.adapter, args.sequences, args.threads, args.card)
    return 0


if __name__ == "__main__":
    sys.exit(main())
