"""The per-column and per-field checks of the template-values cases (``resources/eval/*/``).

Each check is a small dict written with the case, before any tuning: ``{"type": "year", "min":
1, "max": 2026}``, ``{"type": "country"}``… :func:`passes` judges one value by it, with the
maintained libraries directly (pycountry, phonenumbers, zoneinfo), never through the engine's
own vocabulary code, so the engine is not graded by itself. :func:`relation_holds` checks a
labelled relation at one place.
"""

from __future__ import annotations

import datetime as dt
import math
import re
import zoneinfo
from collections.abc import Callable
from typing import Any

import phonenumbers
import pycountry

from tools.eval import plausible

VOCAB_TYPES = ("country", "currency", "language", "phone")
EMAIL = re.compile(r"[a-z0-9][a-z0-9._%+-]*@([a-z0-9-]+(\.[a-z0-9-]+)*\.[a-z]{2,})", re.I)
TIME = re.compile(r"([01][0-9]|2[0-3]):([0-5][0-9])(:[0-5][0-9])?")


def number(value: Any) -> float | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return float(value)
    text = str(value).strip()
    return float(text) if re.fullmatch(r"-?[0-9]+(\.[0-9]+)?", text) else None


def decimals(value: Any) -> int:
    """Decimal places as written: a cell's text, or a JSON number (``2.0`` has none)."""
    if isinstance(value, float) and value.is_integer():
        return 0
    text = str(value).strip() if isinstance(value, str) else repr(value)
    return len(text.split(".")[1]) if "." in text and "e" not in text else 0


def in_range(value: float, check: dict[str, Any]) -> bool:
    return float(check["min"]) <= value <= float(check["max"])


def check_number(value: Any, check: dict[str, Any]) -> bool:
    found = number(value)
    places = decimals(value)
    return found is not None and in_range(found, check) and places <= check.get("decimals", 0)


def check_year(value: Any, check: dict[str, Any]) -> bool:
    found = number(value)
    return (
        found is not None
        and found.is_integer()
        and len(str(int(found))) == 4
        and in_range(found, check)
    )


def check_date(value: Any, check: dict[str, Any]) -> bool:
    fmt = check.get("format", "%Y-%m-%d")
    try:
        day = dt.datetime.strptime(str(value).strip(), fmt).date()
    except ValueError:
        return False
    low, high = (dt.date.fromisoformat(check[k]) for k in ("min", "max"))
    return low <= day <= high


def minutes(text: str) -> int | None:
    found = TIME.match(text.strip())
    return int(found[1]) * 60 + int(found[2]) if found else None


def check_time(value: Any, check: dict[str, Any]) -> bool:
    found = minutes(str(value))
    low, high = (minutes(check[k]) for k in ("min", "max"))
    return found is not None and low is not None and high is not None and low <= found <= high


def check_country(value: Any, check: dict[str, Any]) -> bool:
    try:
        found = pycountry.countries.lookup(str(value).strip())
    except LookupError:
        return False
    code, named = check.get("code"), check.get("is")  # the format asked; the country meant
    written = code is None or str(value).strip() == getattr(found, code)
    return written and (named is None or found.alpha_2 == named)


def check_currency(value: Any, check: dict[str, Any]) -> bool:
    return pycountry.currencies.get(alpha_3=str(value).strip()) is not None


def check_language(value: Any, check: dict[str, Any]) -> bool:
    text = str(value).strip()
    if len(text) in (2, 3) and text.islower():
        return pycountry.languages.get(**{f"alpha_{len(text)}": text}) is not None
    try:
        pycountry.languages.lookup(text)
    except LookupError:
        return False
    return True


def check_phone(value: Any, check: dict[str, Any]) -> bool:
    try:
        parsed = phonenumbers.parse(str(value), check.get("region"))
    except phonenumbers.NumberParseException:
        return False
    return phonenumbers.is_valid_number(parsed)


def check_email(value: Any, check: dict[str, Any]) -> bool:
    found = EMAIL.fullmatch(str(value).strip())
    return found is not None and check.get("domain", found[1]) == found[1].lower()


def check_text(value: Any, check: dict[str, Any]) -> bool:
    return isinstance(value, str) and plausible.sensible_string(value, check.get("key", ""), {})


CHECKS: dict[str, Callable[[Any, dict[str, Any]], bool]] = {
    "number": check_number,
    "year": check_year,
    "date": check_date,
    "time": check_time,
    "one_of": lambda v, c: str(v).strip() in c["values"],
    "text": check_text,
    "country": check_country,
    "currency": check_currency,
    "language": check_language,
    "phone": check_phone,
    "email": check_email,
    "timezone": lambda v, c: str(v).strip() in zoneinfo.available_timezones(),
    "subdivision": lambda v, c: _subdivision(str(v)),
}


def _subdivision(text: str) -> bool:
    try:
        pycountry.subdivisions.lookup(text.strip())
    except LookupError:
        return False
    return True


def passes(value: Any, check: dict[str, Any]) -> bool:
    """Whether ``value`` passes ``check`` (an unknown check type is a ``ValueError``)."""
    if check["type"] not in CHECKS:
        raise ValueError(f"Unknown check type {check['type']!r}.")
    return value not in ("", None) and CHECKS[check["type"]](value, check)


def relation_holds(kind: str, target: Any, terms: list[Any], places: int = 2) -> bool | None:
    """Whether ``target`` = sum / difference / product of ``terms`` (``None``: a value is not a
    number); ``not-before`` compares dates, times or numbers."""
    if kind == "not-before":
        return not_before(target, terms[0])
    numbers = [number(t) for t in [target, *terms]]
    if any(n is None for n in numbers):
        return None
    want, *given = (n for n in numbers if n is not None)
    if kind == "sum":
        got = math.fsum(given)
    elif kind == "difference":
        got = given[0] - given[1]
    elif kind == "product":
        got = given[0] * given[1]
    else:
        raise ValueError(f"Unknown relation kind {kind!r}.")
    return abs(got - want) <= 0.5 * 10.0**-places + 1e-9


def not_before(later: Any, earlier: Any) -> bool | None:
    days = _day(str(later)), _day(str(earlier))
    if days[0] is not None and days[1] is not None:
        return days[0] >= days[1]
    for read in (minutes, number):
        a, b = read(str(later)), read(str(earlier))
        if a is not None and b is not None:
            return a >= b
    return None


def _day(text: str) -> dt.date | None:
    try:
        return dt.date.fromisoformat(text.strip())
    except ValueError:
        return None
