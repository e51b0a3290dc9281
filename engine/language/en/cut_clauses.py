"""Clause-level units a person cuts to tighten a sentence, found by their shape, not by their words.

Held-out text seldom holds a phrase a table lists ("at the present time"), but it often holds
a *shape* every plain-English guide teaches to cut. Each function here finds one shape from
word classes (the closed classes of ``data/word_tiers.json``, a few single words of
``data/cuts.json``, parts of speech from lemminflect's lexicon) and answers
:class:`~engine.language.en.rewordings.Rewording` objects, which :mod:`engine.passes.shorten`
offers as swaps priced by the model and which
:func:`engine.language.en.cut_safety.cut_damage` checks against the whole passage:


- :func:`fact_clauses`: "owing to the fact that" as "because", "despite the fact that" as
  "although", "proud of the fact that" as "proud that";

- :func:`relative_complements`: "the box that is on the shelf" as "the box on the shelf",
  "a town that is close to the sea" as "a town close to the sea";
- :func:`object_relatives`: "the songs which we sang" as "the songs we sang";
- :func:`coordinated_pairs`: "clearly and simply", "warm and very tasty" as their first word;
- :func:`intensifiers`: "so slowly" as "slowly", "much shorter" as "shorter";

- :func:`ability_phrases`: "will not be able to read" as "cannot read";
- :func:`compared_auxiliaries`: "faster than the old one did." as "faster than the old one.";
- :func:`shell_nouns`: "the job of sorting" as "sorting";

- :func:`of_all`: "first of all" as "first";
- :func:`example_asides`: an example set off by commas (", such as plums and figs,") dropped;
- :func:`purpose_markers`: "in order to check" as "to check".

Pure functions over words, each with its leading whitespace (as
:func:`engine.language.en.drops.word_spans` splits them).
"""

from __future__ import annotations

from collections.abc import Sequence

from lemminflect import getAllLemmas, getInflection

from engine.language.en import meaning
from engine.language.en.cut_phrases import HEDGES, opens_sentence
from engine.language.en.cut_safety import (
    ADJECTIVE_TAG,
    BE_FORMS,
    CLOSED_CLASSES,
    COMPARATIVE_TAG,
    MODIFIERS_KEPT,
    PREPOSITIONS,
    VERB_TAG,
    core,
    describes,
    is_plain,
    may_be_noun,
    readings,
)
from engine.language.en.cut_units import is_base_verb, plain_run, tail
from engine.language.en.data import load_json, word_set
from engine.language.en.rewordings import Finder, Rewording, lead, spelled

DATA = load_json("cuts.json")
THAT: str = DATA["cleft"]["that"]
TO: str = DATA["cleft"]["to"]
OF: str = DATA["quantity_of"]
AND = "and"
COMMA = ","
FACT: str = DATA["fact_noun"]
FACT_CONNECTIVES: dict[str, str] = DATA["fact_connectives"]
SUBJECT_RELATIVES = word_set("cuts.json", "subject_relatives_restrictive")
OBJECT_RELATIVES = word_set("cuts.json", "object_relatives")
MAX_NOUN_PHRASE = 5
# Words before a pair that make it part of a list or a range ("between X and Y").
PAIRED_WITH = word_set("cuts.json", "paired_with")
DEGREE_WORDS = word_set("cuts.json", "degree_before_adjective")  # "so quickly" → "quickly"
COMPARISON_WORDS = word_set("cuts.json", "degree_before_comparative")  # "much more" → "more"
COMPARATIVES = word_set("cuts.json", "comparative_heads")  # "more", "less"
DEGREE_PHRASES: tuple[tuple[str, ...], ...] = tuple(tuple(p) for p in DATA["degree_phrases"])
RESULT_WORDS = word_set("cuts.json", "result_after_degree")  # "so tired that": a result clause
EXAMPLE_OPENERS: tuple[tuple[str, ...], ...] = tuple(tuple(e) for e in DATA["example_openers"])
AS, IT, YOU, ALL, NOT, BE = "as", "it", "you", "all", "not", "be"
ABLE: str = DATA["able"]
ABLE_MODALS: dict[str, dict[str, str]] = DATA["able_modals"]
PLAIN, NEGATED = "plain", "negated"
GERUND_TAG = "VBG"
SHELLS = word_set("cuts.json", "shell_nouns")
OF_ALL_ORDINALS = word_set("cuts.json", "of_all_ordinals")
ARTICLES = word_set("word_tiers.json", "articles")
THAN: str = DATA["than"]
ELLIPTIC_AUXILIARIES = word_set("cuts.json", "elliptic_auxiliaries")
PURPOSE_MARKERS: tuple[tuple[str, ...], ...] = tuple(tuple(p) for p in DATA["purpose_markers"])
ADVERB_TAG = "ADV"
LY, LY_MIN_LETTERS = "ly", 6
LY_KEPT = word_set("word_tiers.json", "ly_kept")


