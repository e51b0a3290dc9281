"""The overlay never shows a broken character: a token holding part of a UTF-8 character is
shown with the tokens that complete it, or not at all."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core.config import SamplerSettings
from engine.core.protocol import Edit, EditMode, Frame, Span
from engine.core.tokens import BROKEN
from engine.run.edit_run import run_edit
from tests.helpers.backends import llama_backend, tiny_table


def test_a_split_character_shows_whole_on_its_first_token() -> None:
    table = tiny_table()
    ids = table.encode("Daniel’s café")
    assert any(BROKEN in table.text(t) for t in ids)  # the tokenizer splits "’" and "é"
    shown = table.display_texts(ids)
    assert not any(BROKEN in text for text in shown)
    assert "".join(shown) == "Daniel’s café"


def test_a_character_whose_other_bytes_are_not_there_yet_shows_nothing() -> None:
    table = tiny_table()
    ids = table.encode("’")
    mask = table.specials.mask_id
    assert mask is not None and len(ids) > 1
    shown = table.display_texts([ids[0], mask, mask, mask])
    assert shown == ["", "", "", ""]


@settings(max_examples=60, deadline=None)
@given(st.text(min_size=1, max_size=30))
def test_any_text_shows_whole_and_unbroken(text: str) -> None:
    table = tiny_table()
    ids = table.encode(text)
    shown = table.display_texts(ids)
    assert "".join(shown) == table.decode(ids)
    if BROKEN not in text:
        assert not any(BROKEN in piece for piece in shown)


def test_no_frame_of_a_draft_shows_a_broken_character() -> None:
    """The tiny random model writes byte tokens in any order: every frame stays unbroken."""
    settings_ = SamplerSettings(steps=12, draft_tokens=24, passes=())
    edit = Edit(1, "Caf\u00e9 notes: ", Span(12, 12), (), "", EditMode.DRAFT, settings_)
    frames = [e for e in run_edit(llama_backend(), edit) if isinstance(e, Frame)]
    assert frames
    assert not any(BROKEN in view.text for frame in frames for view in frame.updates)
