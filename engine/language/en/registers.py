"""Register tables: what a "formal" or a "casual" rewrite may say instead, phrase by phrase.

Asked for "formal", the embedded model renoised a paragraph and its self-check put every
attempt back: "Hey, just wanted to let you know the report is gonna be late" came back as
written, in every run of the quality suite. A 135M model does not know what "formal" asks for,
but the style guides do: expand contractions, drop slang and casual openers ("gonna" → "going
to", "Hey," → "Hello,", "Can you" → "Could you"); for "casual", the reverse, and plain words
for stiff ones ("Kindly ensure that" → "Please make sure", "commence" → "start").

Each entry is offered as one candidate change (:mod:`engine.passes.proofread`), found in a passage's
words like a concise rewording (:func:`engine.language.en.rewordings.rewordings`), and the model
reading the
passage keeps it only where the passage reads no worse with it: "it cost a lot" may become "it
cost a great deal", but not where a table's phrase does not fit its sentence.

Lower-case word sequences (punctuation ignored) and their other register; no model here.
"""

from __future__ import annotations

from engine.language.en.data import pairs

# Contractions and what they stand for: formal expands them, casual contracts.
CONTRACTIONS = pairs("registers.json", "contractions")
FORMAL: tuple[tuple[str, str], ...] = (*CONTRACTIONS, *pairs("registers.json", "formal"))
CASUAL = pairs("registers.json", "casual")
