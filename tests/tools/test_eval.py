"""The quality suite: its cases, its measures, its plausibility checks, its report, its runners."""

from __future__ import annotations

import copy
import json

import pytest
import torch
import torch.nn.functional as F
from hypothesis import given
from hypothesis import strategies as st

from engine.core.config import SamplerSettings
from tests.helpers.backends import llama_backend, tiny_table
from tests.helpers.tiny import tiny_llama, tiny_tokenizer
from tools.adapt.corpus import SYNTHETIC_TRAIN, synthetic_docs
from tools.eval import measures as m
from tools.eval import plausible
from tools.eval.cases import (
    SPLITS,
    Rewrite,
    check_rewrite,
    load_split,
    overlaps,
)
from tools.eval.report import markdown
from tools.eval.systems import Autoregressive, Diffusion
from tools.eval.tasks import Judge, cloze_task, draft_task, rewrite_task


def test_the_dev_split_keeps_the_cases_the_defaults_were_tuned_on():
    cases = load_split("dev")
    assert len(cases.cloze) >= 40
    assert {c.kind for c in cases.cloze} >= {"fact", "list", "date", "code", "prose"}
    assert len(cases.drafts) >= 10
    assert {d.kind for d in cases.drafts} >= {"prose", "howto", "letter", "notes"}
    first = [r for r in cases.rewrites if not r.family]
    assert len(first) >= 20
    assert {r.instruction for r in first} == {
        "tighter",
        "formal",
        "clearer",
        "fix grammar",
        "casual",
    }
    assert all(r.locks for r in first)
    # some locks have text right next to them: a comma, or a word after a single space
    glued = [
        r
        for r in cases.rewrites
        for p in r.locks
        if r.paragraph[r.paragraph.index(p) + len(p)] in ",."
    ]
    assert glued


@pytest.mark.parametrize("split", SPLITS)
def test_no_case_is_in_the_synthetic_training_documents(split):
    cases = load_split(split)
    assert overlaps(cases, (d.text for d in synthetic_docs(0, SYNTHETIC_TRAIN))) == []


def test_the_contamination_check_finds_a_planted_case():
    cases = load_split("dev")
    planted = "Some manual text. " + cases.rewrites[0].paragraph + " More text."
    found = overlaps(cases, ["unrelated words only", planted])
    # the case's reference shares some of its 8-grams, so it is found with it
    assert cases.rewrites[0].paragraph in found
    assert set(found) <= {cases.rewrites[0].paragraph, cases.rewrites[0].reference}


def test_a_rewrite_case_with_a_bad_lock_or_instruction_is_refused():
    with pytest.raises(ValueError, match="exactly once"):
        check_rewrite(Rewrite("tighter", "", "a b a", "", ("a",)))
    with pytest.raises(ValueError, match="Unknown family"):
        check_rewrite(Rewrite("shout", "", "a b", "", ("a",)))
    with pytest.raises(ValueError, match="in its reference"):
        check_rewrite(Rewrite("tighter", "", "a b c", "", ("a",), reference="b c"))


def test_the_tighter_cases_carry_a_persons_shorter_version():
    tighter = [r for r in load_split("dev").rewrites if r.instruction == "tighter" and not r.family]
    assert tighter and all(r.reference for r in tighter)
    assert all(len(r.reference) <= 0.9 * len(r.paragraph) for r in tighter)


def test_content_words_said_again():
    loop = "The engine is the machine that is the computer. The machine was a computer."
    # engine machine that computer machine computer: two of six said before
    assert m.repeated_word_share(loop) == pytest.approx(2 / 6)
    assert m.repeated_word_share("It was a fine day in Lisbon.") == 0.0
    assert m.repeated_word_share("") == 0.0


def test_repeated_trigrams():
    assert m.repeated_trigram_share([1, 2, 3, 4, 5]) == 0.0
    assert m.repeated_trigram_share([1, 2, 3, 1, 2, 3]) == pytest.approx(1 / 4)
    assert m.repeated_trigram_share([7, 7, 7, 7]) == pytest.approx(1 / 2)
    assert m.repeated_trigram_share([1, 2]) == 0.0


