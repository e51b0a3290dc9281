"""Confusion sets: the words a grammar fix may put in place of a word, and nothing else.

A 135M model asked to "fix grammar" by renoising a paragraph rewrites whatever it renoises:
it fixed one error in four ("The guide were" → "was") and changed "manager" to "office". The
errors a proofreader meets are mostly a word in the wrong form of itself: a verb's tense or
person ("we goes", "she explain", "sended"), a homophone ("Their going"), a pronoun's case
("Mary and me has"), a doubled comparative ("more better"). So, as language-model-based
grammatical error correction without annotated data does (Bryant & Briscoe 2018), the
candidates for each word are its own forms, and the model reading the passage chooses among
them (:mod:`engine.proofread`): a fix is only ever a form of the word the user wrote.

Forms come from three sources: closed classes listed here (be, have, do, pronouns,
homophones), the irregular verbs with their over-regularised misspellings ("sended",
"goed"), and regular inflection (-s, -es, -ed, -d) kept only where the result is a word the
model's vocabulary holds whole, a cheap lexicon that drops "explainned" and keeps "explained".

Pure functions over word texts: no tokenizer, no model.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from engine.rewordings import Rewording, rewordings, spelled

# Whether a lower-case word is one the model knows whole (its vocabulary holds " word").
Lexicon = Callable[[str], bool]

# Closed classes: any member may stand for any other of its set.
CLOSED_SETS: tuple[frozenset[str], ...] = (
    frozenset({"am", "is", "are", "was", "were", "be", "been"}),
    frozenset({"have", "has", "had"}),
    frozenset({"do", "does", "did"}),
    frozenset({"their", "there", "they're"}),
    frozenset({"its", "it's"}),
    frozenset({"your", "you're"}),
    frozenset({"whose", "who's"}),
    frozenset({"then", "than"}),
    frozenset({"a", "an"}),
    frozenset({"i", "me"}),
    frozenset({"he", "him"}),
    frozenset({"she", "her"}),
    frozenset({"we", "us"}),
    frozenset({"they", "them"}),
    frozenset({"this", "these"}),
    frozenset({"that", "those"}),
    frozenset({"much", "many"}),
    frozenset({"less", "fewer"}),
)

# Irregular verbs: base, third person, past, past participle, -ing (participle as past if equal).
IRREGULAR_VERBS = """
go goes went gone going | see sees saw seen seeing | send sends sent sent sending |
make makes made made making | take takes took taken taking | come comes came come coming |
give gives gave given giving | get gets got got getting | know knows knew known knowing |
write writes wrote written writing | buy buys bought bought buying |
bring brings brought brought bringing | think thinks thought thought thinking |
tell tells told told telling | say says said said saying | find finds found found finding |
leave leaves left left leaving | meet meets met met meeting | pay pays paid paid paying |
run runs ran run running | begin begins began begun beginning |
break breaks broke broken breaking | choose chooses chose chosen choosing |
eat eats ate eaten eating | fall falls fell fallen falling | feel feels felt felt feeling |
forget forgets forgot forgotten forgetting | hear hears heard heard hearing |
hold holds held held holding | keep keeps kept kept keeping | lose loses lost lost losing |
sit sits sat sat sitting | speak speaks spoke spoken speaking |
spend spends spent spent spending | stand stands stood stood standing |
teach teaches taught taught teaching | understand understands understood understood
understanding | win wins won won winning | wear wears wore worn wearing |
drive drives drove driven driving | fly flies flew flown flying | grow grows grew grown growing |
sleep sleeps slept slept sleeping | sell sells sold sold selling | build builds built built
building | catch catches caught caught catching | mean means meant meant meaning |
ride rides rode ridden riding | rise rises rose risen rising | shake shakes shook shaken shaking |
sing sings sang sung singing | swim swims swam swum swimming | throw throws threw thrown throwing |
wake wakes woke woken waking | lead leads led led leading | feed feeds fed fed feeding |
lend lends lent lent lending | draw draws drew drawn drawing | show shows showed shown showing |
become becomes became become becoming | forgive forgives forgave forgiven forgiving |
hide hides hid hidden hiding | bite bites bit bitten biting | steal steals stole stolen stealing |
cost costs cost cost costing | put puts put put putting | cut cuts cut cut cutting |
set sets set set setting | hit hits hit hit hitting | hurt hurts hurt hurt hurting |
let lets let let letting | shut shuts shut shut shutting
"""

# Word pairs a learner writes for one word, and what they mean ("more better" is "better").
GRAMMAR_PHRASES: tuple[tuple[str, str], ...] = (
    ("more better", "better"),
    ("more worse", "worse"),
    ("most best", "best"),
    ("could of", "could have"),
    ("should of", "should have"),
    ("would of", "would have"),
    ("must of", "must have"),
    ("alot", "a lot"),
)

# Words of fewer letters are not inflected by rule ("as" → "a", "us" → "u").
INFLECT_MIN_LETTERS = 3


PAST, PRESENT = "past", "present"
# The closed verbs' tenses ("be" and "been" have none).
CLOSED_TENSES = {
    **dict.fromkeys(("am", "is", "are", "have", "has", "do", "does"), PRESENT),
    **dict.fromkeys(("was", "were", "had", "did"), PAST),
}
# Words before a noun: a fix that adds or drops its "-s" changes how many things it says.
DETERMINERS = frozenset(
    """the a an my our your their his her its this that these those some many few several
    every each all both no any""".split()  # noqa: SIM905
)
# Nats a fix must save beyond the margin when it changes what the sentence says, not only
# how: a verb's tense ("who won" → "who wins"), a noun's number ("the buttons" → "the button").
# An agreement fix ("the buttons is" → "are") is preferred to either.
TENSE_RISK = 3.0
NUMBER_RISK = 3.0


@dataclass(frozen=True)
class Fix:
    """A candidate fix, and the nats it must save beyond the margin (see :data:`TENSE_RISK`)."""

    rewording: Rewording
    risk: float = 0.0


def _verb_forms() -> tuple[dict[str, frozenset[str]], dict[str, str]]:
    """Every irregular form mapped to its verb's forms, with each base's over-regularised past
    ("sended", "goed") mapped to the real past forms only; and each form's tense."""
    forms: dict[str, frozenset[str]] = {}
    tenses = dict(CLOSED_TENSES)
    for entry in filter(str.strip, IRREGULAR_VERBS.split("|")):
        base, third, past, participle, _ = entry.split()
        verb = frozenset(entry.split())
        for form in verb:
            forms[form] = forms.get(form, frozenset()) | verb
        # A participle counts as past: "we seen" is no fix of "we see" the past is not.
        tenses.update({base: PRESENT, third: PRESENT, past: PAST, participle: PAST})
        for wrong in (base + "ed", base + "d", base.rstrip("e") + "ed"):
            if wrong not in verb:
                forms[wrong] = frozenset({past, participle})
    return forms, tenses


