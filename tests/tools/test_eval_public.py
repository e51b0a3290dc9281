"""The public-data runners: JFLEG through a rewrite and its own scorer, the spelling set.

Most tests build a tiny data folder of their own (with a stand-in scorer from tests/helpers,
run as a separate process like the real one); the last ones read the real folder when this
machine has it, and only its tuning half's sentences are looked at.
"""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest

from tests.helpers import fake_gleu
from tools.eval import public, spelling
from tools.eval.followed import locate
from tools.eval.jfleg import ScorerError, parse_gleu, run_jfleg

SOURCES = ["He do n't like it .", "She go to school ."]
FIXED = ["He does n't like it .", "She goes to school ."]


def fake_data(tmp_path: Path, sources: list[str], refs: list[list[str]], spell: list[str]) -> Path:
    """A data folder shaped like ../shared/eval-data/, with sizes scaled down."""
    folder = tmp_path / "eval-data"
    jfleg = folder / public.JFLEG_DIR
    jfleg.mkdir(parents=True)
    (jfleg / "dev.src").write_text("\n".join(sources) + "\n")
    for i, lines in enumerate(refs):
        (jfleg / f"dev.ref{i}").write_text("\n".join(lines) + "\n")
    shutil.copy(fake_gleu.__file__, jfleg / "gleu.py")
    (folder / "spelling").mkdir()
    (folder / public.SPELLING_FILE).write_text("\n".join(spell) + "\n")
    return folder


