"""A rewrite's versions on the wire (engine.remote.wire): Proposal.alternatives and the
alternatives setting, with the same type and size checks as every other field."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.core.config import SamplerSettings
from engine.core.protocol import Alternative, Edit, Metrics, Proposal, SegmentText, Span
from engine.remote.wire import EVENTS, MAX_ALTERNATIVES, REQUESTS, WireError, decode, encode

METRICS = Metrics(0.1, 0.2, 3, 3, 4, 1.3, 0.0, 20.0)


def proposal(*texts: str) -> Proposal:
    versions = tuple(Alternative(t, (SegmentText(t, False),), ("a note",)) for t in texts[1:])
    return Proposal(
        7, Span(0, 4), texts[0], (SegmentText(texts[0], False),), (), METRICS, (), versions
    )


def decoded_event(data: dict[str, Any]) -> Any:
    return decode(json.dumps(data), EVENTS)


@given(st.lists(st.text(max_size=12), min_size=1, max_size=MAX_ALTERNATIVES + 1, unique=True))
def test_alternatives_cross_the_wire_as_they_are(texts: list[str]) -> None:
    sent = proposal(*texts)
    assert decode(encode(sent), EVENTS) == sent


def test_more_alternatives_than_the_setting_allows_are_refused() -> None:
    data = json.loads(encode(proposal("a", "b", "c", "d")))
    data["alternatives"].append(dict(data["alternatives"][0], text="e"))
    with pytest.raises(WireError, match=f"at most {MAX_ALTERNATIVES}"):
        decoded_event(data)


@pytest.mark.parametrize("texts", [("a", "a"), ("a", "b", "b")])
def test_an_alternative_offered_twice_is_refused(texts: tuple[str, ...]) -> None:
    with pytest.raises(WireError, match="repeats the proposal or another"):
        decoded_event(json.loads(encode(proposal(*texts))))


@pytest.mark.parametrize(
    ("alternatives", "says"),
    [
        ("x", "Proposal.alternatives: expected a list"),
        ([{"text": "b"}], "missing field 'segments'"),
        ([{"text": 3, "segments": []}], "alternatives[0].text: expected str"),
        ([{"text": "b", "segments": [{"text": "b", "locked": "no"}]}], "expected bool"),
        ([{"text": "b", "segments": [], "score": 1}], "unknown field(s) score"),
    ],
)
def test_malformed_alternatives_in_a_reply_are_refused_saying_where(
    alternatives: Any, says: str
) -> None:
    data = json.loads(encode(proposal("a")))
    data["alternatives"] = alternatives
    with pytest.raises(WireError) as refused:
        decoded_event(data)
    assert says in str(refused.value)
    assert refused.value.request_id == 7


@pytest.mark.parametrize("value", [0, 9, -1, "x", 1.5, True, None])
def test_a_number_of_versions_out_of_bounds_is_a_bad_request(value: Any) -> None:
    data = json.loads(encode(Edit(5, "text", Span(0, 4))))
    data["settings"]["alternatives"] = value
    with pytest.raises(WireError) as refused:
        decode(json.dumps(data), REQUESTS)
    assert "alternatives" in str(refused.value) and refused.value.request_id == 5


@pytest.mark.parametrize("value", [1, 2, 4])
def test_every_number_of_versions_the_setting_allows_passes(value: int) -> None:
    sent = Edit(5, "text", Span(0, 4), settings=SamplerSettings(alternatives=value))
    assert decode(encode(sent), REQUESTS) == sent
