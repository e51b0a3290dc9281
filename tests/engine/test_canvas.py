"""Canvases: tokenizing a plan, textual assembly, and the invariant check before any proposal."""

from __future__ import annotations

import math

import pytest
import torch

from engine.backends.masked.blocks import choose_masked
from engine.core.canvas import (
    READ_FOLLOWING_TOKENS,
    Kind,
    assemble,
    build_canvas,
    check_proposal,
    encoded_texts,
    free_budget,
    join_flags,
)
from engine.core.config import SamplerSettings
from engine.core.errors import BadRequest, InvariantViolation, ModelLoadError
from engine.core.plan import find_locks, plan_edit
from engine.core.protocol import Edit, EditMode, SegmentText, Span
from engine.core.tokens import TokenTable, charset, special_tokens
from engine.language.en.drops import TIER_CLAUSE
from engine.passes.shorten import (
    ASKED_SHARE,
    SAYS_NOTHING,
    TARGET_SHARE,
    char_targets,
    shorter_budgets,
    shorter_share,
    shortest,
)
from tests.helpers.readers import RecordingReader, shortened_canvas
from tests.helpers.tiny import tiny_tokenizer

DOC = "Intro. Alice met Bob in Paris. Outro."
SETTINGS = SamplerSettings()


@pytest.fixture(scope="module")
def table() -> TokenTable:
    tok = tiny_tokenizer()
    specials = special_tokens(tok, len(tok), filler_candidates=("<fill>",))
    return TokenTable(tok, specials)


def rewrite_plan(phrases: list[str]):
    target = Span(7, 30)
    return plan_edit(Edit(1, DOC, target, find_locks(DOC, target, phrases)))


def test_special_tokens_are_named_not_guessed(table: TokenTable) -> None:
    tok = table.tokenizer
    assert table.specials.mask_id == tok.convert_tokens_to_ids("<mask>")
    assert table.specials.filler_id == tok.convert_tokens_to_ids("<fill>")
    assert table.specials.mask_id in table.specials.banned
    assert table.specials.filler_id not in table.specials.banned


def test_a_tokenizer_without_mask_token_is_refused() -> None:
    tok = tiny_tokenizer(with_mask=False)
    with pytest.raises(ModelLoadError, match="no usable mask token"):
        special_tokens(tok, len(tok), filler_candidates=("<fill>",))


def test_canvas_layout_seeds_free_gaps_and_pads_with_filler(table: TokenTable) -> None:
    plan = rewrite_plan(["Bob"])
    canvas = build_canvas(plan, table, SETTINGS, max_tokens=512)
    first_gap = table.encode("Alice met")  # the space before a lock goes with the lock
    positions = canvas.segment_positions(0)
    # A gap that a lock follows gets exactly its own length: no room to echo the lock.
    assert len(positions) == free_budget(len(first_gap), SETTINGS, before_lock=True)
    assert [canvas.seed_ids[i] for i in positions] == first_gap
    last = canvas.segment_positions(len(plan.segments) - 1)
    assert canvas.kinds[last[0]] is Kind.FREE  # the passage's end keeps room to grow
    assert canvas.seed_ids[last[-1]] == table.specials.filler_id
    locked = canvas.segment_positions(1)
    assert all(canvas.kinds[i] is Kind.LOCKED for i in locked)
    assert table.decode([canvas.seed_ids[i] for i in locked]) == " Bob"


def test_assembling_the_seed_gives_back_the_target_exactly(table: TokenTable) -> None:
    plan = rewrite_plan(["Bob", "Paris"])
    canvas = build_canvas(plan, table, SETTINGS, max_tokens=512)
    segments = assemble(canvas, canvas.seed_ids, table)
    assert check_proposal(plan, segments, DOC, ["<fill>"]) == DOC[7:30]


def test_too_long_a_selection_is_refused_before_any_model_work(table: TokenTable) -> None:
    with pytest.raises(BadRequest, match="too long for this model"):
        build_canvas(rewrite_plan([]), table, SETTINGS, max_tokens=4)


def test_charset_constraint_allows_only_matching_tokens_and_filler(table: TokenTable) -> None:
    digits = charset("digits", "0123456789")
    allowed = table.allowed_ids(digits)
    assert table.specials.filler_id in allowed
    assert all(table.text(i).isdigit() for i in allowed if i != table.specials.filler_id)
    assert table.allowed_ids(digits) is allowed  # cached per constraint


def test_check_refuses_a_changed_lock() -> None:
    plan = rewrite_plan(["Bob"])
    bad = (SegmentText("Alice met ", False), SegmentText("Rob", True), SegmentText(" x", False))
    with pytest.raises(InvariantViolation, match="locked text"):
        check_proposal(plan, bad, DOC, [])


def test_check_refuses_a_leaked_filler() -> None:
    plan = rewrite_plan(["Bob"])
    bad = (SegmentText("A <fill>", False), SegmentText("Bob", True), SegmentText(" x", False))
    with pytest.raises(InvariantViolation, match="special tokens"):
        check_proposal(plan, bad, DOC, ["<fill>"])