@given(st.lists(st.integers(0, 5), max_size=40))
def test_repeated_trigram_share_is_a_share(ids):
    assert 0.0 <= m.repeated_trigram_share(ids) < 1.0


def test_content_words_keep_names_nouns_and_numbers():
    words = m.content_words("Ada Lovelace wrote the notes in 1843, and they were long.")
    assert {"ada", "lovelace", "wrote", "notes", "1843", "long"} <= words
    assert not words & {"the", "and", "they", "were", "in"}
    assert m.content_kept("Ada wrote notes in 1843.", "In 1843 Ada wrote.") == pytest.approx(3 / 4)
    assert m.content_kept("the and of", "anything") == 1.0


def test_lock_edges_catch_an_eaten_space():
    paragraph = "famous machines in 1843, while"
    assert m.lock_edges_kept(paragraph, "famous machines 1843, while", ["1843"]) == (2, 2)
    assert m.lock_edges_kept(paragraph, "famous machines1843, while", ["1843"]) == (1, 2)
    assert m.lock_edges_kept(paragraph, "machines in 1843 while", ["1843"]) == (2, 2)
    assert m.lock_edges_kept(paragraph, "machines in 1843while", ["1843"]) == (1, 2)
    assert m.lock_edges_kept(paragraph, "nothing locked here", ["1843"]) == (0, 2)


def test_lock_edges_judge_the_lock_not_an_echo_of_its_words():
    paragraph = "The talk is on March 3 at noon."
    assert m.lock_edges_kept(
        paragraph, "The talk is on March 33 March 3 at noon.", ["March 3"]
    ) == (
        2,
        2,
    )
    assert m.lock_edges_kept(paragraph, "On March 3x the talk, March 3at noon.", ["March 3"]) == (
        1,
        2,
    )
    # In order: the second lock is looked for after the first.
    two = "Ada met Babbage and Ada"
    assert m.lock_edges_kept("Ada met Babbage. Ada left.", two, ["Babbage", "Ada"]) == (4, 4)


def test_locks_kept_in_order():
    assert m.locks_kept("Ada met Babbage", ["Ada", "Babbage"])
    assert not m.locks_kept("Babbage met Ada", ["Ada", "Babbage"])


def test_cloze_answers_match_at_a_word_boundary():
    assert m.cloze_right(" France, a country", ["France"])
    assert m.cloze_right(" france.", ["France"])
    assert not m.cloze_right(" Frances", ["France"])
    assert not m.cloze_right(" the", ["France"])
    assert m.cloze_right(" fall", ["autumn", "fall"])


def test_the_judge_is_the_mean_token_nll_given_the_context():
    model = tiny_llama()
    context, output = [3, 10, 11], [12, 13]
    ids = torch.tensor([context + output])
    logits = model(input_ids=ids).logits[0]
    want = F.cross_entropy(logits[2:4].float(), torch.tensor(output)).item()
    assert m.judge_nll(model, context, output) == pytest.approx(want, rel=1e-5)
    assert m.judge_nll(model, context, []) is None


@pytest.mark.parametrize(
    ("value", "key", "schema", "ok"),
    [
        ("@", "email", {"format": "email"}, False),
        ("example.exampleexample@@example.org@example@", "email", {"format": "email"}, False),
        ("ada.lovelace@example.org", "email", {"format": "email"}, True),
        ("L", "name", {}, False),
        ("Ada Lovelace", "name", {}, True),
        ("INV-0000", "invoice_number", {"pattern": "^INV-[0-9]{4}$"}, False),
        ("INV-0042", "invoice_number", {"pattern": "^INV-[0-9]{4}$"}, True),
        ("2025-02-30", "issued", {"format": "date"}, False),
        ("2025-03-14", "issued", {"format": "date"}, True),
        ("0001-01-01", "issued", {"format": "date"}, False),
        ("the the the", "notes", {}, False),
        ("abcabcabc", "notes", {}, False),
        ("", "notes", {}, False),
        ("Two pens", "description", {}, True),
        ("EGER02--0--00 yes", "decision", {}, False),
        ("kenest-", "owner", {}, False),
        ("no020 yes", "decision", {}, False),
        ("Ship without the well-known v2.4 wizard", "decision", {}, True),
        ("221B Baker Street", "street", {}, True),
        ("https://example.org/a", "website", {"format": "uri"}, True),
        ("http://", "website", {"format": "uri"}, False),
        ("EUR", "currency", {"enum": ["EUR", "USD"]}, True),
        (12.5, "unit_price", {}, True),
        (5e7, "total", {}, False),
        (True, "paid", {}, True),
    ],
)
def test_plausibility_of_a_value(value, key, schema, ok):
    assert plausible.sensible(value, key, schema) is ok


