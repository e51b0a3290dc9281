"""The recipe that adapts the embedded SmolLM2-135M-Instruct into a masked-diffusion model.

Run as ``python -m engine.adapt corpus|train|eval`` (see :mod:`engine.adapt.__main__`). The
corpus comes from Debian documentation packages fetched at training time plus synthetic
structured data (:mod:`engine.adapt.corpus`, :mod:`engine.adapt.synthetic`); training is LoRA on
every linear layer plus the mask and filler embedding rows, with bidirectional attention,
Dream-style shifted logits and the masked-diffusion loss (:mod:`engine.adapt.examples`,
:mod:`engine.adapt.lora`, :mod:`engine.adapt.train`); :mod:`engine.adapt.evaluate` measures it.
The result lands in ``resources/models/smollm2-diffusion/``, where the registry finds it.
"""