def test_check_refuses_a_missing_segment() -> None:
    plan = rewrite_plan(["Bob"])
    with pytest.raises(InvariantViolation, match="segment"):
        check_proposal(plan, (SegmentText("Bob", True),), DOC, [])


TIGHTER_DOC = (
    "The fox really jumps over the lazy dog in Paris, and then it naps for 2 hours at home."
)


def tighter_canvas(table: TokenTable, instruction: str):
    target = Span(0, len(TIGHTER_DOC))
    plan = plan_edit(Edit(1, TIGHTER_DOC, target, (), instruction, EditMode.REWRITE))
    return shortened_canvas(plan, table, SETTINGS, 512)


def test_a_tighter_seed_drops_words_all_over_instead_of_cutting_the_end(table: TokenTable) -> None:
    canvas = tighter_canvas(table, "tighter")
    original = table.encode(TIGHTER_DOC)
    # at its budget, or above it where every further cut would break a sentence
    assert shorter_share(len(original)) <= len(canvas) < len(original)
    kept = [i for i, seeded in zip(canvas.seed_ids, canvas.seeded, strict=True) if seeded]
    assert canvas.seeded == tuple([True] * len(kept) + [False] * (len(canvas) - len(kept)))
    assert set(canvas.seed_ids[len(kept) :]) <= {table.specials.filler_id}
    text = table.decode(kept)
    assert text.endswith(" home.")  # the end survives: the old seed stopped before it
    for word in ("The", "Paris,", "2"):
        assert word in text.split()
    it = iter(TIGHTER_DOC.split())
    assert all(word in it for word in text.split())  # an in-order subsequence of the words


def test_a_tighter_seed_marks_the_word_before_every_gap_it_left(table: TokenTable) -> None:
    canvas = tighter_canvas(table, "tighter")
    original = table.encode(TIGHTER_DOC)
    kept = [t for t, seeded in zip(canvas.seed_ids, canvas.seeded, strict=True) if seeded]
    assert len(canvas.joins) == len(canvas) and any(canvas.joins)
    assert not any(canvas.joins[len(kept) :])  # the filler tail is not a join
    # A join is where the kept tokens stop being consecutive in the original.
    cursor, indices = 0, []
    for token in kept:
        cursor = original.index(token, cursor)
        indices.append(cursor)
        cursor += 1
    for j in range(1, len(indices)):
        if indices[j] != indices[j - 1] + 1:
            assert canvas.joins[j - 1]
    assert join_flags([0, 1, 3, 4, 6]) == [False, True, False, True, False]


def test_joins_are_renoised_before_any_other_seed_position() -> None:
    generated = torch.ones(10, dtype=torch.bool)
    first = torch.zeros(10, dtype=torch.bool)
    first[[2, 7]] = True
    for seed in range(5):
        masked = choose_masked(
            generated, generated, 0.3, torch.Generator().manual_seed(seed), first
        )
        assert int(masked.sum()) == 3 and masked[2] and masked[7]


def test_a_budget_above_the_original_keeps_the_whole_seed(table: TokenTable) -> None:
    canvas = tighter_canvas(table, "formal")
    original = table.encode(TIGHTER_DOC)
    assert canvas.joins == ()
    assert list(canvas.seed_ids[: len(original)]) == original
    assert canvas.seeded == tuple([True] * len(original) + [False] * (len(canvas) - len(original)))


def test_the_space_before_a_lock_is_tokenized_with_the_lock(table: TokenTable) -> None:
    text = "it is on the second floor today"
    start = text.index("second")
    edit = Edit(1, text, Span(0, len(text)), (Span(start, start + len("second floor")),))
    plan = plan_edit(edit)
    canvas = build_canvas(plan, table, SETTINGS, 64)
    locked = [t for t, k in zip(canvas.seed_ids, canvas.kinds, strict=True) if k is Kind.LOCKED]
    assert locked == table.encode(" second floor")  # as the model read such text in training
    free_seed = [
        t
        for t, k, s in zip(canvas.seed_ids, canvas.kinds, canvas.seeded, strict=True)
        if k is Kind.FREE and s
    ][: len(table.encode("it is on the"))]
    assert table.decode(free_seed) == "it is on the"
    # Assembly gives the user's own lock string and the space back to the free text.
    segments = assemble(canvas, canvas.seed_ids, table)
    assert "".join(s.text for s in segments).startswith("it is on the second floor")
    assert check_proposal(plan, segments, text, []).startswith("it is on the second floor")


def test_a_reader_sees_the_text_before_the_passage_and_the_passage(table: TokenTable) -> None:
    target = Span(7, len(TIGHTER_DOC) + 7)
    text = "Intro. " + TIGHTER_DOC
    plan = plan_edit(Edit(1, text, target, (), "tighter", EditMode.REWRITE))
    reader = RecordingReader()
    canvas = shortened_canvas(plan, table, SETTINGS, 512, reader)
    [(context, original)] = reader.shown
    assert table.decode(context) == "Intro. " and original == table.encode(TIGHTER_DOC)
    assert len(canvas) < len(original)
    assert reader.following == [[]]  # nothing after the passage in this document


