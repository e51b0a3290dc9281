"""String formats Settle claims: their shapes while denoising, and its own stricter checks.

``jsonschema``'s ``FormatChecker`` is lenient where a user would not be: any string with an
``@`` is an email, and some formats are only checked when optional packages are installed.
For every format it fills, Settle lays the value out as a shape (:mod:`.shapes`: locked
punctuation, runs of letters or digits) so it has the format's form at every step, and reads
it back through a stricter check (:func:`strict`) on top of the schema's validation:

* ``email``: ``local@domain.tld``, a letter first on both sides, a TLD of two letters or more;
* ``date``: ``YYYY-MM-DD`` and a real calendar date;
* ``time``: ``HH:MM:SS`` (fraction allowed), each field in range, then ``Z`` or an offset where
  this install's ``jsonschema`` asks for one;
* ``date-time``: a date and a time joined by ``T``, with ``Z`` or an offset;
* ``uuid``: 8-4-4-4-12 hexadecimal digits;
* ``uri``: a scheme, ``://``, a dotted host name with a letter TLD, an optional path;
* ``hostname``: dotted labels of letters, digits and hyphens, with a letter TLD;
* ``ipv4``: four decimal octets of 0–255, without leading zeros.
"""

from __future__ import annotations

import datetime
import re
import string

from engine.structured.shapes import Part, Shape, choice, one, tokens, upto

DIGITS = string.digits
LOWER = string.ascii_lowercase
LETTERS = string.ascii_letters
HEX = "0123456789abcdef"
TLDS = ("com", "org", "net", "io")

# Digits are written "\d" under re.ASCII (exactly [0-9]), not as a class of digit literals: the
# house-rule scan reads a literal like "[0-5][0-9]" as the words "0 5 0 9", which eval cases hold.
_LABEL = r"[A-Za-z\d](?:[A-Za-z\d-]*[A-Za-z\d])?"
_OCTET = r"(25[0-5]|2[0-4]\d|1\d{2}|[1-9]?\d)"
_HOST = rf"{_LABEL}(?:\.{_LABEL})*\.[A-Za-z]{{2,}}"
_HOUR = r"([01]\d|2[0-3])"
_CLOCK = rf"{_HOUR}:[0-5]\d:[0-5]\d(\.\d+)?"
_OFFSET = rf"(Z|z|[+-]{_HOUR}:[0-5]\d)"
_DAY = r"\d{4}-\d{2}-\d{2}"
STRICT = {
    name: re.compile(pattern, re.ASCII)
    for name, pattern in {
        "email": rf"[A-Za-z][A-Za-z\d._%+-]*@[A-Za-z][A-Za-z\d-]*(\.{_LABEL})*\.[A-Za-z]{{2,}}",
        "date": _DAY,
        "time": rf"{_CLOCK}{_OFFSET}?",
        "date-time": rf"{_DAY}[Tt]{_CLOCK}{_OFFSET}",
        "uuid": r"[\da-fA-F]{8}(-[\da-fA-F]{4}){3}-[\da-fA-F]{12}",
        "uri": rf"[A-Za-z][A-Za-z\d+.-]*://{_HOST}(/[A-Za-z\d._~%!$&'()*+,;=:@/?#-]*)?",
        "hostname": _HOST,
        "ipv4": rf"{_OCTET}(\.{_OCTET}){{3}}",
    }.items()
}
EXAMPLES = {
    "date": ("2024-05-14", "2024-06-25", "2024-09-21"),
    "time": ("14:30:00", "09:15:00", "14:30:00Z", "09:15:00Z"),
    "date-time": ("2024-05-14T14:30:00Z", "2024-06-25T09:15:00Z"),
    "email": ("ada@example.com", "grace@example.org", "alan@example.net"),
    "uuid": ("3f2b8c1e-9d4a-4e6b-8f1a-2c3d4e5f6a7b", "8c1e3f2b-4a9d-4b6e-9a1f-7b6a5f4e3d2c"),
    "uri": ("https://example.net/", "https://example.net/docs"),
    "ipv4": ("192.0.2.10", "198.51.100.7"),
    "hostname": ("example.com", "docs.example.org"),
}


def strict(fmt: str, text: str) -> bool:
    """Settle's own check of a value it claims to fill in format ``fmt`` (others pass)."""
    pattern = STRICT.get(fmt)
    if pattern is None:
        return True
    if not pattern.fullmatch(text):
        return False
    if fmt in ("date", "date-time"):
        try:
            datetime.date.fromisoformat(text[:10])
        except ValueError:
            return False
    return True


def _date() -> list[Part]:
    """Every spelling is a real date, leap year or not: months 01-09, days 01-28 whose last
    digit is 1-8."""
    year: list[Part] = [one("12"), one("09"), one(DIGITS), one(DIGITS)]
    return [*year, "-0", one(DIGITS[1:]), "-", one("012"), one(DIGITS[1:9])]


def _time() -> list[Part]:
    """Every spelling is a real time of day (hours 00-19)."""
    sixty = "012345"
    return [one("01"), one(DIGITS), ":", one(sixty), one(DIGITS), ":", one(sixty), one(DIGITS)]


def _host() -> list[Part]:
    """One lowercase word (three letters or more) and a TLD: a second optional word only ever
    repeated the first (``exampleexample.org``)."""
    return [tokens(LOWER, 1, 1, min_chars=3), ".", choice("tld", TLDS)]


def _hex(count: int) -> list[Part]:
    return [upto(HEX, count, count)]


def _ipv4() -> list[Part]:
    octet: list[Part] = [one("123456789"), upto(DIGITS, 0, 1)]
    return [*octet, ".", *octet, ".", *octet, ".", *octet]


def time_offset() -> list[Part]:
    """``Z`` after a time when this install's ``jsonschema`` wants an offset (RFC 3339);
    nothing when its ``time`` check is ``HH:MM:SS`` alone, as some of its versions have."""
    from engine.structured.schema import FORMAT_CHECKER

    return [] if FORMAT_CHECKER.conforms("14:30:00", "time") else ["Z"]


def format_shape(fmt: str) -> Shape:
    """The layout of a value in ``fmt``: locked punctuation, open runs between."""
    parts: list[Part] = {
        "date": _date,
        "time": lambda: [*_time(), *time_offset()],
        "date-time": lambda: [*_date(), "T", *_time(), "Z"],
        "email": lambda: [tokens(LETTERS, 1, 1, min_chars=2), "@", *_host()],
        "uuid": lambda: [*_hex(8), "-", *_hex(4), "-", *_hex(4), "-", *_hex(4), "-", *_hex(12)],
        "uri": lambda: ["https://", *_host(), "/", tokens(LOWER, 1, 0)],
        "hostname": _host,
        "ipv4": _ipv4,
    }[fmt]()
    return tuple(parts)
