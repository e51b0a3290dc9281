"""Whole wordy units a person cuts when tightening prose, each read as the shorter text it leaves.

Dropping words one at a time never turns "a lot of people" into "many people", "make a
decision" into "decide" or "What we need to do is to find" into "We need to find": these are
units, cut or reworded whole, the way plain-English guides teach. Each function here finds one
shape in a passage's words and answers :class:`~engine.language.en.rewordings.Rewording`
objects, which :mod:`engine.passes.shorten` offers as swaps priced by the model like every cut
and which :func:`engine.language.en.cut_safety.cut_damage` checks against the whole passage:

- :func:`stance_phrases`: "in my view" inside a sentence, with the commas around it;
- :func:`going_to`: "is going to" before a verb as "will" ("was going to": "would");
- :func:`quantity_phrases`: "a lot of" / "a large number of" as "many" or "much", told apart
  by whether the noun after it is plural (lemminflect's lexicon);
- :func:`light_verbs`: a light verb with a noun made from a verb ("made a decision") as that
  verb in the light verb's form ("decided"), the verb found by lemminflect;
- :func:`clefts`: "What we need to do is (to) find" as "We need to find";
- :func:`purpose_phrases`: "for the purpose of keeping" as "to keep";
- :func:`reduced_relatives`: "a flight that had been delayed" as "a flight delayed";
- :func:`parentheticals`: a bracketed aside without a number, name or negation;
- :func:`obligation_openers`: "You will need to check" as the imperative "Check";
- :func:`quantifier_of`: "all of the" as "all the";
- :func:`reported_speech`: "told us that" as "said that" (the writer or the reader told).

Every word list is general English in ``data/cuts.json``, none a phrase of a case: each shape
is written here from single words. Pure functions over words, each with its leading
whitespace (as :func:`engine.language.en.drops.word_spans` splits them).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from lemminflect import getAllLemmas, getInflection

from engine.language.en import meaning
from engine.language.en.cut_phrases import opens_sentence, stance_at
from engine.language.en.cut_safety import (
    ARTICLES,
    BE_FORMS,
    NOUN_TAG,
    SUBORDINATORS,
    VERB_TAG,
    core,
    is_plain,
)
from engine.language.en.data import load_json, word_set
from engine.language.en.rewordings import Finder, Rewording, lead, spelled

DATA = load_json("cuts.json")
GOING: dict[str, str] = DATA["going_to"]
BE_PRESENT, BE_PAST = word_set("cuts.json", "be_present"), word_set("cuts.json", "be_past")
QUANTITIES: dict[str, dict[str, str]] = DATA["quantities"]
SIZES = word_set("cuts.json", "size_adjectives")
QUANTITY_OF: str = DATA["quantity_of"]
LIGHT_VERBS: dict[str, frozenset[str]] = {v: frozenset(n) for v, n in DATA["light_verbs"].items()}
SUFFIXES: tuple[tuple[str, str], ...] = tuple((a, b) for a, b in DATA["nominal_suffixes"])
NOMINAL_OBJECT: str = DATA["nominal_object"]
NOMINAL_BLOCKED = word_set("cuts.json", "nominal_blocked_after")
CLEFT: dict[str, str] = DATA["cleft"]
PURPOSE_PREPOSITIONS = word_set("cuts.json", "purpose_prepositions")
PURPOSE_NOUNS = word_set("cuts.json", "purpose_nouns")
PURPOSE_OF: str = DATA["purpose_of"]
RELATIVES = word_set("cuts.json", "relatives_reduced")
PERFECT = word_set("cuts.json", "perfect")
BEEN: str = DATA["been"]
OBLIGATION_SUBJECT: str = DATA["obligation_subject"]
OBLIGATION_FUTURE: str = DATA["obligation_future"]
OBLIGATIONS: tuple[tuple[str, ...], ...] = tuple(tuple(o) for o in DATA["obligations"])
REPORTING: dict[str, str] = DATA["reporting_verbs"]
ADDRESSEES = word_set("cuts.json", "addressees")  # the writer or the reader, never a third
OF_QUANTIFIERS = word_set("cuts.json", "of_quantifiers")
OF_DETERMINERS = word_set("cuts.json", "of_determiners")
BASE, PARTICIPLE, GERUND = "VB", "VBN", "VBG"  # lemminflect's (Penn) tags
# The tags a light verb may stand in, most specific first ("made" is both past and participle:
# the same form either way).
VERB_FORM_TAGS = ("VBD", "VBN", "VBG", "VBZ", "VBP", "VB")
PLURAL_TAG = "NNS"
OPEN_BRACKET, CLOSE_BRACKET = "(", ")"
COMMA = ","
# "made a decision"; "made the decision" names one decision, said before
INDEFINITE = word_set("cuts.json", "indefinite_articles")
HEDGE_WORDS = word_set("word_tiers.json", "hedges")


def tail(word: str) -> str:
    """The marks after a word's last letter."""
    text = word.strip()
    letters = text.rstrip(".,;:!?\"')]")
    return text[len(letters) :]