def test_plausibility_walks_refs_and_arrays():
    schema = {
        "type": "object",
        "properties": {
            "customer": {"$ref": "#/$defs/c"},
            "lines": {"type": "array", "items": {"$ref": "#/$defs/l"}},
        },
        "$defs": {
            "c": {"type": "object", "properties": {"email": {"format": "email"}}},
            "l": {"allOf": [{"properties": {"unit_price": {"type": "number"}}}]},
        },
    }
    good = {"customer": {"email": "a@b.org"}, "lines": [{"unit_price": 3}, {"unit_price": 4}]}
    assert plausible.json_values(good, schema) == (3, 3)
    bad = {"customer": {"email": "@"}, "lines": [{"unit_price": -1}]}
    assert plausible.json_values(bad, schema) == (0, 2)


def fake_summary(**diffusion):
    text = {
        "cases": 2,
        "empty": 0,
        "repeated_3grams": 0.01,
        "judge_nll": 2.0,
        "median_seconds": 1.0,
        "tokens": 40,
        "seconds": 2.0,
        "tokens_per_second": 20.0,
        "tokens_per_forward": 4.0,
    }
    rewrite = {
        **text,
        "original_judge_nll": 2.5,
        "length_ratio": 0.9,
        "tighter_length_ratio": 0.8,
        "content_kept": 0.7,
        "locks_kept": 1.0,
        "lock_edges_kept": 1.0,
    }
    ar = {**rewrite, "tokens_per_second": 10.0, "tokens_per_forward": 1.0}
    return {
        "meta": {
            "model": "m",
            "settings": {},
            "machine": "x",
            "wall_s": 1.0,
            "contamination": "0 cases",
        },
        "tasks": {
            "cloze": {
                "summary": {
                    "diffusion": {"right": 30, "cases": 42},
                    "autoregressive": {"right": 20, "cases": 42},
                }
            },
            "rewrite": {
                "summary": {"diffusion": {**rewrite, **diffusion}, "autoregressive": ar},
                "cases": {"diffusion": [], "autoregressive": []},
            },
        },
    }


def test_the_report_shows_the_tighter_cases_beside_a_persons_versions():
    results = fake_summary()
    results["tasks"]["rewrite"]["tighter_reference"] = {
        "cases": 6, "original_judge_nll": 3.0, "reference_judge_nll": 3.23,
        "reference_length_ratio": 0.82,
    }  # fmt: skip
    results["tasks"]["rewrite"]["summary"]["diffusion"]["tighter_judge_nll"] = 3.26
    report = markdown(results)
    assert "'tighter' cases' judge NLL (for scale, not a goal) | 3.26 |" in report
    assert "originals 3.00; a person's tighter versions 3.23 at length ratio 0.82" in report


def test_the_report_marks_goals_met_and_missed():
    report = markdown(fake_summary())
    assert "| cloze: answers right | 30/42 | 20/42 | > AR ✅ |" in report
    assert "rewrite: speed vs AR (same tokens) | 2.00× | 1× | ≥ 2× ✅" in report
    missed = markdown(fake_summary(locks_kept=0.5, empty=1))
    assert "| rewrite: locks kept | 50% | 100% | 100% ❌ |" in missed
    assert "| rewrite: empty outputs | 1 | 0 | 0 ❌ |" in missed


