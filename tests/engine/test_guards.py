"""Prose guards and lock edges: filler only as a tail, no repeated 3-grams, spaces kept."""

from __future__ import annotations

import torch
from hypothesis import given
from hypothesis import strategies as st

from engine.core.canvas import Canvas, Kind, build_canvas, free_budget, keep_lock_edges
from engine.core.config import SamplerSettings
from engine.core.plan import EditPlan, Free, Locked, plan_edit
from engine.core.protocol import Edit, EditMode, Proposal, Span
from engine.decode.allowed import BANNED, allowed_mask
from engine.decode.guards import GUARD_BAN, ProseGuards, committed_grams, repeat_bans
from engine.decode.lock_echo import (
    ECHO_WINDOW,
    distinctive,
    echo_bans,
    glued_word_bans,
    lock_runs,
    merge_bans,
)
from engine.intent import read_intent
from engine.passes.base import PassContext
from engine.passes.shorten import Shorten, shorter_share
from engine.run.edit_run import run_edit
from engine.structured.words import template_words
from tests.helpers.backends import BACKENDS, llama_backend, tiny_table

FILLER = 9


def canvas_of(kinds: list[Kind], segments: list[int]) -> Canvas:
    plan = EditPlan(Span(0, 0), (), "", "", "", EditMode.REWRITE)
    n = len(kinds)
    return Canvas(plan, (0,) * n, tuple(kinds), tuple(segments), (False,) * n)


def test_filler_is_allowed_only_as_a_tail_of_its_segment():
    canvas = canvas_of([Kind.FREE] * 3 + [Kind.LOCKED] + [Kind.FREE] * 2, [0, 0, 0, 1, 2, 2])
    guards = ProseGuards(canvas, FILLER)
    ids = torch.tensor([5, 6, 7, 8, 5, FILLER])
    masked = torch.tensor([True, True, True, False, True, False])
    allowed = guards.filler_tail_allowed(ids, masked).tolist()
    # ends of segments, and position 4 because position 5 already holds committed filler
    assert allowed == [False, False, True, True, True, True]


def test_adjust_bans_filler_away_from_the_tail():
    canvas = canvas_of([Kind.FREE] * 4, [0] * 4)
    guards = ProseGuards(canvas, FILLER)
    positions = torch.tensor([0, 1, 2, 3])
    logits = torch.zeros(4, 12)
    out = guards.adjust(
        positions, logits, torch.zeros(4, dtype=torch.long), torch.ones(4, dtype=torch.bool)
    )
    assert out[:3, FILLER].tolist() == [BANNED] * 3
    assert out[3, FILLER] == 0.0


def test_two_neighbours_chosen_as_the_same_word_keep_only_the_surer():
    canvas = canvas_of([Kind.FREE] * 4, [0] * 4)
    guards = ProseGuards(canvas, FILLER, lambda token: token == 5)
    chosen = torch.tensor([True, True, True, True])
    guess = torch.tensor([5, 5, 7, 7])  # a word twice, then a non-word (a digit) twice
    ranked = torch.tensor([0.4, 0.9, 0.5, 0.5])
    assert guards.veto(chosen, guess, ranked).tolist() == [False, True, True, True]


def wrapped_canvas() -> Canvas:
    """Six free positions of one hard-wrapped paragraph (a line break, no blank line)."""
    plan = EditPlan(Span(0, 0), (Free(seed="one\ntwo"),), "", "", "", EditMode.REWRITE)
    return Canvas(plan, (0,) * 6, (Kind.FREE,) * 6, (0,) * 6, (False,) * 6)


BREAKS = frozenset({10, 11})  # two tokens holding a line break


def test_a_wrapped_paragraph_gets_no_line_break_beside_a_line_break():
    guards = ProseGuards(wrapped_canvas(), FILLER, breaks=BREAKS)
    ids = torch.tensor([5, 10, 6, 7, 8, 6])
    masked = torch.tensor([False, False, True, True, False, True])
    out = guards.adjust(torch.tensor([2, 3, 5]), torch.zeros(3, 12), ids, masked)
    assert out[0, [10, 11]].tolist() == [GUARD_BAN] * 2  # beside the committed break
    assert out[1, [10, 11]].tolist() == [0.0, 0.0] and out[2, [10, 11]].tolist() == [0.0, 0.0]
    # two breaks chosen side by side in one step: only the surer stays
    vetoed = guards.veto_lists([True] * 6, [5, 10, 11, 7, 8, 6], [0.5, 0.9, 0.4, 0.5, 0.5, 0.5])
    assert vetoed == [True, True, False, True, True, True]


