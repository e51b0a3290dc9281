"""The spelling menu's first suggestion: the dictionary's order beside the loaded model's.

The window's menu lists a misspelt word's suggestions (the engine's speller, as the window
has it: the dictionary and lemminflect, no model vocabulary) and then puts them in the order
the model reads them in their sentence (:func:`engine.run.suggestions.rank_suggestions`, the
system measured here). This task puts every misspelling of one half of the spelling set
under that menu, in the same sentences as the spelling task
(:func:`tools.eval.spelling.build`), and counts how often the right word is listed at all and
how often it is listed first in each order, and where it stands on average when listed.
Scores only, never a sentence; the half the split reads, skipped cleanly without the data.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tools.eval.public import DATA_DIR
from tools.eval.spelling import Item, build, unavailable

# As many suggestions as the window's menu lists (ui.spellcheck.MENU_SUGGESTIONS).
MENU_LENGTH = 5


def run_menu(
    backend: Any,
    half: str,
    limit: int = 0,
    data_dir: Path = DATA_DIR,
    say: Callable[[str], None] = lambda _line: None,
) -> dict[str, Any]:
    """Per misspelling: the menu's suggestions in both orders, and where the right word is."""
    why = unavailable(data_dir)
    if why:
        return {"half": half, "skipped": why}
    from engine.language.en.spelling import Speller

    speller, places, seconds = Speller(), [], []
    for i, item in enumerate(build(half, data_dir)[: limit or None]):
        say(f"menu {i + 1}")
        shown = list(speller.suggestions(item.wrong_as_placed or item.wrong))[:MENU_LENGTH]
        started = time.perf_counter()
        ranked = model_order(backend, item, shown, i)
        seconds.append(time.perf_counter() - started)
        places.append((place_of(item, shown), place_of(item, ranked)))
    return summary(half, places, seconds)


def model_order(backend: Any, item: Item, shown: list[str], request_id: int) -> list[str]:
    """``shown`` as the engine ranks it for the misspelt word where it stands."""
    from engine.core.protocol import RankSuggestions
    from engine.run.suggestions import rank_suggestions

    if not shown:
        return []
    typed = item.wrong_as_placed or item.wrong
    at = re.search(rf"(?<![\w'-]){re.escape(typed)}(?![\w'-])", item.misspelt)
    assert at is not None, "the spelling set places each misspelling as a whole word"
    before, after = item.misspelt[: at.start()], item.misspelt[at.end() :]
    request = RankSuggestions(request_id, before, typed, after, tuple(shown))
    return list(rank_suggestions(backend, request).suggestions)


def place_of(item: Item, suggestions: list[str]) -> int | None:
    """Where the right word stands among ``suggestions`` (from 1), case aside; ``None``."""
    right = (item.right_as_placed or item.right).lower()
    lowered = [s.lower() for s in suggestions]
    return lowered.index(right) + 1 if right in lowered else None


def summary(
    half: str, places: list[tuple[int | None, int | None]], seconds: list[float]
) -> dict[str, Any]:
    listed = [(d, m) for d, m in places if d is not None]
    return {
        "half": half,
        "pairs": len(places),
        "listed": len(listed),
        "first_dictionary": sum(d == 1 for d, _ in listed),
        "first_model": sum(m == 1 for _, m in listed),
        "mean_place_dictionary": sum(d for d, _ in listed) / len(listed) if listed else None,
        "mean_place_model": sum(m or 0 for _, m in listed) / len(listed) if listed else None,
        "median_seconds": sorted(seconds)[len(seconds) // 2] if seconds else None,
    }
