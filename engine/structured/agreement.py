"""Values that follow from the rest of their row or object: a city's country, a country's
currency, language, time zone and phone numbers, a person's e-mail address.

:func:`derive` answers one kind from what is already known (a ``dict`` of kind → text), in the
style the column or property uses, or ``None`` when nothing known decides it; :func:`choices`
gives a few valid values to choose from when nothing does (the model picks one, so rows vary),
near the countries the document already uses. Every value comes from :mod:`.vocab`.
"""

from __future__ import annotations

import re
from collections import Counter
from functools import cache
from typing import Any

import phonenumbers
import pycountry

from engine.structured import vocab

ORDER = ("country", "city", "subdivision", "currency", "language", "timezone", "phone", "email")
CHOICES = 6  # valid values offered to the model where nothing in the row decides
DOMAIN = re.compile(r"@([a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,})", re.IGNORECASE)
FALLBACK_DOMAIN = "example.com"  # RFC 2606's: never a real person's address


def country_from(known: dict[str, str]) -> Any | None:
    """The country the row's city, time zone, phone number or currency says."""
    if known.get("country"):
        return vocab.country(known["country"])
    if known.get("city"):
        found = vocab.country_of_city(known["city"])
        if found is not None:
            return found
    zone = known.get("timezone", "")
    if vocab.is_time_zone(zone):
        found = vocab.country_of_city(zone.rsplit("/", 1)[-1].replace("_", " "))
        if found is not None:
            return found
    region = vocab.phone_region(known.get("phone", ""))
    return pycountry.countries.get(alpha_2=region) if region else None


def write(kind: str, item: Any, style: str) -> str:
    """A pycountry item as the column writes it (name, alpha-2 or alpha-3 code)."""
    if style in ("alpha_2", "alpha_3") and getattr(item, style, None):
        return str(getattr(item, style))
    if kind == "country":
        return vocab.country_name(item)
    if kind == "language":
        return vocab.language_name(item)
    return str(getattr(item, "alpha_3", item.name))


def derive(kind: str, known: dict[str, str], style: str, salt: int, context: Context) -> str | None:
    """The value of ``kind`` the known values decide, or ``None``."""
    if kind == "email":
        name = known.get("name", "")
        return vocab.email_for(name, context.domain, context.email_style) or None
    if kind == "phone":
        place = country_from(known)
        region = place.alpha_2 if place is not None else context.region
        numbers = vocab.phone_numbers(region, 1, salt, style or "international") if region else []
        return numbers[0] if numbers else None
    place = country_from({k: v for k, v in known.items() if k != kind})
    if place is None:
        return None
    return from_country(kind, place, known, style, context, salt)


def from_country(
    kind: str, place: Any, known: dict[str, str], style: str, context: Context, salt: int
) -> str | None:
    if kind == "country":
        return write(kind, place, style)
    if kind == "city":
        cities = [c for c in vocab.cities_of(place.alpha_2) if c not in context.used]
        return cities[salt % len(cities)] if cities else None
    if kind == "currency":
        code = vocab.currency_of(place.alpha_2)
        item = vocab.currency(code) if code else None
        return write(kind, item, style or "alpha_3") if item is not None else None
    if kind == "language":
        item = vocab.language_of(place.alpha_2)
        return write(kind, item, style) if item is not None else None
    if kind == "subdivision":
        parts = vocab.subdivisions_of(place.alpha_2)
        return parts[salt % len(parts)] if parts else None
    if kind == "timezone":
        zones = vocab.zones_of(place.alpha_2)
        city = vocab.fold(known.get("city", ""))
        named = [z for z in zones if city and vocab.fold(vocab.zone_city(z)) == city]
        return (named or list(zones))[0] if zones else None
    return None


class Context:
    """What a whole table or template says beyond one row: the e-mail domain and style, the
    usual phone region, the countries in use, values already taken."""

    def __init__(self, document: str, emails: list[str], names: list[str], phones: list[str]):
        domains = Counter(m.lower() for e in emails for m in DOMAIN.findall(e))
        domains = domains or Counter(m.lower() for m in DOMAIN.findall(document))
        bare = re.findall(r"\b(?:www\.)?([a-z0-9-]+\.[a-z]{2,3})\b", document.lower())
        self.domain = domains.most_common(1)[0][0] if domains else (bare or [FALLBACK_DOMAIN])[0]
        self.email_style = vocab.email_style(emails, names)
        regions = Counter(r for r in map(vocab.phone_region, phones) if r)
        self.region = regions.most_common(1)[0][0] if regions else None
        self.used: set[str] = set()


EUROPE_ZONES = (3, 4)  # ITU's world zones 3 and 4 are both Europe


def world_zone(alpha_2: str) -> int:
    """The first digit of a country's calling code: ITU's world zone (Europe, 8: East
    Asia…), a neighbourhood every country has."""
    zone = int(str(phonenumbers.country_code_for_region(alpha_2) or 0)[0])
    return EUROPE_ZONES[-1] if zone in EUROPE_ZONES else zone


def listed(item: Any) -> bool:
    """A country worth offering: it has a main time zone or is its calling code's main
    region (so not the Isle of Man beside the United Kingdom), and a plain name."""
    zones = set(vocab.zones_of(item.alpha_2))
    code = phonenumbers.country_code_for_region(item.alpha_2)
    main = phonenumbers.region_code_for_country_code(code) == item.alpha_2
    name = vocab.country_name(item)
    return (
        bool(zones) and (main or bool(zones & vocab.golden_zones())) and not set("(,") & set(name)
    )


def choices(kind: str, used: list[str], style: str, salt: int) -> tuple[str, ...]:
    """A few valid values of ``kind`` not in ``used``: countries from the world zone the used
    ones are in (a Nordic table gets European countries), currencies and languages of those."""
    places = [p for p in map(vocab.country, used if kind == "country" else []) if p is not None]
    zones = Counter(world_zone(p.alpha_2) for p in places)
    pool = neighbourhood(zones.most_common(1)[0][0] if zones else None)
    texts: list[str] = []
    for offset in range(len(pool)):
        item = pool[(salt * CHOICES + offset) % len(pool)]
        text = {"country": write("country", item, style)}.get(kind) or derive_plain(
            kind, item, style
        )
        if text and text not in used and text not in texts:
            texts.append(text)
        if len(texts) >= CHOICES:
            break
    return tuple(texts)


@cache
def neighbourhood(zone: int | None) -> tuple[Any, ...]:
    """The listed countries of a world zone (every listed one for ``None``), by name."""
    return tuple(
        c
        for c in pycountry.countries
        if listed(c) and (zone is None or world_zone(c.alpha_2) == zone)
    )


def derive_plain(kind: str, item: Any, style: str) -> str | None:
    if kind == "currency":
        code = vocab.currency_of(item.alpha_2)
        return code if code else None
    if kind == "language":
        found = vocab.language_of(item.alpha_2)
        return write(kind, found, style) if found is not None else None
    if kind == "timezone":
        return (vocab.zones_of(item.alpha_2) or (None,))[0]
    return None
