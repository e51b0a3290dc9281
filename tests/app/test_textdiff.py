"""The trimmed unified diff: a correct patch for any change, numbered as in the whole file."""

from __future__ import annotations

import difflib
import re

from hypothesis import given, settings
from hypothesis import strategies as st

from app.textdiff import BLOCK, unified_diff


def reference(before: str, after: str, name: str) -> str:
    lines = difflib.unified_diff(
        before.splitlines(keepends=True),
        after.splitlines(keepends=True),
        fromfile=f"a/{name}",
        tofile=f"b/{name}",
    )
    return "".join(
        line if line.endswith("\n") else line + "\n\\ No newline at end of file\n" for line in lines
    )


def patched(before: str, diff: str) -> str:
    """Apply a unified diff strictly: every context and removed line must be where it says."""
    old = before.splitlines(keepends=True)
    out: list[str] = []
    at = 0
    lines = diff.splitlines(keepends=True)[2:]
    for index, line in enumerate(lines):
        hunk = re.match(r"@@ -(\d+)(?:,(\d+))?", line)
        if hunk:
            start = int(hunk[1]) - (0 if hunk[2] != "0" else -1) - 1
            out += old[at:start]
            at = start
            continue
        if line.startswith("\\"):
            continue
        body = line[1:]
        if index + 1 < len(lines) and lines[index + 1].startswith("\\"):
            body = body.removesuffix("\n")
        if line[0] in " -":
            assert old[at] == body, (old[at], body)
            at += 1
        if line[0] in " +":
            out.append(body)
    return "".join(out + old[at:])


TEXT = st.text(alphabet="ab\n", max_size=60)


@settings(max_examples=400, deadline=None)
@given(TEXT, TEXT, TEXT, TEXT)
def test_the_diff_turns_before_into_after(head: str, old: str, new: str, tail: str) -> None:
    before, after = head + old + tail, head + new + tail
    assert patched(before, unified_diff(before, after, "f.md")) == after


def test_a_change_deep_in_a_large_file_is_numbered_as_in_the_whole_file() -> None:
    body = "".join(f"line {n}\n" for n in range(3 * BLOCK // 7))
    before = body + "the old sentence\n" + body
    after = body + "the new sentence\nand one more\n" + body
    assert unified_diff(before, after, "big.md") == reference(before, after, "big.md")
    assert unified_diff(before, before, "big.md") == ""