def cores_of(words: Sequence[str]) -> list[str]:
    """Each word's letters, lower-cased (:func:`engine.language.en.cut_safety.core`)."""
    return [core(w) for w in words]


def fact_clauses(words: Sequence[str]) -> list[Rewording]:
    """Every "<connective> the fact that", as the one word it means ("because", "although");
    after an adjective ("proud of the fact that") as "that"."""
    cores = cores_of(words)
    found = []
    for i in range(1, len(words) - 3):
        if cores[i : i + 3] != ["the", FACT, THAT] or not plain_run(words, i - 1, i + 3):
            continue
        head = i - 1
        if cores[head] not in FACT_CONNECTIVES and cores[head] in PREPOSITIONS and head > 0:
            head -= 1  # "due to", "in view of": the connective's word before its preposition
        if cores[head] in FACT_CONNECTIVES and plain_run(words, head, i):
            start = head - 1 if head > 0 and cores[head - 1] in PREPOSITIONS else head
            said = FACT_CONNECTIVES[cores[head]]
            found.append(Rewording(start, i + 3, spelled(words[start], words[i + 2], said)))
        elif cores[i - 1] == OF and i > 1 and ADJECTIVE_TAG in readings(cores[i - 2]):
            found.append(Rewording(i - 1, i + 3, spelled(words[i - 1], words[i + 2], THAT)))
    return found


def relative_complements(words: Sequence[str]) -> list[Rewording]:
    """Every noun + "that/which/who" + "be" + a place or an adjective with its preposition
    ("on the shelf", "close to the sea"), as the noun with that phrase right after it."""
    cores = cores_of(words)
    found = []
    for i in range(1, len(words) - 3):
        if cores[i] not in SUBJECT_RELATIVES or cores[i + 1] not in BE_FORMS:
            continue
        if words[i - 1].rstrip().endswith(COMMA) or not may_be_noun(words[i - 1]):
            continue
        after, then = cores[i + 2], cores[i + 3]
        place = after in PREPOSITIONS and after != TO
        adjective = (
            ADJECTIVE_TAG in readings(after) and then in PREPOSITIONS and is_plain(words[i + 2])
        )
        if (place or adjective) and plain_run(words, i, i + 2):
            found.append(Rewording(i - 1, i + 2, words[i - 1]))
    return found


def object_relatives(words: Sequence[str]) -> list[Rewording]:
    """Every "which"/"whom" after a noun and before a clause's subject pronoun ("the songs
    which we sang"), where it may go; after a comma it opens an aside and stays."""
    cores = cores_of(words)
    found = []
    for i in range(1, len(words) - 2):
        if cores[i] not in OBJECT_RELATIVES or not is_plain(words[i]):
            continue
        if words[i - 1].rstrip().endswith(COMMA) or not may_be_noun(words[i - 1]):
            continue
        if cores[i + 1] in meaning.SUBJECT_PRONOUNS and is_plain(words[i + 1]):
            found.append(Rewording(i - 1, i + 1, words[i - 1]))
    return found


def _is_adverb(word: str) -> bool:
    low = core(word)
    long_ly = low.endswith(LY) and len(low) >= LY_MIN_LETTERS and low not in LY_KEPT
    return long_ly and ADVERB_TAG in readings(low)


def _describing(word: str, before: str) -> bool:
    """A gradable adjective that stands as one here: after "be" or a degree word, or one that
    is no verb ("difficult"), so "clean and dry the cups" is never read as a pair."""
    low = core(word)
    if low in MODIFIERS_KEPT or ADJECTIVE_TAG not in readings(low) or not describes(low):
        return False
    return VERB_TAG not in readings(low) or before in BE_FORMS | HEDGES | DEGREE_WORDS


