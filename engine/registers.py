"""Register tables: what a "formal" or a "casual" rewrite may say instead, phrase by phrase.

Asked for "formal", the embedded model renoised a paragraph and its self-check put every
attempt back: "Hey, just wanted to let you know the report is gonna be late" came back as
written, in every run of the quality suite. A 135M model does not know what "formal" asks for,
but the style guides do: expand contractions, drop slang and casual openers ("gonna" → "going
to", "Hey," → "Hello,", "Can you" → "Could you"); for "casual", the reverse, and plain words
for stiff ones ("Kindly ensure that" → "Please make sure", "commence" → "start").

Each entry is offered as one candidate change (:mod:`engine.proofread`), found in a passage's
words like a concise rewording (:func:`engine.rewordings.rewordings`), and the model reading the
passage keeps it only where the passage reads no worse with it: "it cost a lot" may become "it
cost a great deal", but not where a table's phrase does not fit its sentence.

Lower-case word sequences (punctuation ignored) and their other register; no model here.
"""

from __future__ import annotations

# Contractions and what they stand for: formal expands them, casual contracts.
CONTRACTIONS: tuple[tuple[str, str], ...] = (
    ("it'll", "it will"),
    ("it's", "it is"),
    ("don't", "do not"),
    ("doesn't", "does not"),
    ("didn't", "did not"),
    ("can't", "cannot"),
    ("won't", "will not"),
    ("isn't", "is not"),
    ("aren't", "are not"),
    ("wasn't", "was not"),
    ("weren't", "were not"),
    ("haven't", "have not"),
    ("hasn't", "has not"),
    ("shouldn't", "should not"),
    ("couldn't", "could not"),
    ("wouldn't", "would not"),
    ("we'll", "we will"),
    ("we're", "we are"),
    ("we've", "we have"),
    ("i'm", "I am"),
    ("i've", "I have"),
    ("i'll", "I will"),
    ("i'd", "I would"),
    ("you're", "you are"),
    ("you'll", "you will"),
    ("they're", "they are"),
    ("they'll", "they will"),
    ("she'll", "she will"),
    ("he'll", "he will"),
    ("that's", "that is"),
    ("there's", "there is"),
    ("let's", "let us"),
)

FORMAL: tuple[tuple[str, str], ...] = (
    *CONTRACTIONS,
    ("gonna", "going to"),
    ("wanna", "want to"),
    ("gotta", "have to"),
    ("kinda", "somewhat"),
    ("hi there", "hello"),
    ("hey there", "hello"),
    ("hey", "hello"),
    ("hi", "hello"),
    ("just wanted to let you know", "I would like to inform you that"),
    ("wanted to let you know", "I would like to inform you that"),
    ("can you", "could you"),
    ("a lot of", "many"),
    ("a lot", "a great deal"),
    ("lots of", "many"),
    ("thanks", "thank you"),
    ("asap", "as soon as possible"),
    ("yeah", "yes"),
    ("get back to you", "respond"),
    ("find out", "determine"),
    ("sort out", "resolve"),
    ("check out", "review"),
    ("pretty much", "largely"),
    ("right now", "at the moment"),
)

CASUAL: tuple[tuple[str, str], ...] = (
    ("please be advised that", "just so you know,"),
    ("kindly ensure that", "please make sure"),
    ("kindly", "please"),
    ("it is with great pleasure that we welcome", "we're happy to welcome"),
    ("we are pleased to inform you that", "good news:"),
    ("we are pleased to", "we're happy to"),
    ("commence her duties", "start"),
    ("commence his duties", "start"),
    ("commence their duties", "start"),
    ("commence", "start"),
    ("due to", "because of"),
    ("in order to", "to"),
    ("prior to", "before"),
    ("purchase", "buy"),
    ("assist", "help"),
    ("obtain", "get"),
    ("require", "need"),
    ("utilize", "use"),
    ("sufficient", "enough"),
    ("approximately", "about"),
    ("regarding", "about"),
    ("inform", "tell"),
    ("additional", "more"),
    ("numerous", "many"),
    ("therefore", "so"),
    ("attendance is encouraged for", "we'd love to see"),
    ("scheduled maintenance of", "work on"),
    *((long.lower(), short) for short, long in CONTRACTIONS if short != "let's"),
)
