"""Days a document writes that are no day of what it is about: a deadline, an old day.

A document about an event often writes other days beside the event's own: "Hotel rooms must be
booked before 9 November", "Please send your slides by 10 March", "The fair was moved from 4
July to 18 July". Read as the event's first and last day (:func:`engine.structured.
event_days.document_ends`, which :func:`engine.structured.json_rules.period_ends` writes into a
start and an end), they put the conference's start on the hotel's deadline, or the moved fair
on both its old and its new day. So, for the span of the event only, three kinds of day are
blanked before the document is read:

- **a deadline**: a day written right after a word that sets a deadline (``deadline_words`` in
  ``period_words.json``: "before", "by", "later than"), with at most a weekday between;
- **an old day**: in a sentence with a verb of moving a date (``move_verbs``: "moved",
  "postponed", "rescheduled": the past and the participle, from lemminflect), what stands
  between "from" and "to" after it, so the new day is read alone;
- **an earlier edition**: the days of a clause told in the past ("Last year the fair ran from
  3 to 5 May 2026") that lie :data:`EDITION_GAP_DAYS` or more before every day a clause in the
  present or future writes ("This year it runs from 2 to 4 May 2027").

Other readers (a deadline field's own day, the document's era) read the document as it is. A
document whose only days these are keeps them (a day is better than none). Pure functions over
text.
"""

from __future__ import annotations

import re
from functools import cache, lru_cache

from lemminflect import getAllInflections

from engine.language.en.forms import verb_tags
from engine.structured.datelines import sentences_at
from engine.structured.periods import listed, masked, phrase_spans

# What may stand between a deadline word and its day: "by Friday 10 March", "before the 9th".
DEADLINE_LEAD = re.compile(r"\s+(?:the\s+|[A-Z][a-z]+day,?\s+)?")
MOVED_FROM = re.compile(r"\bfrom\b.*?\bto\b", re.IGNORECASE)
# Only a past or a participle moves a date ("was postponed"); "delays" is as often a noun.
MOVED_TAGS = ("VBD", "VBN")
# An earlier edition of a yearly thing lies about a year before this one; what is done in the
# weeks before it (tickets put on sale, a call for papers) is told in the past too, and is
# read as the document writes it.
EDITION_GAP_DAYS = 180
# A clause is told in the past by a verb that can only be a past ("ran", "was", "held"), and
# in the present or future by a present of the third person ("runs", "is") or a ``now_words``
# word ("will", "are"); a verb read both ways ("put") tells nothing. Only lower-case words are
# read: "May" is a month.
PAST_TAG, PARTICIPLE_TAG, THIRD_PERSON_TAG = "VBD", "VBN", "VBZ"
PAST, NOW = "past", "now"
CLAUSE_END = re.compile(r"[.!?;]+(?=\s|$)|\n+")
LOWER_WORD = re.compile(r"\b[a-z]+\b")


Phrase = tuple[int, int, tuple[int, float, float] | float]  # a day phrase's start, end and days


@lru_cache(maxsize=16)  # the ends of one document are asked for by each of its fields
def event_text(document: str) -> str:
    """``document`` with its deadlines and its moved events' old days blanked (same length);
    ``document`` itself when it has none, or when nothing else is left that names a day."""
    phrases = phrase_spans(document)
    blanked = deadline_spans(document, phrases) + earlier_spans(document, phrases)
    spans = sorted(blanked + old_day_spans(document))
    if not spans:
        return document
    text = masked(document, _merged(spans))
    return text if phrase_spans(text) else document


def deadline_spans(document: str, phrases: list[Phrase]) -> list[tuple[int, int]]:
    """Each deadline word with the day phrase (of ``phrases``) written right after it."""
    starts = {start: end for start, end, _ in phrases}
    found = []
    for word in deadline_words().finditer(document):
        lead = DEADLINE_LEAD.match(document, word.end())
        at = lead.end() if lead else word.end()
        if at in starts:
            found.append((word.start(), starts[at]))
    return found


def old_day_spans(document: str) -> list[tuple[int, int]]:
    """In each sentence with a verb of moving a date, "from" up to "to" after that verb."""
    found = []
    for start, sentence in sentences_at(document):
        verb = move_verbs().search(sentence)
        if verb is None:
            continue
        moved = MOVED_FROM.search(sentence, verb.end())
        if moved is not None:
            found.append((start + moved.start(), start + moved.end()))
    return found


def earlier_spans(document: str, phrases: list[Phrase]) -> list[tuple[int, int]]:
    """The day phrases (of ``phrases``) of each clause told in the past that lie
    :data:`EDITION_GAP_DAYS` or more before every day of the clauses told in the present or
    future."""
    told = [(start, end, clause_tense(document[start:end])) for start, end in clauses(document)]

    def in_clauses(when: str) -> list[tuple[int, int, tuple[float, ...]]]:
        return [(s, e, phrase_days(what)) for s, e, what in phrases
                if any(a <= s < b for a, b, t in told if t == when)]  # fmt: skip

    now = [day for _, _, days in in_clauses(NOW) for day in days]
    if not now:
        return []
    return [(s, e) for s, e, days in in_clauses(PAST) if max(days) <= min(now) - EDITION_GAP_DAYS]


def clauses(document: str) -> list[tuple[int, int]]:
    """Where each sentence, or each part of one between semicolons, starts and ends."""
    spans, at = [], 0
    for end in CLAUSE_END.finditer(document):
        spans.append((at, end.start()))
        at = end.end()
    return [*spans, (at, len(document))]


def clause_tense(clause: str) -> str | None:
    """:data:`PAST`, :data:`NOW` (present or future) or ``None`` (both, or neither)."""
    words = LOWER_WORD.findall(clause)
    tags = [verb_tags(word) for word in words]
    past = any(PAST_TAG in t and t <= {PAST_TAG, PARTICIPLE_TAG} for t in tags)
    now = any(THIRD_PERSON_TAG in t for t in tags) or bool(now_words() & set(words))
    return PAST if past and not now else NOW if now and not past else None


def phrase_days(what: tuple[int, float, float] | float) -> tuple[float, ...]:
    """A phrase's day, or a period's first and last day."""
    return tuple(what[1:]) if isinstance(what, tuple) else (what,)


def _merged(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Sorted spans with the ones that overlap joined (``masked`` blanks each in turn)."""
    joined: list[tuple[int, int]] = []
    for start, end in spans:
        if joined and start <= joined[-1][1]:
            joined[-1] = (joined[-1][0], max(end, joined[-1][1]))
        else:
            joined.append((start, end))
    return joined


@cache
def deadline_words() -> re.Pattern[str]:
    words = sorted(listed("deadline_words"), key=len, reverse=True)
    return re.compile(r"\b(?:" + "|".join(re.escape(w) for w in words) + r")\b", re.IGNORECASE)


@cache
def now_words() -> frozenset[str]:
    return frozenset(listed("now_words"))


@cache
def move_verbs() -> re.Pattern[str]:
    """Every form of each verb of moving a date ("postpone": "postponed", "postpones")."""
    forms = {
        form
        for lemma in listed("move_verbs")
        for tag, inflected in getAllInflections(lemma, upos="VERB").items()
        if tag in MOVED_TAGS
        for form in inflected
    }
    alternatives = "|".join(re.escape(f) for f in sorted(forms, key=len, reverse=True))
    return re.compile(rf"\b(?:{alternatives})\b", re.IGNORECASE)