def plain_run(words: Sequence[str], first: int, stop: int) -> bool:
    """Whether words ``first`` to ``stop`` (not included) are there and all plain."""
    return first >= 0 and stop <= len(words) and all(is_plain(w) for w in words[first:stop])


@cache
def verb_lemmas(word: str) -> tuple[str, ...]:
    return tuple(getAllLemmas(word).get(VERB_TAG, ()))


def is_base_verb(word: str) -> bool:
    """Whether a lower-case word is a verb's base form ("find", "turn")."""
    return word in verb_lemmas(word)


def form_tag(word: str, lemma: str) -> str | None:
    """The Penn tag ``word`` has as a form of the verb ``lemma``."""
    return next((t for t in VERB_FORM_TAGS if word in getInflection(lemma, t)), None)


def in_form(verb: str, tag: str) -> str | None:
    """``verb`` (a lemma) inflected to ``tag``."""
    forms = getInflection(verb, tag)
    return forms[0] if forms else None


def capitalised_like(model: str, text: str) -> str:
    """``text`` with a capital when ``model`` (a word) has one."""
    return text[:1].upper() + text[1:] if model.strip()[:1].isupper() else text


def stance_phrases(words: Sequence[str]) -> list[Rewording]:
    """Every stance phrase inside a sentence, with one of the commas around it."""
    cores = [core(w) for w in words]
    found = []
    for i in range(1, len(words) - 3):
        size = stance_at(cores, i)
        if not size or opens_sentence(words, i) or not plain_run(words, i, i + size - 1):
            continue
        previous, marks = words[i - 1].rstrip(), tail(words[i + size - 1])
        if previous.endswith(COMMA) and marks.startswith(COMMA):
            text = previous[:-1] + marks[1:]
        elif previous.endswith(COMMA):
            text = previous[:-1] + marks
        else:
            text = previous + marks
        found.append(Rewording(i - 1, i + size, text))
    return found


def going_to(words: Sequence[str]) -> list[Rewording]:
    """Every "be going to" before a verb's base form, as "will" (or, in the past, "would")."""
    cores = [core(w) for w in words]
    found = []
    for i in range(len(words) - 3):
        if cores[i] not in BE_PRESENT | BE_PAST or cores[i + 1 : i + 3] != [
            GOING["going"],
            GOING["to"],
        ]:
            continue
        if not plain_run(words, i, i + 3) or not is_base_verb(cores[i + 3]):
            continue
        modal = GOING["present"] if cores[i] in BE_PRESENT else GOING["past"]
        found.append(Rewording(i, i + 3, lead(words[i]) + capitalised_like(words[i], modal)))
    return found


def is_plural(noun: str) -> bool:
    """Whether a lower-case noun reads as a plural ("bugs", "people"), not a mass noun."""
    lemmas = getAllLemmas(noun).get(NOUN_TAG, ())
    return any(noun != lemma or getInflection(lemma, PLURAL_TAG)[:1] == (noun,) for lemma in lemmas)


def quantity_phrases(words: Sequence[str]) -> list[Rewording]:
    """Every "a (large) lot/number/deal of" before a noun, as its one quantifier."""
    cores = [core(w) for w in words]
    found = []
    for i in range(len(words) - 3):
        if cores[i] not in ARTICLES:
            continue
        sized = cores[i + 1] in SIZES
        noun = i + 1 + sized
        if noun + 2 >= len(words) or cores[noun] not in QUANTITIES:
            continue
        if cores[noun + 1] != QUANTITY_OF or not plain_run(words, i, noun + 2):
            continue
        head = cores[noun + 2]
        if NOUN_TAG not in getAllLemmas(head):
            continue
        kind = ("sized_" if sized else "") + ("plural" if is_plural(head) else "mass")
        word = QUANTITIES[cores[noun]].get(kind)
        if word:
            found.append(Rewording(i, noun + 2, spelled(words[i], words[noun + 1], word)))
    return found


@cache
def verb_of(noun: str) -> str | None:
    """The verb a noun names the act of: the noun itself ("look") or its stem with a verb's
    ending ("decision": "decide", "payment": "pay"), as lemminflect's lexicon knows it."""
    if is_base_verb(noun):
        return noun
    for suffix, ending in SUFFIXES:
        if noun.endswith(suffix) and is_base_verb(noun[: -len(suffix)] + ending):
            return noun[: -len(suffix)] + ending
    return None