def test_a_reader_sees_the_lock_after_the_passage(table: TokenTable) -> None:
    text = "We have the ability to be away on Friday afternoon, so the meeting moves. Thanks."
    lock = text.index("Friday afternoon")
    locks = (Span(lock, lock + len("Friday afternoon")),)
    plan = plan_edit(Edit(1, text, Span(0, len(text)), locks, "tighter", EditMode.REWRITE))
    reader = RecordingReader()
    shortened_canvas(plan, table, SETTINGS, 512, reader)
    first = reader.following[0]
    assert " Friday afternoon".startswith(table.decode(first))
    assert 0 < len(first) <= READ_FOLLOWING_TOKENS


def test_a_tighter_seed_says_a_wordy_phrase_in_fewer_words(table: TokenTable) -> None:
    text = "Many of us have the ability to be away on the day we meet."
    plan = plan_edit(Edit(1, text, Span(0, len(text)), (), "tighter", EditMode.REWRITE))
    canvas = shortened_canvas(plan, table, SETTINGS, 512, RecordingReader())
    seed = table.decode([t for t in canvas.seed_ids if t != table.specials.filler_id])
    assert " can be away on the day we meet." in seed and "ability" not in seed


def test_a_run_between_locks_with_nothing_safe_to_cut_keeps_its_words_and_another_cuts(
    table: TokenTable,
) -> None:
    text = "Ada wrote about it in 1843, and then she really went on to write a very long note."
    locks = (Span(0, 3), Span(text.index("1843"), text.index("1843") + 4))
    plan = plan_edit(Edit(1, text, Span(0, len(text)), locks, "tighter", EditMode.REWRITE))
    texts = encoded_texts(plan.segments)
    targets = char_targets(plan, texts, table).chars
    assert targets[1] == len(texts[1].strip())  # " wrote about it in": no cut keeps its sense
    assert targets[3] < len(texts[3].strip())  # the run with hedges cuts for the passage
    canvas = shortened_canvas(plan, table, SETTINGS, 512, RecordingReader())
    lengths = {i: len(table.encode(t)) for i, t in enumerate(texts)}
    assert canvas.segment_of.count(1) == lengths[1]
    assert canvas.segment_of.count(3) < lengths[3]
    # every budget is a floor under its cut, the same share of each run
    assert shorter_budgets(plan, texts, table) == {i: shorter_share(lengths[i]) for i in (1, 3)}


HEDGED = "Basically, we really think that a lot of people are going to like it very much."


def test_a_shorter_target_is_its_share_of_the_passage_or_as_far_as_safe_cuts_go(
    table: TokenTable,
) -> None:
    seen = set()
    for text in (TIGHTER_DOC, HEDGED, "Ada wrote it in Paris."):
        plan = plan_edit(Edit(1, text, Span(0, len(text)), (), "tighter"))
        texts = encoded_texts(plan.segments)
        cuts = char_targets(plan, texts, table)
        [(index, chars)] = cuts.chars.items()
        share, asked = (math.floor(len(text) * s) for s in (TARGET_SHARE, ASKED_SHARE))
        floor = shortest(texts[index], table)
        reachable = floor <= asked
        # out of reach, only the cuts that say nothing are made, as far as they go
        cheap = shortest(texts[index], table, SAYS_NOTHING)
        assert chars == (max(share, floor) if reachable else cheap)
        assert cuts.dearest == (TIER_CLAUSE if reachable else SAYS_NOTHING)
        seen.add(reachable)
    assert seen == {True, False}
    assert cheap == len("Ada wrote it in Paris.")  # nothing in it may go


def test_a_passage_that_keeps_its_length_is_not_read(table: TokenTable) -> None:
    reader = RecordingReader()
    plan = plan_edit(Edit(1, TIGHTER_DOC, Span(0, len(TIGHTER_DOC)), (), "formal"))
    shortened_canvas(plan, table, SETTINGS, 512, reader)
    assert reader.shown == []


def test_a_cancelled_request_stops_pricing_cuts(table: TokenTable) -> None:
    """Pricing a shorter rewrite's cuts reads the model round after round; a cancel between two
    reads stops the reading (the cuts then go in the fixed order, cheaply)."""
    from engine.intent import read_intent
    from engine.passes.base import PassContext
    from engine.passes.shorten import Shorten

    plan = plan_edit(Edit(1, TIGHTER_DOC, Span(0, len(TIGHTER_DOC)), (), "tighter"))

    def reads(allowed: int) -> int:
        reader, asked = RecordingReader(), iter(range(1000))
        cancel = lambda: next(asked) >= allowed  # noqa: E731
        ctx = PassContext(table, SETTINGS, read_intent("tighter"), reader, cancel)
        shorten = Shorten()
        cut = shorten.seed_cut(ctx)
        canvas = build_canvas(shorten.before(plan, ctx), table, SETTINGS, 512, cut)
        length = len(table.encode(TIGHTER_DOC))
        assert shorter_share(length) <= len(canvas) < length
        return reader.forwards

    assert reads(1000) >= 1  # uncancelled, the model prices the cuts
    assert reads(0) == 0  # cancelled before the first read: none