def coordinated_pairs(words: Sequence[str]) -> list[Rewording]:
    """Every pair of adverbs or of describing adjectives joined by "and" ("clearly and
    simply", "warm and very tasty"), as its first word with the second's marks. A pair
    inside a list ("fast, cheap and clean") or a range ("between") stays."""
    cores = cores_of(words)
    found = []
    for i in range(2, len(words) - 1):
        if cores[i] != AND or not is_plain(words[i]) or not is_plain(words[i - 1]):
            continue
        degree = cores[i + 1] in HEDGES | DEGREE_WORDS and not _is_adverb(words[i + 1])
        second = i + 2 if degree and i + 2 < len(words) else i + 1
        if "\n" in "".join(words[i - 1 : second + 1]) or not plain_run(words, i, second):
            continue
        if words[i - 2].rstrip().endswith(COMMA) or set(cores[max(0, i - 4) : i]) & PAIRED_WITH:
            continue
        first_word, second_word = words[i - 1], words[second].rstrip(",.;:!?")
        adverbs = _is_adverb(first_word) and _is_adverb(second_word)
        adjectives = _describing(first_word, cores[i - 2]) and _describing(
            second_word, cores[second - 1]
        )
        if adverbs or adjectives:
            found.append(Rewording(i - 1, second + 1, words[i - 1] + tail(words[second])))
    return found


def intensifiers(words: Sequence[str]) -> list[Rewording]:
    """Every degree word before an adjective or adverb ("so slowly") and every "much"/"far"
    before a comparative ("much shorter"), as the word it stresses. "so tired that" keeps its
    "so": the clause after it says how tired."""
    cores = cores_of(words)
    found = []
    for i in range(1, len(words) - 2):
        if not plain_run(words, i, i + 1) or words[i - 1].rstrip().endswith(COMMA):
            continue
        stressed = cores[i + 1]
        phrase = next((p for p in DEGREE_PHRASES if tuple(cores[i : i + len(p)]) == p), None)
        if phrase and i + len(phrase) < len(words) and plain_run(words, i, i + len(phrase)):
            after = i + len(phrase)
            if cores[after] in COMPARATIVES or _comparative(cores[after]):
                found.append(Rewording(i, after + 1, lead(words[i]) + words[after].strip()))
            continue
        if cores[i] in COMPARISON_WORDS:
            wanted = stressed in COMPARATIVES or _comparative(stressed)
        elif cores[i] in DEGREE_WORDS:
            kinds = readings(stressed)
            graded = ADJECTIVE_TAG in kinds or ADVERB_TAG in kinds
            wanted = graded and stressed not in MODIFIERS_KEPT | CLOSED_CLASSES
            result = is_plain(words[i + 1]) and cores[i + 2] in RESULT_WORDS
            wanted = wanted and stressed not in RESULT_WORDS and not result and cores[i - 1] != AND
        else:
            continue
        if wanted:
            found.append(Rewording(i, i + 2, lead(words[i]) + words[i + 1].strip()))
    return found


def _comparative(word: str) -> bool:
    """Whether a word is an adjective's comparative ("longer"), by lemminflect's lexicon."""
    bases = getAllLemmas(word).get(ADJECTIVE_TAG, ())
    return any(word in getInflection(base, COMPARATIVE_TAG) for base in bases if base != word)


def example_asides(words: Sequence[str]) -> list[Rewording]:
    """Every aside between commas that gives an example (", such as plums and figs,"),
    with no negation, number or name in it, as the word before it without its comma."""
    cores = cores_of(words)
    found = []
    for i in range(1, len(words) - 2):
        if not words[i - 1].rstrip().endswith(COMMA):
            continue
        opener = next((e for e in EXAMPLE_OPENERS if tuple(cores[i : i + len(e)]) == e), None)
        if opener is None:
            continue
        end = next(
            (j for j in range(i, len(words) - 1) if words[j].rstrip()[-1:] in ",.;:!?"), None
        )
        if (
            end is None
            or not words[end].rstrip().endswith(COMMA)
            or "\n" in "".join(words[i : end + 1])
        ):
            continue
        aside = "".join(words[i : end + 1])
        if meaning.negations(aside) or meaning.numbers(aside) or meaning.names(" x " + aside):
            continue
        if plain_run(words, i, end) and is_plain(words[end].rstrip(COMMA)):
            found.append(Rewording(i - 1, end + 1, words[i - 1].rstrip()[:-1]))
    return found