def light_verbs(words: Sequence[str]) -> list[Rewording]:
    """Every light verb with "a"/"an" and a noun of its list ("made a decision"), as the
    noun's verb in the light verb's form ("decided"); an "of" after the noun goes with it."""
    cores = [core(w) for w in words]
    found = []
    for i in range(len(words) - 3):
        lemma = next((v for v in verb_lemmas(cores[i]) if v in LIGHT_VERBS), None)
        noun = cores[i + 2]
        if lemma is None or cores[i + 1] not in INDEFINITE or noun not in LIGHT_VERBS[lemma]:
            continue
        tag, verb = form_tag(cores[i], lemma), verb_of(noun)
        new = in_form(verb, tag) if tag and verb else None
        following = cores[i + 3] if is_plain(words[i + 2]) else ""
        infinitive = following == CLEFT["to"] and i + 4 < len(words) and is_base_verb(cores[i + 4])
        blocked = following in NOMINAL_BLOCKED and not infinitive  # "made a change to the"
        if new is None or blocked or not plain_run(words, i, i + 2):
            continue
        stop = i + 4 if following == NOMINAL_OBJECT and i + 4 < len(words) else i + 3
        if stop == i + 4 and not is_plain(words[i + 3]):
            continue
        found.append(Rewording(i, stop, spelled(words[i], words[stop - 1], new)))
    return found


def clefts(words: Sequence[str]) -> list[Rewording]:
    """Every "What we need to do is (to) find" opening a sentence, as "We need to find"."""
    cores = [core(w) for w in words]
    found = []
    for i in range(len(words) - 6):
        if cores[i] != CLEFT["opener"] or not (i == 0 or words[i - 1].rstrip().endswith(",")):
            continue  # opening its sentence or after an opener's comma, never "know what we"
        subject, verb = cores[i + 1], cores[i + 2]
        shape = cores[i + 3 : i + 5] == [CLEFT["to"], CLEFT["verb"]] and cores[i + 5] in BE_FORMS
        if subject not in meaning.SUBJECT_PRONOUNS or not shape:
            continue
        stop = i + 7 if cores[i + 6] == CLEFT["to"] else i + 6
        if stop >= len(words) or not plain_run(words, i, stop) or not is_base_verb(cores[stop]):
            continue
        said = capitalised_like(words[i], subject)
        found.append(Rewording(i, stop, f"{lead(words[i])}{said} {verb} {CLEFT['to']}"))
    return found


def purpose_phrases(words: Sequence[str]) -> list[Rewording]:
    """Every "for the purpose of keeping" / "with the aim of making", as "to keep"."""
    cores = [core(w) for w in words]
    found = []
    for i in range(len(words) - 5):
        if cores[i] not in PURPOSE_PREPOSITIONS or cores[i + 1] not in ARTICLES:
            continue
        if cores[i + 2] not in PURPOSE_NOUNS or cores[i + 3] != PURPOSE_OF:
            continue
        gerund = cores[i + 4]
        bases = [v for v in verb_lemmas(gerund) if gerund in getInflection(v, GERUND)]
        if not bases or not plain_run(words, i, i + 4):
            continue
        found.append(Rewording(i, i + 5, spelled(words[i], words[i + 4], f"to {bases[0]}")))
    return found


def participle_after(cores: Sequence[str], at: int) -> int | None:
    """Where the participle of "that was / had been delayed" stands, the relative at ``at``."""
    if at + 2 >= len(cores):
        return None
    if cores[at + 1] in BE_FORMS:
        verb = at + 2
    elif cores[at + 1] in PERFECT and cores[at + 2] == BEEN and at + 3 < len(cores):
        verb = at + 3
    else:
        return None
    word = cores[verb]
    lemmas = verb_lemmas(word)
    tags = (PARTICIPLE, GERUND) if verb == at + 2 else (PARTICIPLE,)
    return verb if any(word in getInflection(v, t) for v in lemmas for t in tags) else None


def reduced_relatives(words: Sequence[str]) -> list[Rewording]:
    """Every relative clause of "that/which/who" + "be" + participle after a noun, as the
    participle alone ("the bugs that were reported" → "the bugs reported")."""
    cores = [core(w) for w in words]
    found = []
    for i in range(1, len(words) - 2):
        if cores[i] not in RELATIVES or NOUN_TAG not in getAllLemmas(cores[i - 1]):
            continue
        verb = participle_after(cores, i)
        if verb is None or verb + 1 >= len(words) or not plain_run(words, i, verb):
            continue
        found.append(Rewording(i - 1, verb, words[i - 1]))
    return found


