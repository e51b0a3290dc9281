"""Things said twice: a later clause's pronoun that only repeats its sentence's subject, and
"of them" after a quantifier.

"The museum holds old maps, and it also has a cafe" names the museum twice; "The museum holds
old maps and also has a cafe" says the same in fewer words, and every plain-English guide
teaches the cut (two predicates sharing one subject). A time clause does the same: "the chef
burned his hand while he was cooking" reads as "while cooking", "they walk the dog before
they go to work" as "before going to work". These cuts take no content out, which is why they
matter for held-out text: an ordinary paragraph has few wordy phrases to cut but often repeats
its subject.

Which subject a pronoun repeats is read conservatively, as a reader's default resolves it
(subject parallelism: a later clause's subject pronoun that agrees with the sentence's
subject refers to it):

- the sentence opens with its subject, a subject pronoun or a short noun phrase (a determiner,
  modifiers, a head noun or a name) right before its verb (:func:`sentence_subject`);
- the pronoun agrees with it: the same pronoun, "they" for a plural head, "it", "he" or "she"
  for a singular one, and no other name stands between them that "he" or "she" could mean;
- nothing between opens another clause (:func:`one_clause`): no subordinator, relative word,
  "that", other comma or coordinator, whose own subject the pronoun might repeat instead.

Each function answers :class:`~engine.language.en.rewordings.Rewording` objects, which
:mod:`engine.passes.shorten` offers as swaps priced by the model and checks against the whole
passage like every other cut.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from lemminflect import getAllLemmas, getInflection

from engine.language.en.cut_safety import (
    BE_FORMS,
    COORDINATORS,
    DETERMINERS,
    PREPOSITIONS,
    SUBJECT_RELATIVES,
    SUBORDINATORS,
    VERB_TAG,
    core,
    is_plain,
    may_be_noun,
    readings,
)
from engine.language.en.cut_units import (
    CLEFT,
    QUANTITY_OF,
    form_tag,
    in_form,
    plain_run,
    tail,
    verb_lemmas,
)
from engine.language.en.data import load_json, word_set
from engine.language.en.meaning import SUBJECT_PRONOUNS
from engine.language.en.rewordings import Rewording, lead

MODALS = word_set("word_tiers.json", "modals")
CLAUSE_COORDINATORS = word_set("cuts.json", "clause_coordinators")
PARTITIVE_HEADS = word_set("cuts.json", "partitive_heads")
PARTITIVE_PRONOUN: str = load_json("cuts.json")["partitive_pronoun"]
THAT = CLEFT["that"]
COMMA = ","
SENTENCE_ENDS = (".", "!", "?", ":", ";")
# Words of a subject noun phrase before its verb, at most ("the new red bike"), and of a
# phrase that opens a sentence before its subject pronoun ("Last year we", "After lunch, we").
MAX_SUBJECT_WORDS = 4
# Words of a subordinate clause that opens a sentence, at most, up to its comma.
MAX_OPENING_CLAUSE = 12
# The pronouns a singular or a plural noun subject is repeated by.
SINGULAR_REPEATS = frozenset({"it", "he", "she"})
PLURAL_REPEATS = frozenset({"they"})
PERSONAL = frozenset({"he", "she"})
PLURAL_PRONOUNS = frozenset({"we", "they"})
# Auxiliaries that are finite verbs of their own (the subject's verb may be one).
HAVE_FORMS = frozenset({"has", "have", "had"})
DO_FORMS = frozenset({"do", "does", "did"})
FINITE_TAGS = ("VBD", "VBZ", "VBP")
CLAUSE_TAGS = ("VBD", "VBZ")  # a past or a third person's verb: no base form ("last", "lunch")
PARTICIPLE_TAGS = ("VBG", "VBN")
GERUND_TAG = "VBG"
PLURAL_NOUN_TAG = "NNS"
NOUN_TAG = "NOUN"
# Time clauses whose repeated subject goes with its "be" ("while he was cooking": "while
# cooking") and those whose finite verb becomes its -ing form ("before they went": "before
# going"); "since" and "as" also give reasons and "until" reads oddly reduced, so none of them.
BE_REDUCED = frozenset({"while", "when"})
GERUND_REDUCED = frozenset({"before", "after"})
TIME_WORDS = BE_REDUCED | GERUND_REDUCED
JOINERS = COORDINATORS | CLAUSE_COORDINATORS
CLAUSE_OPENERS = SUBJECT_PRONOUNS | SUBORDINATORS


@dataclass(frozen=True)
class Subject:
    """A sentence's subject: the pronoun it is (or ``None`` for a noun phrase), whether a
    noun phrase's head is plural, and where its verb stands."""

    pronoun: str | None
    plural: bool
    verb: int


