"""Plans: segment layout, and every bad selection or lock a user can give."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.core.errors import BadRequest
from engine.core.plan import Free, Locked, find_locks, plan_edit, plan_text
from engine.core.protocol import Edit, EditMode, Span

DOC = "Alice met Bob in Paris on 3 May. They spoke of engines."


def edit(target: Span, locks: tuple[Span, ...] = (), mode: EditMode = EditMode.REWRITE) -> Edit:
    return Edit(1, DOC, target, locks, mode=mode)


def test_rewrite_plan_alternates_free_and_locked_segments() -> None:
    target = Span(0, 32)
    locks = find_locks(DOC, target, ["Bob", "Paris"])
    plan = plan_edit(edit(target, locks))
    assert plan.segments == (
        Free("Alice met "),
        Locked("Bob"),
        Free(" in "),
        Locked("Paris"),
        Free(" on 3 May."),
    )
    assert plan.before == "" and plan.after == DOC[32:]
    assert plan.locked_texts == ("Bob", "Paris")


def test_lock_at_the_edges_leaves_no_empty_free_segment() -> None:
    target = Span(10, 21)  # "Bob in Paris"[:-1]
    locks = (Span(10, 13), Span(17, 21))
    plan = plan_edit(edit(target, locks))
    assert plan.segments == (Locked("Bob"), Free(" in "), Locked("Pari"))


def test_draft_plan_is_one_free_budget() -> None:
    plan = plan_edit(edit(Span(5, 5), mode=EditMode.DRAFT))
    assert len(plan.segments) == 1
    assert isinstance(plan.segments[0], Free) and plan.segments[0].budget == 64


@pytest.mark.parametrize(
    ("target", "locks", "message"),
    [
        (Span(3, 3), (), "empty"),
        (Span(-1, 4), (), "outside the text"),
        (Span(10, 999), (), "outside the text"),
        (Span(0, 20), (Span(2, 8), Span(6, 10)), "overlap"),
        (Span(5, 20), (Span(0, 3),), "outside the selection"),
        (Span(5, 20), (Span(18, 25),), "outside the selection"),
        (Span(0, 10), (Span(0, 4), Span(4, 10)), "whole selection is locked"),
        (Span(0, 10), (Span(4, 4),), "empty"),
        (Span(0, 11), (Span(0, 5), Span(6, 11)), "Only spaces lie outside the locks"),
    ],
)
def test_bad_selections_and_locks_are_refused_clearly(
    target: Span, locks: tuple[Span, ...], message: str
) -> None:
    with pytest.raises(BadRequest, match=message):
        plan_edit(edit(target, locks))


def test_draft_refuses_locks() -> None:
    with pytest.raises(BadRequest, match="nothing to lock"):
        plan_edit(edit(Span(4, 4), (Span(4, 5),), mode=EditMode.DRAFT))


def test_lock_phrase_missing_or_empty_is_refused() -> None:
    with pytest.raises(BadRequest, match="does not occur"):
        find_locks(DOC, Span(0, 10), ["Paris"])
    with pytest.raises(BadRequest, match="empty"):
        find_locks(DOC, Span(0, 10), [""])


def test_lock_phrase_locks_every_occurrence_in_the_selection() -> None:
    text = "the cat and the dog and the end"
    assert find_locks(text, Span(0, 20), ["the"]) == (Span(0, 3), Span(12, 15))


@given(st.data())
def test_plan_segments_reassemble_the_target(data: st.DataObject) -> None:
    text = data.draw(st.text(min_size=2, max_size=40))
    start = data.draw(st.integers(0, len(text) - 1))
    end = data.draw(st.integers(start + 1, len(text)))
    cuts = sorted(data.draw(st.sets(st.integers(start, end), max_size=6)))
    locks = tuple(Span(a, b) for a, b in zip(cuts[::2], cuts[1::2], strict=False) if a < b)
    request = Edit(1, text, Span(start, end), locks)
    inside = {i for lock in locks for i in range(lock.start, lock.end)}
    free = "".join(c for i, c in enumerate(text[start:end], start) if i not in inside)
    if locks and not free.strip():  # locked but for spaces (or wholly): nothing to rewrite
        with pytest.raises(BadRequest):
            plan_edit(request)
        return
    plan = plan_edit(request)
    assert plan_text(plan.segments) == text[start:end]
    assert plan.before + plan_text(plan.segments) + plan.after == text


def test_only_whitespace_between_locks_stays_as_written() -> None:
    """A gap of spaces between two locks holds no word: an engine lock, not free text."""
    text = "In 1843 Ada Lovelace wrote notes."
    target = Span(0, len(text))
    plan = plan_edit(Edit(1, text, target, find_locks(text, target, ["1843", "Ada Lovelace"])))
    between = plan.segments[2]
    assert isinstance(between, Locked) and between.text == " " and between.structure
    assert [s.seed for s in plan.segments if isinstance(s, Free)] == ["In ", " wrote notes."]