VERB_FORMS, TENSES = _verb_forms()


def tense(word: str) -> str | None:
    """A lower-case word's tense where it shows: listed verbs, and "-ed" as past."""
    if word in TENSES:
        return TENSES[word]
    return PAST if word.endswith("ed") else None


def risk(word: str, form: str, before: str) -> float:
    """What putting ``form`` for ``word`` (after the word ``before``) changes in meaning."""
    was, now = tense(word), tense(form)
    if was != now and PAST in (was, now):
        return TENSE_RISK
    if before in DETERMINERS and form.rstrip("es") == word.rstrip("es") and form != word:
        return NUMBER_RISK
    return 0.0


def alternatives(word: str, known: Lexicon) -> list[str]:
    """Lower-case forms ``word`` (a lower-case word, no marks) may be corrected to; never
    itself. Closed sets and irregular verbs first, then regular inflections the lexicon knows."""
    found: dict[str, None] = {}
    for closed in CLOSED_SETS:
        if word in closed:
            found.update(dict.fromkeys(sorted(closed)))
    found.update(dict.fromkeys(sorted(VERB_FORMS.get(word, ()))))
    if word not in found and len(word) >= INFLECT_MIN_LETTERS and word.isalpha():
        found.update(dict.fromkeys(w for w in regular_forms(word) if known(w)))
    found.pop(word, None)
    return list(found)


def regular_forms(word: str) -> list[str]:
    """The regular inflections of ``word`` and the stems it may be an inflection of."""
    if word.endswith("ies"):
        stem = word[:-3] + "y"
        return [stem, word[:-3] + "ied"]
    if word.endswith("ied"):
        stem = word[:-3] + "y"
        return [stem, word[:-3] + "ies"]
    if word.endswith("ed"):
        return [word[:-2], word[:-1], word[:-2] + "s", word[:-1] + "s"]
    if word.endswith("ss"):
        return [word + "es", word + "ed"]
    if word.endswith(("ches", "shes", "sses", "xes")):
        return [word[:-2], word[:-2] + "ed"]
    if word.endswith("s"):
        return [word[:-1], word[:-1] + "d", word[:-1] + "ed"]
    if word.endswith("y") and len(word) > 3 and word[-2] not in "aeiou":
        return [word[:-1] + "ies", word[:-1] + "ied"]
    if word.endswith(("ch", "sh", "x")):
        return [word + "es", word + "ed"]
    if word.endswith("e"):
        return [word + "s", word + "d"]
    return [word + "s", word + "ed"]


def fixes(words: Sequence[str], known: Lexicon) -> list[Fix]:
    """Every candidate fix in ``words`` (each with its leading whitespace): each word's other
    forms, and the learner's word pairs. Capitalised words other than a sentence's first
    (names), words holding digits, and words with inner marks are left as they are."""
    found = [Fix(r) for r in rewordings(words, GRAMMAR_PHRASES, keep_last=False)]
    for index, word in enumerate(words):
        letters = re.sub(r"[.,;:!?\"()]+$", "", word.strip())
        if not re.fullmatch(r"[A-Za-z]+(?:'[A-Za-z]+)?", letters):
            continue
        opens = _opens_sentence(words, index)
        if letters[0].isupper() and not opens and letters != "I":
            continue
        before = words[index - 1].strip().lower() if index else ""
        lower = letters.lower()
        for form in alternatives(lower, known):
            text = spelled(word, word, form)
            if form == "i":  # "I" is capitalised anywhere, its other forms only where they open
                text = text.replace("i", "I", 1)
            elif letters == "I" and not opens:
                text = text.replace(form[0].upper(), form[0], 1)
            found.append(Fix(Rewording(index, index + 1, text), risk(lower, form, before)))
    return found


def _opens_sentence(words: Sequence[str], index: int) -> bool:
    """Whether the word at ``index`` starts a sentence (the passage's first, or after . ! ?)."""
    return index == 0 or words[index - 1].rstrip().endswith((".", "!", "?"))
