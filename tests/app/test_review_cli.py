"""``settle rewrite --json`` with hunks and versions, and ``settle retry`` on its output: one
hunk settled again, every other character kept, and every bad input a clear exit 2."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path
from typing import Any

import pytest

from app.cli import main
from app.proposal_json import digest
from engine.core.protocol import SegmentText
from engine.core.worddiff import word_diff
from engine.run.retry import MAX_NOTE_CHARS

DOC = "# Notes\n\nAda met Babbage in London in 1833. They spoke of engines and tables.\n\nEnd.\n"
START = DOC.index("Ada")
END = DOC.index(" tables.") + len(" tables.")
# No passes after the model: the meaning check puts back every change the tiny random model
# writes, and a retry needs hunks to try.
ENGINE = ("--steps", "6", "--temperature", "1", "--strength", "1", "--passes", "")


def cli(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(args))
    return code, out.getvalue(), err.getvalue()


@pytest.fixture(scope="module")
def saved(tmp_path_factory: pytest.TempPathFactory, tiny_folder: Path) -> tuple[Path, Path]:
    """A document and the JSON of a three-version rewrite of it."""
    folder = tmp_path_factory.mktemp("review")
    doc, proposal = folder / "notes.md", folder / "p.json"
    doc.write_text(DOC, encoding="utf-8")
    code, out, err = cli(
        "rewrite", str(doc), "--range", f"{START}:{END}", "--lock", "Babbage",
        "--model", str(tiny_folder), "--alternatives", "3", "--seed", "2", "--json", *ENGINE,
    )  # fmt: skip
    assert code == 0, err
    proposal.write_text(out, encoding="utf-8")
    return doc, proposal


def loaded(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text(encoding="utf-8"))


def segments(data: dict[str, Any]) -> list[SegmentText]:
    return [SegmentText(s["text"], s["locked"]) for s in data["segments"]]


def test_the_json_numbers_hunks_as_the_review_does_and_holds_every_version(saved) -> None:
    path = saved[1]
    data = loaded(path)
    target = DOC[START:END]
    lock = target.index("Babbage")
    hunks = word_diff(target, segments(data), [(lock, lock + 7)]).hunks
    assert [h["id"] for h in data["hunks"]] == list(range(len(hunks)))
    assert [(h["old"], h["new"]) for h in data["hunks"]] == [(h.old, h.new) for h in hunks]
    versions = data["versions"]
    assert versions[0]["text"] == data["text"] and versions[0]["hunks"] == data["hunks"]
    assert 1 < len(versions) <= 3 and len({v["text"] for v in versions}) == len(versions)
    assert all(v["hunks"] for v in versions)  # each differs from the user's text somewhere
    assert data["source"]["sha256"] == digest(DOC)
    assert data["source"]["settings"]["alternatives"] == 3 and data["versions_asked"] == 3
    merged = [note for note in data["notes"] if "of the 3 asked" in note]
    assert len(merged) == (len(versions) < 3)  # fewer than asked: the notes say what became


def retried(saved, *args: str) -> tuple[int, str, str]:
    doc, path = saved
    return cli("retry", str(doc), "--proposal", str(path), *args, "--model", "unused")


def test_a_retry_replaces_one_hunk_and_keeps_every_other_character(
    saved, tiny_folder: Path
) -> None:
    doc, path = saved
    before = loaded(path)
    hunk = next(h for h in before["hunks"] if h["old"].strip())
    code, out, err = cli(
        "retry", str(doc), "--proposal", str(path), "--hunk", str(hunk["id"]),
        "--model", str(tiny_folder), "--attempt", "2",
    )  # fmt: skip
    assert code == 0, err
    after = json.loads(out)
    text, old = after["text"], before["text"]
    assert text[: hunk["new_start"]] == old[: hunk["new_start"]]
    tail = len(old) - hunk["new_end"]
    assert text[len(text) - tail :] == old[hunk["new_end"] :]
    assert "".join(s["text"] for s in after["segments"]) == text
    assert after["versions"][1:] == before["versions"][1:]  # the other versions as they were
    assert after["source"] == before["source"] and after["metrics"] == before["metrics"]
    (record,) = after["retries"]
    assert record["hunk"] == hunk["id"] and record["attempt"] == 2
    assert record["unchanged"] == (text == old)
    assert doc.read_text(encoding="utf-8") == DOC and loaded(path) == before
    again = cli(
        "retry", str(doc), "--proposal", str(path), "--hunk", str(hunk["id"]),
        "--model", str(tiny_folder), "--attempt", "2",
    )  # fmt: skip
    assert json.loads(again[1])["text"] == text  # the same try settles the same way


def test_a_note_word_not_in_the_hunk_is_reported_and_out_writes_the_file(
    saved, tiny_folder: Path, tmp_path: Path
) -> None:
    doc, path = saved
    out_path = tmp_path / "p2.json"
    code, out, err = cli(
        "retry", str(doc), "--proposal", str(path), "--hunk", "0", "--note", "keep 'zebra'",
        "--model", str(tiny_folder), "--out", str(out_path),
    )  # fmt: skip
    assert code == 0, err
    assert out == "" and "zebra" in err and "not in this hunk" in err
    written = loaded(out_path)
    assert written["retries"][0]["missing"] == ["zebra"]
    assert written["retries"][0]["attempt"] == 1  # the file's first try


def changed_file(saved, tmp_path: Path) -> tuple[Path, Path]:
    doc = tmp_path / "notes.md"
    doc.write_text(DOC.replace("End.", "The end."), encoding="utf-8")
    return doc, saved[1]


@pytest.mark.parametrize(
    ("proposal", "says"),
    [
        (None, "no proposal file"),
        ("{not json", "is not JSON"),
        ("[1, 2]", "is not a proposal that `settle rewrite --json` wrote"),
        ('{"text": "x"}', "missing range, segments, source"),
    ],
)
def test_a_missing_or_malformed_proposal_exits_2(
    saved, tmp_path: Path, proposal: str | None, says: str
) -> None:
    path = tmp_path / "p.json"
    if proposal is not None:
        path.write_text(proposal, encoding="utf-8")
    code, out, err = cli("retry", str(saved[0]), "--proposal", str(path), "--hunk", "0")
    assert (code, out) == (2, "") and says in err and "Traceback" not in err


def test_a_proposal_with_a_wrong_field_exits_2_naming_it(saved, tmp_path: Path) -> None:
    data = loaded(saved[1])
    data["segments"][0]["locked"] = "yes"
    path = tmp_path / "p.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    code, _, err = cli("retry", str(saved[0]), "--proposal", str(path), "--hunk", "0")
    assert code == 2 and "locked must be true or false" in err


def test_a_proposal_made_for_other_text_exits_2(saved, tmp_path: Path) -> None:
    doc, path = changed_file(saved, tmp_path)
    code, _, err = cli("retry", str(doc), "--proposal", str(path), "--hunk", "0")
    assert code == 2 and "made for other text" in err
    assert doc.read_text(encoding="utf-8") == DOC.replace("End.", "The end.")


def test_a_hunk_id_out_of_range_exits_2_saying_which_exist(saved) -> None:
    count = len(loaded(saved[1])["hunks"])
    code, _, err = retried(saved, "--hunk", str(count))
    assert code == 2 and f"no hunk {count}" in err and f"ids 0 to {count - 1}" in err
    assert retried(saved, "--hunk", "-1")[0] == 2


def test_a_note_too_long_exits_2_before_any_model_loads(saved) -> None:
    code, _, err = retried(saved, "--hunk", "0", "--note", "x" * (MAX_NOTE_CHARS + 1))
    assert code == 2 and f"at most {MAX_NOTE_CHARS}" in err  # "--model unused": never loaded


def test_an_attempt_below_1_is_an_argument_error(saved) -> None:
    with pytest.raises(SystemExit) as exited:
        retried(saved, "--hunk", "0", "--attempt", "0")
    assert exited.value.code == 2


def test_plain_output_says_how_many_other_versions_there_are(tiny_folder: Path, tmp_path) -> None:
    doc = tmp_path / "notes.md"
    doc.write_text(DOC, encoding="utf-8")
    code, out, err = cli(
        "rewrite", str(doc), "--range", f"{START}:{END}", "--model", str(tiny_folder),
        "--alternatives", "2", "--seed", "2", *ENGINE,
    )  # fmt: skip
    assert code == 0 and out.startswith("--- a/")
    assert "1 other version: see --json" in err


def test_every_command_of_the_cli_runs_headless_never_the_window() -> None:
    """`settle retry --help` opened the window before it was listed: every subcommand is."""
    import argparse

    from app.cli import build_parser
    from app.main import CLI_COMMANDS

    parser = build_parser()
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    assert set(commands.choices) <= CLI_COMMANDS


@pytest.mark.parametrize("value", ["0", "9"])
def test_a_number_of_versions_out_of_bounds_exits_2_naming_the_setting(
    tmp_path: Path, value: str
) -> None:
    doc = tmp_path / "notes.md"
    doc.write_text(DOC, encoding="utf-8")
    code, out, err = cli(
        "rewrite", str(doc), "--range", f"{START}:{END}", "--alternatives", value,
        "--model", "unused",
    )  # fmt: skip
    assert (code, out) == (2, "") and "alternatives must lie between 1 and 4" in err
    assert doc.read_text(encoding="utf-8") == DOC
