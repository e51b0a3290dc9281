"""Sentence openings a person rewrites when tightening: the words before what a sentence says.

Many sentences open with words that only lead into their point: an announcement ("It should
be noted that", "I wanted to let you know that"), a comment ("As we said before,"), an
existential "There are some cooks who prefer", a necessity ("It is vital that you lock the
door"), a passive that names its agent last ("The gate was opened by the guard"). Each
function here finds one such opening by its shape (closed word classes, a few single words
of ``data/cuts.json``, parts of speech and verb forms from lemminflect) and answers
:class:`~engine.language.en.rewordings.Rewording` objects that :mod:`engine.passes.shorten`
offers as swaps, priced by the model and checked by
:func:`engine.language.en.cut_safety.cut_damage`:

- :func:`announcements`: an opening that only announces the clause after its "that", up to
  that "that", the next word capitalised ("Please be aware that rooms vary" → "Rooms vary");
- :func:`existentials`: "There are some cooks who prefer" as "Some cooks prefer";
- :func:`comment_openers`: "As we said before," opening a sentence, dropped;
- :func:`necessity_openers`: "It is vital that you lock it" as "Lock it";
- :func:`passives`: "The gate was opened by the guard." as "The guard opened the gate." (a
  short subject and agent, each opening with a determiner, the verb in the be-form's time).

Pure functions over words, each with its leading whitespace (as
:func:`engine.language.en.drops.word_spans` splits them).
"""

from __future__ import annotations

from collections.abc import Sequence

from lemminflect import getAllLemmas, getInflection

from engine.language.en import meaning
from engine.language.en.cut_clauses import (
    AS,
    COMMA,
    DATA,
    FACT,
    IT,
    MAX_NOUN_PHRASE,
    SUBJECT_RELATIVES,
    THAT,
    TO,
    YOU,
    cores_of,
)
from engine.language.en.cut_phrases import HEDGES, MODALS, opens_sentence
from engine.language.en.cut_safety import (
    ADJECTIVE_TAG,
    BE_FORMS,
    CLOSED_CLASSES,
    DETERMINERS,
    PREPOSITIONS,
    VERB_TAG,
    is_plain,
    may_be_noun,
    may_be_verb,
    readings,
)
from engine.language.en.cut_units import (
    capitalised_like,
    is_base_verb,
    is_plural,
    plain_run,
)
from engine.language.en.data import word_set
from engine.language.en.rewordings import Finder, Rewording, lead

ANNOUNCING = word_set("cuts.json", "announcing")
TELL_READER: dict[str, str] = DATA["tell_reader"]  # "let you know": said to the reader only
COURTESY = word_set("cuts.json", "courtesy")
THIRD_PERSONS = word_set("cuts.json", "third_persons")  # "he reminded us that": who said it
THERE: str = DATA["existential"]
COMMENT_VERBS = word_set("cuts.json", "comment_verbs")
NECESSITY = word_set("cuts.json", "necessity_adjectives")
BY: str = DATA["agent_preposition"]
PAST_BE = word_set("cuts.json", "be_past")
# The agent ends its sentence: after a comma the passive may go on ("checked by the tools,
# then sent"), which the active voice would break.
CLAUSE_ENDS = (".", "!", "?")
PARTICIPLE, PAST = "VBN", "VBD"  # lemminflect's (Penn) tags
SINGULAR_PRESENT, PLURAL_PRESENT = "VBZ", "VBP"
ADVERB_TAG, LY = "ADV", "ly"
OPENER_WORDS = (
    CLOSED_CLASSES
    | word_set("word_tiers.json", "function")
    | MODALS
    | HEDGES
    | COURTESY
    | ANNOUNCING
    | frozenset(TELL_READER.values())
)
# An opener longer than this is no formula but a clause of its own.
MAX_OPENER_WORDS = 9


def _opening_word_ok(word: str, following: str) -> bool:
    """A word an announcing opener may hold: a closed-class word, a hedge, an adjective, a
    courtesy ("please"), an announcing word, or any word before "to" ("writing to")."""
    if word in OPENER_WORDS or word == FACT:
        return word not in THIRD_PERSONS
    announcing = bool(set(getAllLemmas(word).get(VERB_TAG, ())) & ANNOUNCING)  # "noting"
    return announcing or following == TO or ADJECTIVE_TAG in readings(word)


