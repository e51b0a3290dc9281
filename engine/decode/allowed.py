"""Which token each canvas position may take: the allowed sets every backend family decodes with.

:func:`allowed_mask` builds, once per request, a boolean ``(positions, vocab)`` mask: a locked
position allows only its own token; free text anything but banned specials and control
characters, less the marks that would break a paragraph into structure or turn a draft into a
table; a slot its constraint's set. :func:`constraint_bias` turns it into the additive logit bias
(Dream's ``(step, x, logits) -> logits`` hook idea: constraints outside the sampler).
"""

from __future__ import annotations

import re

import torch

from engine.core.canvas import Canvas, Kind
from engine.core.plan import Constraint, ExcludingConstraint, Free, Locked, Slot
from engine.core.tokens import TokenTable

# Finite, so a fully banned row can never turn softmax into NaN, yet far beyond any real logit.
BANNED = -1.0e4
# Code fences, table pipes and markup (links, tags, headings, emphasis): the 135M model ended
# rewrites of plain paragraphs with a stray "[" or "[/" that came from its training markup.
STRUCTURE_MARKS = frozenset("`|[]{}<>#*~")
# Digits a rewritten paragraph's free text did not have: the model put list numbers and stray
# figures beside locked numbers ("the 20 second floor", "within 4 30 days", "1 start the app"),
# which changes facts a reader did not ask to change.
DIGITS = frozenset("0123456789")
DRAFT_CONTEXT_CHARS = 2000  # about the 512 tokens of context a draft sees before it
DRAFT_MARKS = frozenset("|{}#")  # what turns a draft into a table, JSON or a heading
# A draft in prose opens no list item within its first this many tokens (a line break, then "1.").
PROSE_OPENING = 2
# A list item's mark at a line's start: a bullet or a number.
ITEM_MARK = r"\s*(?:[-*+\u2022]|\d{1,3}[.)])"
# A line that is a Markdown list item (its mark, then a space).
LIST_ITEM = re.compile(ITEM_MARK + r"\s")
# A list item the user has just opened: its mark and nothing after it (the text before a draft
# is read with its trailing spaces trimmed, so "- " and "2. " read "-" and "2.").
OPEN_ITEM = re.compile(ITEM_MARK)
# A blank line (only spaces between two newlines) ends a paragraph; a single newline wraps it.
PARAGRAPH_BREAK = re.compile(r"\n[ \t]*\n")
PARAGRAPH_END = re.compile(r"\n[ \t]*\n\s*$")  # the text before ends with a blank line
SENTENCE_ENDS = (".", "!", "?")


def allowed_mask(canvas: Canvas, table: TokenTable, vocab_size: int) -> torch.Tensor:
    """Boolean ``(len(canvas), vocab)``: which tokens each position may take.

    Locked positions allow only their own token; free positions everything but the banned
    specials and control characters (the filler stays allowed so a segment can end early);
    slots their constraint's set, without the filler in their first ``min_tokens`` positions.
    """
    mask = base_mask(len(canvas), table, vocab_size)
    for position, kind in enumerate(canvas.kinds):
        if kind is Kind.LOCKED:
            mask[position] = False
            mask[position, canvas.seed_ids[position]] = True
    for index, segment in enumerate(canvas.plan.segments):
        positions = list(canvas.segment_positions(index)) if not isinstance(segment, Locked) else []
        if isinstance(segment, Slot):
            mask[positions] = allowed_row(table, segment.constraint, vocab_size)
            for position in positions[: segment.min_tokens]:
                mask[position, table.specials.filler_id] = False  # never shorter than this
        elif isinstance(segment, Free):
            marks = free_constraint(segment, canvas.plan.before, canvas.plan.after)
            if marks is not None:
                mask[positions] &= allowed_row(table, marks, vocab_size)
            if segment.vary:
                ban_seed_tokens(mask, canvas, positions, table)
    if opens_without_space(canvas):
        mask[0, table.starting_with_whitespace()] = False
    if opens_prose(canvas):  # its first line, which may start after a line break token
        mask[:PROSE_OPENING, table.list_openers()] = False
        if opens_sentence(canvas):
            open_with_word(mask, table)
    elif fills_open_item(canvas):  # the item's own text: no second mark before it
        mask[0, table.list_openers()] = False
    return mask


