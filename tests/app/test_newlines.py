"""BOM and line endings: kept byte for byte outside what changed, mixed endings included."""

from __future__ import annotations

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from app.newlines import BOM, Layout, restore, split_layout

ENDINGS = st.sampled_from(["\r\n", "\n", "\r"])
LINE = st.text(alphabet=st.characters(blacklist_characters="\r\n", codec="utf-8"), max_size=8)


def test_split_normalises_and_remembers() -> None:
    text, layout = split_layout(BOM + "a\r\nb\nc\rd")
    assert text == "a\nb\nc\nd"
    assert layout == Layout(True, text, "\r\n", ("\r\n", "\n", "\r"))
    assert split_layout("a\r\nb\r\n")[1] == Layout(False, "a\nb\n", "\r\n", None)
    assert split_layout("a\nb")[1] == Layout(False, "a\nb", "\n", None)


def test_unchanged_text_comes_back_byte_for_byte() -> None:
    raw = BOM + "one\r\ntwo\nthree\r\n\r\nfour"
    text, layout = split_layout(raw)
    assert restore(layout, text) == raw


def test_typed_breaks_take_the_usual_ending_and_old_ones_stay() -> None:
    raw = "a\r\nb\r\nc\nd\r\n"
    text, layout = split_layout(raw)
    edited = text.replace("b", "b1\nb2")
    assert restore(layout, edited) == "a\r\nb1\r\nb2\r\nc\nd\r\n"


def test_joining_two_lines_keeps_the_ending_of_the_second() -> None:
    text, layout = split_layout("a\r\nb\nc\r\n")
    assert restore(layout, text.replace("a\nb", "ab")) == "ab\nc\r\n"


def test_deleting_a_line_keeps_the_others() -> None:
    _, layout = split_layout("a\r\nx\nb\r\n")
    assert restore(layout, "a\nb\n") == "a\r\nb\r\n"


@settings(max_examples=300, deadline=None)
@given(
    st.booleans(),
    st.lists(st.tuples(LINE, ENDINGS), min_size=1, max_size=12),
    st.data(),
)
def test_an_edit_inside_one_line_changes_no_other_byte(
    bom: bool, lines: list[tuple[str, str]], data: st.DataObject
) -> None:
    raw = (BOM if bom else "") + "".join(line + end for line, end in lines)
    text, layout = split_layout(raw)
    assume(text.count("\n") == len(lines))  # a "\r" then an empty "\n" line is one "\r\n"
    row = data.draw(st.integers(0, len(lines) - 1))
    replacement = data.draw(LINE)
    new_lines = text.split("\n")
    new_lines[row] = replacement
    result = restore(layout, "\n".join(new_lines))
    expected = list(lines)
    expected[row] = (replacement, lines[row][1])
    assert result == (BOM if bom else "") + "".join(line + end for line, end in expected)
