"""The quality suite's own checks (followed, meaning kept, Markdown kept), on hand examples."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tools.eval import followed as f
from tools.eval import markup, meaning, wording
from tools.eval.cases import Draft
from tools.eval.families import draft_checks, in_list, list_mark_in, on_topic

GRAMMAR = "Yesterday we goes to the museum. The guide were friendly and she explain everything."
FIXES = [("goes", ("went",)), ("guide were", ("guide was",)), ("explain", ("explained",))]


def test_formal_leaves_no_contraction_or_slang():
    assert not f.followed("formal", "", "Hey team, we can't make it, ok?")
    assert not f.followed("formal", "", "We are gonna be late.")
    assert not f.followed("formal", "", "We will be late 'cause the vendor is.")
    assert f.followed("formal", "", "We meet at nine o'clock.")  # no contraction to write out
    assert f.followed("formal", "", "Dear team, we cannot meet the deadline: the vendor is late.")
    # a possessive is not a contraction
    assert f.followed("formal", "", "The vendor's delivery is late.")


def test_casual_uses_contractions():
    assert f.followed("casual", "", "We're sorry, the party's off.")
    assert f.followed("casual", "", "It isn't possible to undo this.")
    assert not f.followed("casual", "", "We regret to inform you that the event is postponed.")


def test_shorter_is_at_most_four_fifths_and_grammatical():
    original = "We need to review the budget before the meeting on Friday with the whole team."
    assert f.followed("shorter", original, "We need to review the budget before Friday.")
    assert not f.followed("shorter", original, original)  # not shorter
    assert not f.followed("shorter", original, "We need to review budget before meeting.")
    assert not f.followed("shorter", original, "The budget, which we review on Friday.")
    assert not f.followed("shorter", original, "We need to to review the budget.")
    assert not f.followed("shorter", original, "  ")  # nothing left is no rewrite


def test_an_article_cut_from_between_its_words_is_found():
    assert f.articles_cut("Please review the budget.", "Please review budget.") == [
        "review the budget"
    ]
    assert f.articles_cut("Please review the budget.", "Please check the budget.") == []
    assert f.articles_cut("Read a book.", "Read a good book.") == []


def test_corrections_fixed_and_other_words_damaged():
    assert f.score_corrections(GRAMMAR, GRAMMAR, FIXES) == f.Corrected(3, 0, 0)
    right = "Yesterday we went to the museum. The guide was friendly and she explained everything."
    assert f.score_corrections(GRAMMAR, right, FIXES) == f.Corrected(3, 3, 0)
    assert f.score_corrections(GRAMMAR, right, FIXES).followed
    # fixed, but "the museum" became "a museum" and "everything" was dropped
    loose = "Yesterday we went to a museum. The guide was friendly and she explained."
    assert f.score_corrections(GRAMMAR, loose, FIXES) == f.Corrected(3, 3, 2)
    # a wrong fix is not a fix, and not damage either
    wrong = "Yesterday we go to the museum. The guide was friendly and she explained everything."
    assert f.score_corrections(GRAMMAR, wrong, FIXES) == f.Corrected(3, 2, 0)


def test_any_accepted_form_counts_and_a_leftover_word_does_not():
    text = "She don't like it. The design look much more better."
    fixes = [("She don't", ("She doesn't", "She does not")), ("look", ("looks",)),
             ("more better", ("better",))]  # fmt: skip
    assert f.score_corrections(text, "She does not like it. The design looks much better.", fixes)\
        .followed  # fmt: skip
    kept = f.score_corrections(
        text, "She doesn't like it. The design looks much more better.", fixes
    )
    assert (kept.fixed, kept.damaged) == (2, 0)


def test_an_accepted_form_that_holds_another_counts_whole():
    """ "much cheaper" holds the accepted "cheaper": the longer form is the one written."""
    text = "The phone is more cheaper than mine."
    fixes = [("more cheaper", ("cheaper", "much cheaper"))]
    for right in ("The phone is much cheaper than mine.", "The phone is cheaper than mine."):
        assert f.score_corrections(text, right, fixes).followed
    assert not f.score_corrections(text, "The phone is far cheaper than mine.", fixes).followed


def test_the_case_of_a_word_is_part_of_its_spelling():
    fixes = [("i call", ("I called",))]
    assert not f.score_corrections("Then i call them.", "Then i called them.", fixes).followed
    assert f.score_corrections("Then i call them.", "Then I called them.", fixes).followed


def test_a_correction_that_is_not_in_the_text_is_refused():
    with pytest.raises(ValueError, match="not in the text"):
        f.locate("one two three", [("two", ("2",)), ("one", ("1",))])  # out of order
    with pytest.raises(ValueError, match="not in the text"):
        f.locate("someone", [("one", ("1",))])  # a whole word only


def test_a_family_without_a_check_says_so():
    with pytest.raises(ValueError, match="no 'followed' check"):
        f.followed("clearer", "a", "b")


def test_meaning_catches_negations_connectives_numbers_and_names():
    base = "The fix is planned for March 3, but the tool still fails. Ada can't test it."
    assert meaning.changes(base, base) == []
    assert meaning.changes(base, base.replace("but", "so")) == [
        "contrastive connectives 1 became 0"
    ]
    assert meaning.changes(base, base.replace("but", "however,")) == []
    assert meaning.changes(base, base.replace("can't", "cannot")) == []
    assert meaning.changes(base, base.replace("can't", "can")) == ["negations 1 became 0"]
    assert meaning.changes(base, base.replace("March 3", "March 4"))[0].startswith("numbers")
    assert meaning.changes(base, base.replace("Ada", "Eve"))[0].startswith("names lost ['Ada']")
    # a name may move to the front of a sentence
    assert meaning.changes("We met Ada in Rome.", "In Rome, we met Ada.") == []
    assert meaning.changes("Two cats sat.", "2 cats sat.") == []


def test_meaning_catches_a_sentence_left_without_a_verb():
    original = "The new bridge cost 38 million dollars and took four years to build."
    fragment = "The new bridge, which cost 38 million dollars and took four years to build."
    assert meaning.changes(original, fragment) == [f"a sentence without a verb: {fragment!r}"]
    assert meaning.has_verb("Bake it for 30 minutes.")  # an imperative
    assert meaning.has_verb("Backups protect your work.")
    assert meaning.has_verb("Sorry, I can't make it on Tuesday.")
    assert not meaning.has_verb("Because the vendor is late again.")
    assert meaning.has_verb("Because the vendor is late, we wait.")
    assert not meaning.has_verb("Great news for everyone.")


def test_a_translation_may_change_function_words_but_not_numbers_or_names():
    english = "We do not open on Monday before 9."
    french = "Nous n'ouvrons pas le lundi avant 9."
    assert meaning.changes(english, french, ("words",))[0].startswith("names lost ['Monday']")
    assert not meaning.changes("Ada is not in before 9.", "Ada n'est pas là avant 9.", ("words",))


def test_markdown_kept_compares_blocks_links_code_and_emphasis():
    original = "Use **bold**, a [link](https://a.org) and `x = 1`."
    assert (
        markup.differences(original, "Use **strong** words, a [site](https://a.org) and `x = 1`.")
        == []
    )
    broken = "* **No faster** than the [ [link](https://a.org)"
    found = markup.differences(original, broken)
    assert any(d.startswith("blocks") for d in found)
    assert any(d.startswith("code spans") for d in found)
    assert "1 loose Markdown marks added" in found
    assert markup.differences(original, "Use bold, a [link](https://b.org) and `x = 1`.") == [
        "link targets ['https://a.org'] became ['https://b.org']",
        "emphasis {'strong': 1} became {}",
    ]
    items = "- one thing\n- another thing"
    assert markup.differences(items, "- one\n- two") == []
    assert markup.differences(items, "- one, two")[0].startswith("blocks")


def test_plain_text_is_what_a_reader_reads():
    assert wording.plain_text("Run **`make`** and see [the docs](https://x.org).") == (
        "Run make and see the docs."
    )


def test_sentences_do_not_end_at_an_abbreviation():
    assert wording.sentences("Dr. Ruiz came. She left! Then e.g. this.\nA line") == [
        "Dr. Ruiz came.", "She left!", "Then e.g. this.", "A line",
    ]  # fmt: skip


def test_slang_comes_from_the_package_without_ordinary_words():
    assert {"gonna", "wanna", "kinda", "btw"} <= wording.slang_forms()
    # "shell", "well" and "cause" are what some contractions look like without an apostrophe
    assert not {"shell", "well", "cause", "lets", "were"} & wording.slang_forms()


def test_a_draft_is_held_to_its_prompt_register_and_place():
    case = Draft("email", "Dear Ms. Brennan,\n\nThank you. ", "the delivery date", "formal")
    assert draft_checks(case, "The chairs will be delivered on a date we confirm.")["followed"]
    off = draft_checks(case, "I'm gonna keep my promises.")
    assert not off["on_topic"] and not off["register_kept"] and not off["followed"]
    listed = draft_checks(case, "1. The delivery date is Monday.")
    assert listed["list_mark"] and not listed["followed"]
    assert in_list("Packing:\n\n- tent\n- ") and not in_list("Some prose. ")
    assert on_topic("the walk on the beach", "We walked along the sand.")  # walk = walked


def test_a_list_mark_counts_where_the_draft_opens_a_line_or_a_sentence():
    for text in ("", "We walked.\n\n", "Thank you. ", 'She said "noon." ', "(See below.)"):
        assert list_mark_in(text, " 1. The first step."), text
        assert list_mark_in(text, "- milk"), text
    # going on with the line's sentence, a year that ends it or a dash is no list mark
    assert not list_mark_in("The shop was founded in", " 1998. It grew fast.")
    assert not list_mark_in("We took the old bridge", " - the one by the mill.")
    # a line the draft opens after a break is checked wherever the draft began
    assert list_mark_in("The shop was founded in", " 1998.\n\n2. It grew fast.")
    assert list_mark_in("We took the old bridge", " home.\n- Then the mill.")
    assert not list_mark_in("Notes.\n\n", "The year 2026. was quiet.\nAnd 3 more.")


@given(st.text(alphabet="abc .,'XY\n", max_size=60))
def test_an_output_equal_to_its_text_keeps_meaning_and_markdown(text):
    assert meaning.changes(text, text) == []
    assert markup.differences(text, text) == []
    assert f.score_corrections(text, text, []) == f.Corrected(0, 0, 0)


def test_greetings_contractions_and_function_words_are_no_names():
    text = "Hi Mr. Okafor, thanks. Yeah, we go. You'll see. Note: The cat. Ada came. It's fine."
    assert meaning.names(text) == {"Mr", "Okafor", "Ada"}
    assert meaning.changes("Hi Sam, we go.", "Hello Sam, we go.") == []


def test_a_words_s_is_no_part_of_a_name():
    """ "Ada's" is the name Ada; a common noun's "'s" opening a sentence is no name, so
    writing it out ("Rent's due" as "Rent is due") loses none."""
    assert meaning.names("We read Ada's notes. Report's late.") == {"Ada"}
    assert meaning.changes("Report's late again.", "Report is late again.") == []
    assert meaning.changes("We met Ada's team.", "We met Eve's team.")[0].startswith(
        "names lost ['Ada']"
    )


def test_a_contraction_written_out_opening_a_sentence_is_no_name():
    """ "Can't find it" written out formally is "Cannot find it": the lexicon lacks "cannot",
    but it is the package's expansion of a contraction, a common word."""
    assert meaning.names("Cannot find it. Them apples.") == set()
    assert meaning.changes("Can't find the file.", "Cannot find the file.") == []
    assert meaning.changes("Ada left.", "Cannot left.")[-1].startswith("names lost ['Ada']")


