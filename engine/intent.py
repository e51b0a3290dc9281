"""The one reading of a rewrite's instruction: what it asks for, parsed once per request.

Every part of the engine that changes a plan or a result because of what the user asked
(proofreading's candidates, a shorter rewrite's budget and cuts) reads this :class:`Intent`
instead of matching words in the instruction itself, so "what does this instruction mean to the
engine?" has one answer, in this file.

The reading is by keyword, as the engine always read it: an instruction asks for a family when
it contains one of the family's words (``"informal"`` is read as casual first, so it does not
also read as formal). The keyword lists are language data (``language/en/data/intent.json``).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from engine.language.en.data import load_json

# Read before the other words: an informal instruction is a casual one, never a formal one.
INFORMAL = "informal"


@dataclass(frozen=True)
class Intent:
    """The instruction's families; several may hold at once ("tighter and more formal")."""

    instruction: str = ""
    grammar: bool = False  # fix grammar, spelling, typos
    casual: bool = False
    formal: bool = False
    clearer: bool = False  # plainer wording
    shorter: bool = False  # a budget below the original's length

    @property
    def styled(self) -> bool:
        """Whether it asks for anything proofreading can offer candidates for."""
        return self.grammar or self.casual or self.formal or self.clearer


@cache
def family_words() -> dict[str, tuple[str, ...]]:
    """Each family's keywords, from the language data."""
    data = load_json("intent.json")
    return {family: tuple(words) for family, words in data.items()}


def read_intent(instruction: str) -> Intent:
    """The families ``instruction`` asks for (none for an empty or unknown one)."""
    text = instruction.lower()
    words = family_words()
    styled = text.replace(INFORMAL, "casual")

    def asks(family: str, haystack: str = styled) -> bool:
        return any(word in haystack for word in words[family])

    return Intent(
        instruction=instruction,
        grammar=asks("grammar"),
        casual=asks("casual"),
        formal=asks("formal"),
        clearer=asks("clearer"),
        shorter=asks("shorter", text),
    )
