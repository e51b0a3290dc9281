"""Proofreading a rewrite's seed: each word's other forms, the instruction's register, chosen
by the model reading the passage.

Renoising a paragraph does not make a 135M model follow an instruction. Asked to "fix
grammar" it fixed one error in four and renoised correct words into other ones ("manager" →
"office"); asked for "formal" or "casual", its self-check put every attempt back, so the
paragraph came back as written. What those instructions ask for is mostly a small, known
change of a word or a phrase: another form of a word (:mod:`engine.language.en.grammar`), a phrase
in
the other register (:mod:`engine.language.en.registers`), a plain phrase for a wordy one
(:mod:`engine.language.en.rewordings`). The model cannot write them, but it can tell which reads
better.

So before the canvas is built, :func:`proofread_plan` offers every such change in the free
text as a candidate and reads them all in one batch (:class:`~engine.backends.masked.reader.
PassageReader.read`: the passage once, then each candidate's changed tokens and the
:data:`LOOKAHEAD` after them). A change stays where it lowers the passage's NLL by its margin;
the best changes that do not touch each other are applied, and the passage is read again with
them, since one fix changes what the next should be ("Mary and me has" → "Mary and I has" →
"Mary and I have"). The result is the rewrite's seed: the canvas then renoises it as usual and
the self-check (:mod:`engine.passes.reread`) judges the canvas's changes against it.

A grammar fix must read better by :data:`~engine.passes.offers.GRAMMAR_MARGIN` nats, as
LM-based error correction sets a threshold (Bryant & Briscoe 2018): the model prefers the
common form of a word a little even where the user's was right; one that changes a tense, a
noun's number (unless the words before ask for it: "many company"), a verb's -ing form or an
adjective's degree must save more
(:data:`engine.language.en.grammar.TENSE_RISK`, :mod:`engine.language.en.form_risks`), so
"who won the prize" stays while "Yesterday we goes" becomes "went". A register change only
has to read no worse: the user asked for it. A rule of writing (a capital for a lone "i" or a
sentence's first word, a linking phrase's comma, a paragraph's full stop) is no guess: it is
made unless it reads :data:`~engine.passes.offers.RULE_TOLERANCE` nats worse. Contractions
are what a register asks for: formal writes every one out, casual makes one unless it reads
:data:`~engine.passes.offers.CONTRACTION_TOLERANCE` nats worse; the reading only chooses
among a phrase's contractions (the model reads "don't" as likelier than
"do not" nearly everywhere, so a formal rewrite judged like a swap kept almost every
contraction).

On the quality suite this fixes all 13 errors of the four "fix grammar" paragraphs (the canvas
alone fixed 2, and changed "manager" to "office"), and the rewrites read at 3.50 nats per
token against 3.63 without it (the originals: 3.62), for one to seven more reads per request.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace

from engine.backends.base import Reader
from engine.core.canvas import context_ids
from engine.core.plan import EditPlan, Free, segment_text
from engine.core.protocol import EditMode
from engine.core.tokens import TokenTable
from engine.core.worddiff import split_words
from engine.intent import Intent, read_intent
from engine.language.en.grammar import opens_sentence
from engine.language.en.punctuation import ends_prose_paragraph
from engine.language.en.rewordings import Rewording
from engine.language.en.spelling import Lexicon, Speller
from engine.language.en.varieties import document_variety
from engine.passes.base import Pass, PassContext, Settled, never
from engine.passes.offers import PRUNE_NATS, Offer, offered, style_for
from engine.passes.register_guard import register_kept
from engine.passes.reread import changed_runs, was_before

# Tokens after a change read with it: a wrong form shows its cost in the words after it.
LOOKAHEAD = 4
# Words before a free segment a grammar fix reads (a noun's determiner and modifier, across a
# lock: "the **exact** versions").
LEAD_WORDS = 2
# A later version of a rewrite (avoiding an earlier one's text) takes another form of a
# change's words only if it reads within this many nats of the form chosen: a second reading
# nearly as good, not any word that beats a misspelling ("mounting road" for "mountian road").
VERSION_NATS = 1.0
# Reads of the passage at most: each applies the changes found in the one before.
MAX_ROUNDS = 4
# Characters of the document after the target read with it (a few tokens).
AFTER_CHARS = 32

# Per free segment, per word: the round that changed it, or None.
Rounds = dict[int, list[int | None]]
# Per free segment, per word: whether a spelling candidate put it there (see ``candidates``).
Respelt = dict[int, list[bool]]


class Proofread(Pass):
    """Before the canvas: every free word's other forms and the instruction's phrase table,
    kept where the model reads the passage as better (:func:`proofread_plan`)."""

    name = "proofread"

    def before(self, plan: EditPlan, ctx: PassContext) -> EditPlan:
        if ctx.reader is None:
            return plan
        return proofread_plan(plan, ctx.table, ctx.reader, ctx.cancelled, ctx.intent)

    def after(self, settled: Settled, ctx: PassContext) -> Settled:
        """A request for spelling alone keeps the proofread text: every other change the canvas
        made is put back. The dictionary's candidates, chosen by the model, are what it asked
        for; the canvas renoising the rest changed 5.3 other words per 20 sentences of the
        spelling set's tuning half, and fixed no misspelling the candidates missed."""
        canvas, filler = settled.canvas, ctx.table.specials.filler_id
        if ctx.reader is None or canvas.plan.mode is not EditMode.REWRITE:
            return settled
        settled = register_kept(settled, ctx)
        if ctx.intent.families != ("spelling",) or ctx.intent.asks_free:
            return settled
        ids = list(settled.last.ids)
        for run in changed_runs(canvas, ids, filler):
            for position in run:
                ids[position] = was_before(canvas, position, filler)
        # Not counted as put back: these changes were never what the request asked for.
        return settled if ids == settled.last.ids else settled.with_ids(ids, 0)