def _announces(cores: Sequence[str]) -> bool:
    """Whether an opener's words announce: an announcing word by any of its lemmas, or "let
    you know" (said to the reader)."""
    found = {lemma for w in cores for lemma in (w, *getAllLemmas(w).get(VERB_TAG, ()))}
    tells = [TELL_READER["verb"], TELL_READER["reader"], TELL_READER["then"]]
    told = any(list(cores[i : i + 3]) == tells for i in range(len(cores)))
    return bool(found & ANNOUNCING) or told


def announcements(words: Sequence[str]) -> list[Rewording]:
    """Every sentence opening that only announces the clause after its "that" (see the module
    docstring), read as that clause with its first word capitalised."""
    cores = cores_of(words)
    found = []
    for first in range(len(words)):
        if not opens_sentence(words, first) or not words[first].strip()[:1].isupper():
            continue
        last = min(len(words) - 2, first + MAX_OPENER_WORDS)
        that = next((j for j in range(first, last + 1) if cores[j] == THAT), None)
        if that is None or that == first or not plain_run(words, first, that + 2):
            continue
        span = cores[first:that]
        nexts = [*span[1:], THAT]
        if not all(_opening_word_ok(w, n) for w, n in zip(span, nexts, strict=True)):
            continue
        if _announces(span) and not words[first].startswith("\n"):
            said = words[that + 1].strip()
            text = lead(words[first]) + said[:1].upper() + said[1:]
            found.append(Rewording(first, that + 2, text))
    return found


def existentials(words: Sequence[str]) -> list[Rewording]:
    """Every sentence opening "There is/are <noun phrase> who/that <verb>", as the noun phrase
    the verb's subject ("There are some cooks who prefer" → "Some cooks prefer")."""
    cores = cores_of(words)
    found = []
    for i in range(len(words) - 4):
        if cores[i] != THERE or not opens_sentence(words, i) or cores[i + 1] not in BE_FORMS:
            continue
        stop = min(len(words) - 1, i + 2 + MAX_NOUN_PHRASE)
        rel = next((j for j in range(i + 3, stop) if cores[j] in SUBJECT_RELATIVES), None)
        if rel is None or not plain_run(words, i, rel + 1) or not may_be_noun(words[rel - 1]):
            continue
        verb = cores[rel + 1]
        if verb in CLOSED_CLASSES or not may_be_verb(verb) or not is_plain(words[rel + 1]):
            continue
        phrase = "".join(words[i + 2 : rel]).strip()
        text = lead(words[i]) + capitalised_like(words[i], phrase)
        found.append(Rewording(i, rel + 1, text))
    return found


def comment_openers(words: Sequence[str]) -> list[Rewording]:
    """Every sentence opening "As we said before," / "As you may know,": a clause
    of "as", a pronoun and a verb of saying or knowing, up to its comma, the next word
    capitalised. "As I was leaving," says when and stays."""
    cores = cores_of(words)
    found = []
    for i in range(len(words) - 3):
        if (
            cores[i] != AS
            or not opens_sentence(words, i)
            or cores[i + 1] not in meaning.SUBJECT_PRONOUNS
        ):
            continue
        end = next((j for j in range(i + 1, len(words) - 1) if not is_plain(words[j])), None)
        if end is None or end - i > MAX_OPENER_WORDS or not words[end].rstrip().endswith(COMMA):
            continue
        verbs = {v for w in cores[i + 2 : end + 1] for v in getAllLemmas(w).get(VERB_TAG, ())}
        aside = "".join(words[i : end + 1])
        if not verbs & COMMENT_VERBS or meaning.names(aside) or meaning.numbers(aside):
            continue
        if is_plain(words[end].rstrip(COMMA)) and is_plain(words[end + 1].rstrip(",.;:!?")):
            said = words[end + 1].strip()
            found.append(Rewording(i, end + 2, lead(words[i]) + said[:1].upper() + said[1:]))
    return found


