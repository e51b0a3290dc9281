"""Sampler settings: one source of defaults, validated on construction."""

from __future__ import annotations

import pickle

import pytest

from engine.core.config import PRESETS, SamplerSettings, setting_fields


def test_defaults_are_valid_and_picklable() -> None:
    settings = SamplerSettings()
    assert pickle.loads(pickle.dumps(settings)) == settings


@pytest.mark.parametrize(
    "bad",
    [
        {"steps": 0},
        {"threshold": 0.0},
        {"threshold": 1.5},
        {"strength": 0.0},
        {"strength": 1.2},
        {"temperature": -1.0},
        {"block_length": -4},
        {"draft_tokens": 0},
        {"entropy_bound": 0.0},
        {"order_bias": -0.1},
    ],
)
def test_bad_values_are_refused_with_their_name(bad: dict[str, float]) -> None:
    with pytest.raises(ValueError, match=next(iter(bad))):
        SamplerSettings(**bad)


def test_presets_are_valid_settings() -> None:
    for preset in PRESETS.values():
        SamplerSettings(**preset)


def test_every_field_has_help_for_the_cli() -> None:
    assert all(help_text for _, _, help_text in setting_fields())
