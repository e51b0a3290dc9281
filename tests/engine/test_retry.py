"""A hunk's re-roll request (engine.run.retry): the document it settles, its locks, its note."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.core.config import SamplerSettings
from engine.core.protocol import EditMode, Span
from engine.run.retry import (
    MAX_NOTE_CHARS,
    HunkRetry,
    missing_words,
    read_note,
    retried_span,
    retried_text,
    retry_edit,
    retry_seed,
)

DOC = "Intro. We meet on Tuesday at noon to plan. Outro."
TARGET = Span(7, DOC.index(" Outro."))  # "We meet on Tuesday at noon to plan."
PROPOSAL = "We gather on Monday at noon to plan."


def monday_hunk(note: str = "", attempt: int = 1) -> HunkRetry:
    """The proposal changed "meet" → "gather" and "Tuesday" → "Monday"; retry the second."""
    old_start = DOC[TARGET.start : TARGET.end].index("Tuesday")
    new_start = PROPOSAL.index("Monday")
    return HunkRetry(
        DOC, TARGET, PROPOSAL, Span(old_start, old_start + 7), Span(new_start, new_start + 6),
        "make it formal", note, attempt,
    )  # fmt: skip


def test_the_hunk_goes_back_to_the_users_words_and_the_rest_stays_as_proposed() -> None:
    edit = retry_edit(5, monday_hunk(), SamplerSettings())
    assert edit.text == "Intro. We gather on Tuesday at noon to plan. Outro."
    assert edit.text[edit.target.start : edit.target.end] == "Tuesday"
    assert edit.mode is EditMode.REWRITE
    assert edit.request_id == 5
    assert edit.instruction == "make it formal"


def test_quoted_words_are_locked_and_the_rest_instructs() -> None:
    """The hunk "on Tuesday" → "on Monday": "Tuesday" is kept, "on" settles again."""
    old_start = DOC[TARGET.start : TARGET.end].index("on Tuesday")
    new_start = PROPOSAL.index("on Monday")
    hunk = replace_hunk(
        old=Span(old_start, old_start + 10), new=Span(new_start, new_start + 9),
        note="keep 'Tuesday', less stiff",
    )  # fmt: skip
    edit = retry_edit(1, hunk, SamplerSettings())
    assert [edit.text[lock.start : lock.end] for lock in edit.locks] == ["Tuesday"]
    assert edit.instruction == "make it formal; keep , less stiff"


def test_a_note_reads_every_kind_of_quote_but_not_an_apostrophe() -> None:
    note = read_note("don't drop \"the budget\" or ‘Ana’ or “March 3”, it's 'fine'")
    assert note.keep == ("the budget", "Ana", "March 3", "fine")
    assert "don't" in note.rest and "it's" in note.rest


def test_a_kept_word_not_in_the_hunk_is_reported_not_locked() -> None:
    edit = retry_edit(1, monday_hunk(note="keep 'noon'"), SamplerSettings())
    assert edit.locks == ()
    assert missing_words(edit.text, edit.target, ("noon",)) == ("noon",)


def test_each_try_has_its_own_seed_and_the_same_try_the_same_one() -> None:
    settings = SamplerSettings(seed=3)
    seeds = {retry_edit(1, monday_hunk(attempt=n), settings).settings.seed for n in range(1, 6)}
    assert len(seeds) == 5 and 3 not in seeds
    assert retry_seed(3, 2) == retry_seed(3, 2)
    assert retry_edit(1, monday_hunk(attempt=2), settings).settings.strength == settings.strength


def test_an_inserted_hunk_opens_its_neighbouring_words() -> None:
    text, target = "Send it today.", Span(0, 14)
    proposal = "Send it right today."
    hunk = HunkRetry(text, target, proposal, Span(8, 8), Span(8, 14))
    edit = retry_edit(1, hunk, SamplerSettings())
    assert edit.text == text
    assert edit.text[edit.target.start : edit.target.end] == "it today."


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"target": Span(0, 999)}, "target is outside"),
        ({"old": Span(30, 99)}, "old span is outside"),
        ({"new": Span(-1, 2)}, "new span is outside"),
        ({"note": "x" * (MAX_NOTE_CHARS + 1)}, "at most"),
        ({"attempt": 0}, "counts from 1"),
    ],
)
def test_a_hunk_that_does_not_fit_its_proposal_is_refused(change: dict, message: str) -> None:
    from dataclasses import replace

    with pytest.raises(ValueError, match=message):
        retry_edit(1, replace(monday_hunk(), **change), SamplerSettings())


words = st.text(alphabet="ab .", max_size=8)


@given(words, words, words, words, words, words, words)
def test_only_the_hunk_is_reverted_and_the_rest_is_the_proposal(
    pre: str, old1: str, new1: str, mid: str, old2: str, new2: str, post: str
) -> None:
    """Two hunks; the second is retried: the document is the proposal with that hunk put
    back to the user's words, and the span settled again covers those words."""
    text = "A. " + pre + old1 + mid + old2 + post + " Z."
    target = Span(3, len(text) - 3)
    proposal = pre + new1 + mid + new2 + post
    at_old, at_new = len(pre + old1 + mid), len(pre + new1 + mid)
    hunk = HunkRetry(
        text, target, proposal, Span(at_old, at_old + len(old2)), Span(at_new, at_new + len(new2))
    )
    try:
        edit = retry_edit(1, hunk, SamplerSettings())
    except ValueError:
        return  # nothing to settle: a blank hunk between blank neighbours
    assert edit.text == "A. " + pre + new1 + mid + old2 + post + " Z."
    start = 3 + at_new
    assert edit.target.start <= start and start + len(old2) <= edit.target.end
    assert edit.target.start >= 3 and edit.target.end <= len(edit.text) - 3


