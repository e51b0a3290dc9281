"""The headless CLI: diffs, JSON, atomic --write, and bad input that exits 2 and changes nothing."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from app.cli import main

DOC = "# Notes\n\nAda met Babbage in London in 1833. They spoke of engines.\n\nEnd.\n"
RANGE = f"{DOC.index('Ada')}:{DOC.index(' engines.') + 9}"


@pytest.fixture
def doc(tmp_path: Path) -> Path:
    path = tmp_path / "notes.md"
    path.write_text(DOC, encoding="utf-8")
    return path


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_rewrite_prints_a_diff_that_keeps_both_locks(doc: Path, tiny_folder: Path, capsys) -> None:
    code, out, err = run(
        capsys,
        "rewrite",
        str(doc),
        "--range",
        RANGE,
        "--lock",
        "Babbage",
        "--lock",
        "1833",
        "--model",
        str(tiny_folder),
        "--steps",
        "4",
        # the meaning check and the reread (its non-words) put back every change the tiny
        # random model writes: no diff would be left
        "--passes",
        "proofread,shorten",
    )
    assert code == 0, err
    assert out.startswith(f"--- a/{doc}")
    assert doc.read_text(encoding="utf-8") == DOC  # no --write: the file is untouched
    added = "".join(
        line[1:]
        for line in out.splitlines(keepends=True)
        if line.startswith("+") and not line.startswith("+++")
    )
    assert "Babbage" in added and "1833" in added
    assert "steps" in err


def test_json_output_and_write(doc: Path, tiny_folder: Path, capsys) -> None:
    code, out, _ = run(
        capsys,
        "rewrite",
        str(doc),
        "--range",
        RANGE,
        "--lock",
        "Babbage",
        "--model",
        str(tiny_folder),
        "--steps",
        "4",
        "--json",
        "--write",
    )
    assert code == 0
    result = json.loads(out)
    assert result["locks"] == ["Babbage"]
    assert "Babbage" in result["text"]
    assert {"steps", "tokens_per_forward", "time_to_first_frame_s"} <= set(result["metrics"])
    start, end = (int(x) for x in RANGE.split(":"))
    assert doc.read_text(encoding="utf-8") == DOC[:start] + result["text"] + DOC[end:]


def test_draft_inserts_at_the_offset(doc: Path, tiny_folder: Path, capsys) -> None:
    at = DOC.index("End.")
    code, out, _ = run(
        capsys,
        "draft",
        str(doc),
        "--at",
        str(at),
        "--prompt",
        "a closing line",
        "--model",
        str(tiny_folder),
        "--steps",
        "4",
        "--draft-tokens",
        "8",
        "--json",
    )
    assert code == 0
    text = json.loads(out)["text"]
    assert json.loads(out)["range"] == [at, at]
    assert len(text) > 0


def test_same_seed_same_output(doc: Path, tiny_folder: Path, capsys) -> None:
    args = (
        "rewrite",
        str(doc),
        "--range",
        RANGE,
        "--model",
        str(tiny_folder),
        "--steps",
        "4",
        "--temperature",
        "1.0",
        "--seed",
        "7",
        "--json",
    )
    first = json.loads(run(capsys, *args)[1])["text"]
    second = json.loads(run(capsys, *args)[1])["text"]
    assert first == second


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--range", "40:10"], "reversed: its start comes after its end (did you mean 10:40?)"),
        (["--range", "5:5"], "empty"),
        (["--range", "0:9999"], "outside the text"),
        (["--range", RANGE, "--lock", "Paris"], "does not occur"),
        (["--range", RANGE, "--lock", "Ada met", "--lock", "met Babbage"], "overlap"),
        (
            [
                "--range",
                RANGE,
                "--lock",
                "Ada met Babbage in London in 1833. They spoke of engines.",
            ],
            "whole selection is locked",
        ),
        (["--range", RANGE, "--strength", "0"], "strength"),
    ],
)
def test_bad_input_exits_2_and_changes_nothing(
    doc: Path, capsys, extra: list[str], message: str
) -> None:
    code, out, err = run(capsys, "rewrite", str(doc), "--write", "--model", "/nonexistent", *extra)
    assert code == 2
    assert message in err
    assert out == ""
    assert doc.read_text(encoding="utf-8") == DOC


def test_lock_outside_the_range_is_refused(doc: Path, capsys) -> None:
    code, _, err = run(capsys, "rewrite", str(doc), "--range", RANGE, "--lock", "End.")
    assert code == 2 and "does not occur in the selection" in err


def test_non_utf8_and_missing_files_exit_2(tmp_path: Path, capsys) -> None:
    bad = tmp_path / "latin1.md"
    bad.write_bytes(b"caf\xe9\n")
    code, _, err = run(capsys, "rewrite", str(bad), "--range", "0:3", "--write")
    assert code == 2 and "not UTF-8" in err
    assert bad.read_bytes() == b"caf\xe9\n"
    code, _, err = run(capsys, "draft", str(tmp_path / "nope.md"), "--at", "0")
    assert code == 2 and "does not exist" in err


def test_malformed_range_is_an_argument_error(doc: Path, capsys) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["rewrite", str(doc), "--range", "ten:twenty"])
    assert exited.value.code == 2
    assert "START:END" in capsys.readouterr().err


def test_missing_or_pickle_model_exits_3(doc: Path, tmp_path: Path, capsys) -> None:
    code, _, err = run(
        capsys, "rewrite", str(doc), "--range", RANGE, "--model", str(tmp_path / "none")
    )
    assert code == 3 and "none" in err
    pickled = tmp_path / "pickled"
    pickled.mkdir()
    (pickled / "config.json").write_text('{"model_type": "llama"}', encoding="utf-8")
    (pickled / "pytorch_model.bin").write_bytes(b"not really")
    code, _, err = run(capsys, "rewrite", str(doc), "--range", RANGE, "--model", str(pickled))
    assert code == 3 and "pickle" in err.lower()
    assert doc.read_text(encoding="utf-8") == DOC


def test_models_lists_the_embedded_default(capsys) -> None:
    code, out, _ = run(capsys, "models", "--json")
    assert code == 0
    [embedded] = [m for m in json.loads(out) if m["source"] == "embedded"]
    # the diffusion adapter ships in resources/models/smollm2-diffusion/
    assert embedded["display_name"] == "SmolLM2-135M diffusion (adapted)"


@pytest.mark.slow
def test_embedded_model_rewrites_a_real_markdown_file_keeping_two_locks(
    tmp_path: Path, capsys
) -> None:
    sample = Path(__file__).resolve().parents[2] / "resources" / "samples" / "engines.md"
    doc = tmp_path / "engines.md"
    doc.write_text(sample.read_text(encoding="utf-8"), encoding="utf-8")
    text = doc.read_text(encoding="utf-8")
    start = text.index("In 1843")
    end = text.index("\n\n", start)
    code, out, err = run(
        capsys,
        "rewrite",
        str(doc),
        "--range",
        f"{start}:{end}",
        "--lock",
        "Ada Lovelace",
        "--lock",
        "Bernoulli numbers",
        "--device",
        "cpu",
        "--steps",
        "8",
        "--json",
    )
    assert code == 0, err
    result = json.loads(out)
    assert result["locks"] == ["Ada Lovelace", "Bernoulli numbers"]
    proposal = result["text"]
    assert proposal.index("Ada Lovelace") < proposal.index("Bernoulli numbers")
    assert result["model"] == "SmolLM2-135M diffusion (adapted)"
    # 8 denoising steps, then the self-check's reads (engine.passes.reread): the context once, the
    # rewrite, and its changed runs in one batch.
    assert result["metrics"]["forwards"] <= 8 + 3


def test_write_keeps_the_bom_and_crlf_outside_the_range(
    tmp_path: Path, tiny_folder: Path, capsys
) -> None:
    path = tmp_path / "windows.md"
    raw = "\ufeff" + DOC.replace("\n", "\r\n").replace("End.\r\n", "End.\nmixed\r\n")
    path.write_bytes(raw.encode("utf-8"))
    code, out, err = run(
        capsys, "rewrite", str(path), "--range", RANGE, "--model", str(tiny_folder),
        "--steps", "4", "--json", "--write",
    )  # fmt: skip
    assert code == 0, err
    text = json.loads(out)["text"].replace("\n", "\r\n")
    before = raw[: raw.index("Ada")]
    after = raw[raw.index(" engines.") + 9 :]
    assert path.read_bytes() == (before + text + after).encode("utf-8")
    assert path.read_bytes().startswith(b"\xef\xbb\xbf# Notes\r\n\r\n")
    assert path.read_bytes().endswith(b"\r\n\r\nEnd.\nmixed\r\n")


def test_the_old_pass_switches_and_the_passes_list_are_both_flags() -> None:
    from app.cli_options import add_engine_options, settings_from
    from engine.core.config import PASS_NAMES

    parser = argparse.ArgumentParser()
    add_engine_options(parser)
    assert settings_from(parser.parse_args([])).passes == PASS_NAMES
    old = settings_from(parser.parse_args(["--no-proofread", "--no-self-check"]))
    assert old.passes == ("markdown", "shorten", "meaning")  # the old switches name no other
    listed = settings_from(parser.parse_args(["--passes", "reread,proofread"]))
    assert listed.passes == ("proofread", "reread")  # always in the order they run
    with pytest.raises(ValueError, match="unknown passes"):
        settings_from(parser.parse_args(["--passes", "poetry"]))


def test_renamed_settings_keep_their_old_flags() -> None:
    from app.cli_options import add_engine_options, settings_from

    parser = argparse.ArgumentParser()
    add_engine_options(parser)
    old = settings_from(parser.parse_args(["--draft-check", "0", "--value-check", "0.5"]))
    new = settings_from(parser.parse_args(["--verify-drafts", "0", "--verify-values", "0.5"]))
    assert old == new and old.verify_drafts == 0 and old.verify_values == 0.5


def test_json_and_plain_output_carry_the_notes(doc: Path, tiny_folder: Path, capsys) -> None:
    common = ("rewrite", str(doc), "--range", RANGE, "--model", str(tiny_folder), "--steps", "4")
    code, out, _ = run(capsys, *common, "--instruction", "as a poem", "--json")
    assert code == 0
    notes = json.loads(out)["notes"]
    assert notes[0].startswith("Not followed: \u201cpoem\u201d")
    assert any("DiffusionGemma" in note for note in notes)
    code, _, err = run(capsys, *common, "--instruction", "as a poem")
    assert code == 0
    assert err.splitlines()[-len(notes) :] == [f"# {note}" for note in notes]
    assert doc.read_text(encoding="utf-8") == DOC
