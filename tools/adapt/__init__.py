"""The recipe that adapts the embedded SmolLM2-135M-Instruct into a masked-diffusion model.

Run as ``python -m tools.adapt corpus|train|eval`` (see :mod:`tools.adapt.__main__`). The
corpus comes from Debian documentation packages fetched at training time plus synthetic
structured data (:mod:`tools.adapt.corpus`, :mod:`tools.adapt.synthetic`); training is LoRA on
every linear layer plus the mask and filler embedding rows, with bidirectional attention,
Dream-style shifted logits and the masked-diffusion loss (:mod:`tools.adapt.examples`,
:mod:`tools.adapt.lora`, :mod:`tools.adapt.train`); :mod:`tools.adapt.evaluate` measures it.
The result lands in ``resources/models/smollm2-diffusion/``, where the registry finds it.
"""