def necessity_openers(words: Sequence[str]) -> list[Rewording]:
    """Every sentence opening "It is (very) vital that you lock" / "It is essential to water",
    as the instruction it gives ("Lock", "Water")."""
    cores = cores_of(words)
    found = []
    for i in range(len(words) - 4):
        if cores[i] != IT or not opens_sentence(words, i) or cores[i + 1] not in BE_FORMS:
            continue
        at = i + 2
        while at < len(words) and cores[at] in HEDGES:
            at += 1
        if at + 2 >= len(words) or cores[at] not in NECESSITY:
            continue
        if cores[at + 1 : at + 3] == [THAT, YOU]:
            verb = at + 3
        elif cores[at + 1] == TO:
            verb = at + 2
        else:
            continue
        if verb < len(words) - 1 and plain_run(words, i, verb + 1) and is_base_verb(cores[verb]):
            said = capitalised_like(words[i], words[verb].strip())
            found.append(Rewording(i, verb + 1, lead(words[i]) + said))
    return found


def _agent_end(words: Sequence[str], cores: Sequence[str], start: int) -> int | None:
    """Where the agent of "by" starting at ``start`` ends: a short noun phrase that opens with
    a determiner or a name and ends its clause (a mark after its last word); ``None`` else."""
    opens = cores[start] in DETERMINERS or words[start].strip()[:1].isupper()
    stop = min(len(words), start + MAX_NOUN_PHRASE + 1)
    end = next((j for j in range(start, stop) if not is_plain(words[j])), None)
    if not opens or end is None or words[end].strip()[-1:] not in CLAUSE_ENDS:
        return None
    inner = cores[start : end + 1]
    if any(w in SUBJECT_RELATIVES | BE_FORMS or meaning.is_verb(w) for w in inner):
        return None
    named = words[end].strip()[:1].isupper()
    return end if is_plain(words[end].strip()[:-1]) and (may_be_noun(words[end]) or named) else None


def _active_verb(participle: str, be: str, agent: Sequence[str]) -> str | None:
    """The verb whose participle is ``participle``, in the time of ``be`` ("was": "opened";
    "is": "opens" after a singular agent, "open" after a plural one)."""
    lemmas = [
        v
        for v in getAllLemmas(participle).get(VERB_TAG, ())
        if participle in getInflection(v, PARTICIPLE)
    ]
    if not lemmas:
        return None
    head = next((w for i, w in enumerate(agent) if i and w in PREPOSITIONS), None)
    noun = agent[agent.index(head) - 1] if head else agent[-1]
    tag = PAST if be in PAST_BE else (PLURAL_PRESENT if is_plural(noun) else SINGULAR_PRESENT)
    forms = getInflection(lemmas[0], tag)
    return forms[0] if forms else None


def passives(words: Sequence[str]) -> list[Rewording]:
    """Every sentence "<subject> was <participle> by <agent>," with a short subject and agent,
    each opening with a determiner (or the agent with a name), read in the active voice."""
    cores = cores_of(words)
    found = []
    for s in range(len(words) - 4):
        if not opens_sentence(words, s) or cores[s] not in DETERMINERS or "\n" in words[s].strip():
            continue
        stop = min(len(words) - 3, s + MAX_NOUN_PHRASE + 1)
        be = next((j for j in range(s + 1, stop) if cores[j] in BE_FORMS), None)
        if be is None or not plain_run(words, s, be + 3) or not may_be_noun(words[be - 1]):
            continue
        adverb = (
            be + 1 if cores[be + 1].endswith(LY) and ADVERB_TAG in readings(cores[be + 1]) else None
        )
        participle = (adverb or be) + 1
        if participle + 2 >= len(words) or cores[participle + 1] != BY:
            continue
        end = _agent_end(words, cores, participle + 2)
        subject = cores[s:be]
        if end is None or any(meaning.is_verb(w) for w in subject):
            continue
        agent = "".join(words[participle + 2 : end + 1]).strip()[:-1]
        verb = _active_verb(cores[participle], cores[be], cores[participle + 2 : end + 1])
        if verb is None:
            continue
        doer = agent[:1].upper() + agent[1:]
        said = " ".join([doer, *([words[adverb].strip()] if adverb else []), verb])
        thing = "".join(words[s:be]).strip()
        thing = thing[:1].lower() + thing[1:]
        mark = words[end].strip()[-1]
        found.append(Rewording(s, end + 1, f"{lead(words[s])}{said} {thing}{mark}"))
    return found


OPENER_WORDINGS: tuple[Finder, ...] = (
    announcements,
    existentials,
    comment_openers,
    necessity_openers,
    passives,
)