def test_the_runners_measure_both_systems_on_tiny_models():
    cases = load_split("dev")
    backend = llama_backend()
    tok = copy.deepcopy(tiny_tokenizer())  # the cached one stays without a chat template
    tok.chat_template = "{% for m in messages %}{{ m['content'] }}\n{% endfor %}"
    settings = SamplerSettings(steps=4, context_tokens=32, suffix_tokens=16)
    ar = Autoregressive(tiny_llama(), tok, tok.bos_token_id)
    systems = {"diffusion": Diffusion(backend, settings), "autoregressive": ar}
    judge = Judge(ar.model, ar.encode, ar.start_id)
    cloze = cloze_task(cases.cloze[:2], systems, tiny_table().encode)
    assert cloze["summary"]["diffusion"]["cases"] == 2
    drafts = draft_task(cases.drafts[:1], systems, judge)
    assert drafts["summary"]["autoregressive"]["tokens"] == 48  # a fixed-length continuation
    rewrites = rewrite_task(cases.rewrites[:2], systems, judge)
    diffusion = rewrites["summary"]["diffusion"]
    assert diffusion["locks_kept"] == 1.0  # the engine's guarantee, measured
    assert rewrites["tighter_reference"]["cases"] == 2  # the first two cases are 'tighter'
    assert rewrites["tighter_reference"]["reference_judge_nll"] > 0
    assert json.dumps(rewrites)  # the report file can hold it


def test_the_ablation_table_has_a_row_per_run(tmp_path):
    from tools.eval import ablations

    path = tmp_path / "quality.json"
    path.write_text(json.dumps(fake_summary()))
    out = tmp_path / "table.md"
    assert ablations.main([f"guards={path}", f"other={path}", "--out", str(out)]) == 0
    lines = out.read_text().splitlines()
    assert len(lines) == 4 and lines[2].startswith("| guards | 30/42 | n/a |")
    assert "| 2.00× |" in lines[2]


def test_stuttered_or_overlong_text_is_not_sensible():
    for garbled in (
        "Londonfalsetruetruetrue",
        "Johnalialialinamename",
        "JohnJohnali{namenamename",
        "no   .  .",
        "versionversion",
    ):
        assert not plausible.sensible_string(garbled, "name", {}), garbled
    assert not plausible.sensible_string("Inversion0000000.00", "description", {})
    assert not plausible.sensible_string("due on ab20th", "description", {})
    for fine in (
        "Mississippi", "Fix the login page - it crashes", "A & B", "bookkeeper",
        "The invoice is due on 20th of January", "the 21st and 22nd",
    ):  # fmt: skip
        assert plausible.sensible_string(fine, "summary", {}), fine
    code = {"pattern": "^\\+[0-9]{7,14}$"}
    assert not plausible.sensible_string("+111111101110", "phone", code)
    assert plausible.sensible_string("+442079460958", "phone", code)


def test_marks_run_together_are_not_sensible_but_an_ellipsis_is():
    for garbled in ("Python beta.,,", "Barbara Shannon..org.", "Pythonbeta..x..x..", "a...b"):
        assert not plausible.sensible_string(garbled, "description", {}), garbled
    for fine in ("Wait for it...", "Dr. Ruiz, then J. Smith.", "Is it done? Yes!"):
        assert plausible.sensible_string(fine, "description", {}), fine


def test_a_template_word_glued_into_a_value_is_not_sensible():
    schema = {
        "type": "object",
        "properties": {"full_name": {"type": "string"}, "email": {"type": "string"}},
    }
    assert plausible.json_values({"full_name": "Adaretnameemail", "email": "a"}, schema)[0] == 1
    assert plausible.json_values({"full_name": "Ada Lovelace", "email": "a"}, schema)[0] == 2
    assert plausible.json_values({"full_name": "Londonfalsetrue", "email": "a"}, schema)[0] == 1


def test_words_changed_counts_what_a_rewrite_did_not_keep_in_order() -> None:
    original = "the cat sat on the mat"
    assert m.words_changed(original, original) == 0.0
    assert m.words_changed(original, "the cat sat on a mat") == pytest.approx(1 / 6)
    assert m.words_changed(original, "a dog lay under that rug") == 1.0
    assert m.words_changed(original, "") == 1.0
    assert m.words_changed("", "anything") == 0.0