@dataclass(frozen=True)
class Change:
    """One candidate: free segment ``segment``'s words ``rewording.first:stop`` replaced, and
    where the passage's tokens differ (``at`` up to ``old_stop``; the new ones up to
    ``new_stop`` in ``tokens``)."""

    segment: int
    rewording: Rewording
    margin: float
    at: int
    old_stop: int
    new_stop: int
    tokens: tuple[int, ...]
    per_token: bool = False  # may also save per token instead of in total (:func:`savings`)
    # A candidate whose first token reads this much worse is not read on (``PRUNE_NATS``);
    # a required one (a contraction) never is, so the best of a phrase's is known, nor is a
    # spelling candidate: a misspelling's first token is often cheap (" en" of "enomosly"),
    # the right word's whole token dearer (" enormously"), and it pays after.
    prune: float = PRUNE_NATS
    corrects: bool = False  # fixes an error (grammar, spelling): the words as written are wrong
    respells: bool = False  # a misspelt word's dictionary candidate


def proofread_plan(
    plan: EditPlan,
    table: TokenTable,
    reader: Reader,
    cancelled: Callable[[], bool] = never,
    intent: Intent | None = None,
) -> EditPlan:
    """``plan`` with its free segments' seeds changed as the instruction's style allows and
    the model reads better; the plan itself when nothing does (or it asks for no style).
    ``cancelled`` is checked before each read: a cancelled request stops proofreading there
    (its caller ends it before the first denoising step)."""
    style = style_for(intent if intent is not None else read_intent(plan.instruction))
    free = [i for i, s in enumerate(plan.segments) if isinstance(s, Free) and s.seed.strip()]
    if style is None or plan.mode is not EditMode.REWRITE or not free:
        return plan
    texts = [segment_text(s) for s in plan.segments]
    rounds: Rounds = {i: [None] * len(split_words(texts[i])[0]) for i in free}
    respelt: Respelt = {i: [False] * len(changed) for i, changed in rounds.items()}
    context, after = context_ids(plan, [], table), plan.after[:AFTER_CHARS]
    variety = document_variety(plan.before + "".join(texts) + plan.after)
    offer = Offer(style, Speller.with_words(plan.known_words, lexicon(table), variety))
    for round_ in range(MAX_ROUNDS):
        if cancelled():
            break
        tokens = table.encode("".join(texts) + after)
        changes = candidates(texts, rounds, round_, offer, table, after, plan.before, respelt)
        saved = savings(changes, tokens, reader, context) if changes else []
        chosen = choose(changes, saved)
        if plan.avoid:
            chosen = not_avoided(texts, Read(changes, saved), chosen, rounds, round_, plan.avoid)
        if not chosen:
            break
        texts = applied(texts, chosen, rounds, round_, respelt)
    segments = tuple(
        replace(s, seed=texts[i]) if isinstance(s, Free) else s for i, s in enumerate(plan.segments)
    )
    return replace(plan, segments=segments)


