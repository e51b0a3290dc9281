"""The user's own dictionary: a plain word list the window adds to and every rewrite sends as
``Edit.known_words``, in the window and from the CLI (``--dictionary FILE``)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from app import cli
from app.cli import main
from app.dictionary import FILE_NAME, DictionaryError, UserDictionary, default_path
from engine.core.protocol import MAX_KNOWN_WORD_CHARS, Edit


def test_the_default_file_lives_in_settles_config_folder() -> None:
    assert default_path() == Path(os.environ["SETTLE_CONFIG_DIR"]) / FILE_NAME


def test_added_words_persist_once_each_ignoring_case(tmp_path: Path) -> None:
    path = tmp_path / "nested" / FILE_NAME
    words = UserDictionary(path)
    assert words.words() == ()  # no file yet: no words
    words.add("Settle")
    words.add("settle")
    words.add("  kubectl ")
    assert UserDictionary(path).words() == ("Settle", "kubectl")
    assert [p.name for p in path.parent.iterdir()] == [FILE_NAME]  # no temporary left


def test_a_hand_edited_file_skips_comments_blanks_and_non_words(tmp_path: Path) -> None:
    path = tmp_path / FILE_NAME
    path.write_text("# mine\n\nSettle\ntwo words\nkubectl\n" + "x" * 100 + "\n", "utf-8")
    assert UserDictionary(path).words() == ("Settle", "kubectl")


@pytest.mark.parametrize("bad", ["", "two words", "x" * (MAX_KNOWN_WORD_CHARS + 1), "#tag"])
def test_a_bad_word_is_refused_clearly_and_changes_nothing(tmp_path: Path, bad: str) -> None:
    path = tmp_path / FILE_NAME
    path.write_text("Settle\n", "utf-8")
    with pytest.raises(DictionaryError, match="not one word"):
        UserDictionary(path).add(bad)
    assert path.read_text("utf-8") == "Settle\n"


def test_a_folder_that_cannot_be_written_is_a_clear_error(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("", "utf-8")
    with pytest.raises(DictionaryError, match=r"Cannot (read|save) the dictionary"):
        UserDictionary(blocker / FILE_NAME).add("Settle")


def test_a_request_carries_only_the_words_in_its_passage(tmp_path: Path) -> None:
    words = UserDictionary(tmp_path / FILE_NAME)
    for word in ("Settle", "kubectl", "recieved"):
        words.add(word)
    assert words.known_in("The settle app; (kubectl) logs.") == ("Settle", "kubectl")


def test_the_cli_sends_the_dictionarys_words_and_refuses_a_missing_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    doc = tmp_path / "doc.md"
    doc.write_text("We recieved the kubectl logs.\n", "utf-8")
    mine = tmp_path / "mine.txt"
    mine.write_text("kubectl\nzzz\n", "utf-8")
    sent: list[Edit] = []
    monkeypatch.setattr(cli, "finish", lambda _args, _text, _layout, edit: sent.append(edit) or 0)
    assert main(["rewrite", str(doc), "--range", "0:29", "--dictionary", str(mine)]) == 0
    assert sent[0].known_words == ("kubectl",)
    code = main(["rewrite", str(doc), "--range", "0:29", "--dictionary", str(tmp_path / "no")])
    assert code == 2 and "No dictionary file at" in capsys.readouterr().err
    assert len(sent) == 1 and doc.read_text("utf-8") == "We recieved the kubectl logs.\n"
