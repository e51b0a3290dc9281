"""Real-world vocabularies from maintained libraries: what a country, currency, phone number… is.

A template's country is a country of ISO 3166 (``pycountry``), its currency an ISO 4217 code,
its language an ISO 639 language, its phone number one that ``phonenumbers`` (Google's
libphonenumber metadata) says is valid for its region, its time zone an IANA zone that
``zoneinfo`` knows. What ties them together comes from the Unicode CLDR as ``babel`` ships it:
a territory's currencies, official languages and time zones, and each zone's exemplar city
(Asia/Tokyo → Tokyo), which is also how a city finds its country. Nothing here is a list we
typed; every lookup is cached because a fill asks the same ones for every row.
"""

from __future__ import annotations

import re
import unicodedata
import zoneinfo
from collections.abc import Callable, Sequence
from functools import cache, lru_cache
from typing import Any

import babel.core
import babel.dates
import babel.languages
import babel.numbers
import phonenumbers
import pycountry

from engine.structured import places

LOCALE = "en"  # the names a table uses ("Japan", "Polish"); CLDR's English display names
PHONE_VARIANTS = 40  # numbers tried near a region's example before giving up on variety
LAST_DIGITS = 4  # how many trailing digits of the example number a variant changes


def fold(text: str) -> str:
    """Case and accents folded away, so "brasília" finds "Brasília"."""
    decomposed = unicodedata.normalize("NFKD", text.strip().lower())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


@cache
def country(text: str) -> Any | None:
    """The pycountry country a name, official name or ISO code names (``None``: not one)."""
    return lookup_country(text)


def lookup_country(text: str) -> Any | None:
    """:func:`country`, uncached."""
    if not text.strip():
        return None
    try:
        return pycountry.countries.lookup(text.strip())
    except LookupError:
        return _common_names().get(fold(text))


@cache
def _common_names() -> dict[str, Any]:
    """Countries by the names CLDR gives them ("United States", "Russia", "Czechia")."""
    names = babel.core.Locale.parse(LOCALE).territories
    found = {}
    for item in pycountry.countries:
        for name in (names.get(item.alpha_2), getattr(item, "common_name", None), item.name):
            if name:
                found[fold(name)] = item
    return found


def alpha_2_of(text: str) -> str | None:
    """The ISO alpha-2 code of the country ``text`` names (``None``: not one)."""
    found = country(text)
    return str(found.alpha_2) if found is not None else None


def country_name(item: Any) -> str:
    """How a table names a country: pycountry's common name where it has one, else its name."""
    return str(getattr(item, "common_name", None) or item.name)


@cache
def currency(text: str) -> Any | None:
    try:
        return pycountry.currencies.lookup(text.strip()) if text.strip() else None
    except LookupError:
        return None


@cache
def language(text: str) -> Any | None:
    """A language by name or ISO 639 code ("Polish", "pl", "pol")."""
    text = text.strip()
    if not text:
        return None
    by_code = {2: "alpha_2", 3: "alpha_3"}.get(len(text)) if text.islower() else None
    found = pycountry.languages.get(**{by_code: text}) if by_code else None
    if found is not None:
        return found
    try:
        return pycountry.languages.lookup(text)
    except LookupError:
        return None


@cache
def subdivision(text: str) -> Any | None:
    if not text.strip():
        return None
    try:
        return pycountry.subdivisions.lookup(text.strip())
    except LookupError:
        return None


def subdivisions_of(alpha_2: str) -> tuple[str, ...]:
    """A country's ISO 3166-2 subdivisions by name, in code order."""
    found = pycountry.subdivisions.get(country_code=alpha_2) or []
    return tuple(s.name for s in sorted(found, key=lambda s: s.code))


@cache
def time_zones() -> frozenset[str]:
    """Every IANA zone this machine's ``zoneinfo`` knows (CLDR's, where it has no data)."""
    found = zoneinfo.available_timezones()
    return (
        frozenset(found)
        if found
        else frozenset(z for zs in _territory_zones().values() for z in zs)
    )


def is_time_zone(text: str) -> bool:
    return text.strip() in time_zones()


@cache
def _territory_zones() -> dict[str, tuple[str, ...]]:
    return {k: tuple(v) for k, v in babel.core.get_global("territory_zones").items()}


@cache
def golden_zones() -> frozenset[str]:
    """The zones CLDR maps Windows' zones to: each region's main zone (America/New_York)."""
    return frozenset(babel.core.get_global("windows_zone_mapping").values())


