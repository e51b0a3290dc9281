"""What a verb takes after it: a bare verb after a modal or a causative, an -ing form after a
preposition "to" or a verb that takes one, an object with no preposition. Slips English learners
make that no word's own forms fix.

- **a modal's "to"**: a modal takes a bare verb ("must send", "can help"); "must to send"
  is a calque of "have to send". The "to" is offered dropped, after a negated modal too
  ("can't to sleep", "must not to go").
- **"to" as a preposition**: in "look forward to", "be used to", "be committed to" the "to"
  is a preposition, so a verb after it is an -ing form ("look forward to hearing"). Which
  heads make "to" a preposition, and the verb that must come before some of them ("used to
  wait" is a past habit, "am used to wait" is not), are in ``data/grammar.json``.
- **a verb that takes its object directly**: "discuss about", "contact with", "mention
  about"; the preposition is offered dropped where the verb is used as a verb (a past or an
  -ing form, or a base form after a subject, a modal or "to": "a contact with" is a noun).
- **a causative's "to"**: "let" and "make" with an object pronoun take a bare verb ("let them
  wait"; "made us to wait" is the learner's).
- **a verb that takes an -ing form**: "enjoy", "avoid", "suggest" take another verb as its -ing
  form ("avoid waiting"), never with "to"; after a form of "be" the verb is a passive's
  ("is considered to be"), left as it is.

Each is offered as a fix like any other; the model reading the passage chooses. The verb's
forms come from lemminflect. Pure functions over word texts.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from lemminflect import getInflection

from engine.language.en.cut_safety import core
from engine.language.en.cut_units import is_base_verb, verb_lemmas
from engine.language.en.data import load_json, word_set
from engine.language.en.registers import CONTRACTIONS
from engine.language.en.rewordings import Rewording, spelled

DATA = load_json("grammar.json")
MODALS = word_set("word_tiers.json", "modals")
NOT = "not"
NEGATIONS = word_set("word_tiers.json", "negations")
# A modal and "not" in one word, by the contractions package ("can't": "cannot", "won't": "will
# not"), and the one closed compound ("cannot").
NEGATED_MODALS = frozenset(
    word
    for short, long in CONTRACTIONS
    if long.endswith(NOT) and long.split()[0].removesuffix(NOT) in MODALS
    for word in (short, long.split()[0])
    if " " not in word and word not in MODALS
)
TO = "to"
# A head and the verbs one of which stands within two words before it (none: any use).
TO_PREPOSITION_HEADS: dict[str, frozenset[str]] = {
    head: frozenset(before) for head, before in DATA["to_preposition_heads"].items()
}
HEAD_REACH = 2  # "am still not used to": the verb, then up to two words, then the head
DIRECT_OBJECTS: dict[str, str] = DATA["direct_object_verbs"]
BARE_INFINITIVE_VERBS = word_set("grammar.json", "bare_infinitive_verbs")
GERUND_VERBS = word_set("grammar.json", "gerund_verbs")
# The objects a causative's bare verb follows: "it" is left out, as "make it to" is also
# "arrive at" ("made it to work on time").
ARRIVAL_OBJECT = "it"
CAUSATIVE_OBJECTS = word_set("word_tiers.json", "object_pronouns") - {ARRIVAL_OBJECT}
BE = "be"  # any of its forms before a gerund verb makes that verb a passive's participle
SUBJECTS = word_set("meaning.json", "subject_pronouns")
GERUND_TAG = "VBG"
VERB_ONLY_TAGS = ("VBD", "VBN", "VBG")  # forms no noun shares ("contacted", "discussing")
MARKS = re.compile(r"[,.;:!?()\"]")


def plain(words: Sequence[str], first: int, stop: int) -> bool:
    """Words ``first`` to ``stop`` exist and none but the last carries a mark after it."""
    return stop <= len(words) and not any(MARKS.search(w) for w in words[first : stop - 1])


def modal_to(words: Sequence[str], index: int) -> list[Rewording]:
    """ "must to send" → "must send": a modal, "to" and a bare verb; a negated modal too
    ("can't to sleep", "must not to touch")."""
    head = core(words[index])
    if head not in MODALS and head not in NEGATED_MODALS:
        return []
    to_at = index + 1
    if head in MODALS and to_at < len(words) and core(words[to_at]) in NEGATIONS:
        to_at += 1
    if not plain(words, index, to_at + 2) or core(words[to_at]) != TO:
        return []
    if not is_base_verb(core(words[to_at + 1])):
        return []
    return [Rewording(index, to_at + 1, "".join(words[index:to_at]).rstrip())]


def gerund_after_to(words: Sequence[str], index: int) -> list[Rewording]:
    """ "look forward to hear" → "hearing": a bare verb after a preposition "to"."""
    if index < 2 or core(words[index - 1]) != TO or MARKS.search(words[index - 2]):
        return []
    head, verb = core(words[index - 2]), core(words[index])
    needed = TO_PREPOSITION_HEADS.get(head)
    if needed is None or not is_base_verb(verb) or MARKS.search(words[index - 1]):
        return []
    if needed and not _verb_before(words, index - 2, needed):
        return []
    forms = getInflection(verb, GERUND_TAG)
    if not forms:
        return []
    return [Rewording(index, index + 1, spelled(words[index], words[index], forms[0]))]


def _verb_before(words: Sequence[str], head: int, lemmas: frozenset[str]) -> bool:
    """Whether a form of one of ``lemmas`` stands within :data:`HEAD_REACH` words before the
    head ("am used", "got used", "am still not used")."""
    for at in range(head - 1, max(-1, head - HEAD_REACH - 2), -1):
        if MARKS.search(words[at]):
            return False
        if lemmas.intersection(verb_lemmas(core(words[at]))):
            return True
    return False


def direct_object(words: Sequence[str], index: int) -> list[Rewording]:
    """ "discussed about the prices" → "discussed the prices"."""
    if index + 2 >= len(words) or MARKS.search(words[index]):
        return []
    word = core(words[index])
    lemma = next((v for v in verb_lemmas(word) if v in DIRECT_OBJECTS), None)
    if lemma is None or core(words[index + 1]) != DIRECT_OBJECTS[lemma]:
        return []
    if MARKS.search(words[index + 1]) or not _used_as_verb(words, index, word, lemma):
        return []
    return [Rewording(index, index + 2, words[index].rstrip())]


def _used_as_verb(words: Sequence[str], index: int, word: str, lemma: str) -> bool:
    if any(word in getInflection(lemma, tag) for tag in VERB_ONLY_TAGS):
        return True
    before = core(words[index - 1]) if index else ""
    return before in SUBJECTS or before in MODALS or before == TO


def causative_to(words: Sequence[str], index: int) -> list[Rewording]:
    """ "made me to wait" → "made me wait": "let" or "make", an object pronoun, "to" and a
    bare verb."""
    if not plain(words, index, index + 4) or core(words[index + 2]) != TO:
        return []
    if not BARE_INFINITIVE_VERBS.intersection(verb_lemmas(core(words[index]))):
        return []
    if core(words[index + 1]) not in CAUSATIVE_OBJECTS or not is_base_verb(core(words[index + 3])):
        return []
    return [Rewording(index + 1, index + 3, words[index + 1].rstrip())]


def gerund_verb_to(words: Sequence[str], index: int) -> list[Rewording]:
    """ "avoid to wait" → "avoid waiting": a verb that takes an -ing form, "to" and a bare
    verb; not after a form of "be" ("is considered to be" is a passive)."""
    if not plain(words, index, index + 3) or core(words[index + 1]) != TO:
        return []
    if not GERUND_VERBS.intersection(verb_lemmas(core(words[index]))):
        return []
    verb = core(words[index + 2])
    if (index and BE in verb_lemmas(core(words[index - 1]))) or not is_base_verb(verb):
        return []
    forms = getInflection(verb, GERUND_TAG)
    if not forms:
        return []
    text = words[index].rstrip() + spelled(words[index + 2], words[index + 2], forms[0])
    return [Rewording(index, index + 3, text)]


def verb_pattern_fixes(words: Sequence[str], index: int) -> list[Rewording]:
    """Every fix of this module at word ``index``."""
    return [
        *modal_to(words, index),
        *gerund_after_to(words, index),
        *direct_object(words, index),
        *causative_to(words, index),
        *gerund_verb_to(words, index),
    ]
