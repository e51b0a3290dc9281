"""A file's encoding mark and line endings, kept byte for byte outside what the user changed.

Settle edits text with "\\n" line ends (Qt folds "\\r\\n" and a lone "\\r" into one break, and
the engine's offsets must not shift). :func:`split_layout` takes a file's decoded text apart into
that normalised text and a :class:`Layout`: whether it began with a UTF-8 byte-order mark and the
ending of every line ("\\r\\n", "\\n" or "\\r", mixed files included). :func:`restore` puts the
edited text back together: every line break that survived the edit gets its original ending
back, and only the breaks the user (or a proposal) typed get the file's usual ending.

Which break survived is decided line by line: common leading and trailing lines are cut off
first (so an edit in a 20 MB file compares only the lines that differ), and the rest is aligned
with :class:`difflib.SequenceMatcher`. A break keeps the ending of the line it follows when that
line is unchanged; failing that, of the break before the unchanged line it precedes (which is
right when two lines were joined or a line was split).
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass

BOM = "\ufeff"
_BREAK = re.compile(r"\r\n|\r|\n")


@dataclass(frozen=True)
class Layout:
    """How a file wrote its text. ``text`` is the normalised text as read; ``newline`` the
    ending new breaks get; ``endings`` the break after each line but the last, kept only for a
    file that mixes endings (a uniform file needs nothing else, and a 20 MB one stays cheap)."""

    bom: bool = False
    text: str = ""
    newline: str = "\n"
    endings: tuple[str, ...] | None = None

    @property
    def lines(self) -> list[str]:
        return self.text.split("\n")


def split_layout(raw: str) -> tuple[str, Layout]:
    """The "\\n"-normalised text of ``raw`` (a decoded file, BOM included) and its layout."""
    bom = raw.startswith(BOM)
    body = raw.removeprefix(BOM)
    returns, feeds, pairs = body.count("\r"), body.count("\n"), body.count("\r\n")
    if returns == 0:
        return body, Layout(bom, body)
    if returns == feeds == pairs:
        text = body.replace("\r\n", "\n")
        return text, Layout(bom, text, "\r\n")
    endings = tuple(match.group() for match in _BREAK.finditer(body))
    text = _BREAK.sub("\n", body)
    return text, Layout(bom, text, usual_ending(endings), endings)


def usual_ending(endings: tuple[str, ...]) -> str:
    """The most common ending ("\\n" for a file without breaks; ties go to "\\r\\n", then "\\n")."""
    if not endings:
        return "\n"
    return max(("\r\n", "\n", "\r"), key=endings.count)


def restore(layout: Layout, text: str) -> str:
    """``text`` (normalised, edited) written the way the file was: BOM and surviving endings."""
    mark = BOM if layout.bom else ""
    if layout.endings is None:  # one ending throughout: every break gets it
        return mark + (text if layout.newline == "\n" else text.replace("\n", layout.newline))
    lines = text.split("\n")
    old_lines = layout.lines
    old_for_new = match_lines(old_lines, lines)
    last_old = len(old_lines) - 1
    parts: list[str] = [mark]
    for index, line in enumerate(lines[:-1]):
        parts.append(line)
        parts.append(_ending(layout.endings, layout.newline, old_for_new, index, last_old))
    parts.append(lines[-1])
    return "".join(parts)


def _ending(
    endings: tuple[str, ...], newline: str, old_for_new: list[int | None], index: int, last: int
) -> str:
    before, after = old_for_new[index], old_for_new[index + 1]
    if before is not None and before < last:
        return endings[before]
    if after is not None and after > 0:
        return endings[after - 1]
    return newline


def match_lines(old: list[str], new: list[str]) -> list[int | None]:
    """For each new line, the index of the unchanged old line it is, or None."""
    shortest = min(len(old), len(new))
    head = 0
    while head < shortest and old[head] == new[head]:
        head += 1
    tail = 0
    while tail < shortest - head and old[-1 - tail] == new[-1 - tail]:
        tail += 1
    matched: list[int | None] = [None] * len(new)
    for index in range(head):
        matched[index] = index
    for back in range(1, tail + 1):
        matched[-back] = len(old) - back
    middle_old, middle_new = old[head : len(old) - tail], new[head : len(new) - tail]
    if middle_old and middle_new:
        matcher = difflib.SequenceMatcher(None, middle_old, middle_new, autojunk=False)
        for block in matcher.get_matching_blocks():
            for offset in range(block.size):
                matched[head + block.b + offset] = head + block.a + offset
    return matched
