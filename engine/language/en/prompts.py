"""How a draft's prompt is worded for an instruction-tuned model: as a request to write it.

DiffusionGemma is instruction-tuned: it reads a user turn as a request. A draft's prompt is
what the user wants written ("what we did the next morning", "a reminder about the
deadline"), so its turn says "Write what we did the next morning."; a prompt that already asks
("describe the harbour") is only capitalised and ended. Whether the first word asks is
lemminflect's lexicon: a verb's base form whose only readings are verbs, or one a determiner
follows ("list the steps").

The embedded model's header keeps the prompt as written (:func:`engine.core.context.
instruction_ids`): its adapter saw "Instruction: Write ..." only before synthetic JSON and
tables, and that wording took dev drafts off their topic.
"""

from __future__ import annotations

from lemminflect import getAllLemmas

from engine.language.en.data import word_set

VERB_TAG = "VERB"
# Words that open a verb's object: after "list" or "plan" they make it a request.
OBJECT_STARTS = word_set("word_tiers.json", "determiners") | word_set(
    "word_tiers.json", "object_pronouns"
)
WRITE = "Write"
END = "."
ENDS = ".!?"


def draft_request(prompt: str) -> str:
    """The request a draft's ``prompt`` is sent as ("" stays "")."""
    text = prompt.strip().rstrip(ENDS).strip()
    if not text:
        return ""
    words = text.lower().split()
    if asks(words[0], words[1] if len(words) > 1 else ""):
        return text[0].upper() + text[1:] + END
    return f"{WRITE} {text}{END}"


def asks(word: str, following: str = "") -> bool:
    """Whether ``word`` is an imperative: a verb's base form with no other reading, or one
    with a noun reading too that a determiner or an object follows ("list the steps")."""
    found = getAllLemmas(word)
    if VERB_TAG not in found or word not in found[VERB_TAG]:
        return False
    return set(found) == {VERB_TAG} or following in OBJECT_STARTS