def test_a_retry_is_one_version_whatever_the_rewrite_asked() -> None:
    edit = retry_edit(1, monday_hunk(), SamplerSettings(alternatives=3))
    assert edit.settings.alternatives == 1


def test_an_inserted_hunk_never_opens_a_locked_word_beside_it() -> None:
    """ "Send [it] today." with "it" locked: the words opened around an insertion stop at it."""
    text, target = "Send it today.", Span(0, 14)
    proposal = "Send it right today."
    locked = (Span(5, 7),)  # "it", a locked segment of the proposal
    hunk = HunkRetry(text, target, proposal, Span(8, 8), Span(8, 14), locked=locked)
    edit = retry_edit(1, hunk, SamplerSettings())
    assert edit.text[edit.target.start : edit.target.end] == " today."
    assert not edit.target.overlaps(Span(5, 7))


def test_a_hunk_inside_a_locked_span_is_refused() -> None:
    with pytest.raises(ValueError, match="locked span"):
        retry_edit(1, replace_hunk(locked=(Span(10, 16),)), SamplerSettings())


def replace_hunk(**change: object) -> HunkRetry:
    from dataclasses import replace

    return replace(monday_hunk(), **change)  # type: ignore[arg-type]


@given(words, words, words, words)
def test_the_whole_proposal_after_a_try_changes_only_the_span_it_settled(
    pre: str, old: str, new: str, settled: str
) -> None:
    text = "A. " + pre + old + " Z."
    target = Span(3, len(text) - 3)
    proposal = pre + new
    hunk = HunkRetry(
        text, target, proposal, Span(len(pre), len(pre) + len(old)), Span(len(pre), len(proposal))
    )
    try:
        edit = retry_edit(1, hunk, SamplerSettings())
    except ValueError:
        return
    whole = retried_text(hunk, edit, settled)
    span = retried_span(hunk, edit)
    assert whole == proposal[: span.start] + settled + proposal[span.end :]
    unchanged = retried_text(hunk, edit, edit.text[edit.target.start : edit.target.end])
    assert unchanged == pre + old  # settling the user's words again gives the hunk reverted


def test_a_note_that_keeps_every_word_of_the_hunk_is_refused() -> None:
    with pytest.raises(ValueError, match="keeps every word"):
        retry_edit(1, monday_hunk(note="keep 'Tuesday'"), SamplerSettings())
