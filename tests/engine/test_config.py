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
        {"temperature": float("inf")},
        {"order_bias": float("inf")},
        {"entropy_bound": float("inf")},
        {"slack": 1e300},
        {"seed": 2**70},
        {"steps": 10**9},
        {"threshold": float("nan")},
        {"strength": "0.5"},
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


def test_every_numeric_setting_has_bounds_and_says_them() -> None:
    from engine.core.config import BOUNDS

    numeric = [
        (name, default)
        for name, default, _ in setting_fields()
        if (isinstance(default, int | float) and not isinstance(default, bool))
        or name == "threshold"
    ]
    assert {name for name, _ in numeric} == set(BOUNDS)
    helps = {name: text for name, _, text in setting_fields()}
    assert all(" to " in helps[name] for name in BOUNDS)


@pytest.mark.parametrize("value", [0, 5, 2.5, -1])
def test_the_number_of_versions_is_a_whole_number_from_1_to_4(value: float) -> None:
    with pytest.raises(ValueError, match=r"alternatives must (be|lie between)"):
        SamplerSettings(alternatives=value)  # type: ignore[arg-type]