def sentence_start(words: Sequence[str], i: int) -> int:
    """The index of the first word of the sentence word ``i`` stands in."""
    while i > 0 and not words[i - 1].strip().endswith(SENTENCE_ENDS):
        i -= 1
    return i


def finite_verb(low: str) -> bool:
    """Whether a lower-case word can be a finite verb: "be", "have", "do", a modal, or a
    verb's past or present form."""
    if low in BE_FORMS or low in HAVE_FORMS or low in DO_FORMS or low in MODALS:
        return True
    return any(form_tag(low, lemma) in FINITE_TAGS for lemma in verb_lemmas(low))


def sentence_subject(words: Sequence[str], start: int) -> Subject | None:
    """The subject of the sentence opening at ``start``: a subject pronoun, up to
    :data:`MAX_SUBJECT_WORDS` plain words (a determiner, modifiers, a noun or a name) whose
    last is followed by a finite verb, or the subject pronoun after a short opening phrase
    (:func:`after_opener`) or an opening clause (:func:`after_opening_clause`). ``None``
    otherwise."""
    first = core(words[start])
    if first in SUBJECT_PRONOUNS:
        return Subject(first, first in PLURAL_PRONOUNS, start + 1)
    opened = after_opener(words, start)
    if opened is None and first in SUBORDINATORS:
        opened = after_opening_clause(words, start)
        if opened is None:
            return None  # "When a backup is made, a copy ...": no pronoun to read
    if opened is not None:
        return sentence_subject(words, opened)
    head = start + 1 if first in DETERMINERS else start
    for verb in range(head + 1, min(head + MAX_SUBJECT_WORDS + 1, len(words))):
        previous = words[verb - 1]
        if not is_plain(previous) or core(previous) in PREPOSITIONS | SUBJECT_RELATIVES:
            return None
        if finite_verb(core(words[verb])) and noun_head(previous, verb - 1 == start):
            return Subject(None, plural_noun(core(previous)), verb)
    return None


def after_opener(words: Sequence[str], start: int) -> int | None:
    """Where a sentence's subject pronoun stands after a short phrase that opens it and says no
    clause of its own ("Last year we", "After lunch, we", "Because of the rain, they"): no
    verb in the past or the third person, no "be", "have" or modal, not opened by a
    subordinator that is not also a preposition ("When ready, we": a clause cut short)."""
    first = core(words[start])
    if first in SUBORDINATORS and first not in PREPOSITIONS:
        return None
    for at in range(start, min(start + MAX_SUBJECT_WORDS, len(words) - 1)):
        word = words[at].rstrip()
        if not plain_before_comma(word) or clause_verb(core(word)):
            return None
        # "After they left, we": a subordinator's pronoun is its own clause's subject
        comma_before = word.endswith(COMMA) or first not in SUBORDINATORS
        if core(words[at + 1]) in SUBJECT_PRONOUNS and is_plain(words[at + 1]) and comma_before:
            return at + 1
    return None


def after_opening_clause(words: Sequence[str], start: int) -> int | None:
    """Where the main clause's subject pronoun stands after a subordinate clause that opens
    the sentence ("When the server starts, it loads ..."): right after the clause's comma,
    within :data:`MAX_OPENING_CLAUSE` words."""
    for at in range(start + 1, min(start + MAX_OPENING_CLAUSE, len(words) - 1)):
        word = words[at].rstrip()
        if word.endswith(SENTENCE_ENDS):
            return None
        if word.endswith(COMMA):
            after = words[at + 1]
            return at + 1 if core(after) in SUBJECT_PRONOUNS and is_plain(after) else None
    return None


