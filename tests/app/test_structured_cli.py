"""``settle fill-json`` and ``settle fill-table`` on a tiny model folder; bad input exits 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator, FormatChecker

from app.cli import main
from app.main import CLI_COMMANDS

TEMPLATES = Path(__file__).parents[2] / "resources" / "templates"
TABLE = "Notes\n\n| who | qty |\n|-----|-----|\n| Ada | 3 |\n| Bob |  |\n\nEnd.\n"


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_fill_json_prints_a_valid_instance_and_writes_it(
    tiny_folder: Path, tmp_path: Path, capsys
) -> None:
    schema_path = TEMPLATES / "invoice.schema.json"
    out_path = tmp_path / "invoice.json"
    code, out, err = run(
        capsys,
        "fill-json",
        "--schema",
        str(schema_path),
        "--model",
        str(tiny_folder),
        "--steps",
        "4",
        "--json",
        "--write",
        str(out_path),
    )
    assert code == 0, err
    result = json.loads(out)
    schema = json.loads(schema_path.read_text(encoding="utf-8"))
    validator = Draft202012Validator(schema, format_checker=FormatChecker())
    assert validator.is_valid(result["instance"])
    assert {"forwards", "slots", "repaired"} <= set(result["metrics"])
    assert json.loads(out_path.read_text(encoding="utf-8")) == result["instance"]


def test_fill_json_keeps_locked_template_values(tiny_folder: Path, tmp_path: Path, capsys) -> None:
    schema = {
        "type": "object",
        "properties": {"name": {"type": "string"}, "age": {"type": "integer", "minimum": 0}},
        "required": ["name", "age"],
    }
    (tmp_path / "s.json").write_text(json.dumps(schema), encoding="utf-8")
    (tmp_path / "t.json").write_text('{"name": "Ada", "age": 36}', encoding="utf-8")
    code, out, err = run(
        capsys,
        "fill-json",
        "--schema",
        str(tmp_path / "s.json"),
        "--template",
        str(tmp_path / "t.json"),
        "--lock-path",
        "/name",
        "--model",
        str(tiny_folder),
        "--steps",
        "2",
    )
    assert code == 0, err
    assert json.loads(out)["name"] == "Ada"


def test_fill_table_prints_a_diff_and_writes(tiny_folder: Path, tmp_path: Path, capsys) -> None:
    doc = tmp_path / "t.md"
    doc.write_text(TABLE, encoding="utf-8")
    code, out, err = run(
        capsys,
        "fill-table",
        str(doc),
        "--table",
        "1",
        "--model",
        str(tiny_folder),
        "--steps",
        "2",
        "--json",
        "--write",
    )
    assert code == 0, err
    result = json.loads(out)
    assert result["text"].startswith("| who | qty |\n|-----|-----|\n| Ada | 3 |\n| Bob |")
    assert doc.read_text(encoding="utf-8") == TABLE.replace(
        TABLE[TABLE.index("| who") : TABLE.index("\n\nEnd")], result["text"]
    )


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["fill-json", "--schema", "{schema}"], "not valid JSON"),
        (["fill-json", "--schema", "{unsat}"], "unsatisfiable"),
        (["fill-json", "--schema", "{remote}"], "$ref"),
        (["fill-json", "--schema", "{unsat}", "--lock-path", "/x"], "Nothing to lock"),
        (["fill-table", "{prose}"], "has 0 Markdown table"),
        (["fill-table", "{table}", "--cells", "7,7"], "no body cell"),
        (["fill-table", "{table}", "--cell-tokens", "0"], "at least 1 token"),
    ],
)
def test_bad_input_exits_2_before_loading_a_model(
    tmp_path: Path, capsys, args: list[str], words: str
) -> None:
    files = {
        "schema": "{not json",
        "unsat": json.dumps({"type": "integer", "minimum": 3, "maximum": 1}),
        "remote": json.dumps({"$ref": "https://example.com/s.json"}),
        "prose": "Just prose.\n",
        "table": TABLE,
    }
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    argv = [a.format(**{k: str(tmp_path / k) for k in files}) for a in args]
    code, _, err = run(capsys, *argv, "--model", str(tmp_path / "no-such-model"))
    assert code == 2, err
    assert words in err


def test_the_settle_entry_point_routes_both_commands() -> None:
    assert {"fill-json", "fill-table"} <= CLI_COMMANDS
