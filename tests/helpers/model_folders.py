"""Model folders on disk, as a user or the Hugging Face cache would have them: tiny models saved
with ``save_pretrained`` (safetensors) next to the tiny tokenizer, plus broken variants.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.helpers.tiny import tiny_diffusion_gemma, tiny_llama, tiny_modernbert, tiny_tokenizer

BUILDERS = {
    "llama": tiny_llama,
    "modernbert": tiny_modernbert,
    "diffusion-gemma": tiny_diffusion_gemma,
}


def save_tiny(folder: Path, kind: str = "llama", *, with_mask: bool = True) -> Path:
    """Save the tiny ``kind`` model and its tokenizer into ``folder``; returns ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    BUILDERS[kind]().save_pretrained(folder, safe_serialization=True)
    tiny_tokenizer(with_mask=with_mask).save_pretrained(folder)
    return folder


def edit_config(folder: Path, **changes: Any) -> None:
    """Rewrite keys of ``folder/config.json`` (e.g. add an ``auto_map``)."""
    path = folder / "config.json"
    config = json.loads(path.read_text(encoding="utf-8"))
    config.update(changes)
    path.write_text(json.dumps(config), encoding="utf-8")


def hf_cache_entry(cache: Path, repo_id: str, source: Path, revision: str = "0" * 40) -> Path:
    """Copy ``source``'s files into the hub-cache layout ``models--org--name/snapshots/<rev>``.

    The real cache stores blobs and symlinks; plain files in the snapshot read the same.
    """
    repo = cache / ("models--" + repo_id.replace("/", "--"))
    snapshot = repo / "snapshots" / revision
    snapshot.mkdir(parents=True, exist_ok=True)
    for item in source.iterdir():
        (snapshot / item.name).write_bytes(item.read_bytes())
    (repo / "refs").mkdir(exist_ok=True)
    (repo / "refs" / "main").write_text(revision, encoding="utf-8")
    return snapshot
