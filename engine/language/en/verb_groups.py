"""A verb group in the wrong shape for what it says: slips no single word's forms fix.

Each learner's slip here is two words that should be one, or a time the grammar of the clause
does not allow (English learners' corpora count them among the commonest verb errors):

- **"be" before a bare verb** ("I am agree", "she is agree"): the verb alone, in the person
  "be" had ("I agree", "she agrees"). Only a word that is nothing but a verb's base
  form: "the results are mixed" holds a participle, "the plan is change" may hold a noun.
- **a present perfect with a finished time** ("Last month we have visited", "we have visited
  it yesterday"): the simple past. The perfect tells of a time still open, and "yesterday",
  "ago" or "last" and a time close it (a rule), as a clause of time told in the past does
  (the reading's choice).
- **a present with "since" and a point in time** ("She works here since 2015"): a present
  perfect, simple or progressive (a rule).
- **"would have" in an "if" clause** ("If he would have asked"): "had" (a rule).
- **"will" in a clause of condition or time** ("If it will rain,", "When she will arrive,"):
  the present, as English says the future there. Only where the clause opens its sentence,
  follows a comma, or is a clause of time after a clause in the future: "I wonder if she
  will come" asks a question, and "will" is right in it.
- **"more" or "most" before an adjective that compares in one word, with no noun after it**
  ("more easy" → "easier", "the most simple" → "simplest"): the lexicon's own comparative. Not
  before a noun ("more easy tasks" may count tasks), and not where the lexicon lists none
  ("more beautiful").

Each is offered like a word's other forms, and the model reading the passage chooses, but
those marked as rules (:func:`verb_group_rules`), which are made unless it reads far worse (two-way
forms such as "more common"/"commoner" mostly stay). Forms and tags are lemminflect's; which
words open such a clause is language data (``data/grammar.json``). Pure functions over word
texts.
"""

from __future__ import annotations

from collections.abc import Sequence

from lemminflect import getAllLemmas, getInflection

from engine.language.en.cut_safety import core
from engine.language.en.cut_units import in_form, is_base_verb, verb_lemmas
from engine.language.en.data import word_set
from engine.language.en.form_risks import asked_person
from engine.language.en.forms import COMPARED_TAGS, readings, verb_tags
from engine.language.en.noun_subjects import noun_subject_person
from engine.language.en.registers import STRAIGHT_APOSTROPHES
from engine.language.en.rewordings import Rewording, spelled
from engine.language.en.sentence_time import (
    FUTURE_AUXILIARY,
    OPEN_TIME_WORDS,
    PAST_TIME_WORDS,
    calendar_names,
    clause_of,
    finished_time,
    sentence_of,
)
from engine.language.en.verb_patterns import MARKS, plain

BE, HAVE = "be", "have"
VERB, ADJECTIVE, NOUN = "VERB", "ADJ", "NOUN"
BASE_TAGS = frozenset({"VB", "VBP"})
PAST_TAG, PARTICIPLE_TAG = "VBD", "VBN"
PLAIN_PRESENT_TAG, THIRD_SINGULAR_TAG = "VBP", "VBZ"
PRESENT_TAGS = (PLAIN_PRESENT_TAG, THIRD_SINGULAR_TAG)  # "am"/"are"/"have", "is"/"has"
DEGREE_WORDS = word_set("grammar.json", "degree_words")
TIME_CLAUSE_OPENERS = word_set("grammar.json", "time_clause_openers")
DETERMINERS = word_set("grammar.json", "determiners")
WOULD, CONDITION, PAST_PERFECT = "would", "if", "had"
WILL_CLITIC = "'ll"
SINCE_REACH = 6  # "works here at the bakery since": the verb, a few words, then "since"
PRESENT_PARTICIPLE_TAG = "VBG"
MOST_SUBJECT_WORDS = 3  # "if the new manager would have": the subject between "if" and "would"
PRESENT_FOR_FUTURE = word_set("grammar.json", "present_for_future")


def verb_group_fixes(words: Sequence[str], index: int) -> list[Rewording]:
    """Every fix of this module starting at word ``index`` that the reading chooses."""
    return [
        *be_before_verb(words, index),
        *perfect_in_finished_time(words, index),
        *will_after_condition(words, index),
        *one_word_degree(words, index),
    ]


def verb_group_rules(words: Sequence[str], index: int) -> list[Rewording]:
    """The fixes of this module starting at word ``index`` that are rules of writing: a present
    perfect beside a word of finished time ("We have seen it yesterday": no reading of English
    allows it), a present with "since" and a point in time ("She works here since 2015"),
    and "would have" in a condition's own clause ("If he would have asked" → "had asked")."""
    perfect = perfect_in_finished_time(words, index, by_clause=False)
    since = present_since_a_point(words, index)
    return [*perfect, *since, *would_have_in_condition(words, index)]