def candidates(
    texts: Sequence[str],
    rounds: Rounds,
    round_: int,
    offer: Offer,
    table: TokenTable,
    after: str,
    before: str = "",
    respelt: Respelt | None = None,
) -> list[Change]:
    """Every change the style allows in the free segments (the keys of ``rounds``), with where
    its tokens differ. A word already changed is not offered again: it was the best of all its
    forms when it changed, and changing it again could only take it back and forth. But a word
    a spelling candidate put there (``respelt``) was chosen among dictionary words, not among
    its own forms, so it is offered those once ("she often wory" → "worry" → "worries", "did
    not answerred" → "answered" → "answer"): a misspelling is no form
    of any word, so its grammar could not be read before it was spelt. After the
    first round only changes in a sentence the last round changed are read again: the others
    read as they did, among the same words."""
    tokens = table.encode("".join(texts) + after)
    sentence = sentences(texts, rounds)
    again = touched(rounds, sentence, round_ - 1) if round_ else None
    found: list[Change] = []
    for segment, changed_in in rounds.items():
        words, trail = split_words(texts[segment])
        preceding = before + "".join(texts[:segment])
        opens, lead = opens_sentence(preceding), split_words(preceding)[0][-LEAD_WORDS:]
        closes = ends_prose_paragraph(preceding, trail + "".join(texts[segment + 1 :]) + after)
        again_spelt = respelt[segment] if respelt else [False] * len(changed_in)
        for rewording, margin, per_token, prune, corrects, respells in offered(
            words, offer, opens, lead, closes
        ):
            span = range(rewording.first, rewording.stop)
            if any(changed_in[i] is not None and not again_spelt[i] for i in span):
                continue
            if again is not None and not again.intersection(sentence[segment][i] for i in span):
                continue
            edited = list(texts)
            edited[segment] = reworded(words, rewording) + trail
            new = table.encode("".join(edited) + after)
            where = differing(tokens, new)
            if where is not None:
                change = Change(
                    segment,
                    rewording,
                    margin,
                    *where,
                    tuple(new),
                    per_token,
                    prune,
                    corrects,
                    respells,
                )
                found.append(change)
    return found


def choose(changes: Sequence[Change], saved: Sequence[float]) -> list[Change]:
    """The changes that save more than their margin (``saved``: what each saves beyond it),
    the most first, none within another's reach (its tokens and the :data:`LOOKAHEAD` after
    them): each was read without the other."""
    chosen: list[Change] = []
    taken: list[range] = []
    for net, change in sorted(zip(saved, changes, strict=True), key=lambda g: -g[0]):
        reach = range(change.at, change.old_stop + LOOKAHEAD)
        if net <= 0 or any(_overlap(reach, other) for other in taken):
            continue
        chosen.append(change)
        taken.append(reach)
    return chosen


def savings(
    changes: Sequence[Change], tokens: list[int], reader: Reader, context: list[int]
) -> list[float]:
    """Nats each change saves over the tokens it touches and the :data:`LOOKAHEAD` after them,
    less its margin (pruned candidates: minus infinity; one read per prune level, see
    :attr:`Change.prune`). A ``per_token`` change saves the better of that and its saving per
    token (times its tokens)."""
    out = [0.0] * len(changes)
    variants = [(c.at, list(c.tokens[c.at : c.new_stop + LOOKAHEAD])) for c in changes]
    for prune in sorted({c.prune for c in changes}):
        picked = [i for i, c in enumerate(changes) if c.prune == prune]
        base, fresh = reader.read(context, tokens, [variants[i] for i in picked], prune)
        for i, nlls in zip(picked, fresh, strict=True):
            out[i] = _saved(changes[i], base[changes[i].at : changes[i].old_stop + LOOKAHEAD], nlls)
    return out


def _saved(change: Change, was: Sequence[float], nlls: Sequence[float]) -> float:
    saved = sum(was) - sum(nlls)
    if change.per_token and was and nlls:
        per_token = (sum(was) / len(was) - sum(nlls) / len(nlls)) * len(nlls)
        saved = max(saved, per_token)
    return saved - change.margin


def applied(
    texts: Sequence[str],
    chosen: Sequence[Change],
    rounds: Rounds,
    round_: int,
    respelt: Respelt | None = None,
) -> list[str]:
    """``texts`` with the chosen changes made, each segment's from its last word back;
    ``rounds`` follows its segments' words, the new ones marked with ``round_`` (and
    ``respelt``, where given, with whether a spelling candidate put them there)."""
    out = list(texts)
    for segment in {c.segment for c in chosen}:
        words, trail = split_words(out[segment])
        mine = sorted((c for c in chosen if c.segment == segment), key=lambda c: -c.rewording.first)
        for change in mine:
            first, stop = change.rewording.first, change.rewording.stop
            new = split_words(change.rewording.text)[0]
            words[first:stop] = new
            rounds[segment][first:stop] = [round_] * len(new)
            if respelt is not None:
                respelt[segment][first:stop] = [change.respells] * len(new)
        out[segment] = "".join(words) + trail
    return out


