"""Table and JSON fills on the filler backend, and the Markdown the structured tests read and
write: shared by the template-values, relation and date tests."""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

from engine.core.config import SamplerSettings
from engine.core.protocol import Fill, FillKind, Span
from engine.structured import event_days, stated
from engine.structured.fill import run_json
from engine.structured.markdown import find_tables
from engine.structured.slots import Filled
from engine.structured.tables import run_table
from tests.helpers.backends import tiny_table
from tests.helpers.filler import FillerBackend

FILLER = FillerBackend(tiny_table())
CELL_TOKENS = 20
DATE = {"type": "string", "format": "date"}


def dates_schema(*keys: str) -> dict[str, Any]:
    """A template object of required date members named ``keys``, in that order."""
    return {"type": "object", "required": list(keys), "properties": dict.fromkeys(keys, DATE)}


def table_fill(doc: str, seed: int = 0, **kw: Any) -> Filled:
    """The first table of ``doc`` filled (its empty cells, plus ``add_rows`` if given)."""
    table = find_tables(doc)[0]
    request = Fill(1, FillKind.TABLE, doc, table.span, cell_tokens=CELL_TOKENS,
                   settings=SamplerSettings(seed=seed), **kw)  # fmt: skip
    return next(e for e in run_table(FILLER, request) if isinstance(e, Filled))


def json_fill(
    schema: dict[str, Any],
    document: str = "",
    seed: int = 0,
    template: dict[str, Any] | None = None,
) -> Filled:
    """A JSON instance of ``schema`` generated at the end of ``document``; ``template``'s
    top-level values are written there first and locked."""
    text = document + (json.dumps(template, indent=2) if template else "")
    locks = tuple(f"/{key}" for key in template or {})
    request = Fill(1, FillKind.JSON, text, Span(len(document), len(text)), locks=locks,
                   schema=json.dumps(schema), settings=SamplerSettings(seed=seed))  # fmt: skip
    return next(e for e in run_json(FILLER, request) if isinstance(e, Filled))


def rows(text: str) -> list[list[str]]:
    """The body cells of the first table of ``text``."""
    table = find_tables(text)[0]
    return [[r.cell(c) for c in range(1, table.columns + 1)] for r in table.body]


def md(header: list[str], body: list[list[str]]) -> str:
    """A Markdown table of ``header`` and ``body``."""
    line = lambda cells: "| " + " | ".join(cells) + " |"  # noqa: E731
    return "\n".join([line(header), "|" + "---|" * len(header), *map(line, body)]) + "\n"


def iso_span(span: tuple[float, float] | None) -> tuple[str, str] | None:
    """A span of day ordinals as ISO dates (``None`` stays ``None``)."""
    if span is None:
        return None
    low, high = (dt.date.fromordinal(int(v)).isoformat() for v in span)
    return low, high


def written_span_of(document: str) -> tuple[str, str] | None:
    """The first and last day ``document`` writes (its reading's written span), in ISO."""
    return iso_span(stated.read(document).written_span())


def ends_of(document: str) -> tuple[str, str] | None:
    """The first and last day of what ``document`` is about, as a template's start and end
    take them (:func:`engine.structured.event_days.document_ends`), in ISO."""
    return iso_span(event_days.document_ends(document))


def lone_days(text: str, members: list[str]) -> list[str | None]:
    """The first day of each top-level date member's lone span in ``text`` (ISO), in order."""
    event = event_days.event_days(text)
    assert event is not None
    found = [event_days.lone_date_span(event, key, 1, members) for key in members]
    return [None if f is None else dt.date.fromordinal(int(f[0])).isoformat() for f in found]