def shell_nouns(words: Sequence[str]) -> list[Rewording]:
    """Every "The act of moving" opening a sentence, as the "-ing" verb alone ("Moving the
    piano took an hour"). Only as a sentence's subject: after a verb or a preposition the
    bare "-ing" is no noun phrase ("She did sorting the mail", "still in reviewing")."""
    cores = cores_of(words)
    found = []
    for i in range(len(words) - 4):
        if cores[i] not in ARTICLES or cores[i + 1] not in SHELLS or cores[i + 2] != OF:
            continue
        if not opens_sentence(words, i):
            continue
        gerund = cores[i + 3]
        bases = getAllLemmas(gerund).get(VERB_TAG, ())
        if not any(gerund in getInflection(b, GERUND_TAG) for b in bases):
            continue
        if plain_run(words, i, i + 3):
            gerund_text = words[i + 3].strip()
            if words[i].strip()[:1].isupper():
                gerund_text = gerund_text[:1].upper() + gerund_text[1:]
            found.append(Rewording(i, i + 4, lead(words[i]) + gerund_text))
    return found


def of_all(words: Sequence[str]) -> list[Rewording]:
    """Every "first of all", as "first"."""
    cores = cores_of(words)
    return [
        Rewording(i, i + 3, words[i] + tail(words[i + 2]))
        for i in range(len(words) - 3)
        if cores[i] in OF_ALL_ORDINALS
        and cores[i + 1 : i + 3] == [OF, ALL]
        and plain_run(words, i, i + 2)
    ]


def ability_phrases(words: Sequence[str]) -> list[Rewording]:
    """Every "will (not) be able to" / "would (not) be able to" before a verb, as "can",
    "cannot", "could", "could not"."""
    cores = cores_of(words)
    found = []
    for i in range(len(words) - 4):
        forms = ABLE_MODALS.get(cores[i])
        negated = cores[i + 1] == NOT
        at = i + 1 + negated
        if forms is None or cores[at : at + 3] != [BE, ABLE, TO] or at + 3 >= len(words):
            continue
        if plain_run(words, i, at + 3) and is_base_verb(cores[at + 3]):
            said = forms[NEGATED] if negated else forms[PLAIN]
            found.append(Rewording(i, at + 3, spelled(words[i], words[at + 2], said)))
    return found


def compared_auxiliaries(words: Sequence[str]) -> list[Rewording]:
    """Every auxiliary that closes a comparison ("faster than the old one did."), which the
    comparison says without it ("faster than the old one."), unless an adverb stands before
    it ("than the old one ever was" cut read "than the old one ever.")."""
    cores = cores_of(words)
    found = []
    for i in range(len(words) - 2):
        if cores[i] != THAN or not is_plain(words[i]):
            continue
        stop = min(len(words), i + MAX_NOUN_PHRASE + 2)
        end = next((j for j in range(i + 1, stop) if not is_plain(words[j])), None)
        if end is None or end - i < 3 or cores[end] not in ELLIPTIC_AUXILIARIES:
            continue
        if cores[i + 1] in meaning.SUBJECT_PRONOUNS or not plain_run(words, i, end):
            continue  # "than I did": "than I" reads as a fault
        if readings(cores[end - 1]) == {ADVERB_TAG}:
            continue  # "than the old one ever was": "ever" needs its verb
        if words[end].strip()[len(cores[end]) :] in (".", ",", ";"):
            found.append(Rewording(end - 1, end + 1, words[end - 1] + tail(words[end])))
    return found


def purpose_markers(words: Sequence[str]) -> list[Rewording]:
    """Every "in order to" / "so as to" before a verb's base form, as "to"."""
    cores = cores_of(words)
    found = []
    for i in range(len(words) - 3):
        marker = next((m for m in PURPOSE_MARKERS if tuple(cores[i : i + len(m)]) == m), None)
        if marker is None:
            continue
        to = i + len(marker)
        if to + 1 >= len(words) or cores[to] != TO or not is_base_verb(cores[to + 1]):
            continue
        if plain_run(words, i, to + 1):
            found.append(Rewording(i, to + 1, spelled(words[i], words[to], TO)))
    return found


# The finders whose cuts say the same in fewer words (the hedges' tier in the shorten pass),
# and those that drop a describing word (priced as one).
CLAUSE_WORDINGS: tuple[Finder, ...] = (
    fact_clauses,
    relative_complements,
    object_relatives,
    intensifiers,
    purpose_markers,
    ability_phrases,
    compared_auxiliaries,
    shell_nouns,
    of_all,
)
DESCRIBING_CUTS: tuple[Finder, ...] = (coordinated_pairs,)
# An example is said, not only how: cut at a side clause's tier.
ASIDES: tuple[Finder, ...] = (example_asides,)