def zones_of(alpha_2: str) -> tuple[str, ...]:
    """A country's time zones, its main ones (CLDR's golden zones) first."""
    zones = [z for z in _territory_zones().get(alpha_2, ()) if z in time_zones()]
    return tuple(sorted(zones, key=lambda z: z not in golden_zones()))


@cache
def zone_city(zone: str) -> str:
    """A zone's exemplar city ("America/Sao_Paulo" → "São Paulo"). CLDR names a few with
    their region ("Argentina/Buenos Aires", "Knox, Indiana"): the city alone is the name."""
    named = str(babel.dates.get_timezone_location(zone, locale=LOCALE, return_city=True))
    return named.rsplit("/", 1)[-1].split(", ", 1)[0]


def cities_of(alpha_2: str) -> tuple[str, ...]:
    """Cities of a country that CLDR names (its time zones' exemplar cities)."""
    return tuple(dict.fromkeys(zone_city(z) for z in zones_of(alpha_2)))


@cache
def _city_countries() -> dict[str, str]:
    found: dict[str, str] = {}
    for alpha_2 in _territory_zones():
        for zone in zones_of(alpha_2):
            found.setdefault(fold(zone_city(zone)), alpha_2)
            found.setdefault(fold(zone.rsplit("/", 1)[-1].replace("_", " ")), alpha_2)
    return found


# A run of capitalised words in a document ("New York", "Lisbon"): a city it names when the
# whole run is one CLDR names, so "Casey Smith" names no city, nor "Paris Fashion Week".
CAPITALISED_RUN = re.compile(r"\b[A-Z][\w'’-]*(?: [A-Z][\w'’-]*)*")
NO_PLACE = "AQ"  # Antarctica's stations (Casey, Davis, Palmer) are as often people's names


@lru_cache(maxsize=16)  # a table's columns each ask of the same document; any document reaches it
def named_cities(document: str) -> tuple[str, ...]:
    """The cities ``document`` names, each once: those CLDR knows (its zones' exemplar cities)
    anywhere, as CLDR writes them ("Lisbon", "São Paulo"; a run that opens a sentence is tried
    without its first word too, "Then Paris"), and those only GeoNames knows where the document
    names a place ("in Ghent", :mod:`engine.structured.places`), as the document writes them."""
    found = named_in(document, lambda run: _city_names().get(fold(run)), tails=2)
    once: dict[str, str] = {}
    for city in [*found, *places.named_cities(document, alpha_2_of)]:
        once.setdefault(fold(city), city)
    return tuple(once.values())


@lru_cache(maxsize=16)  # as named_cities: bounded, the worker runs for days
def field_cities(document: str) -> tuple[str, ...]:
    """The cities a city field may take from ``document``: those it names
    (:func:`named_cities`), else the ones GeoNames knows that are English words too, named in
    running text after a place cue ("in Cork.", "in Split after"): a city field's likeliest
    value, where a date's order is never read from such a word."""
    named = named_cities(document)
    if named:
        return named
    loose = places.named_cities(document, alpha_2_of, words_too=True)
    return tuple(dict.fromkeys(loose))


def named_countries(document: str) -> tuple[Any, ...]:
    """The countries ``document`` names by name, each once ("Nantes, France", "in the United
    States"): a run of capitalised words or its last words, never a code ("IT" and "US" are
    as often words). Looked up uncached: a document's runs are any text, and :func:`country`
    keeps every text it is asked."""
    found = named_in(document, lambda run: None if run.isupper() else lookup_country(run))
    return tuple({item.alpha_2: item for item in found}.values())


def named_in(document: str, name: Callable[[str], Any | None], tails: int = 0) -> list[Any]:
    """What ``name`` finds in each run of capitalised words of ``document``: the whole run,
    else the run without its first words (the first ``tails`` tries; 0: every one)."""
    found = []
    for match in CAPITALISED_RUN.finditer(document):
        words = match[0].split(" ")
        for start in range(min(tails or len(words), len(words))):
            item = name(" ".join(words[start:]))
            if item is not None:
                found.append(item)
                break
    return found


@cache
def _city_names() -> dict[str, str]:
    """Each exemplar city outside Antarctica, folded, → its name as CLDR writes it."""
    return {
        fold(zone_city(zone)): zone_city(zone)
        for alpha_2 in _territory_zones()
        if alpha_2 != NO_PLACE
        for zone in zones_of(alpha_2)
    }