def test_a_text_with_blank_lines_may_keep_them():
    plan = EditPlan(Span(0, 0), (Free(seed="one\n\ntwo"),), "", "", "", EditMode.REWRITE)
    canvas = Canvas(plan, (0,) * 4, (Kind.FREE,) * 4, (0,) * 4, (False,) * 4)
    guards = ProseGuards(canvas, FILLER, lambda token: token not in BREAKS, breaks=BREAKS)
    out = guards.adjust(
        torch.tensor([1]), torch.zeros(1, 12), torch.tensor([10, 5, 6, 7]),
        torch.tensor([False, True, False, False]),
    )  # fmt: skip
    assert out[0, [10, 11]].tolist() == [0.0, 0.0]


def test_filler_ranks_below_any_content():
    canvas = canvas_of([Kind.FREE] * 3, [0] * 3)
    guards = ProseGuards(canvas, FILLER)
    confidence = torch.tensor([0.99, 0.01, 0.5])
    ranked = guards.rank(confidence, torch.tensor([FILLER, 4, 5]))
    assert ranked.argmin() == 0 and ranked[1] > ranked[0]


def test_a_committed_trigram_cannot_be_written_again():
    ids = torch.tensor([1, 2, 3, 1, 2, 0])
    masked = torch.tensor([False] * 5 + [True])
    free = torch.ones(6, dtype=torch.bool)
    assert (0, 3) in repeat_bans(torch.tensor([5]), ids, masked, free, FILLER, lambda _t: False)
    # not while a predecessor is still masked
    masked[4] = True
    assert repeat_bans(torch.tensor([5]), ids, masked, free, FILLER, lambda _t: False) == []


def test_a_trigram_is_caught_whichever_place_is_filled_last():
    free = torch.ones(6, dtype=torch.bool)
    ids = torch.tensor([1, 2, 3, 1, 0, 3])
    masked = torch.tensor([False, False, False, False, True, False])
    assert (0, 2) in repeat_bans(torch.tensor([4]), ids, masked, free, FILLER)
    ids = torch.tensor([1, 2, 3, 0, 2, 3])
    masked = torch.tensor([False, False, False, True, False, False])
    assert (0, 1) in repeat_bans(torch.tensor([3]), ids, masked, free, FILLER)


def test_a_pair_may_not_repeat_at_once():
    free = torch.ones(5, dtype=torch.bool)
    ids = torch.tensor([5, 6, 5, 0, 8])  # "second floor second ?" must not become "floor"
    masked = torch.tensor([False, False, False, True, False])
    assert (0, 6) in repeat_bans(torch.tensor([3]), ids, masked, free, FILLER)
    ids = torch.tensor([8, 0, 5, 6, 5])  # "? floor second floor" on the right
    masked = torch.tensor([False, True, False, False, False])
    assert (0, 6) in repeat_bans(torch.tensor([1]), ids, masked, free, FILLER)


def test_a_word_may_not_stand_next_to_itself_but_a_digit_may():
    free = torch.ones(3, dtype=torch.bool)
    ids = torch.tensor([5, 0, 7])
    masked = torch.tensor([False, True, False])
    words = {5}
    bans = repeat_bans(torch.tensor([1]), ids, masked, free, FILLER, words.__contains__)
    assert (0, 5) in bans and (0, 7) not in bans


@given(st.lists(st.integers(0, 4), min_size=3, max_size=30))
def test_repeat_bans_only_name_tokens_that_would_repeat(values):
    ids = torch.tensor([*values, 0])
    n = len(ids)
    masked = torch.zeros(n, dtype=torch.bool)
    masked[-1] = True
    free = torch.ones(n, dtype=torch.bool)
    bans = repeat_bans(torch.tensor([n - 1]), ids, masked, free, 99, lambda _t: False)
    grams = {tuple(values[i : i + 3]) for i in range(len(values) - 2)}
    for _, token in bans:
        assert (values[-2], values[-1], token) in grams


def test_lock_edges_keep_the_original_whitespace():
    segments = [Free(seed="famous machines in "), Locked("1843"), Free(seed=", while she")]
    assert keep_lock_edges(segments, 0, "the machines") == "the machines "
    assert keep_lock_edges(segments, 2, "while she") == " while she"
    assert keep_lock_edges(segments, 2, ", and") == ", and"
    between = [Locked("Ada"), Free(seed=" and "), Locked("Babbage")]
    assert keep_lock_edges(between, 1, "") == " "
    assert keep_lock_edges(between, 1, "met") == " met "