@pytest.fixture
def small(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    monkeypatch.setattr("tools.eval.jfleg.JFLEG_LINES", 4)
    monkeypatch.setattr("tools.eval.spelling.SPELLING_LINES", 2)
    tune = [
        "The weather was cold but the sun came out in the afternoon .",
        "We walked the dog in the park after a long day at work .",
    ]
    report = [
        "They went to the market early in the morning .",
        "The shop on the corner sells bread and milk every day .",
    ]
    refs = [[*FIXED, *report]] + [[*tune, *report]] * 3  # fmt: skip
    return fake_data(tmp_path, SOURCES * 2, refs, ["weather: wether", "market: markit"])


def test_halves_follow_the_readme():
    assert public.half_range(754, "tune") == range(377)
    assert public.half_range(754, "report") == range(377, 754)
    assert public.half_range(348, "report") == range(174, 348)
    assert public.half_of("dev") == "tune" and public.half_of("test") == "report"
    with pytest.raises(ValueError, match="half"):
        public.half_range(10, "all")


def test_jfleg_text_is_typed_as_a_person_would_and_tokenized_back():
    assert public.detokenize("He do n't like it , he says .") == "He don't like it, he says."
    assert public.tokenize("He don't like it, he says.") == "He do n't like it , he says ."
    assert public.tokenize("They can't, won't.") == "They ca n't , wo n't ."


def test_the_runner_sends_typed_sentences_and_scores_the_tokenized_outputs(small: Path):
    seen: list[str] = []

    def fix(sentence: str) -> str:
        seen.append(sentence)
        return {
            "He don't like it.": "He doesn't like it.",
            "She go to school.": "She goes to school.",
        }[sentence]

    result = run_jfleg(fix, "tune", data_dir=small)
    assert seen == ["He don't like it.", "She go to school."]
    assert result["gleu"] == 100.0  # both outputs equal a reference once tokenized back
    assert result["source_gleu"] == 0.0 and result["changed"] == 2
    assert "He" not in str(result)  # scores only: no sentence goes into a report


def test_a_missing_data_folder_is_skipped_cleanly(tmp_path: Path):
    result = run_jfleg(lambda s: s, "report", data_dir=tmp_path / "absent")
    assert result["skipped"].startswith("skipped:")
    assert "skipped" in spelling.run_spelling(lambda s: s, "report", data_dir=tmp_path)


def test_an_unreadable_scorer_output_is_a_clear_error():
    assert parse_gleu("hyp\n[['0.523000', '0.01', '(0.5,0.54)']]\n") == pytest.approx(52.3)
    with pytest.raises(ScorerError, match="Cannot read"):
        parse_gleu("Traceback: nothing useful")


def test_a_data_file_of_the_wrong_size_is_refused(small: Path):
    (small / public.JFLEG_DIR / "dev.src").write_text("one line\n")
    with pytest.raises(ValueError, match="README"):
        run_jfleg(lambda s: s, "tune", data_dir=small)


def test_misspellings_go_into_a_sentence_with_the_word_or_one_it_fits(small: Path):
    items = spelling.build("tune", small)  # the first line: weather
    assert [(i.right, i.wrong, i.placed) for i in items] == [("weather", "wether", "found")]
    assert items[0].misspelt == items[0].clean.replace("weather", "wether")
    report = spelling.build("report", small)  # market: a sentence that has it
    assert report[0].clean == "They went to the market early in the morning."
    assert spelling.build("report", small) == report  # seeded: the same every time


def test_a_word_no_sentence_has_takes_the_place_of_one_with_the_same_tags():
    pool = ["I saw a dog in the park."]  # "park" is NN/VB/VBP like "garden"; "dog" is not
    item = spelling.place("garden", "gardan", pool, set(), random.Random(1))
    assert item == spelling.Item(
        "garden", "gardan", "I saw a dog in the garden.", "I saw a dog in the gardan.", "fits",
        "garden", "gardan",
    )  # fmt: skip
    # "a apple" would not read: the noun after "a" is no place for a word with a vowel, so
    # with no word of the very same tags the one that shares a tag (NN) takes it
    pool = ["I ate a pear in the morning."]
    assert spelling._slots(pool[0], "apple") == []
    item = spelling.place("apple", "aple", pool, set(), random.Random(1))
    assert item.clean == "I ate a pear in the apple." and item.placed == "fits"
    with pytest.raises(ValueError, match="No sentence fits"):
        spelling.place("apple", "aple", ["It is so."], set(), random.Random(1))


def test_a_misspelling_at_the_start_of_a_sentence_takes_its_capital():
    pool = ["When it rains, we stay at home and read."]
    item = spelling.place("when", "whn", pool, set(), random.Random(1))
    assert item.misspelt == "Whn it rains, we stay at home and read."
    assert item.correction() == ("Whn", ("When",))
    fixed = f_score(item, item.clean)
    assert (fixed.fixed, fixed.damaged) == (1, 0)


def f_score(item: spelling.Item, output: str):
    from tools.eval.followed import score_corrections

    return score_corrections(item.misspelt, output, [item.correction()])


def test_the_spelling_scorer_counts_fixes_and_other_words(small: Path):
    fixed = spelling.run_spelling(lambda s: s.replace("wether", "weather"), "tune", data_dir=small)
    assert (fixed["fixed"], fixed["other_words_changed"]) == (1, 0)
    worse = spelling.run_spelling(lambda s: s.replace("cold", "warm"), "tune", data_dir=small)
    assert (worse["fixed"], worse["other_words_changed"]) == (0, 1)
    assert worse["other_words_changed_per_20"] == 20.0


REAL = public.DATA_DIR
needs_data = pytest.mark.skipif(
    not (REAL / public.JFLEG_DIR / "gleu.py").is_file(), reason="no ../shared/eval-data here"
)


@needs_data
def test_jfleg_own_scorer_on_the_tuning_half():
    result = run_jfleg(lambda s: s, "tune", limit=20)
    assert result["sentences"] == 20 and 0 < result["source_gleu"] < 100
    assert result["gleu"] == result["source_round_trip_gleu"]


@needs_data
def test_every_misspelling_of_either_half_is_placed():
    for half in ("tune", "report"):
        items = spelling.build(half)
        assert len(items) == len(spelling.pairs(half))
        assert all(i.misspelt != i.clean for i in items)
        for item in items:  # each can be scored: its misspelling stands where it was put
            assert locate(item.misspelt, [item.correction()]), item.placed


@needs_data
def test_the_engine_names_only_reported_misspellings_that_are_words_themselves():
    """A reported misspelling that is an English word in its own right ("where" typed for
    "were") may stand in the engine's prose; one that is no word would be a table mapping it.
    Either way the engine's count may not grow unseen (it read 3 files, all "where")."""
    from engine.language.en.dictionary import dictionary_words
    from tools.eval import leaks

    wrongs = [wrong for _, wrong in spelling.pairs("report")]
    named = leaks.named_misspellings(wrongs, list(leaks.engine_strings()))
    words = {entry.rpartition(": ")[2] for entry in named}
    assert words <= dictionary_words(), words - dictionary_words()
    assert len(named) <= 3, named


def test_the_menu_task_counts_where_the_right_word_stands_in_both_orders(small: Path):
    from tests.helpers.backends import llama_backend
    from tools.eval import menu

    found = menu.run_menu(llama_backend(), "tune", data_dir=small)  # "wether" is a word
    assert (found["pairs"], found["listed"], found["mean_place_model"]) == (1, 0, None)
    found = menu.run_menu(llama_backend(), "report", data_dir=small)  # "markit": "market"
    assert (found["pairs"], found["listed"], found["first_dictionary"]) == (1, 1, 1)
    assert found["first_model"] in (0, 1) and found["mean_place_model"] >= 1
    assert "markit" not in str(found) and "market" not in str(found)  # scores only
    assert "skipped" in menu.run_menu(llama_backend(), "report", data_dir=small / "absent")


def test_the_menu_places_are_counted_case_aside():
    from tools.eval import menu

    item = spelling.Item("weather", "wether", "", "", "found", "Weather", "Wether")
    assert menu.place_of(item, ["Whether", "Weather"]) == 2
    assert menu.place_of(item, ["Whether"]) is None
    assert menu.summary("tune", [(2, 1), (None, None), (1, 1)], [0.1]) == {
        "half": "tune",
        "pairs": 3,
        "listed": 2,
        "first_dictionary": 1,
        "first_model": 2,
        "mean_place_dictionary": 1.5,
        "mean_place_model": 1.0,
        "median_seconds": 0.1,
    }