def clause_verb(low: str) -> bool:
    """Whether a lower-case word says a clause: "be", "have", a modal, or a verb in the past or
    the third person ("came", "rains"); a base form ("last", "lunch") is mostly another word."""
    if low in BE_FORMS or low in HAVE_FORMS or low in MODALS:
        return True
    return any(form_tag(low, lemma) in CLAUSE_TAGS for lemma in verb_lemmas(low))


def noun_head(word: str, opens: bool) -> bool:
    """Whether ``word`` can head a subject: a noun, or a capitalised name inside the sentence
    or at its start when the lexicon knows it as nothing else."""
    text = word.strip()
    if may_be_noun(text.lower()):
        return True
    return text[:1].isupper() and (not opens or not readings(text.lower()))


def plural_noun(low: str) -> bool:
    """Whether a lower-case noun is a plural form ("maps", "children")."""
    lemmas = getAllLemmas(low).get(NOUN_TAG, ())
    return any(low != lemma and low in getInflection(lemma, PLURAL_NOUN_TAG) for lemma in lemmas)


def repeats_subject(subject: Subject, pronoun: str) -> bool:
    """Whether a later clause's subject ``pronoun`` agrees with ``subject``."""
    if subject.pronoun is not None:
        return pronoun == subject.pronoun
    return pronoun in (PLURAL_REPEATS if subject.plural else SINGULAR_REPEATS)


def one_clause(words: Sequence[str], subject: Subject, stop: int, pronoun: str) -> bool:
    """Whether the words from the subject's verb up to ``stop`` open no other clause (no
    subordinator, relative word, "that", inner comma, or coordinator before a subject of its
    own) and, for "he" or "she", name nobody else."""
    for i in range(subject.verb, stop):
        low = core(words[i])
        if low in SUBORDINATORS or low in SUBJECT_RELATIVES or low == THAT:
            return False
        if low in JOINERS and opens_clause(words, i + 1):
            return False
        if i < stop - 1 and not is_plain(words[i]) and not list_comma(words, i):
            return False
        if pronoun in PERSONAL and i > subject.verb and words[i].strip()[:1].isupper():
            return False
    return True


def list_comma(words: Sequence[str], i: int) -> bool:
    """Whether word ``i`` is a plain word before a comma that goes on with the same clause (a
    list's next item: "peas, beans")."""
    return plain_before_comma(words[i]) and not opens_clause(words, i + 1)


def plain_before_comma(word: str) -> bool:
    """Whether ``word`` is plain, a comma after it aside ("peas," "Last")."""
    return is_plain(word.rstrip().removesuffix(COMMA))


def opens_clause(words: Sequence[str], at: int) -> bool:
    """Whether the words from ``at`` (after a coordinator or a comma) may open a clause with a
    subject of its own: a subject pronoun, or a noun phrase whose verb follows within
    :data:`MAX_SUBJECT_WORDS` words ("and the kids ate"), not a list's next noun ("tomatoes,
    beans and a few herbs")."""
    if at >= len(words) or core(words[at]) in CLAUSE_OPENERS:
        return True
    for j in range(at, min(at + 1 + MAX_SUBJECT_WORDS, len(words))):
        if j > at and clause_verb(core(words[j])):
            return True
        if not is_plain(words[j]):
            return False  # the phrase ends at a mark before any verb
    return False


def subject_repeated(words: Sequence[str], at: int, stop: int) -> bool:
    """Whether the subject pronoun at ``at`` repeats its sentence's subject across the words
    before ``stop`` (where the later clause opens)."""
    pronoun = core(words[at])
    if pronoun not in SUBJECT_PRONOUNS or not is_plain(words[at]):
        return False
    subject = sentence_subject(words, sentence_start(words, stop))
    if subject is None or subject.verb >= stop:
        return False
    return repeats_subject(subject, pronoun) and one_clause(words, subject, stop, pronoun)


