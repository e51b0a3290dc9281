"""Per-family measures of rewrites and drafts, and the per-family table the report shows.

Each rewrite is checked for: changed (anything at all), followed (its family's check,
:mod:`tools.eval.followed`), meaning kept (:mod:`tools.eval.meaning`, against the paragraph
with the case's expected corrections made) and Markdown kept (:mod:`tools.eval.markup`).
A draft with a prompt is held to the prompt's topic (a content word of the prompt, or
another form of one, in the draft), the document's register, and no list mark outside a list.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from tools.eval import markup, meaning
from tools.eval import measures as m
from tools.eval.cases import FAMILIES, Draft, Rewrite
from tools.eval.followed import apply_corrections, followed, score_corrections
from tools.eval.wording import contractions_in, plain_text, slang_in, words

Record = dict[str, Any]
LIST_MARK = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s", re.MULTILINE)
# A sentence's end, and what may close it after its mark (a quote, a bracket, emphasis).
SENTENCE_END = re.compile(r"[.!?:][\"'\u201d\u2019)\]*_]*$")
DRAFT_ROW = "draft (with a prompt)"


def rewrite_checks(case: Rewrite, output: str) -> Record:
    expected = apply_corrections(case.paragraph, case.corrections)[0]
    record: Record = {
        "family": case.row,
        "style": case.style,
        "changed": output.strip() != case.paragraph.strip(),
        "followed": None,
        "meaning": meaning.changes(expected, output, case.allow, case.paragraph),
        "markdown": [] if "structure" in case.allow else markup.differences(case.paragraph, output),
    }
    if case.checked_as:
        record["followed"] = followed(case.checked_as, case.paragraph, output, case.corrections)
    if case.corrections:
        score = score_corrections(case.paragraph, output, case.corrections)
        record.update(expected=score.expected, fixed=score.fixed, damaged=score.damaged)
    return record


def _forms(text: str) -> set[str]:
    """Each word and its lemmas (so "walked" meets "walk", "beaches" meets "beach")."""
    from lemminflect import getAllLemmas

    found = set()
    for word in words(text):
        low = word.lower()
        found.add(low)
        for lemmas in getAllLemmas(low).values():
            found.update(lemmas)
    return found


def on_topic(prompt: str, output: str) -> bool:
    wanted = m.content_words(prompt)
    return not wanted or bool(_forms(" ".join(wanted)) & _forms(output))


def in_list(text: str) -> bool:
    """The draft point is inside a list: the document's last line is a list item."""
    lines = [line for line in text.splitlines() if line.strip()]
    return bool(lines) and bool(LIST_MARK.match(lines[-1] + " "))


def opens_line(text: str) -> bool:
    """Whether a draft after ``text`` opens a line or a sentence: at the start, after a line
    break, or after a sentence's end. Anywhere else it goes on with the line's sentence, where
    "1998. " or " - " ("founded in 1998.", "the bridge - the old one") is no list mark."""
    before = text.rstrip(" \t")
    return not before.strip() or before.endswith("\n") or bool(SENTENCE_END.search(before))


def list_mark_in(text: str, output: str) -> bool:
    """A list mark opening any line the draft ``output`` opens: its first when it opens a
    line or a sentence (:func:`opens_line`), and every line after a break in it."""
    opened = opens_line(text) and LIST_MARK.match(output.lstrip(" ")) is not None
    return opened or LIST_MARK.search(output.partition("\n")[2]) is not None


def register_kept(register: str, output: str) -> bool:
    plain = plain_text(output)
    if register == "formal":
        return not contractions_in(plain) and not slang_in(plain)
    if register == "neutral":
        return not slang_in(plain)
    return True


def draft_checks(case: Draft, output: str) -> Record:
    list_mark = not in_list(case.text) and list_mark_in(case.text, output)
    record: Record = {"prompted": bool(case.prompt), "list_mark": list_mark}
    if case.prompt:
        record["on_topic"] = on_topic(case.prompt, output)
        record["register_kept"] = register_kept(case.register, output)
        record["followed"] = record["on_topic"] and record["register_kept"] and not list_mark
    return record


def _count(records: Sequence[Record], key: str) -> int:
    return sum(bool(r.get(key)) for r in records)


def _timing(records: Sequence[Record]) -> Record:
    return {
        "judge_nll": m.mean([r.get("judge_nll") for r in records]),
        "median_seconds": m.median([r.get("seconds") for r in records]),
        "median_first_frame": m.median([r.get("first_frame") for r in records]),
    }


def family_rows(records: Sequence[Record]) -> list[Record]:
    """One row per family present, in :data:`FAMILIES` order."""
    rows = []
    for family in FAMILIES:
        rs = [r for r in records if r.get("family") == family]
        if not rs:
            continue
        measured = [r for r in rs if r["followed"] is not None]
        row: Record = {
            "family": family,
            "cases": len(rs),
            "changed": _count(rs, "changed"),
            "followed": _count(measured, "followed"),
            "measured": len(measured),
            "meaning_kept": sum(not r["meaning"] for r in rs),
            "markdown_kept": sum(not r["markdown"] for r in rs),
            "locks_kept": sum(r["locks_kept"] for r in rs),
            **_timing(rs),
        }
        if any("expected" in r for r in rs):
            row.update(
                expected=sum(r.get("expected", 0) for r in rs),
                fixed=sum(r.get("fixed", 0) for r in rs),
                damaged=sum(r.get("damaged", 0) for r in rs),
            )
        rows.append(row)
    return rows


def draft_row(records: Sequence[Record]) -> Record | None:
    rs = [r for r in records if r.get("prompted")]
    if not rs:
        return None
    return {
        "family": DRAFT_ROW,
        "cases": len(rs),
        "changed": sum(not r["empty"] for r in rs),
        "followed": _count(rs, "followed"),
        "measured": len(rs),
        "on_topic": _count(rs, "on_topic"),
        "register_kept": _count(rs, "register_kept"),
        "list_marks": _count(rs, "list_mark"),
        **_timing(rs),
    }