@given(st.text(alphabet="ab ,.\n", max_size=12), st.text(alphabet="ab ,.", max_size=12))
def test_lock_edges_never_glue_a_word_to_a_lock(seed_tail, generated):
    segments = [Free(seed="x " + seed_tail + " "), Locked("LOCK")]
    text = keep_lock_edges(segments, 0, generated)
    if generated.strip():
        assert text.endswith(" ")


def test_tighter_gets_a_shorter_budget_than_the_original():
    settings = SamplerSettings()
    assert shorter_share(40) == 24  # three fifths, a floor (engine.passes.shorten.SHORTER_SHARE)
    for instruction in ("tighter", "Make it shorter, please"):
        plan = plan_edit(Edit(1, "x" * 40, Span(0, 40), (), instruction, EditMode.REWRITE))
        ctx = PassContext(tiny_table(), settings, read_intent(instruction))
        [segment] = Shorten().before(plan, ctx).segments
        assert isinstance(segment, Free) and segment.budget == shorter_share(
            len(tiny_table().encode("x" * 40))
        )
    assert free_budget(40, settings, before_lock=True) == 40  # no room to echo a lock
    assert free_budget(40, settings) >= 42


def test_a_one_paragraph_rewrite_cannot_break_into_structure():
    table = tiny_table()
    plan = EditPlan(Span(0, 9), (Free(seed="one para."),), "", "", "", EditMode.REWRITE)
    canvas = build_canvas(plan, table, SamplerSettings(), 64)
    mask = allowed_mask(canvas, table, len(table.tokenizer))
    for token in range(len(table.tokenizer)):
        text = table.text(token)
        if any(mark in text for mark in "\n`|[]{}<>#*~"):
            assert not mask[0, token], repr(text)


def allowed_in_paragraph(seed: str) -> set[str]:
    """Token texts a one-paragraph rewrite of ``seed`` may write inside it (its second
    position: the first may not open with whitespace the seed did not have)."""
    table = tiny_table()
    plan = EditPlan(Span(0, len(seed)), (Free(seed=seed),), "", "", "", EditMode.REWRITE)
    canvas = build_canvas(plan, table, SamplerSettings(), 64)
    mask = allowed_mask(canvas, table, len(table.tokenizer))
    return {table.text(t) for t in range(len(table.tokenizer)) if mask[1, t]}


def test_a_paragraph_that_has_a_mark_may_keep_it():
    allowed = allowed_in_paragraph("see [1] and #2.")
    assert any("[" in text for text in allowed) and any("#" in text for text in allowed)
    assert not any("{" in text or "`" in text for text in allowed)


def test_a_hard_wrapped_paragraph_keeps_its_line_breaks_but_gets_no_markup():
    allowed = allowed_in_paragraph("one line of the paragraph\nand the next line.")
    assert any("\n" in text for text in allowed)
    assert not any(text.count("\n") > 1 for text in allowed)  # no blank line: one paragraph
    assert not any(mark in text for text in allowed for mark in "`|[]{}<>#*~0123456789")
    # Two paragraphs are not one: their rewrite may hold what Markdown between them would.
    assert any("#" in text for text in allowed_in_paragraph("First one.\n\nSecond one."))


def first_allowed(segments: tuple, before: str, mode: EditMode) -> set[str]:
    """Token texts the canvas's first position may take."""
    table = tiny_table()
    plan = EditPlan(Span(0, 0), segments, before, "", "", mode)
    canvas = build_canvas(plan, table, SamplerSettings(), 64)
    mask = allowed_mask(canvas, table, len(table.tokenizer))
    return {table.text(t) for t in range(len(table.tokenizer)) if mask[0, t]}


def spaced(texts: set[str]) -> bool:
    return any(text[:1].isspace() for text in texts)


def test_a_rewrite_or_draft_opens_with_a_space_only_where_the_text_had_room_for_one():
    rewrite = EditMode.REWRITE
    assert not spaced(first_allowed((Free(seed="Hey there."),), "# Notes\n\n", rewrite))
    assert spaced(first_allowed((Free(seed=" and more."),), "Words", rewrite))
    assert not spaced(first_allowed((Free(),), "", EditMode.DRAFT))  # an empty file
    assert not spaced(first_allowed((Free(),), "A line.\n", EditMode.DRAFT))
    assert spaced(first_allowed((Free(),), "It ends here.", EditMode.DRAFT))
    # a lock at the start is the user's own text: nothing is banned around it
    assert spaced(first_allowed((Locked(" Ada"), Free(seed=" wrote.")), "Hi", rewrite))


