"""What a rewording may not change: negation, contrast, questions, tense, numbers, names, verbs.

A rewrite may say the same thing in other words, never another thing. Fluency cannot tell the
two apart (the model reads "so" after a clause as well as "but"), so a few plain signs of
meaning are compared between a passage as it was and as rewritten:

- **negation**: how many negating words there are ("not", "never", "without", any "n't"):
  "can't" becoming "cannot" keeps one, "is not" becoming "is" drops one;
- **contrast**: how many contrastive connectives ("but", "although", "however", ...): one
  swapped for another is the same contrast; one swapped for "so" or "and" is not;
- **numbers**: the numbers said, digits and number words alike ("four" is "4"; "1,200" is
  "1200"), as a multiset ("one" is not among the words: as often a pronoun, "one can", or
  "a", as a number; "one" turned into "two" still adds a number);
- **names**: capitalised words that do not open a sentence (a case fix, "english" to
  "English", is no new name, nor a spelling fix, "Babage" to "Babbage"; a name moved to a
  sentence's start is still there);
- **questions**: how many question marks: a question written as a statement ("can you send
  me the file?" ending in a full stop) asks nothing any more, and a statement turned into a
  question doubts what it said;
- **tense**: a tensed verb put for another verb of another time ("the fix didn't work" as
  "the fix won't work": "did" is past, "will" future). A form of the same verb in another
  tense is a grammar fix's business ("we has" → "we had", "I go" → "I went"), not a sign;
  modals ("can", "could") say no time here ("can you" → "could you" is a register's);
- **persons**: a sentence that speaks of someone by a pronoun must not gain a pronoun of
  another ("fine to me" is not "fine to you"; "he will sign" is not "I will sign", which the
  canvas wrote for "he sign tomorrow" and the fluency check kept; "Mary and me" → "Mary and
  I" keeps the speaker), while one that speaks of nobody so may address its reader ("All
  visitors must sign in" → "You'll sign in"). The speaker alone and with others ("I", "we")
  are two persons here, and so are "he", "she" and "they": each says who does it;
- **closed-class words** (:func:`closed_words_changed`, not one of :func:`meaning_change`'s
  signs: a rewording of a phrase may trade them): a word written otherwise where the rewrite
  had no choice of phrase (a later version's near miss) must keep every pronoun, determiner,
  quantifier and preposition ("have it by" is not "have more by", "the" not "a");
- **a verb**: a sentence with a verb must not become one without (a fragment). Which words
  are verb forms is lemminflect's lexicon of English inflections (no tagger model can be
  downloaded here): a word counts when it is an auxiliary or its only readings are verbs, so
  that "cost" or "plan", nouns as often as verbs, never make a fragment look like a sentence;
  and a verb inside a relative clause set off by commas (", which took four years,") is the
  clause's, not the sentence's.

The word lists are general English in ``data/meaning.json``. Pure functions over strings.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from difflib import SequenceMatcher
from functools import cache, lru_cache
from itertools import islice, pairwise

import contractions
from lemminflect import getAllLemmas

from engine.language.en.data import load_json, word_set
from engine.language.en.forms import VERB_CLASSES, readings, tense
from engine.language.en.registers import STRAIGHT_APOSTROPHES
from engine.language.en.spelling import proper_names

NEGATIONS = word_set("meaning.json", "negations")
NEGATION_SUFFIX: str = load_json("meaning.json")["negation_suffix"]
CONTRASTIVE = word_set("meaning.json", "contrastive")
NUMBER_WORDS: dict[str, str] = load_json("meaning.json")["number_words"]
ALWAYS_CAPITALISED = word_set("meaning.json", "always_capitalised")
SUBJECT_PRONOUNS = word_set("meaning.json", "subject_pronouns")
CLOSED_TIERS = ("determiners", "object_pronouns", "reflexives", "prepositions")
# The person a rewrite may speak to where the sentence named no one by a pronoun.
ADDRESSEE = "second"
PERSONS: dict[str, frozenset[str]] = {
    person: frozenset(pronouns) for person, pronouns in load_json("meaning.json")["persons"].items()
}
# Words that join a row of persons ("my sister and I"): the order within a row is a courtesy
# ("he and I"), not who does what to whom.
LIST_JOINERS = word_set("grammar.json", "list_joiners")
VERB_CONTRACTIONS = tuple(load_json("meaning.json")["verb_contractions"])  # "n't", "'re", ...
# Pronouns, determiners, quantifiers and prepositions: one of them for another says another
# thing ("have it by" is not "have more by", "the plan" not "a plan", "fine to me" not
# "fine for me"), though a rewording of a phrase may trade them ("a lot of" for "many").
CLOSED_CLASS = frozenset().union(
    SUBJECT_PRONOUNS,
    *PERSONS.values(),
    word_set("meaning.json", "closed_class_pronouns"),
    word_set("meaning.json", "quantifiers"),
    *(word_set("word_tiers.json", key) for key in CLOSED_TIERS),
)
# lemminflect's universal parts of speech: a word with only verb readings, or any auxiliary
# reading ("can", "will", nouns too), is a verb form.
VERB_TAGS = frozenset({"VERB", "AUX"})
AUX_TAG = "AUX"
VERB_TAG, NOUN_TAG = "VERB", "NOUN"
# A capitalised word this close to a lost one (difflib's ratio) is the same name spelled right:
# "Babage" and "Babbage" score 0.92, "Tuesday" and "Thursday" 0.8, "Ada" and "Ava" 0.67.
SAME_NAME_SIMILARITY = 0.85

WORD = re.compile(r"\d[\d,.]*\d(?:st|nd|rd|th)?|\d(?:st|nd|rd|th)?|[A-Za-z]+(?:'[A-Za-z]+)*")
# A word opens a sentence when only non-word characters (quotes, list and heading marks,
# spaces) stand between it and the text's start, a sentence's end, a colon or a line break.
OPENS_SENTENCE = re.compile(r"(?:\A|[.!?:\n])[\W\d_]*\Z")
SENTENCE_END = re.compile(r"[.!?]+(?=\s|\Z)|\n+")
QUESTION_MARK = "?"
# The auxiliary of the future ("will"; "won't" and "I'll" are read written out), and the
# modals, which say no time of their own here.
FUTURE_AUXILIARY: str = load_json("grammar.json")["future_auxiliary"]
FUTURE = "future"
BE, GOING_TO = "be", ("going", "to")
MODALS = word_set("word_tiers.json", "modals") - {FUTURE_AUXILIARY}
# A relative clause set off by a comma (", which took four years,") says something of a noun:
# its verb is not the sentence's.
RELATIVES = "|".join(load_json("meaning.json")["relative_pronouns"])
RELATIVE_CLAUSE = re.compile(rf",\s*(?:{RELATIVES})\b[^,.;!?\n]*,?", re.IGNORECASE)


def words(text: str) -> list[str]:
    """The words and numbers of ``text``, as written (curly apostrophes made straight)."""
    return WORD.findall(text.translate(STRAIGHT_APOSTROPHES))


def negations(text: str) -> int:
    """How many negating words ``text`` has."""
    lowered = (w.lower() for w in words(text))
    return sum(1 for w in lowered if w in NEGATIONS or w.endswith(NEGATION_SUFFIX))


def contrasts(text: str) -> int:
    """How many contrastive connectives ``text`` has."""
    return sum(1 for w in words(text) if w.lower() in CONTRASTIVE)


def questions(text: str) -> int:
    """How many questions ``text`` asks: its question marks."""
    return text.count(QUESTION_MARK)


def tensed_verbs(text: str) -> Counter[tuple[str, str]]:
    """(time, verb) for each tensed verb of ``text``, contractions written out by the
    ``contractions`` package: "past", "present" (lemminflect's tags, where every reading of a
    sure verb form agrees) or "future" ("will"); the verb is its first lemma."""
    found: Counter[tuple[str, str]] = Counter()
    written = written_out(text)
    for i, lower in enumerate(written):
        if lower == FUTURE_AUXILIARY or _going_to(written, i):
            found[FUTURE, FUTURE_AUXILIARY] += 1
        elif lower in MODALS or _bare_after_auxiliary(written, i) or not is_verb(lower):
            continue
        elif (time := tense(lower)) is not None:
            found[time, _verb_lemma(lower)] += 1
    return found


def _bare_after_auxiliary(written: Sequence[str], i: int) -> bool:
    """Whether word ``i`` is the bare verb of "will", a modal or "going to", a negation
    between them or not ("will be", "won't go", "going to stay"): its time is theirs, and
    lemminflect's base form would read as a present ("I'm away" → "I'll be away" gained a
    future and lost no present)."""
    back = (written[j] for j in range(i - 1, -1, -1) if written[j] not in NEGATIONS)
    before = tuple(islice(back, 2))[::-1]  # the two words before, read back only that far
    if before and (before[-1] == FUTURE_AUXILIARY or before[-1] in MODALS):
        return True
    return before == GOING_TO


@lru_cache(maxsize=256)
def written_out(text: str) -> tuple[str, ...]:
    """The lower-cased words of ``text`` with its contractions written out by the
    ``contractions`` package ("didn't" → "did", "not"): what the tense signs read, once per
    text (a meaning check reads a sentence before and after, each twice)."""
    fixed = contractions.fix(text.translate(STRAIGHT_APOSTROPHES), slang=False)
    return tuple(w.lower() for w in words(fixed))


def _going_to(written: Sequence[str], i: int) -> bool:
    """Whether word ``i`` is the "be" of "be going to", a future as "will" is ("are going to
    be away" cut to "will be away" says the same time)."""
    return _verb_lemma(written[i]) == BE and tuple(written[i + 1 : i + 3]) == GOING_TO


def _verb_lemma(word: str) -> str:
    lemmas = sorted(r.lemma for r in readings(word) if r.part in VERB_CLASSES)
    return lemmas[0] if lemmas else word


def tense_switched(was: str, now: str, forms_fixed: bool = True) -> bool:
    """Whether ``now`` puts a verb of one time where ``was`` had another verb of another
    ("did" → "will"). Another form of the same verb ("has" → "had", "go" → "went") is a
    grammar fix's where ``forms_fixed``; where none was asked ("formal"), "came" → "come"
    changes when it happened, and is a switch too."""
    was_verbs, now_verbs = tensed_verbs(was), tensed_verbs(now)
    lost, gained = was_verbs - now_verbs, now_verbs - was_verbs
    if any(a != b and verb != other for a, verb in lost for b, other in gained):
        return True
    if forms_fixed or not lost:
        return False
    # "come" is a base form and a participle, no tense of its own: the lost "came" says it
    new_forms = {lemma for lemma, _ in verb_forms(now) - verb_forms(was)}
    return any(verb in new_forms for _, verb in lost)


def verb_forms(text: str) -> Counter[tuple[str, str]]:
    """(lemma, form) for each sure verb form of ``text``, contractions written out."""
    return Counter((_verb_lemma(w), w) for w in written_out(text) if w not in MODALS and is_verb(w))


def numbers(text: str) -> Counter[str]:
    """The numbers ``text`` says, digits and number words in one spelling."""
    found: Counter[str] = Counter()
    for word in words(text):
        if word[0].isdigit():
            found[word.replace(",", "")] += 1
        elif word.lower() in NUMBER_WORDS:
            found[NUMBER_WORDS[word.lower()]] += 1
    return found


def names(text: str) -> set[str]:
    """Capitalised words of ``text`` that do not open a sentence ("I" aside)."""
    text = text.translate(STRAIGHT_APOSTROPHES)
    found = set()
    for match in WORD.finditer(text):
        word = match.group()
        if not word[0].isupper() or word.split("'")[0] in ALWAYS_CAPITALISED:
            continue
        if not OPENS_SENTENCE.search(text[: match.start()]):
            found.add(word)
    return found


@cache
def is_verb(word: str) -> bool:
    """Whether ``word`` is surely a verb form: an auxiliary, a word whose every reading in
    lemminflect's lexicon is a verb's, an inflected verb that is no noun ("opposed", an
    adjective too, but not "reports"), or a contracted verb ("don't", "we're")."""
    word = word.lower()
    if word.endswith(VERB_CONTRACTIONS):
        return True
    readings = getAllLemmas(word)
    if AUX_TAG in readings or (readings and set(readings) <= VERB_TAGS):
        return True
    inflected = VERB_TAG in readings and word not in readings[VERB_TAG]
    return inflected and NOUN_TAG not in readings


def sentences(text: str) -> list[str]:
    """The sentences (and lines) of ``text`` that have words."""
    return [s for s in SENTENCE_END.split(text) if words(s)]


def has_verb(sentence: str) -> bool:
    """Whether ``sentence`` has a verb form outside its relative clauses: one that is surely a
    verb, or one that may be, right after a subject pronoun ("it makes", not "the makes")."""
    found = words(RELATIVE_CLAUSE.sub(" ", sentence))
    if any(is_verb(w) for w in found):
        return True
    after_subject = (b for a, b in pairwise(found) if a.lower() in SUBJECT_PRONOUNS)
    return any(VERB_TAG in getAllLemmas(w.lower()) for w in after_subject)


def verbless(text: str) -> int:
    """How many sentences of ``text`` have no verb."""
    return sum(1 for s in sentences(text) if not has_verb(s))


def names_changed(was: str, now: str) -> bool:
    """Whether a name of one text is missing from the other (in any case, anywhere in it),
    unless it is the same name with its spelling fixed."""
    words_was = {w.lower() for w in words(was)}
    words_now = {w.lower() for w in words(now)}
    lost = {n for n in names(was) if n.lower() not in words_now}
    gained = {n for n in names(now) if n.lower() not in words_was}
    respelled = {(a, b) for a in lost for b in gained if same_name(a, b)}
    return bool(lost - {a for a, _ in respelled} or gained - {b for _, b in respelled})


def same_name(a: str, b: str) -> bool:
    """Whether ``b`` is ``a`` with its spelling fixed (or the other way round)."""
    return SequenceMatcher(None, a.lower(), b.lower()).ratio() >= SAME_NAME_SIMILARITY


def bare_words(text: str) -> list[str]:
    """``text``'s words in lower case, a contracted one by its word ("you're" is "you")."""
    return [w.lower().split("'")[0] for w in words(text)]


def person_counts(text: str) -> Counter[str]:
    """How many pronouns of each person ``text`` holds: a pronoun put for another person's,
    one the sentence already speaks of ("when we talk, they listen" as "we listen"), is a
    person gained as much as a new one is."""
    found = Counter(bare_words(text))
    return Counter({p: sum(n for w, n in found.items() if w in ws) for p, ws in PERSONS.items()})


def person_order(text: str) -> list[str] | None:
    """The persons of ``text``'s pronouns in the order they stand: "I told you" is ``[first
    singular, second]``, "you told me" the reverse. ``None`` where a pronoun stands beside a
    list joiner ("he and I", "and you stir"): a row's order is a courtesy, and a clause joined
    by "and" may lose a word before its pronoun, so the order says nothing of roles there."""
    found = bare_words(text)
    order = []
    for i, word in enumerate(found):
        persons_here = [p for p, pronouns in PERSONS.items() if word in pronouns]
        if persons_here and LIST_JOINERS & {*found[max(i - 1, 0) : i], *found[i + 1 : i + 2]}:
            return None
        order += persons_here
    return order


def swapped_roles(was: str, now: str) -> bool:
    """Whether ``now`` holds ``was``'s pronouns' persons in another order (neither with a row
    of persons, :func:`person_order`)."""
    before, after = person_order(was), person_order(now)
    return before is not None and after is not None and before != after


def closed_words(text: str) -> Counter[str]:
    """The pronouns, determiners, quantifiers and prepositions of ``text``, lower-cased, a
    contracted one by its word ("it's" is "it")."""
    found = bare_words(text)
    return Counter(w for w in found if w in CLOSED_CLASS)


def closed_words_changed(was: str, now: str) -> bool:
    """Whether ``now`` has other pronouns, determiners, quantifiers or prepositions than
    ``was`` (one more, one fewer or one for another). Too strict for a rewording of a phrase;
    right for one word written otherwise, which has no other word of these that means it."""
    return closed_words(was) != closed_words(now)


def meaning_change(was: str, now: str, forms_fixed: bool = True) -> str | None:
    """Which sign of meaning rewording ``was`` as ``now`` changed, or ``None``: "negation",
    "contrast", "question" (a question mark gained or lost), "tense" (a verb of another time
    for another verb), "number", "name", "person" (in a sentence that speaks of someone by a
    pronoun, a pronoun of someone else: "fine to me" → "fine to you", "he" → "I", "they" →
    a "we" the sentence already had; in one that speaks of no one so, any pronoun but the
    reader's "you": "gave everyone" → "gave us"; or its persons in another order, each in
    the other's role: "I told you" → "you told me") or "verb"
    (a sentence left without one). ``forms_fixed``: whether a grammar fix was asked for,
    which may put another form of a verb in another time (:func:`tense_switched`)."""
    if negations(was) != negations(now):
        return "negation"
    if contrasts(was) != contrasts(now):
        return "contrast"
    if questions(was) != questions(now):
        return "question"
    if tense_switched(was, now, forms_fixed):
        return "tense"
    if numbers(was) != numbers(now):
        return "number"
    if names_changed(was, now):
        return "name"
    counted_was, counted_now = person_counts(was), person_counts(now)
    gained = set(counted_now - counted_was)
    if gained and (+counted_was or gained - {ADDRESSEE}):  # +: the persons it names
        # A sentence with no such pronoun may address its reader (casual), but not bring in
        # the writer or someone else: "gave everyone a voucher" is not "gave us a voucher".
        return "person"
    if counted_now == counted_was and swapped_roles(was, now):
        return "person"  # the same persons in other roles: "I told you" as "you told me"
    if verbless(now) > verbless(was):
        return "verb"
    return None


LETTERS = re.compile(r"[A-Za-z]+")
# What may close a sentence after its mark: quotes, brackets, Markdown emphasis ('"Noon."',
# "(see above.)", "**Done.**"). Drafts' list-mark bans read a sentence's end with it too.
SENTENCE_CLOSERS = "\"'\u201d\u2019)]*_"
LONE_I = "i"
SENTENCE_MARKS = (".", "!", "?")


def capitals_added(was: str, now: str) -> bool:
    """Whether ``now`` writes a word of ``was`` with a capital where no sentence opens:
    "Note: the van left" settled as "Note: The van left" is a house style, not a correction,
    and the writer's text keeps its own. "i" as "I" and a proper name ("english" as
    "English", "monday" as "Monday": :func:`engine.language.en.spelling.proper_names`) are
    corrections."""
    old, new = _cased_words(was), _cased_words(now)
    matcher = SequenceMatcher(
        None, [w.lower() for w, _ in old], [w.lower() for w, _ in new], autojunk=False
    )
    for block in matcher.get_matching_blocks():
        for k in range(block.size):
            (a, _), (b, opens) = old[block.a + k], new[block.b + k]
            raised = a[:1].islower() and b[:1].isupper() and not opens
            if raised and a != LONE_I and b not in _proper():
                return True
    return False


def _cased_words(text: str) -> list[tuple[str, bool]]:
    """Each word of letters of ``text``, and whether a sentence or a line opens with it (the
    first word does)."""
    found: list[tuple[str, bool]] = []
    cursor = 0
    for match in LETTERS.finditer(text):
        between = text[cursor : match.start()]
        ended = between.strip().rstrip(SENTENCE_CLOSERS).endswith(SENTENCE_MARKS)
        found.append((match.group(), not found or "\n" in between or ended))
        cursor = match.end()
    return found


@cache
def _proper() -> frozenset[str]:
    return frozenset(proper_names())
