"""The two splits of the quality suite's cases: what they hold, and that each can be measured."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from tools.eval import markup, meaning
from tools.eval.cases import FAMILIES, case_texts, load_cases, load_split, overlaps
from tools.eval.followed import CHECKED, apply_corrections, followed

PER_FAMILY = {"test": 15, "dev": 8}
BEYOND = {"test": 12, "dev": 8}  # instructions no small model can follow


@pytest.mark.parametrize("split", ["dev", "test"])
def test_every_gated_family_has_its_fresh_cases(split):
    fresh = [r for r in load_split(split).rewrites if r.family]
    counts = Counter(r.row for r in fresh)
    for family in (*CHECKED, "markdown"):
        assert counts[family] >= PER_FAMILY[split], (family, counts[family])
    assert counts["beyond"] >= BEYOND[split]
    assert {r.style for r in fresh} >= {"email", "notes", "docs", "learner", "markdown"}
    prompted = [d for d in load_split(split).drafts if d.prompt]
    assert len(prompted) >= PER_FAMILY[split]
    assert {d.register for d in prompted} == {"formal", "neutral", "casual"}


def test_the_test_split_has_the_markdown_the_issue_names():
    markdown = [r.paragraph for r in load_split("test").rewrites if r.row == "markdown"]
    parsed = [markup.parse(p) for p in markdown]
    assert sum(bool(s.links) for s in parsed) >= 5
    assert sum(bool(s.code) for s in parsed) >= 5
    assert sum(bool(s.emphasis) for s in parsed) >= 5
    assert sum(any(b.startswith("list_item") for b in s.blocks) for s in parsed) >= 3


@pytest.mark.parametrize("split", ["dev", "test"])
def test_no_fresh_case_passes_its_check_by_coming_back_unchanged(split):
    for case in load_split(split).rewrites:
        if case.family and case.checked_as:
            assert not followed(case.checked_as, case.paragraph, case.paragraph, case.corrections)


@pytest.mark.parametrize("split", ["dev", "test"])
def test_the_expected_corrections_pass_and_keep_meaning_and_markdown(split):
    for case in load_split(split).rewrites:
        if not case.corrections:
            continue
        target, _ = apply_corrections(case.paragraph, case.corrections)
        assert followed(case.checked_as, case.paragraph, target, case.corrections), target
        assert meaning.changes(target, target, case.allow, case.paragraph) == []
        assert markup.differences(case.paragraph, target) == []


def test_dev_and_test_share_no_eight_word_run():
    assert overlaps(load_split("test"), case_texts(load_split("dev"))) == []


def test_the_test_split_is_the_default_and_has_no_cloze():
    assert load_cases() == load_split("test")
    assert load_split("test").cloze == ()
    with pytest.raises(ValueError, match="Unknown split"):
        load_split("train")


def write_case(folder: Path, **fields) -> Path:
    case = {"instruction": "fix grammar", "before": "", "paragraph": "We goes home.", "after": ""}
    case.update(fields)
    (folder / "rewrites.json").write_text(json.dumps({"cases": [case]}))
    return folder


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"family": "fix grammar"}, "expects no fix"),
        ({"family": "loud"}, "Unknown family"),
        ({"family": "markdown", "check": "loud"}, "Unknown check"),
        ({"family": "beyond", "style": "poetry"}, "Unknown style"),
        ({"family": "beyond", "allow": ["anything"]}, "Unknown allowances"),
        ({"family": "fix grammar", "corrections": [["go", "went"]]}, "not in the text"),
        ({"family": "fix grammar", "corrections": [["goes", ""]]}, "empty or unchanged"),
        ({"family": "fix grammar", "corrections": [["goes", "goes"]]}, "empty or unchanged"),
        ({"family": "beyond", "instruction": " "}, "no instruction"),
    ],
)
def test_a_case_that_could_not_be_measured_is_refused(tmp_path, fields, message):
    with pytest.raises(ValueError, match=message):
        load_cases(write_case(tmp_path, **fields))


def test_a_draft_with_an_unknown_register_is_refused(tmp_path):
    draft = {"kind": "email", "text": "Dear all,", "prompt": "the plan", "register": "shouty"}
    (tmp_path / "drafts.json").write_text(json.dumps({"cases": [draft]}))
    with pytest.raises(ValueError, match="Unknown register"):
        load_cases(tmp_path)


def test_every_family_is_a_report_row():
    rows = {r.row for split in ("dev", "test") for r in load_split(split).rewrites}
    assert rows <= set(FAMILIES)


def test_the_leak_scan_finds_a_planted_case_and_a_misspelling(tmp_path):
    from tools.eval import leaks

    engine = tmp_path / "engine"
    (engine / "eval").mkdir(parents=True)
    case = load_split("test").rewrites[0].paragraph
    (engine / "rules.py").write_text(
        f'"""A docstring may quote it: {case}"""\nTABLE = {{"wrong": "quoted: {case[:40]}"}}\n'
    )
    (engine / "words.json").write_text(json.dumps({"fixes": {"recieve": "receive"}}))
    (engine / "eval" / "ours.py").write_text(f"CASE = {case!r}\n")  # the suite is not read
    strings = list(leaks.engine_strings(engine))
    found = leaks.shared_grams([load_split("test")], strings)
    assert found == [f"engine/rules.py: 'quoted: {case[:40]}'"]
    assert leaks.named_misspellings(["recieve", "absent"], strings) == [
        "engine/words.json: recieve"
    ]


def test_no_language_table_or_pass_quotes_a_case():
    """The English data and the passes that apply it: every entry general, none a case's."""
    from tools.eval import leaks

    strings = [
        (name, s)
        for name, s in leaks.engine_strings()
        if name.startswith(("engine/language/", "engine/passes/"))
    ]
    assert strings
    assert leaks.shared_grams([load_split("dev"), load_split("test")], strings) == []


def test_no_engine_string_quotes_a_case():
    """Every literal and data entry of the whole engine: messages, help and format examples too."""
    from tools.eval import leaks

    strings = list(leaks.engine_strings())
    assert leaks.shared_grams([load_split("dev"), load_split("test")], strings) == []


def test_the_scan_reads_the_shipped_engine_and_its_data_files():
    """A scan that reads nothing passes every check: it must see the engine's own words."""
    from tools.eval import leaks

    files = {name for name, _ in leaks.engine_strings()}
    assert any(name.startswith("engine/language/en/data/") for name in files)
    assert any(name.startswith("engine/passes/") for name in files)