def test_a_fused_slang_form_counts_the_negation_it_holds():
    assert meaning.changes("I dunno why it broke.", "I do not know why it broke.") == []
    assert meaning.changes("I know why.", "I do not know why.") == ["negations 0 became 1"]


def test_a_capital_given_to_a_word_adds_no_name():
    assert meaning.changes("we study english and art.", "We study English and art.") == []
    assert meaning.changes("we study art.", "We study art with Ada.")[-1].endswith("['Ada']")


def test_a_nouns_s_may_be_the_sentences_verb():
    """ "Rent's due" is "Rent is due": the check, sure of a fragment only, reads it
    as a verb; a sentence with no word that may be one is still a fragment."""
    assert meaning.verbless("Rent's due on Friday. The report's on the desk.") == []
    assert meaning.verbless("The bridge, which cost millions.") != []


def test_idioms_carry_no_negation_or_contrast():
    assert meaning.changes("Ask whether or not it works.", "Ask whether it works.") == []
    assert meaning.changes("Not only fast but also cheap.", "Fast and cheap.") == []
    assert meaning.changes("It is not fast.", "It is fast.") == ["negations 1 became 0"]


def test_a_cut_that_leaves_an_article_dangling_is_not_grammatical():
    original = "I could not make the start of the workshop on time this morning, sadly."
    cut = "I could not make the start of the on time."
    assert f.dangling_articles(original, cut) == ["the on"]
    assert not f.followed("shorter", original, cut)
    assert f.dangling_articles("Put it in the on tray.", "Put it in the on tray.") == []


@given(st.text(alphabet="ab 1.-\n", max_size=30), st.text(alphabet="ab 1.-", max_size=20))
def test_a_one_line_draft_going_on_with_a_sentence_has_no_list_mark(text, output):
    """A draft with no line break that does not open a line or a sentence writes no list
    mark, whatever its first characters; one that opens either is judged as the old check
    judged every draft."""
    from tools.eval.families import LIST_MARK, opens_line

    if not opens_line(text):
        assert not list_mark_in(text, output)
    else:
        assert list_mark_in(text, output) == bool(LIST_MARK.search(output.lstrip(" ")))