def test_a_rewrite_next_to_locks_keeps_their_spaces_with_both_families():
    text = "Intro. Ada wrote notes in 1843, while translating. End."
    start, end = 7, 50
    locks = (Span(7, 10), Span(26, 30))
    for make in BACKENDS.values():
        edit = Edit(1, text, Span(start, end), locks, settings=SamplerSettings(steps=4))
        proposal = next(e for e in run_edit(make(), edit) if isinstance(e, Proposal))
        out = proposal.text
        at = out.index("1843")
        assert out[at - 1].isspace() and not out[at + 4].isalnum()


def test_drafts_are_not_empty():
    backend = llama_backend()
    settings = SamplerSettings(steps=4, draft_tokens=8)
    edit = Edit(1, "Hello.", Span(6, 6), mode=EditMode.DRAFT, settings=settings)
    proposal = next(e for e in run_edit(backend, edit) if isinstance(e, Proposal))
    assert proposal.text.strip()


def test_a_prefix_causal_backend_reads_the_text_before_causally():
    """Cached or not, the prefix rows cannot see the canvas, and both paths agree."""
    from engine.backends.masked.backend import MaskedBackend
    from engine.backends.masked.forward import prefix_causal_mask
    from tests.helpers.tiny import tiny_llama

    mask = prefix_causal_mask(5, 2)[0, 0]
    assert mask[0].tolist() == [True, False, False, False, False]
    assert mask[2].tolist() == [True, True, True, True, True]
    text = "Before the gap, some words. Then more after it."
    edit = Edit(1, text, Span(16, 27), settings=SamplerSettings(steps=3))
    outputs = []
    for cached in (True, False):
        backend = MaskedBackend(
            tiny_llama(), tiny_table(), shifted=True, force_bidirectional=True,
            causal_prefix=True, cache_prefix=cached,
        )  # fmt: skip
        outputs.append(next(e for e in run_edit(backend, edit) if isinstance(e, Proposal)).text)
    assert outputs[0] == outputs[1]


def test_the_adapter_config_says_how_it_attends(tmp_path):
    import json

    import pytest

    from engine.core.errors import ModelLoadError
    from engine.models.adapters import adapter_attention

    (tmp_path / "adapter_config.json").write_text(json.dumps({"attention": "prefix-causal"}))
    assert adapter_attention(tmp_path) == "prefix-causal"
    (tmp_path / "adapter_config.json").write_text(json.dumps({"r": 8}))
    assert adapter_attention(tmp_path) == "bidirectional"
    (tmp_path / "adapter_config.json").write_text("{not json")
    with pytest.raises(ModelLoadError, match="cannot be read"):
        adapter_attention(tmp_path)


def test_a_rewrite_shows_the_model_its_passage_and_a_draft_does_not():
    from engine.core.context import passage_ids
    from engine.core.plan import plan_edit

    table = tiny_table()
    text = "Intro. Ada wrote notes. End."
    rewrite = plan_edit(Edit(1, text, Span(7, 23), (Span(7, 10),)))
    assert table.decode(passage_ids(rewrite, table, SamplerSettings())) == (
        "Passage: Ada wrote notes.\n\n"
    )
    assert passage_ids(rewrite, table, SamplerSettings(show_passage=False)) == []
    draft = plan_edit(Edit(1, text, Span(7, 7), mode=EditMode.DRAFT))
    assert passage_ids(draft, table, SamplerSettings()) == []


def test_strength_keeps_only_original_tokens_never_filler_in_their_place():
    """A draft (no original text) starts fully masked whatever the strength."""
    backend = llama_backend()
    settings = SamplerSettings(steps=4, draft_tokens=12, strength=0.3)
    edit = Edit(1, "Hello.", Span(6, 6), mode=EditMode.DRAFT, settings=settings)
    frames = [e for e in run_edit(backend, edit) if not isinstance(e, Proposal)]
    first_step = frames[1]  # frame 0 is the seed; frame 1 the first forward's draft
    assert first_step.forwards == 1
    proposal = next(e for e in run_edit(backend, edit) if isinstance(e, Proposal))
    assert proposal.text.strip()
    assert proposal.metrics.tokens_generated >= 6  # not half filler from the start


