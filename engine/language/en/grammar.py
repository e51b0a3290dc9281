"""Confusion sets: the words a grammar fix may put in place of a word, and nothing else.

A 135M model asked to "fix grammar" by renoising a paragraph rewrites whatever it renoises:
it fixed one error in four ("The guide were" → "was") and changed "manager" to "office". The
errors a proofreader meets are mostly a word in the wrong form of itself: a verb's tense or
person ("we goes", "she explain", "sended"), a homophone ("Their going"), a pronoun's case
("Mary and me has"), a doubled comparative ("more better"). So, as language-model-based
grammatical error correction without annotated data does (Bryant & Briscoe 2018), the
candidates for each word are its own forms, and the model reading the passage chooses among
them (:mod:`engine.passes.proofread`): a fix is only ever a form of the word the user wrote,
or an article before a bare singular noun (:mod:`engine.language.en.articles`).

The forms of verbs, nouns and adjectives are lemminflect's lexicon of English inflections
(:mod:`engine.language.en.forms`; it replaced a typed list of 72 irregular verbs and the
regular -s/-ed rules). Over-regularised learner forms ("goed", "sended", "childs") are
recognised by rule from the library's forms. What no library lists stays as data in
``data/grammar.json``: pronoun case, homophones, "a"/"an", the learner's word pairs ("could
of"), and the words that stand before a noun. A negative contraction offers its verb's other
contracted forms ("She don't" → "doesn't", by the ``contractions`` package's list), and a verb
put in the past after a word that sets its sentence there ("Last summer we travel") is a fix,
not a guess at a tense. Two rules of writing are fixes too: a lone "i" is "I", and a sentence
opens with a capital.

Pure functions over word texts: no tokenizer, no model.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from lemminflect import getAllLemmas

from engine.language.en.apostrophes import dropped
from engine.language.en.articles import article_fixes
from engine.language.en.clause_links import doubled_link
from engine.language.en.cut_safety import may_be_noun
from engine.language.en.data import load_json, pairs, word_set
from engine.language.en.durations import duration_fixes
from engine.language.en.form_places import FormPlace, form_place, refused_at
from engine.language.en.form_risks import (
    agrees_as_asked,
    aspect_changes,
    degree_changes,
    describes,
    may_describe,
    numbers_of,
    only_noun,
)
from engine.language.en.form_rules import (
    bare_form_of,
    negative_forms,
    verb_of,
)
from engine.language.en.forms import (
    PAST,
    VERB_CLASS,
    comparative,
    number_changes,
    other_forms,
    past_changes,
    superlative,
)
from engine.language.en.forms import tense as form_tense
from engine.language.en.homophones import too_for_to
from engine.language.en.meaning import SUBJECT_PRONOUNS
from engine.language.en.pronoun_pairs import pair_fixes
from engine.language.en.punctuation import (
    SENTENCE_ENDS,
    capitalised,
    comma_fixes,
    final_stop,
    starts_sentence,
)
from engine.language.en.question_order import question_order_fixes
from engine.language.en.rewordings import Rewording, lead, rewordings, spelled
from engine.language.en.sentence_time import (
    FUTURE_AUXILIARY,
    FUTURE_WORDS,
    TRAILING_MARKS,
    plain_lower,
)
from engine.language.en.spelling import proper_names as english_proper_names
from engine.language.en.varieties import in_variety, variety_of
from engine.language.en.verb_groups import verb_group_fixes, verb_group_rules
from engine.language.en.verb_patterns import verb_pattern_fixes

# Closed classes no inflection library covers (any member may stand for any other of its
# set) and a learner's word pairs ("could of" is "could have"): data in ``data/grammar.json``.
CLOSED_SETS: tuple[frozenset[str], ...] = tuple(
    frozenset(words) for words in load_json("grammar.json")["closed_sets"]
)
GRAMMAR_PHRASES = pairs("grammar.json", "learner_phrases")
# "more"/"most" before a comparative or superlative: the doubled degree "more better".
DEGREE_WORDS = word_set("grammar.json", "degree_words")
# Words before a noun: a fix that adds or drops its plural changes how many things it says.
DETERMINERS = word_set("grammar.json", "determiners")
# The first person singular pronoun, written with a capital wherever it stands ("i'm" too).
FIRST_PERSON = "i"
PLURAL_S = "s"  # "mondays": a proper word's plural keeps its capital
# Nats a fix must save beyond the margin when it changes what the sentence says, not only
# how: a verb's tense ("who won" → "who wins"), a noun's number ("the buttons" → "the button").
# An agreement fix ("the buttons is" → "are") is preferred to either.
TENSE_RISK = 3.0
NUMBER_RISK = 3.0
# A tense or a number the sentence's own words ask for ("Last summer we travel", "many
# company") is what the sentence says, not a guess: it pays no risk, only the margin. A
# tolerance (-2.0: such a fix made where it reads up to a nat worse) was measured on JFLEG's
# tuning half and lost (44.86 against 44.91: "those energies are", "opportunities to think").
ASKED_RISK = 0.0
# Where such a word sets the past and no verb of its sentence is in the past yet ("Last summer
# we travel to Spain and stay"), the writer forgot the tense, not chose it: the past is a rule
# there, made unless it reads far worse, as agreement with a pronoun is (AGREEMENT_RISK). The
# embedded model read "we travel" after "Last summer" as likelier than "we traveled" (a dev
# case). Where another verb is already past ("Yesterday I learned that water boils"), the
# writer set the time and the rest may be their choice: ASKED_RISK, the reading decides.
PAST_RULE_RISK = -3.0
# A verb given the form its subject pronoun asks for ("he walk" → "walks", "they walks" →
# "walk") is a rule of grammar, not a guess: made unless it reads this much worse than the
# margin allows (a tolerance, as a contraction has for casual). The embedded model read "he
# walk his dog" as 1.5 nats likelier than "he walks his dog" (a dev probe), so agreement with
# a pronoun needs a veto, not a vote; a reading 2 nats worse (margin plus this) still vetoes.
AGREEMENT_RISK = -3.0
# A verb's -ing form for another of its forms ("to use" → "using") and an adjective's degree
# ("young" → "younger") are the writer's choice as often as an error
# (engine.language.en.form_risks): the same risk as a tense.
ASPECT_RISK = 3.0
DEGREE_RISK = 3.0
# An added article says which thing, or that it is one ("in the town", "a nurse"): it
# must save this much more, so a bare noun English leaves bare ("at home") stays.
ARTICLE_RISK = 1.5

WORD_LETTERS = re.compile(r"[A-Za-z]+(?:'[A-Za-z]+)?")
EMPHASIS_MARKS = "*_~"  # Markdown's, around a word that is still the word


@dataclass(frozen=True)
class Fix:
    """A candidate fix, and the nats it must save beyond the margin (see :data:`TENSE_RISK`).
    A ``certain`` fix is a rule of writing (a capital, a comma, a full stop), made unless the
    passage reads far worse (:data:`engine.passes.offers.RULE_TOLERANCE`)."""

    rewording: Rewording
    risk: float = 0.0
    certain: bool = False


def tense(word: str) -> str | None:
    """A lower-case word's tense where all its verb readings agree (lemminflect's tags)."""
    return form_tense(word)


def risk(
    word: str,
    form: str,
    before: str,
    asked: str | None = None,
    in_past: bool = False,
    two_before: str = "",
    past_rule: bool = False,
) -> float:
    """What putting ``form`` for ``word`` (after the word ``before``) changes in meaning.
    ``asked``: the number the words before ask of a noun
    (:func:`~engine.language.en.form_risks.asked_number`); a noun given it is a fix, not a
    guess. ``in_past``: a word that sets the past
    (:data:`~engine.language.en.sentence_time.PAST_WORDS`) stands before it in its sentence, so
    a past form is one too (``past_rule``: and no verb of the sentence is past yet, so the past
    is a rule: :data:`PAST_RULE_RISK`). ``two_before``: the word before ``before``. A
    negative contraction is priced as its verb ("don't": "do")."""
    word, form = verb_of(word), verb_of(form)
    if past_changes(word, form):
        if not (in_past and form_tense(form) == PAST):
            return TENSE_RISK
        return PAST_RULE_RISK if past_rule else ASKED_RISK
    if number_changes(word, form) and in_noun_place(word, before, two_before):
        return ASKED_RISK if asked in numbers_of(form) else NUMBER_RISK
    if aspect_changes(word, form):
        return ASPECT_RISK
    if degree_changes(word, form):
        return DEGREE_RISK
    return 0.0


def in_noun_place(word: str, before: str, two_before: str = "") -> bool:
    """Whether ``word`` stands as a noun: after a determiner or an adjective, after a
    determiner and a word that may describe it ("the spare keys", "the old cars", "the
    **exact** versions": most adjectives are nouns too in lemminflect's lexicon, and "spare"
    a verb; Markdown's emphasis marks aside), or a word read
    only as a noun (a noun that is also a verb may be one agreeing with its subject: "he
    need" → "needs")."""
    if before in DETERMINERS or describes(before) or only_noun(word):
        return True
    return two_before in DETERMINERS and may_describe(before.strip(EMPHASIS_MARKS))


def alternatives(word: str) -> list[str]:
    """Lower-case forms ``word`` (a lower-case word, no marks) may be corrected to; never
    itself. Its closed sets' other members first, then its other inflections, spelt in the
    word's own variety where it has one (:mod:`engine.language.en.varieties`): a word spelt
    right in British English is no error, and its other spelling no fix of it."""
    found: dict[str, None] = {}
    for closed in CLOSED_SETS:
        if word in closed:
            found.update(dict.fromkeys(sorted(closed)))
    found.update(dict.fromkeys(other_forms(word)))
    found.update(dict.fromkeys(negative_forms(word)))
    variety = variety_of(word)
    if variety is not None:  # "travelling": "travelled", never "traveling" or "traveled"
        found = dict.fromkeys(in_variety(form, variety) for form in found)
    found.pop(word, None)
    return list(found)


def fixes(
    words: Sequence[str], opens: bool = True, lead: Sequence[str] = (), closes: bool = False
) -> list[Fix]:
    """Every candidate fix in ``words`` (each with its leading whitespace): each word's other
    forms, a doubled degree, a missing article, "since" before a length of time, what a verb
    takes after it (:mod:`engine.language.en.verb_patterns`), "too" for "to" before a degree
    (:mod:`engine.language.en.homophones`), the learner's word pairs, the
    capitals, the comma after a linking phrase and a paragraph's full stop
    (:mod:`engine.language.en.punctuation`).
    ``opens``: whether the first word starts a sentence (not after a lock inside one:
    "[install guide](...)"). ``lead``: the words before ``words`` (across a lock), read as a
    noun's determiner and modifier. ``closes``: whether the words end their paragraph (a last
    sentence with no end mark is offered its full stop). Capitalised words other than a
    sentence's first (names), words holding digits, and words with inner marks are left as
    they are."""
    found = [Fix(r) for r in rewordings(words, GRAMMAR_PHRASES, keep_last=False)]
    found += [Fix(r, certain=True) for r in (final_stop(words) if closes else [])]
    first_opens = opens
    for index, word in enumerate(words):
        letters = TRAILING_MARKS.sub("", word.strip())
        if not WORD_LETTERS.fullmatch(letters):
            continue
        opens = starts_sentence(words, index, first_opens)
        found += _apostrophe(word, letters, index, opens)
        if letters[0].isupper() and not opens and letters != "I":
            continue
        found += _word_fixes(words, index, letters, (opens, first_opens), lead)
    return found


def _word_fixes(
    words: Sequence[str],
    index: int,
    letters: str,
    opening: tuple[bool, bool],
    lead: Sequence[str],
) -> list[Fix]:
    """The fixes that start at word ``index`` (``letters``: it without marks; ``opening``:
    whether it starts a sentence, and whether the first of ``words`` does), rules and forms,
    in the order :func:`fixes` offers them."""
    opens, first_opens = opening
    found = _capitals(words[index], letters, opens, index)
    found += _degree(words, index)
    found += _future(words, index, letters)
    found += [Fix(r, ARTICLE_RISK) for r in article_fixes(words, index)]
    found += [Fix(r) for r in duration_fixes(words, index)]
    found += [Fix(r) for r in verb_pattern_fixes(words, index)]
    found += [Fix(r) for r in verb_group_fixes(words, index)]
    found += [Fix(r, certain=True) for r in verb_group_rules(words, index)]
    found += [Fix(r, certain=True) for r in pair_fixes(words, index, first_opens)]
    found += [Fix(r, certain=True) for r in doubled_link(words, index)]
    found += [Fix(r, certain=True) for r in question_order_fixes(words, index)]
    found += [Fix(r) for r in too_for_to(words, index)]
    found += [Fix(r, certain=True) for r in comma_fixes(words, index, first_opens)]
    return found + _form_fixes(words, index, letters, opens, lead)


def _form_fixes(
    words: Sequence[str], index: int, letters: str, opens: bool, lead: Sequence[str]
) -> list[Fix]:
    """Word ``index``'s other forms, each with its risk, but none its place refuses
    (:func:`~engine.language.en.form_places.refused_at`). A verb the writer put in the past
    keeps it where another word of its sentence is in the past too ("it kept them out; the
    rain caused floods" never becomes "it keeps"): the sentence says when, and a form out of
    it is no fix, however the reading prefers the present."""
    lower = letters.lower()
    forms = alternatives(lower)
    if not forms:
        return []
    place = form_place(words, index, lower, forms, lead)
    return [
        _form_fix(place, words[index], letters, form, opens, index)
        for form in forms
        if not refused_at(place, lower, form, opens)
    ]


def _form_fix(place: FormPlace, word: str, letters: str, form: str, opens: bool, index: int) -> Fix:
    """``form`` put for ``word``, priced by what it changes (:func:`risk`), or as agreement
    where its subject or its auxiliary asks for it; a rule where one asks for it."""
    lower = letters.lower()
    text = _cased(spelled(word, word, form), form, letters, opens)
    weight = risk(
        lower, form, place.before, place.asked, place.past_asked, place.two_before, place.past_rule
    )
    agrees = agrees_as_asked(verb_of(lower), verb_of(form), place.person)
    if agrees or (place.bare and bare_form_of(form, lower)):
        weight = AGREEMENT_RISK
    return Fix(Rewording(index, index + 1, text), weight, certain=form in place.ruled)


def _cased(text: str, form: str, letters: str, opens: bool) -> str:
    """A form's text with "I" capitalised anywhere and the user's "I" lowered where another
    pronoun takes its place inside a sentence ("Mary and I" → "Mary and me")."""
    if _is_first_person(form):
        return text.replace(FIRST_PERSON, FIRST_PERSON.upper(), 1)
    if letters == FIRST_PERSON.upper() and not opens:
        return text.replace(form[0].upper(), form[0], 1)
    return text


def _apostrophe(word: str, letters: str, index: int, opens: bool) -> list[Fix]:
    """A contraction written without its apostrophe, given it back ("dont" → "don't", "Im" →
    "I'm"): a rule where the letters are no word at all, a choice for the reading where a
    dictionary of what people type lists them ("hes"; :mod:`engine.language.en.apostrophes`)."""
    found = dropped(letters, opens)
    if found is None:
        return []
    text = spelled(word, word, found.contraction)
    return [Fix(Rewording(index, index + 1, text), certain=found.certain)]


def _capitals(word: str, letters: str, opens: bool, index: int) -> list[Fix]:
    """The rules of capitals: a lone "i" (or "i'm") anywhere, a sentence's first word, and a
    proper word written in lower case ("mondays", "english")."""
    if letters[0].isupper() or not (opens or _is_first_person(letters) or is_proper(letters)):
        return []
    return [Fix(Rewording(index, index + 1, capitalised(word)), certain=True)]


def is_proper(letters: str) -> bool:
    """Whether a lower-case word is a weekday, a month, a language or a country (or one's
    plural, "mondays"), always written with a capital: one English has no common word for
    (lemminflect's lexicon of common words knows "march", "may", "turkey" and "china")."""
    names = lower_proper_names()
    singular = letters[:-1] if letters.endswith(PLURAL_S) else letters
    return any(w in names and not getAllLemmas(w) for w in {letters, singular})


@cache
def lower_proper_names() -> frozenset[str]:
    return frozenset(word.lower() for word in english_proper_names())


def _future(words: Sequence[str], index: int, letters: str) -> list[Fix]:
    """ "he sign tomorrow" → "he will sign tomorrow": a bare verb right after a subject
    pronoun, in a sentence a future word ("tomorrow", "next") comes later in, may take the
    future auxiliary (its other forms, "signs" or "signed", are offered as ever)."""
    before = words[index - 1].strip().lower() if index else ""
    if before not in SUBJECT_PRONOUNS or letters.lower() not in getAllLemmas(letters).get(
        VERB_CLASS, ()
    ):
        return []
    for word in words[index + 1 :]:
        if plain_lower(word) in FUTURE_WORDS:
            future = f"{lead(words[index])}{FUTURE_AUXILIARY} {words[index].strip()}"
            return [Fix(Rewording(index, index + 1, future))]
        if word.rstrip().endswith(SENTENCE_ENDS):
            return []
    return []


def _degree(words: Sequence[str], index: int) -> list[Fix]:
    """ "more better" → "better": "more" or "most" before a word already compared; a rule
    where nothing after the comparative is a noun "more" could count (:func:`_predicative`),
    and before a superlative ("most tallest")."""
    if index + 1 >= len(words) or words[index].strip().lower() not in DEGREE_WORDS:
        return []
    compared = TRAILING_MARKS.sub("", words[index + 1].strip())
    if not compared.isalpha() or not comparative(compared.lower()):
        return []
    text = spelled(words[index], words[index + 1], compared.lower())
    # a superlative is never counted: "the most tallest boy" has one comparison too many
    certain = superlative(compared.lower()) or _predicative(words, index + 1)
    return [Fix(Rewording(index, index + 2, text), certain=certain)]


def _predicative(words: Sequence[str], index: int) -> bool:
    """Whether the comparative at word ``index`` stands alone, with no noun after it for
    "more" to count ("is more easier and cheaper", "more stronger than"): then "more" is only
    a second comparison, a rule to drop. Before a noun it may count it ("more older people")."""
    if index + 1 >= len(words) or TRAILING_MARKS.search(words[index].strip()):
        return True
    return not may_be_noun(plain_lower(words[index + 1])) and not describes(
        plain_lower(words[index + 1])
    )


def _is_first_person(letters: str) -> bool:
    lower = letters.lower()
    return lower == FIRST_PERSON or lower.startswith(FIRST_PERSON + "'")


def opens_sentence(before: str) -> bool:
    """Whether text written after ``before`` starts a sentence: nothing before it but space,
    or a sentence's end or a line break last."""
    last = before.rstrip(" \t")
    return not last or last.endswith((*SENTENCE_ENDS, "\n"))
