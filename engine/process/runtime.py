"""Process-wide torch set-up for whoever runs the model (the worker process or the CLI)."""

from __future__ import annotations

import os


def torch_threads_for(cpu_count: int | None) -> int:
    """Threads for torch: leave a core for the GUI, and use just one on a small machine.

    Measured (ENGINE-FACTS): on 2 shared cores, 2 torch threads with another busy process made
    forwards 25–50x slower, while 1 thread stayed stable.
    """
    cores = cpu_count or 1
    return 1 if cores <= 2 else cores - 1


def configure_threads() -> int:
    import torch

    threads = int(os.environ.get("SETTLE_TORCH_THREADS", "0")) or torch_threads_for(os.cpu_count())
    torch.set_num_threads(threads)
    return threads