def country_of_city(city: str) -> Any | None:
    """The country of a city CLDR knows (an exemplar city of one of its zones), else of one
    GeoNames knows (a city the document named after a place cue: "in Ghent")."""
    code = places.country_code(city)
    return country_of_exemplar(city) or (pycountry.countries.get(alpha_2=code) if code else None)


def country_of_exemplar(city: str) -> Any | None:
    """The country of a city CLDR knows: what a column's values alone may be read by, as a
    bare capitalised word is as often a person ("Florence", "Charlotte")."""
    code = _city_countries().get(fold(city))
    return pycountry.countries.get(alpha_2=code) if code else None


def currency_of(alpha_2: str) -> str | None:
    """The country's legal tender today (ISO 4217), from CLDR's territory data."""
    found = babel.numbers.get_territory_currencies(alpha_2, tender=True)
    return found[0] if found and currency(found[0]) else None


def language_of(alpha_2: str) -> Any | None:
    """The country's first official language that ISO 639 lists."""
    for code in babel.languages.get_official_languages(alpha_2, de_facto=True):
        found = language(code.split("_")[0])
        if found is not None:
            return found
    return None


def language_name(item: Any) -> str:
    """A language's plain name where ISO 639 knows it by that name ("Norwegian"), else its
    ISO name as it stands ("Swahili (macrolanguage)": plain "Swahili" names no ISO entry)."""
    plain = str(item.name).split(" (")[0]
    return plain if language(plain) is item else str(item.name)


def phone_region(text: str, default_region: str | None = None) -> str | None:
    """The region of a valid phone number ("+47 …" → "NO"), else ``None``."""
    try:
        parsed = phonenumbers.parse(text, default_region)
    except phonenumbers.NumberParseException:
        return None
    if not phonenumbers.is_valid_number(parsed):
        return None
    region = phonenumbers.region_code_for_number(parsed)
    return str(region) if region else None


def valid_phone(text: str, region: str | None = None) -> bool:
    """Whether libphonenumber reads ``text`` as a valid number (for ``region`` when given)."""
    found = phone_region(text, region)
    return found is not None and (region is None or found == region)


PHONE_STYLES = {
    "international": phonenumbers.PhoneNumberFormat.INTERNATIONAL,
    "e164": phonenumbers.PhoneNumberFormat.E164,
}


def phone_style(examples: Sequence[str]) -> str:
    """The column's way of writing numbers: spaced ("+47 40 61 23 45") or packed (E.164)."""
    return "international" if any(" " in e.strip() for e in examples) or not examples else "e164"


def phone_numbers(region: str, count: int, salt: int, style: str = "international") -> list[str]:
    """Up to ``count`` different valid numbers for ``region``: its example mobile number with
    the last digits changed (``salt`` decides which), each checked by libphonenumber."""
    example = phonenumbers.example_number_for_type(region, phonenumbers.PhoneNumberType.MOBILE)
    example = example or phonenumbers.example_number(region)
    if example is None:
        return []
    national = str(example.national_number)
    found: list[str] = []
    for step in range(PHONE_VARIANTS):
        if len(found) >= count:
            break
        tail = f"{(salt * 7919 + step * 1237) % 10**LAST_DIGITS:0{LAST_DIGITS}d}"
        candidate = national[:-LAST_DIGITS] + tail if len(national) > LAST_DIGITS else national
        number = phonenumbers.parse(f"+{example.country_code}{candidate}")
        text = phonenumbers.format_number(number, PHONE_STYLES[style])
        if phonenumbers.is_valid_number(number) and text not in found:
            found.append(text)
    return found


def email_for(name: str, domain: str, style: str = "first.last") -> str:
    """A name-based address at ``domain``: "Marie Dubois" → "marie.dubois@…" (or the column's
    own style: "mdubois", "marie")."""
    words = [re.sub(r"[^a-z]", "", fold(w)) for w in name.split()]
    words = [w for w in words if w]
    if not words:
        return ""
    first, last = words[0], words[-1]
    if len(words) == 1:
        return f"{first}@{domain}"  # one name: "john@…", never "john.john@…"
    local = {"first.last": f"{first}.{last}", "flast": f"{first[0]}{last}", "first": first}
    return f"{local.get(style, local['first.last'])}@{domain}"


def email_style(examples: Sequence[str], names: Sequence[str]) -> str:
    """Which local-part style a column's addresses follow, judged against their rows' names."""
    for address, name in zip(examples, names, strict=False):
        for style in ("first.last", "flast", "first"):
            if name and email_for(name, "x", style).split("@")[0] == address.split("@")[0].lower():
                return style
    return "first.last"