def opens_sentence(canvas: Canvas) -> bool:
    """Whether a draft starts the document, a paragraph (after a blank line) or a sentence
    (after its end mark): not after a colon ("Ingredients: 2 eggs") nor on the next line of
    a block such as a table's ("| 2 | …")."""
    before = canvas.plan.before.rstrip(" \t")
    if not before.strip() or PARAGRAPH_END.search(before):
        return True
    return before.endswith(SENTENCE_ENDS)


def open_with_word(mask: torch.Tensor, table: TokenTable) -> None:
    """A prose draft that starts the document, a paragraph or a sentence
    (:func:`opens_sentence`) opens with a word: its first position takes only a token that
    starts one (what else it bans stays banned).

    With only a list item's mark banned there, the adapter's list habit moved into the
    number: all eight prompted drafts of the dev split opened with one ("2015: The island
    …", "2 cups of coffee", "100% of the time"), and with digits banned too, into an em
    space, an emoji or a stray symbol. The style guides spell out a number that opens a
    sentence anyway. The first position is the draft's first token: the filler, which
    writes nothing, is no word either.
    """
    allowed = torch.zeros(mask.shape[1], dtype=torch.bool)
    allowed[[i for i in table.word_openers() if i < mask.shape[1]]] = True
    mask[0] &= allowed


def ban_seed_tokens(
    mask: torch.Tensor, canvas: Canvas, positions: list[int], table: TokenTable
) -> None:
    """A varied segment's seeded positions may not hold their own seed token (a seed token
    its position may not hold is renoised whatever the strength: the model writes its next
    choice there), nor nothing: not the filler and no token of spaces alone. A varied word
    is another word: one dropped between two locked stretches left their spaces side by side
    ("slow and  sometimes"), and a dropped first word a space opening the paragraph."""
    blank = [i for i in table.starting_with(" ") if table.is_blank(i) and i < mask.shape[1]]
    for position in positions:
        if canvas.seeded[position]:
            mask[position, canvas.seed_ids[position]] = False
            mask[position, [table.specials.filler_id, *blank]] = False


def opens_prose(canvas: Canvas) -> bool:
    """Whether a draft's first position may not open a list item: the draft writes prose,
    because the line it continues, or the paragraph it starts after, is not a list item.

    Drafts asked for "what we did the next morning" after a paragraph came back as "1. The old
    town is…": the adapter's training data is full of lists. Inside a list, a new item is
    what the user wants, so there it may open one.
    """
    line = last_line(canvas)
    return is_draft(canvas) and not (LIST_ITEM.match(line) or OPEN_ITEM.fullmatch(line))


def fills_open_item(canvas: Canvas) -> bool:
    """Whether a draft writes the text of a list item the user has just opened ("- ", "2.").
    It is a list's draft: a later line may open the next item (a numbered list drafted after
    "2." had its items run on in one line, "… to the pot. 3. Pour …", while it was held as
    prose)."""
    return is_draft(canvas) and bool(OPEN_ITEM.fullmatch(last_line(canvas)))


def is_draft(canvas: Canvas) -> bool:
    """Whether the canvas writes new text: one free segment with no seed."""
    segments = canvas.plan.segments
    if not len(canvas) or len(segments) != 1 or not isinstance(segments[0], Free):
        return False
    return not segments[0].seed


def last_line(canvas: Canvas) -> str:
    """The last line of the text before the canvas that holds anything, its trailing spaces
    trimmed ("" when there is none)."""
    lines = canvas.plan.before.rstrip().splitlines()
    return lines[-1] if lines else ""


