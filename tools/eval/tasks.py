"""The cloze, draft and rewrite tasks: run every case through each system and measure it.

Every task returns ``{"cases": [...], "summary": {system: {...}}}``; per-case records keep the
output text so the report can quote it. Progress goes to stderr, one line per case, because a
suite run takes minutes.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from typing import Any

from tools.eval import measures as m
from tools.eval.cases import Cloze, Draft, Rewrite
from tools.eval.families import draft_checks, draft_row, family_rows, rewrite_checks
from tools.eval.systems import Output, cloze_budget

Record = dict[str, Any]


class Judge:
    """The base causal model scoring text as a left-to-right reader (see :func:`m.judge_nll`)."""

    def __init__(self, model: Any, encode: Callable[[str], list[int]], start_id: int) -> None:
        self.model = model
        self.encode = encode
        self.start_id = start_id

    def nll(self, before: str, output: str) -> float | None:
        return m.judge_nll(self.model, [self.start_id, *self.encode(before)], self.encode(output))


def _say(task: str, index: int, total: int, name: str) -> None:
    print(f"[eval] {task} {index + 1}/{total} {name}", file=sys.stderr, flush=True)


def _timing(out: Output) -> Record:
    return {
        "seconds": out.seconds,
        "tokens": out.tokens,
        "forwards": out.forwards,
        "first_frame": out.first_frame,
    }


def speed(records: Sequence[Record]) -> Record:
    """Totals of time, tokens and forwards, and what they give per token and per forward."""
    seconds = sum(r["seconds"] for r in records)
    tokens = sum(r["tokens"] for r in records)
    forwards = sum(r["forwards"] for r in records)
    return {
        "median_seconds": m.median([r["seconds"] for r in records]),
        "tokens": tokens,
        "seconds": seconds,
        "tokens_per_second": tokens / max(seconds, 1e-9),
        "tokens_per_forward": tokens / max(forwards, 1),
    }


def cloze_task(cases: Sequence[Cloze], systems: dict[str, Any], encode: Any) -> Record:
    records: dict[str, list[Record]] = {name: [] for name in systems}
    for i, case in enumerate(cases):
        _say("cloze", i, len(cases), case.before[-30:])
        budget = cloze_budget(case, encode)
        for name, system in systems.items():
            out = system.cloze(case, budget)
            right = m.cloze_right(out.text, case.answers)
            records[name].append({"fill": out.text, "right": right, **_timing(out)})
    summary = {
        name: {"right": sum(r["right"] for r in rs), "cases": len(rs), **speed(rs)}
        for name, rs in records.items()
    }
    return {"cases": records, "summary": summary}


def text_record(out: Output, encode: Any, judge: Judge, before: str) -> Record:
    ids = encode(out.text)
    return {
        "text": out.text,
        "empty": m.is_empty(out.text),
        "repeated_3grams": m.repeated_trigram_share(ids),
        "repeated_words": m.repeated_word_share(out.text),
        "judge_nll": judge.nll(before, out.text),
        **_timing(out),
    }


def text_summary(rs: Sequence[Record]) -> Record:
    return {
        "cases": len(rs),
        "empty": sum(r["empty"] for r in rs),
        "repeated_3grams": m.mean([r["repeated_3grams"] for r in rs]),
        "repeated_words": m.mean([r.get("repeated_words") for r in rs]),
        "judge_nll": m.mean([r["judge_nll"] for r in rs]),
        **speed(rs),
    }


def draft_task(cases: Sequence[Draft], systems: dict[str, Any], judge: Judge) -> Record:
    records: dict[str, list[Record]] = {name: [] for name in systems}
    for i, case in enumerate(cases):
        _say("draft", i, len(cases), case.kind)
        for name, system in systems.items():
            out = system.draft(case)
            record = text_record(out, judge.encode, judge, case.text)
            records[name].append({**record, **draft_checks(case, out.text)})
    summary = {n: {**text_summary(rs), "prompted": draft_row(rs)} for n, rs in records.items()}
    return {"cases": records, "summary": summary}


def rewrite_record(case: Rewrite, out: Output, judge: Judge) -> Record:
    record = text_record(out, judge.encode, judge, case.before)
    locks = sorted(case.locks, key=case.paragraph.index)  # in the order they appear
    kept, edges = m.lock_edges_kept(case.paragraph, out.text, locks)
    unlocked = case.paragraph
    for phrase in case.locks:
        unlocked = unlocked.replace(phrase, " ")
    record.update(
        instruction=case.instruction,
        length_ratio=m.length_ratio(case.paragraph, out.text),
        content_kept=m.content_kept(unlocked, out.text),
        words_changed=m.words_changed(case.paragraph, out.text),
        locks_kept=m.locks_kept(out.text, locks),
        lock_edges_kept=kept,
        lock_edges=edges,
        **rewrite_checks(case, out.text),
    )
    return record


def rewrite_summary(rs: Sequence[Record], original_nll: float | None) -> Record:
    tighter = [r["length_ratio"] for r in rs if r["family"] == "shorter"]
    tighter_nll = [r["judge_nll"] for r in rs if r["family"] == "shorter"]
    return {
        "tighter_judge_nll": m.mean(tighter_nll),
        **text_summary(rs),
        "original_judge_nll": original_nll,
        "length_ratio": m.median([r["length_ratio"] for r in rs]),
        "tighter_length_ratio": m.median(tighter),
        "content_kept": m.mean([r["content_kept"] for r in rs]),
        "words_changed": m.mean([r.get("words_changed") for r in rs]),
        "locks_kept": sum(r["locks_kept"] for r in rs) / max(len(rs), 1),
        "lock_edges_kept": sum(r["lock_edges_kept"] for r in rs)
        / max(sum(r["lock_edges"] for r in rs), 1),
        "families": family_rows(rs),
    }


def rewrite_task(cases: Sequence[Rewrite], systems: dict[str, Any], judge: Judge) -> Record:
    records: dict[str, list[Record]] = {name: [] for name in systems}
    originals = [judge.nll(case.before, case.paragraph) for case in cases]
    for i, case in enumerate(cases):
        _say("rewrite", i, len(cases), case.instruction)
        for name, system in systems.items():
            records[name].append(rewrite_record(case, system.rewrite(case), judge))
    original = m.mean(originals)
    summary = {n: rewrite_summary(rs, original) for n, rs in records.items()}
    return {
        "cases": records,
        "original_judge_nll": originals,
        "tighter_reference": reference_summary(cases, originals, judge),
        "summary": summary,
    }


def reference_summary(
    cases: Sequence[Rewrite], originals: Sequence[float | None], judge: Judge
) -> Record:
    """The judge on the 'tighter' cases that have a person's version: the originals, and those
    versions (shorter text loses easy words, so even a good cut reads at a higher NLL)."""
    pairs = [(o, c) for o, c in zip(originals, cases, strict=True) if c.reference]
    return {
        "cases": len(pairs),
        "original_judge_nll": m.mean([o for o, _ in pairs]),
        "reference_judge_nll": m.mean([judge.nll(c.before, c.reference) for _, c in pairs]),
        "reference_length_ratio": m.median(
            [m.length_ratio(c.paragraph, c.reference) for _, c in pairs]
        ),
    }
