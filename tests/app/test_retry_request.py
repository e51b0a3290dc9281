"""The window's retry request (app/retry_controller.py, pure parts): the document a try settles
is the proposal as the review shows it with that one hunk back in the user's words, and
whatever the engine settles in the hunk's span comes back as that hunk's text, nothing else."""

from __future__ import annotations

from hypothesis import assume, given
from hypothesis import strategies as st

from app.retry_controller import hunk_retry, try_text
from engine.core.config import SamplerSettings
from engine.core.protocol import Edit, EditMode, Proposal, SegmentText, Span
from engine.core.worddiff import apply_hunks, word_diff
from engine.run.retry import retry_edit
from tests.helpers.scripted_worker import metrics

WORDS = st.sampled_from(["Ada", "wrote", "the", "first", "notes", "on", "a", "loom", "cards"])
BEFORE, AFTER = "# Notes\n\n", "\n\nEnd.\n"


def sentence(words: list[str]) -> str:
    return " ".join(words) + "."


def rewrite_of(target: str, instruction: str = "") -> Edit:
    """A rewrite of ``target`` between a heading and a closing line."""
    text = BEFORE + target + AFTER
    span = Span(len(BEFORE), len(BEFORE) + len(target))
    return Edit(1, text, span, (), instruction, EditMode.REWRITE, SamplerSettings())


@st.composite
def reviews(draw: st.DrawFn) -> tuple[Edit, str, set[int], int]:
    """A rewrite of a sentence, a version of it with changes, the hunks shown, one to retry."""
    words = draw(st.lists(WORDS, min_size=2, max_size=8))
    target = sentence(words)
    changed = [draw(st.one_of(st.just(w), WORDS)) for w in words] + draw(
        st.lists(WORDS, max_size=2)
    )
    proposal = sentence(changed)
    edit = rewrite_of(target, "tighter")
    diff = word_diff(target, [SegmentText(proposal, False)])
    worded = [h.index for h in diff.hunks if h.old.strip()]
    assume(worded)  # a hunk that only inserts is covered on its own below
    index = draw(st.sampled_from(worded))
    shown = set(draw(st.lists(st.sampled_from([h.index for h in diff.hunks]))))
    return edit, proposal, shown, index


@given(reviews(), st.text(alphabet="abc XY", max_size=12), st.integers(1, 5))
def test_a_try_settles_only_its_hunk_beside_the_review_as_shown(
    review: tuple[Edit, str, set[int], int], settled: str, attempt: int
) -> None:
    edit, proposal, shown, index = review
    target = edit.text[edit.target.start : edit.target.end]
    diff = word_diff(target, [SegmentText(proposal, False)])
    retry = hunk_retry(edit, diff, shown, index, "", attempt)
    request = retry_edit(2, retry, edit.settings)
    hunk = diff.hunks[index]
    # Outside the hunk the try's document is the review as shown; the hunk is the user's words.
    as_shown = apply_hunks(target, diff.hunks, shown - {index})
    expected = BEFORE + as_shown + AFTER
    assert request.text == expected
    assert request.text[request.target.start : request.target.end] == hunk.old
    assert request.settings.seed != edit.settings.seed
    # Whatever the engine settles there is the hunk's new text, and only that.
    answer = Proposal(2, request.target, settled, (SegmentText(settled, False),), (), metrics(1))
    assert try_text(retry, request, answer) == settled


def test_an_inserted_hunk_opens_its_neighbours_and_a_try_that_changes_them_is_not_used() -> None:
    target = "Ada wrote notes."
    edit = rewrite_of(target)
    diff = word_diff(target, [SegmentText("Ada wrote long notes.", False)])
    assert [(h.old, h.new) for h in diff.hunks] == [("", "long ")]
    retry = hunk_retry(edit, diff, {0}, 0, "", 1)
    request = retry_edit(2, retry, edit.settings)
    opened = request.text[request.target.start : request.target.end]
    assert opened == "wrote notes."  # the word on each side of the insertion
    kept = Proposal(2, request.target, "wrote fine notes.", (), (), metrics(1))
    assert try_text(retry, request, kept) == "fine "
    moved = Proposal(2, request.target, "penned notes.", (), (), metrics(1))
    assert try_text(retry, request, moved) is None


@given(
    st.lists(WORDS, min_size=1, max_size=4),
    st.lists(WORDS, min_size=1, max_size=3),
    st.booleans(),
)
def test_the_proposals_locks_stand_where_the_shown_proposal_has_them(
    inserted: list[str], after: list[str], beside_the_lock: bool
) -> None:
    """A lock in the rewrite: the retry's locked spans are the lock's text in the proposal as
    shown, so an inserted hunk beside it never opens the locked words."""
    lock = "Jacquard loom"
    target = f"Cards from the {lock} " + " ".join(after) + "."
    words = " ".join(inserted)
    opening = f"Cards from the {words} " if beside_the_lock else f"Cards {words} from the "
    proposal = opening + f"{lock} " + " ".join(after) + "."
    start = target.index(lock)
    segments = [
        SegmentText(proposal[: proposal.index(lock)], False),
        SegmentText(lock, True),
        SegmentText(proposal[proposal.index(lock) + len(lock) :], False),
    ]
    diff = word_diff(target, segments, [(start, start + len(lock))])
    assume(diff.hunks)
    edit = Edit(1, target, Span(0, len(target)), (Span(start, start + len(lock)),))
    for index in range(len(diff.hunks)):
        shown = set(range(len(diff.hunks)))
        retry = hunk_retry(edit, diff, shown, index, "", 1)
        assert [retry.proposal[s.start : s.end] for s in retry.locked] == [lock]
