"""What the diff review knows, without Qt: each change's option, decision and note, and the try.

:class:`ui.review.DiffReview` draws this state and turns keys into its moves; keeping the moves
here makes the review's promises testable as plain functions: deciding, choosing a version or
adding a try changes only the change it is about (every other hunk keeps its text and its
decision), and the change being tried waits for its try (it cannot be decided meanwhile).

Public API: :class:`Decision`; :class:`ReviewState` (``versions``, ``choices``, ``decisions``,
``notes``, ``trying``, ``current``; ``diff()``, ``accepted()``, ``rejected()``, ``select(i)``,
``decide(d)``, ``decide_all(d)``, ``choose(i, option)``, ``step_version(step)``,
``start_try()``, ``add_try(i, text)``, ``end_try()``, ``set_note(i, text)``, ``note(i)``).
"""

from __future__ import annotations

from enum import StrEnum

from engine.core.worddiff import WordDiff
from ui.versions import VersionSet, chosen_diff, with_try


class Decision(StrEnum):
    PENDING = "pending"
    ACCEPTED = "accepted"
    REJECTED = "rejected"


class ReviewState:
    """One review: every change undecided, each showing its first option."""

    def __init__(self, versions: VersionSet) -> None:
        count = len(versions.slots)
        self.versions = versions
        self.choices = [0] * count  # the option each change shows
        self.decisions = [Decision.PENDING] * count
        self.notes: dict[int, str] = {}
        self.trying: int | None = None  # the change a try is running for
        self.current = 0 if count else -1
        self._diff = chosen_diff(versions, self.choices)

    def diff(self) -> WordDiff:
        """One hunk per change, with its chosen option: what the accepted indices apply."""
        return self._diff

    def _indices(self, decision: Decision) -> set[int]:
        return {i for i, d in enumerate(self.decisions) if d is decision}

    def accepted(self) -> set[int]:
        return self._indices(Decision.ACCEPTED)

    def rejected(self) -> set[int]:
        return self._indices(Decision.REJECTED)

    def note(self, index: int) -> str:
        return self.notes.get(index, "")

    def select(self, index: int) -> bool:
        """Make change ``index`` current; False when it already is or does not exist."""
        if 0 <= index < len(self.decisions) and index != self.current:
            self.current = index
            return True
        return False

    def decide(self, decision: Decision, advance: bool = True) -> bool:
        """Decide the current change and move to the next undecided one (True if it moved;
        ``advance`` False stays, as a rejection with a note does: its try comes next)."""
        if self.current < 0 or self.current == self.trying:
            return False
        self.decisions[self.current] = decision
        following = self._next_pending() if advance else None
        if following is None:
            return False
        self.current = following
        return True

    def _next_pending(self) -> int | None:
        """The next undecided change after the current one, wrapping around."""
        count = len(self.decisions)
        for step in range(1, count + 1):
            index = (self.current + step) % count
            if self.decisions[index] is Decision.PENDING:
                return index
        return None

    def decide_all(self, decision: Decision) -> None:
        """Every change but the one being tried (it waits for its try)."""
        for index in range(len(self.decisions)):
            if index != self.trying:
                self.decisions[index] = decision

    def choose(self, index: int, option: int) -> bool:
        """Show option ``option`` in change ``index``. A rejected change is undecided again
        (the user is looking at another text); every other change is left alone."""
        if index == self.trying or not 0 <= index < len(self.choices):
            return False
        if not 0 <= option < len(self.versions.slots[index].options):
            return False
        self.choices[index] = option
        if self.decisions[index] is Decision.REJECTED:
            self.decisions[index] = Decision.PENDING
        self._diff = chosen_diff(self.versions, self.choices)
        return True

    def step_version(self, step: int) -> bool:
        """The current change's next (``step`` 1) or previous (-1) option, wrapping around."""
        if self.current < 0:
            return False
        count = len(self.versions.slots[self.current].options)
        return self.choose(self.current, (self.choices[self.current] + step) % count)

    def start_try(self) -> int | None:
        """Start trying the current change again; None when there is none or one runs."""
        if self.current < 0 or self.trying is not None:
            return None
        self.trying = self.current
        return self.trying

    def add_try(self, index: int, text: str) -> bool:
        """A try of change ``index`` came back as ``text``: it is shown there, undecided.
        False when nothing new was added (an option already offered, which is then shown,
        or the user's own words)."""
        before = self.versions.slots[index]
        self.versions, option = with_try(self.versions, index, text)
        self.trying = None
        if option is None:
            return False
        self.choices[index] = option
        self.decisions[index] = Decision.PENDING
        self._diff = chosen_diff(self.versions, self.choices)
        return self.versions.slots[index] != before

    def end_try(self) -> None:
        """The try ended with no text (cancelled or failed): everything is as it was."""
        self.trying = None

    def set_note(self, index: int, text: str) -> str:
        """Keep ``text`` (whitespace folded) as change ``index``'s note; empty removes it."""
        note = " ".join(text.split())
        if note:
            self.notes[index] = note
        else:
            self.notes.pop(index, None)
        return note