def parentheticals(words: Sequence[str]) -> list[Rewording]:
    """Every bracketed aside with no negation, number or name in it, read as the word before
    it with the marks after the closing bracket."""
    found = []
    for i in range(1, len(words) - 1):
        if not words[i].strip().startswith(OPEN_BRACKET):
            continue
        end = next((j for j in range(i, len(words)) if CLOSE_BRACKET in words[j]), None)
        if end is None or end >= len(words) - 1 or "\n" in "".join(words[i : end + 1]):
            continue
        aside = "".join(words[i : end + 1])
        if meaning.negations(aside) or meaning.numbers(aside) or meaning.names(" x " + aside):
            continue
        after = words[end].strip().split(CLOSE_BRACKET, 1)[1]
        found.append(Rewording(i - 1, end + 1, words[i - 1] + after))
    return found


def obligation_openers(words: Sequence[str]) -> list[Rewording]:
    """Every sentence opening "You (will) need to / have to / must" + a verb, as the verb alone,
    capitalised: an instruction said as one; after a clause put first ("Before you start, you
    need to save" → "Before you start, save") the verb keeps its case."""
    cores = [core(w) for w in words]
    found = []
    for i in range(len(words) - 3):
        opening = opens_sentence(words, i)
        if cores[i] != OBLIGATION_SUBJECT or not (opening or after_fronted_clause(words, i)):
            continue
        at = i + 1 + (cores[i + 1] == OBLIGATION_FUTURE)
        while at < len(words) - 1 and cores[at] in HEDGE_WORDS:
            at += 1  # "you simply need to": the hedge goes with the opener
        shape = next((o for o in OBLIGATIONS if tuple(cores[at : at + len(o)]) == o), None)
        if shape is None:
            continue
        verb = at + len(shape)
        if verb >= len(words) - 1 or not plain_run(words, i, verb) or not is_base_verb(cores[verb]):
            continue
        said = words[verb].strip()
        said = said[:1].upper() + said[1:] if opening else said
        found.append(Rewording(i, verb + 1, lead(words[i]) + said))
    return found


def after_fronted_clause(words: Sequence[str], i: int) -> bool:
    """Whether word ``i`` follows the comma of a clause its sentence opens with ("If it
    fails, you ...", "To reset it, you ..."): the main clause starts at ``i``."""
    if i == 0 or not words[i - 1].rstrip().endswith(COMMA):
        return False
    start = next(j for j in range(i - 1, -1, -1) if opens_sentence(words, j))
    purpose = (
        core(words[start]) == CLEFT["to"] and start + 1 < i and is_base_verb(core(words[start + 1]))
    )
    return core(words[start]) in SUBORDINATORS or purpose


def quantifier_of(words: Sequence[str]) -> list[Rewording]:
    """Every "all of the" / "both of these", as "all the" / "both these"."""
    cores = [core(w) for w in words]
    return [
        Rewording(i, i + 2, words[i])
        for i in range(len(words) - 2)
        if cores[i] in OF_QUANTIFIERS
        and cores[i + 1] == QUANTITY_OF
        and cores[i + 2] in OF_DETERMINERS
        and plain_run(words, i, i + 2)
    ]


def reported_speech(words: Sequence[str]) -> list[Rewording]:
    """Every "told us that the plan ..." as "said that the plan ...": who was told is the
    writer or the reader, and the clause after "that" says what was said."""
    cores = [core(w) for w in words]
    found = []
    for i in range(len(words) - 2):
        lemma = next((v for v in verb_lemmas(cores[i]) if v in REPORTING), None)
        if lemma is None or cores[i + 1] not in ADDRESSEES or not plain_run(words, i, i + 2):
            continue
        if cores[i + 2] != CLEFT["that"]:
            continue  # "told us the story": without "that" no clause need follow
        tag = form_tag(cores[i], lemma)
        said = in_form(REPORTING[lemma], tag) if tag else None
        if said:
            found.append(Rewording(i, i + 2, spelled(words[i], words[i + 1], said)))
    return found


# The finders of units that reword without losing what is said: cut at the hedges' tier
# (engine.passes.shorten); a reduced relative and a parenthetical are priced on their own.
WORDING_UNITS: tuple[Finder, ...] = (
    stance_phrases,
    going_to,
    quantity_phrases,
    light_verbs,
    clefts,
    purpose_phrases,
    obligation_openers,
    quantifier_of,
    reported_speech,
)