def be_before_verb(words: Sequence[str], index: int) -> list[Rewording]:
    """ "I am agree" → "I agree": a form of "be" and a word that is only a verb's base form."""
    if not plain(words, index, index + 2):
        return []
    tag = _auxiliary_tag(core(words[index]), BE)
    verb = core(words[index + 1])
    if tag is None or not _only_a_base_verb(verb):
        return []
    form = in_form(verb, tag)
    return [Rewording(index, index + 2, _joined(words, index, index + 1, form))] if form else []


def perfect_in_finished_time(
    words: Sequence[str], index: int, by_clause: bool = True
) -> list[Rewording]:
    """ "Last month we have visited" → "visited": "have" or "has" and a participle, in a
    sentence with a word that sets it in a finished past (or, ``by_clause``, a clause of time
    told in the past: "After the guests left, we have tidied up")."""
    if not plain(words, index, index + 2) or _auxiliary_tag(core(words[index]), HAVE) is None:
        return []
    participle = core(words[index + 1])
    lemma = next(iter(verb_lemmas(participle)), None)
    if lemma is None or participle not in getInflection(lemma, PARTICIPLE_TAG):
        return []
    past = getInflection(lemma, PAST_TAG)
    if not past or not finished_time(words, index, by_clause):
        return []
    return [Rewording(index, index + 2, _joined(words, index, index + 1, past[0]))]


def will_after_condition(words: Sequence[str], index: int) -> list[Rewording]:
    """ "If it will rain," → "If it rains,": "will" after a clause opener and its subject (a
    pronoun, or a noun phrase: "when the train will leave"), where the clause opens its
    sentence or follows a comma, or where a clause of time follows a clause in the future
    ("I will call you when I will arrive" → "arrive"; "I wonder when she will come" asks a
    question, and "will" is right in it)."""
    if core(words[index]) != FUTURE_AUXILIARY or not plain(words, index, index + 2):
        return []
    opener_at = _condition_opener(words, index)
    if opener_at is None:
        return []
    opens = opener_at == 0 or bool(MARKS.search(words[opener_at - 1]))
    if not opens and not _after_a_future_clause(words, opener_at):
        return []
    verb = core(words[index + 1])
    person = asked_person(words, index) or noun_subject_person(words, index)
    if person is None or not is_base_verb(verb):
        return []
    form = in_form(verb, person)
    return [Rewording(index, index + 2, _joined(words, index, index + 1, form))] if form else []


def _condition_opener(words: Sequence[str], index: int) -> int | None:
    """Where the clause opener of word ``index``'s subject stands: the nearest
    :data:`PRESENT_FOR_FUTURE` word within :data:`MOST_SUBJECT_WORDS` words of the subject
    before it, with no mark between."""
    for at in range(index - 2, max(-1, index - 2 - MOST_SUBJECT_WORDS), -1):
        if MARKS.search(words[at]):
            return None
        if core(words[at]) in PRESENT_FOR_FUTURE:
            return at
    return None


def _after_a_future_clause(words: Sequence[str], opener_at: int) -> bool:
    """Whether the opener at ``opener_at`` opens a clause of time (not of condition: "if"
    may ask whether) after a clause of its sentence that says "will"."""
    if core(words[opener_at]) not in TIME_CLAUSE_OPENERS:
        return False
    start, _ = sentence_of(words, opener_at)
    return any(_says_will(word) for word in words[start:opener_at])


def _says_will(word: str) -> bool:
    low = core(word).translate(STRAIGHT_APOSTROPHES)
    return low == FUTURE_AUXILIARY or low.endswith(WILL_CLITIC)


def would_have_in_condition(words: Sequence[str], index: int) -> list[Rewording]:
    """ "If he would have asked," → "If he had asked,": "would have" and a participle in a
    clause that "if" opens (the past perfect says the condition; "would" belongs to the
    other clause)."""
    if core(words[index]) != WOULD or not plain(words, index, index + 3):
        return []
    if core(words[index + 1]) != HAVE or not _is_participle(core(words[index + 2])):
        return []
    start, stop = sentence_of(words, index)
    first, _ = clause_of(words, index, start, stop)
    if core(words[first]) != CONDITION or index - first > MOST_SUBJECT_WORDS + 1:
        return []
    return [Rewording(index, index + 2, _joined(words, index, index + 1, PAST_PERFECT))]


def _is_participle(word: str) -> bool:
    lemma = next(iter(verb_lemmas(word)), None)
    return lemma is not None and word in getInflection(lemma, PARTICIPLE_TAG)


