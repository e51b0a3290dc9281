"""What a verb takes after it (engine.language.en.verb_patterns): a modal's or a causative's bare
verb, an -ing form after a preposition "to" or a verb that takes one, an object with no
preposition; each offered, never forced."""

from __future__ import annotations

import pytest

from engine.language.en.grammar import fixes
from engine.language.en.verb_patterns import verb_pattern_fixes
from engine.passes.proofread import split_words


def fixed(text: str) -> list[str]:
    """``text`` with each offered fix made, one at a time."""
    words, trail = split_words(text)
    out = []
    for index in range(len(words)):
        for r in verb_pattern_fixes(words, index):
            out.append("".join([*words[: r.first], r.text, *words[r.stop :]]) + trail)
    return out


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("We must to leave now.", "We must leave now."),
        ("She could to swim.", "She could swim."),
        ("I can't to sleep.", "I can't sleep."),
        ("We cannot to stay.", "We cannot stay."),
        ("You must not to touch it.", "You must not touch it."),
        ("I look forward to see you.", "I look forward to seeing you."),
        ("We are looking forward to start.", "We are looking forward to starting."),
        ("He is not used to work late.", "He is not used to working late."),
        ("They got used to cook at home.", "They got used to cooking at home."),
        ("We discussed about it.", "We discussed it."),
        ("She contacted with the bank.", "She contacted the bank."),
        ("They will contact with you.", "They will contact you."),
        ("It lacked of salt.", "It lacked salt."),
        ("The coach made us to run.", "The coach made us run."),
        ("They let him to stay.", "They let him stay."),
        ("I enjoy to cook.", "I enjoy cooking."),
        ("She avoided to answer.", "She avoided answering."),
        ("Avoid to shout.", "Avoid shouting."),
    ],
)
def test_a_verbs_pattern_is_offered_mended(text: str, expected: str) -> None:
    assert fixed(text) == [expected]


@pytest.mark.parametrize(
    "text",
    [
        "I used to work late.",  # a past habit: "to" is the infinitive's
        "She ought to go.",  # not a modal of the list
        "We went to see it.",  # no head makes "to" a preposition
        "We made contact with the bank.",  # a noun
        "The lack of time hurts.",  # a noun
        "We must, to be fair, leave.",  # a mark between them
        "We must to.",  # no verb after it
        "I won't to the shop.",
        "I could've to go.",  # no negated modal
        "I look forward to the trip.",  # no verb after it
        "She made it to work on time.",  # "make it to": arrive at
        "They made a plan to leave.",  # a noun is no causative's object
        "It is considered to be safe.",  # a passive
        "It was suggested to be moved.",
        "I suggested to the team a plan.",  # "to" is a preposition here
        "We enjoy, to be honest, cooking.",  # a mark between them
    ],
)
def test_a_pattern_that_is_already_right_or_is_no_verbs_is_left_alone(text: str) -> None:
    assert fixed(text) == []


def test_grammar_offers_them_beside_its_other_fixes() -> None:
    words, _ = split_words("We must to leave now.")
    assert " must" in {fix.rewording.text for fix in fixes(words)}