def test_a_slot_gets_the_word_bans_but_not_the_trigram_bans():
    # Positions 0-2 are locked template text, 3-5 a slot: "true true" and a repeated
    # 3-gram of the locked text. The slot may repeat the template's 3-gram, never a word.
    kinds = [Kind.LOCKED] * 3 + [Kind.SLOT] * 3
    ids = [1, 2, 3, 1, 2, 0]
    masked = [False] * 5 + [True]
    free = [False] * 6
    slots = [k is Kind.SLOT for k in kinds]
    bans = repeat_bans([5], ids, masked, free, FILLER, lambda t: t == 2, slots)
    assert (0, 2) in bans  # the word beside itself
    assert (0, 3) not in bans  # the template's own 3-gram may recur in a slot


def test_a_slot_writes_no_space_beside_a_space():
    ids = [7, 4, 0, 4]  # "Done", " ", ?, " "
    masked = [False, False, True, False]
    slots = [True] * 4
    blank = lambda t: t == 4  # noqa: E731
    bans = repeat_bans([2], ids, masked, [False] * 4, FILLER, lambda t: t == 7, slots, blank)
    assert (0, 4) in bans
    free = repeat_bans([2], ids, masked, [True] * 4, FILLER, lambda t: t == 7, None, blank)
    assert (0, 4) not in free  # prose may hold two spaces (after a full stop)


def test_a_banned_token_still_beats_one_outside_the_allowed_set():
    canvas = canvas_of([Kind.SLOT] * 2, [0, 0])
    guards = ProseGuards(canvas, FILLER, lambda token: token == 5)
    ids = torch.tensor([5, 0])
    masked = torch.tensor([False, True])
    bias = torch.full((1, 12), BANNED)
    bias[0, 5] = 0.0  # a narrow slot: only token 5 is allowed here, and 5 stands beside it
    logits = torch.zeros(1, 12) + bias
    logits[0, 7] += 50.0  # a disallowed token the model likes
    out = guards.adjust(
        torch.tensor([1]), logits, ids, masked, ([1], ids.tolist(), masked.tolist())
    )
    assert out[0].argmax() == 5


def test_a_slot_may_not_run_one_token_four_times():
    slots = [True] * 6
    free = [False] * 6
    ids = [7, 0, 0, 0, 9, 9]
    masked = [False, False, False, False, True, False]
    bans = repeat_bans([4], ids, masked, free, FILLER, lambda _t: False, slots)
    assert (0, 0) in bans  # a fourth "0" in a row
    ids = [7, 1, 0, 0, 9, 9]
    assert repeat_bans([4], ids, masked, free, FILLER, lambda _t: False, slots) == []  # "100" + ?


def test_a_paragraph_rewrite_writes_no_digit_its_free_text_did_not_have():
    allowed = allowed_in_paragraph("the 2 of us met")
    digits = {ch for text in allowed for ch in text if ch.isdigit()}
    assert digits == {"2"}


def test_free_text_beside_a_lock_may_not_echo_its_names_and_numbers():
    table = tiny_table()
    text = "ship it by March 3 and then"
    start = text.index("March")
    edit = Edit(1, text, Span(0, len(text)), (Span(start, start + len("March 3")),))
    canvas = build_canvas(plan_edit(edit), table, SamplerSettings(), 64)
    bans = echo_bans(canvas.kinds, canvas.seed_ids, table.text, table.spellings)
    free = [i for i, k in enumerate(canvas.kinds) if k is Kind.FREE]
    locked = [i for i, k in enumerate(canvas.kinds) if k is Kind.LOCKED]
    near = [p for p in free if min(abs(p - q) for q in locked) <= ECHO_WINDOW]
    assert set(bans) == set(near)
    expected = set()
    for q in locked:
        if distinctive(table.text(canvas.seed_ids[q])):
            expected |= table.spellings(canvas.seed_ids[q])
    assert expected and all(set(bans[p]) == expected for p in near)
    assert not any(table.text(t).strip() == "and" for t in expected)


def test_distinctive_lock_tokens_are_names_numbers_and_longer_words():
    assert distinctive(" March") and distinctive("3") and distinctive(" days")
    assert not distinctive(" the") and not distinctive(",") and not distinctive(" ")
    kinds = [Kind.FREE, Kind.LOCKED, Kind.LOCKED, Kind.FREE, Kind.LOCKED]
    assert lock_runs(kinds) == [range(1, 3), range(4, 5)]