def one_word_degree(words: Sequence[str], index: int) -> list[Rewording]:
    """ "more easy" → "easier", "most simple" → "simplest", where no noun follows."""
    if index + 1 >= len(words) or core(words[index]) not in DEGREE_WORDS:
        return []
    tag = next((t for r in readings(core(words[index])) for t in r.tags & COMPARED_TAGS), None)
    adjective = core(words[index + 1])
    if tag is None or not plain(words, index, index + 2) or _noun_after(words, index + 1):
        return []
    if getAllLemmas(adjective).get(ADJECTIVE) != (adjective,):
        return []
    form = getInflection(adjective, tag, inflect_oov=False)
    if not form:
        return []
    return [Rewording(index, index + 2, _joined(words, index, index + 1, form[0]))]


def present_since_a_point(words: Sequence[str], index: int) -> list[Rewording]:
    """ "She works here since 2015" → "has worked": a present that agrees with its subject
    (a pronoun, or a noun phrase that opens its clause), with "since" and a point in time
    later in its clause (a year, "last" and a time, a weekday or a month), is a present
    perfect, simple or progressive ("has been working"), whichever reads better: the time
    runs from then to now. Not "since" and a clause, which may say why ("I stay in since it
    rains")."""
    verb = core(words[index])
    person = asked_person(words, index) or noun_subject_person(words, index)
    lemma = next(iter(verb_lemmas(verb)), None)
    if person is None or lemma is None or person not in verb_tags(verb):
        return []
    if not _since_a_point(words, index) or _auxiliary_before_a_verb(words, index):
        return []
    if lemma == BE and _determiner_after(words, index):
        return []  # "It is the first time since 2019": the time is the phrase's, not the verb's
    have = in_form(HAVE, person)
    participle = in_form(lemma, PARTICIPLE_TAG)
    if not have or not participle:
        return []
    groups = [f"{have} {participle}"]
    running = in_form(lemma, PRESENT_PARTICIPLE_TAG)
    if running and lemma not in (BE, HAVE):  # "has been teaching": the reading may prefer it
        groups.append(f"{have} {in_form(BE, PARTICIPLE_TAG)} {running}")
    return [Rewording(index, index + 1, _joined(words, index, index, g)) for g in groups]


def _since_a_point(words: Sequence[str], index: int) -> bool:
    """Whether "since" and a point in time follow word ``index`` in its clause."""
    for at in range(index + 1, min(len(words) - 1, index + SINCE_REACH)):
        if MARKS.search(words[at - 1]) and at > index + 1:
            return False
        if core(words[at]) in OPEN_TIME_WORDS:
            point = core(words[at + 1])
            return point.isdigit() or point in PAST_TIME_WORDS or point in calendar_names()
    return False


def _auxiliary_before_a_verb(words: Sequence[str], index: int) -> bool:
    """Whether word ``index`` is "have" or "be" before a participle ("have lived", "am
    living"): a verb group of its own, which this fix leaves as it is."""
    if index + 1 >= len(words) or MARKS.search(words[index]):
        return False
    after = core(words[index + 1])
    participle = _is_participle(after) or any(
        PRESENT_PARTICIPLE_TAG in r.tags for r in readings(after) if r.part == VERB
    )
    return bool(set(verb_lemmas(core(words[index]))) & {HAVE, BE}) and participle


def _determiner_after(words: Sequence[str], index: int) -> bool:
    return index + 1 < len(words) and core(words[index + 1]) in DETERMINERS


def _auxiliary_tag(word: str, lemma: str) -> str | None:
    """The present tag of ``word`` as a form of ``lemma`` ("am": plain, "has": third singular),
    which a verb standing for it takes; ``None`` for any other word."""
    return next((tag for tag in PRESENT_TAGS if word in getInflection(lemma, tag)), None)


def _only_a_base_verb(word: str) -> bool:
    """Whether every reading of ``word`` is a verb's base form ("agree"; not "change", a noun
    too, nor "cost", a past too)."""
    found = readings(word)
    return bool(found) and all(r.part == VERB and r.tags <= BASE_TAGS for r in found)


def _noun_after(words: Sequence[str], index: int) -> bool:
    """Whether a noun stands right after word ``index`` with no mark between."""
    if index + 1 >= len(words) or MARKS.search(words[index]):
        return False
    return NOUN in getAllLemmas(core(words[index + 1]))


def _joined(words: Sequence[str], first: int, last: int, form: str) -> str:
    """``form`` standing for words ``first`` to ``last``, with the first one's lead and capital
    and the last one's marks."""
    return spelled(words[first], words[last], form)