def repeated_subjects(words: Sequence[str]) -> list[Rewording]:
    """Every ", and <pronoun>" (or "but": :data:`CLAUSE_COORDINATORS`) whose pronoun repeats
    the sentence's subject, as " and" (the comma goes with it: two predicates of one subject
    take none)."""
    found = []
    for i in range(1, len(words) - 2):
        if core(words[i]) not in CLAUSE_COORDINATORS or not plain_run(words, i, i + 3):
            continue
        if not subject_repeated(words, i + 1, i):
            continue
        before = words[i - 1].rstrip()
        if before.endswith(COMMA) and plain_before_comma(before):
            found.append(Rewording(i - 1, i + 2, before.removesuffix(COMMA) + words[i]))
        else:
            found.append(Rewording(i, i + 2, words[i]))
    return found


def reduced_time_clauses(words: Sequence[str]) -> list[Rewording]:
    """Every time clause whose pronoun repeats its sentence's subject (:func:`time_subject_
    repeated`):
    "while/when <pronoun> <be> <participle or preposition>" without the pronoun and "be",
    "before/after <pronoun> <verb>" with the verb's -ing form."""
    found = []
    for i in range(len(words) - 2):
        low = core(words[i])
        if low not in TIME_WORDS or not plain_run(words, i, i + 2):
            continue
        if not time_subject_repeated(words, i):
            continue
        reduced = (be_reduced if low in BE_REDUCED else gerund_reduced)(words, i)
        if reduced is not None:
            found.append(reduced)
    return found


def time_subject_repeated(words: Sequence[str], i: int) -> bool:
    """Whether the pronoun after the time word at ``i`` is its sentence's subject: after the
    sentence's verb (not after a comma: ", while he" sets a contrast), or, where the time
    clause opens the sentence, the same pronoun as the main clause's ("While he was cooking,
    he")."""
    if sentence_start(words, i) != i:
        return not words[i - 1].rstrip().endswith(COMMA) and subject_repeated(words, i + 1, i)
    subject = sentence_subject(words, i)
    pronoun = core(words[i + 1])
    return subject is not None and subject.pronoun == pronoun and is_plain(words[i + 1])


def be_reduced(words: Sequence[str], i: int) -> Rewording | None:
    """ "while he was cooking" as "while cooking", "when it is done" as "when done"."""
    if i + 3 >= len(words) or core(words[i + 2]) not in BE_FORMS or not is_plain(words[i + 2]):
        return None
    after = core(words[i + 3])
    participle = any(form_tag(after, lemma) in PARTICIPLE_TAGS for lemma in verb_lemmas(after))
    if not participle and after not in PREPOSITIONS:
        return None
    return Rewording(i, i + 4, words[i] + words[i + 3])


def gerund_reduced(words: Sequence[str], i: int) -> Rewording | None:
    """ "before they went to work" as "before going to work": one verb, not an auxiliary."""
    verb = core(words[i + 2])
    lemmas = verb_lemmas(verb)
    if len(lemmas) != 1 or verb in BE_FORMS | HAVE_FORMS | DO_FORMS | MODALS:
        return None
    if VERB_TAG not in readings(verb) or form_tag(verb, lemmas[0]) not in FINITE_TAGS:
        return None
    gerund = in_form(lemmas[0], GERUND_TAG)
    if gerund is None:
        return None
    said = lead(words[i + 2]) + gerund + tail(words[i + 2])
    return Rewording(i, i + 3, words[i] + said)


def partitive_pronouns(words: Sequence[str]) -> list[Rewording]:
    """Every "two of them", "most of them" as "two", "most": "them" names again a noun
    already named, and the quantifier alone says the same ("printed two of them for the
    wall" as "printed two for the wall"). Only "them": "all of us" says who."""
    cores = [core(w) for w in words]
    return [
        Rewording(i, i + 3, words[i] + tail(words[i + 2]))
        for i in range(len(words) - 2)
        if cores[i] in PARTITIVE_HEADS
        and cores[i + 1] == QUANTITY_OF
        and cores[i + 2] == PARTITIVE_PRONOUN
        and plain_run(words, i, i + 2)
        and is_plain(words[i + 2].strip().rstrip(".,;:!?"))
    ]


SUBJECT_CUTS = (repeated_subjects, reduced_time_clauses, partitive_pronouns)