def test_a_slot_may_not_glue_a_template_word_onto_its_value():
    kinds = [Kind.LOCKED, Kind.SLOT, Kind.SLOT, Kind.SLOT, Kind.LOCKED, Kind.SLOT]
    segment_of = [0, 1, 1, 1, 2, 3]
    bans = glued_word_bans(kinds, segment_of, ("name",), lambda w: frozenset({7}))
    assert set(bans) == {2, 3}  # inside a slot, not at a slot's first position
    assert all(ids == {7} for ids in bans.values())
    assert glued_word_bans(kinds, segment_of, (), lambda w: frozenset({7})) == {}
    assert merge_bans({1: frozenset({2})}, {1: frozenset({3}), 4: frozenset({5})}) == {
        1: {2, 3},
        4: {5},
    }


def test_a_schema_gives_its_key_words_and_the_json_literals():
    schema = {
        "properties": {
            "full_name": {"type": "string"},
            "id": {"type": "integer"},
            "address": {"properties": {"city": {}}},
        }
    }
    words = template_words(schema)
    assert {"full", "name", "address", "city", "true", "false", "null"} <= set(words)
    assert "id" not in words  # too short: it hides inside real words


def test_a_draft_uses_no_markup_the_text_around_it_does_not():
    table = tiny_table()
    for before, allowed_marks in (("Plain prose here. ", set()), ("A | table | row\n", {"|"})):
        plan = EditPlan(
            Span(len(before), len(before)), (Free(seed="", budget=4),), before, "", "",
            EditMode.DRAFT,
        )  # fmt: skip
        canvas = build_canvas(plan, table, SamplerSettings(), 64)
        mask = allowed_mask(canvas, table, len(table.tokenizer))
        allowed = {table.text(t) for t in range(len(table.tokenizer)) if mask[0, t]}
        marks = {ch for text in allowed for ch in text if ch in "|{}#"}
        assert marks == allowed_marks
        assert any("`" in text for text in allowed)  # prose about code quotes it


def test_committed_grams_list_every_completion_of_every_window():
    values = [1, 2, 3, 4, 9]
    content = [True, True, True, True, False]
    grams = committed_grams(values, content, 4)
    assert grams[(3, (1, 2, 3))] == {4}  # the last place open
    assert grams[(0, (2, 3, 4))] == {1}  # the first place open
    assert grams[(1, (1, 3, 4))] == {2}
    assert not committed_grams(values, [True, True, False, True, True], 4)  # a gap: no window


def test_blank_tokens_are_spaces_only():
    table = tiny_table()
    [space] = table.encode(" ")
    assert table.is_blank(space)
    assert not any(table.is_blank(t) for t in table.encode("a.\n"))
    assert not table.is_blank(table.specials.filler_id)  # the filler shows as nothing


def test_two_slot_neighbours_chosen_as_spaces_at_once_keep_only_the_surer():
    canvas = canvas_of([Kind.SLOT] * 4 + [Kind.FREE] * 2, [0] * 4 + [1] * 2)
    guards = ProseGuards(canvas, FILLER, lambda token: token == 5, None, lambda token: token == 4)
    chosen = torch.tensor([True] * 6)
    guess = torch.tensor([5, 4, 4, 4, 4, 4])
    ranked = torch.tensor([0.9, 0.2, 0.5, 0.1, 0.3, 0.3])
    # In the slot, 4 4 4 keeps its surest; in free text two spaces may stand together.
    assert guards.veto(chosen, guess, ranked).tolist() == [True, False, True, False, True, True]


def test_a_draft_in_prose_opens_no_list_item_but_one_in_a_list_may() -> None:
    table = tiny_table()
    openers = table.list_openers()
    assert openers, "the test tokenizer has '-' and digits followed by '.'"
    for before, banned in (
        ("We walked to the harbour.\n\n", True),
        ("Shopping:\n\n- milk\n", False),  # a new item may follow an item
        ("Steps:\n1. Open the file\n", False),
        ("Shopping:\n\n- milk\n- ", True),  # an item's own text: no second bullet
        ("", True),
    ):
        plan = EditPlan(
            Span(len(before), len(before)), (Free(budget=6),), before, "", "", EditMode.DRAFT
        )
        mask = allowed_mask(
            build_canvas(plan, table, SamplerSettings(), 64), table, len(table.tokenizer)
        )
        assert bool(mask[0, openers].any()) is not banned
        assert bool(mask[2, openers].any())  # later in the draft a list may follow
