"""Tiny, seeded, random-initialised models of each family, built from configs: no download.

Every test model shares one byte-level BPE tokenizer trained here on a few sentences, so any
string (hypothesis's included) tokenizes, and the vocabulary stays small enough that sampling
costs little.
"""

from __future__ import annotations

from functools import cache

import torch
from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
from transformers import PreTrainedTokenizerFast

SPECIALS = ["<pad>", "<mask>", "<fill>", "<bos>", "<eos>"]
CORPUS = [
    "The quick brown fox jumps over the lazy dog.",
    "Settle rewrites a paragraph in place, keeping the words you locked.",
    "Paris is the capital of France. Berlin is the capital of Germany.",
    "A diffusion model denoises a block of tokens in parallel.",
    '{"name": "Ada", "age": 36, "tags": ["math", "engines"]}',
    "| item | qty | price |\n|------|-----|-------|\n| pen | 2 | 1.50 |",
]


@cache
def tiny_tokenizer(with_mask: bool = True) -> PreTrainedTokenizerFast:
    """A byte-level BPE of ~400 tokens; ``with_mask=False`` gives one with no mask token."""
    specials = SPECIALS if with_mask else [s for s in SPECIALS if s != "<mask>"]
    backend = Tokenizer(models.BPE())
    backend.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    backend.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=400,
        special_tokens=specials,
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False,
    )
    backend.train_from_iterator(CORPUS * 4, trainer=trainer)
    kwargs = {"pad_token": "<pad>", "bos_token": "<bos>", "eos_token": "<eos>"}
    if with_mask:
        kwargs["mask_token"] = "<mask>"
    return PreTrainedTokenizerFast(tokenizer_object=backend, **kwargs)


def vocab_size() -> int:
    return len(tiny_tokenizer())


def tiny_llama(seed: int = 0):
    """A 2-layer Llama: the shape of an autoregressive model adapted to diffusion."""
    from transformers import LlamaConfig, LlamaForCausalLM

    torch.manual_seed(seed)
    tok = tiny_tokenizer()
    config = LlamaConfig(
        vocab_size=len(tok),
        hidden_size=32,
        intermediate_size=64,
        num_hidden_layers=2,
        num_attention_heads=4,
        num_key_value_heads=2,
        max_position_embeddings=1024,
        bos_token_id=tok.bos_token_id,
        eos_token_id=tok.eos_token_id,
        pad_token_id=tok.pad_token_id,
    )
    return LlamaForCausalLM(config).eval()


def tiny_modernbert(seed: int = 0):
    """A 2-layer ModernBERT masked LM: a natively bidirectional masked model."""
    from transformers import ModernBertConfig, ModernBertForMaskedLM

    torch.manual_seed(seed)
    tok = tiny_tokenizer()
    config = ModernBertConfig(
        vocab_size=len(tok),
        hidden_size=32,
        intermediate_size=64,
        num_hidden_layers=2,
        num_attention_heads=4,
        max_position_embeddings=1024,
        pad_token_id=tok.pad_token_id,
        bos_token_id=tok.bos_token_id,
        eos_token_id=tok.eos_token_id,
        cls_token_id=tok.bos_token_id,
        sep_token_id=tok.eos_token_id,
        global_attn_every_n_layers=1,
        local_attention=64,
    )
    return ModernBertForMaskedLM(config).eval()


def tiny_diffusion_gemma(seed: int = 0, canvas_length: int = 32):
    """A text-only DiffusionGemma (encoder + diffusion decoder, 2 layers, 2 experts).

    The vision tower cannot be left out of the config (None builds a 167M default), so a tiny
    one is configured and then dropped from the model.
    """
    from transformers import DiffusionGemmaConfig, DiffusionGemmaForBlockDiffusion

    torch.manual_seed(seed)
    tok = tiny_tokenizer()
    text = {
        "vocab_size": len(tok),
        "hidden_size": 32,
        "intermediate_size": 64,
        "num_hidden_layers": 2,
        "num_attention_heads": 2,
        "num_key_value_heads": 1,
        "head_dim": 16,
        "global_head_dim": 16,
        "num_experts": 2,
        "top_k_experts": 1,
        "moe_intermediate_size": 32,
        "layer_types": ["sliding_attention", "full_attention"],
        "sliding_window": 64,
        "max_position_embeddings": 2048,
        "pad_token_id": tok.pad_token_id,
        "eos_token_id": tok.eos_token_id,
        "bos_token_id": tok.bos_token_id,
    }
    vision = {
        "model_type": "gemma4_vision",
        "hidden_size": 16,
        "intermediate_size": 32,
        "num_hidden_layers": 1,
        "num_attention_heads": 1,
        "num_key_value_heads": 1,
        "head_dim": 16,
    }
    config = DiffusionGemmaConfig(
        text_config=text, vision_config=vision, canvas_length=canvas_length
    )
    model = DiffusionGemmaForBlockDiffusion(config)
    model.model.encoder.vision_tower = None
    model.model.encoder.embed_vision = None
    return model.eval()