def base_mask(positions: int, table: TokenTable, vocab_size: int) -> torch.Tensor:
    """Every position's mask before its segment's rules: no banned special, no control
    character, nothing past the tokenizer's own vocabulary (padding rows decode to nothing)."""
    mask = torch.ones(positions, vocab_size, dtype=torch.bool)
    for ids in (table.specials.banned, table.control_ids()):
        banned = torch.tensor(sorted(i for i in ids if i < vocab_size), dtype=torch.long)
        if banned.numel():
            mask[:, banned] = False
    mask[:, len(table.tokenizer) :] = False
    return mask


def free_constraint(segment: Free, before: str, after: str) -> ExcludingConstraint | None:
    """What a free segment may not use: a one-paragraph rewrite's structure marks, or a draft's
    markup the text around it lacks; ``None`` for a passage of several paragraphs."""
    if segment.seed and not PARAGRAPH_BREAK.search(segment.seed):
        return paragraph_constraint(segment.seed)
    if not segment.seed:
        return draft_constraint(before, after)
    return None


def opens_without_space(canvas: Canvas) -> bool:
    """Whether the canvas's first position may not start with whitespace: it is free text, and
    the text it replaces started without one (a rewrite), or the text before it ends in
    whitespace or is empty (a draft). Rewrites of a paragraph came back as " We can't take
    your order", a space after the blank line that a user would have to find and delete."""
    segments = canvas.plan.segments
    if not len(canvas) or not segments or not isinstance(segments[0], Free):
        return False
    if segments[0].seed:
        return not segments[0].seed[0].isspace()
    before = canvas.plan.before
    return not before or before[-1].isspace()


def draft_constraint(before: str, after: str) -> ExcludingConstraint:
    """What a draft may not use: markup the text around it does not use.

    Drafts after plain prose turned into Markdown tables, headings and JSON (the adapter's
    training data holds all three): a draft gets no pipe, brace or hash unless the document's
    text in the model's window already has one. Backticks, brackets and angle brackets stay:
    prose about code quotes ``def`` and ``<a>`` (banning them cost three cloze answers).
    """
    around = before[-DRAFT_CONTEXT_CHARS:] + after[:DRAFT_CONTEXT_CHARS]
    return ExcludingConstraint("draft", DRAFT_MARKS - set(around))


def paragraph_constraint(seed: str) -> ExcludingConstraint:
    """What a rewritten single paragraph may not use: whatever would break it into structure.

    A paragraph rewritten at a 135M model's scale came back as headings, code fences and table
    pipes; a paragraph that had no line break gets none (the constraint's control-character rule
    bans newlines), nor a backtick, pipe, bracket, brace, angle bracket, hash, asterisk or tilde
    unless it already had one, nor a digit its free text did not hold (numbers a user keeps
    exact are usually locked, and a lock is not part of ``seed``). A hard-wrapped paragraph
    (line breaks, no blank line) is still one paragraph: it keeps newlines but gets the same
    marks banned (its rewrite in the README's screenshot opened a "## Design" heading).
    """
    marks = (STRUCTURE_MARKS | DIGITS) - set(seed)
    return ExcludingConstraint("paragraph", frozenset(marks), breaks="\n" in seed)


def allowed_row(table: TokenTable, constraint: Constraint, vocab_size: int) -> torch.Tensor:
    """One vocabulary row of ``constraint``'s allowed set (cached per tokenizer by the table)."""
    allowed = table.allowed_ids(constraint)
    mask = torch.zeros(vocab_size, dtype=torch.bool)
    mask[sorted(i for i in allowed if i < vocab_size)] = True
    return mask


def constraint_bias(mask: torch.Tensor, dtype: torch.dtype = torch.float32) -> torch.Tensor:
    """Additive logit bias from an allowed mask: 0 where allowed, ``BANNED`` elsewhere."""
    return torch.where(mask, 0.0, BANNED).to(dtype)