@dataclass(frozen=True)
class Read:
    """A round's candidates and what each saves beyond its margin."""

    changes: Sequence[Change]
    saved: Sequence[float]

    def varied(self, change: Change) -> list[Change | None]:
        """What may stand in place of ``change`` in a later version, the best first: another
        form of its words that reads within :data:`VERSION_NATS` of it (the model found two
        readings nearly alike), then, for a change that only restyles, the words as written
        (``None``). A correction never gives way to the error it corrected."""
        net = dict(zip(self.changes, self.saved, strict=True))
        near = [
            other
            for other in self.changes
            if other != change
            and other.segment == change.segment
            and (other.rewording.first, other.rewording.stop)
            == (change.rewording.first, change.rewording.stop)
            and net[other] >= net[change] - VERSION_NATS
        ]
        options: list[Change | None] = [*sorted(near, key=lambda other: -net[other])]
        return options if change.corrects else [*options, None]


def not_avoided(
    texts: Sequence[str],
    read: Read,
    chosen: Sequence[Change],
    rounds: Rounds,
    round_: int,
    avoid: Sequence[str],
) -> list[Change]:
    """``chosen`` varied until the target it makes is none of ``avoid`` (an earlier version's
    text): a version offers another reading, not the same one again. The least saving change
    (``chosen`` runs from the most) is varied first (:meth:`Read.varied`), then the next; when
    none can be, ``chosen`` stands and the version will match an earlier one (and be merged)."""
    kept = list(chosen)

    def avoided(changes: Sequence[Change]) -> bool:
        return "".join(applied(texts, changes, copy_rounds(rounds), round_)) in avoid

    for change in reversed(chosen):
        if not avoided(kept):
            break
        for other in read.varied(change):
            trial = [c for c in kept if c != change] + ([other] if other is not None else [])
            if not avoided(trial):
                kept = trial
                break
    return kept


def copy_rounds(rounds: Rounds) -> Rounds:
    return {segment: list(changed) for segment, changed in rounds.items()}


def reworded(words: Sequence[str], rewording: Rewording) -> str:
    return "".join([*words[: rewording.first], rewording.text, *words[rewording.stop :]])


def differing(old: Sequence[int], new: Sequence[int]) -> tuple[int, int, int] | None:
    """Where ``new`` differs from ``old``: the first differing index, and where each one's
    differing part ends (they share everything after); ``None`` when they are the same."""
    if list(old) == list(new):
        return None
    at = 0
    while at < min(len(old), len(new)) and old[at] == new[at]:
        at += 1
    same = 0
    while same < min(len(old), len(new)) - at and old[-1 - same] == new[-1 - same]:
        same += 1
    return at, len(old) - same, len(new) - same


def sentences(texts: Sequence[str], segments: Iterable[int]) -> dict[int, list[int]]:
    """Per segment of ``segments``, the passage-wide sentence each of its words is in (locked
    text counts: a sentence runs on through a lock)."""
    out: dict[int, list[int]] = {}
    wanted, ends = set(segments), 0
    for index, text in enumerate(texts):
        ids = []
        for word in split_words(text)[0]:
            ids.append(ends)
            ends += word.rstrip().endswith((".", "!", "?"))
        if index in wanted:
            out[index] = ids
    return out


def touched(rounds: Rounds, sentence: dict[int, list[int]], round_: int) -> set[int]:
    """The sentences that had a word changed in ``round_``: a fix changes what the other words
    of its sentence should be ("we went to the [museum] and see" → "saw")."""
    return {
        sentence[segment][i]
        for segment, changed_in in rounds.items()
        for i, r in enumerate(changed_in)
        if r == round_
    }


def _overlap(a: range, b: range) -> bool:
    return a.start < b.stop and b.start < a.stop


def lexicon(table: TokenTable) -> Lexicon:
    """Whether the model's vocabulary holds a lower-case word whole (with its leading space)."""
    seen: dict[str, bool] = {}

    def known(word: str) -> bool:
        if word not in seen:
            seen[word] = len(table.encode(" " + word)) == 1
        return seen[word]

    return known
