"""Did a rewrite keep the Markdown? Both texts re-parsed with markdown-it-py and compared.

The words inside may change; the structure may not: the same blocks (paragraphs, list items,
headings, quotes, code blocks, in the same nesting), the same link targets in order, the
same inline code spans, as many emphasised and strong runs, and no Markdown mark left loose
in the text (a stray "[" or "*" the parser could not pair, which a reader sees as litter).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

LOOSE_MARKS = "[]*_`"
EMPHASIS = {"em_open": "emphasis", "strong_open": "strong", "s_open": "strikethrough"}


@dataclass(frozen=True)
class Structure:
    blocks: tuple[str, ...]
    links: tuple[str, ...]
    code: tuple[str, ...]
    emphasis: tuple[tuple[str, int], ...]
    loose_marks: int


def parse(markdown: str) -> Structure:
    from markdown_it import MarkdownIt

    parser = MarkdownIt("commonmark").enable(["table", "strikethrough"])
    blocks: list[str] = []
    inline: list[Any] = []
    for token in parser.parse(markdown):
        if token.type == "inline":
            inline += token.children or []
        elif token.nesting >= 0 and token.block:
            blocks.append(f"{token.type.removesuffix('_open')}:{token.tag}:{token.level}")
    emphasis = Counter(EMPHASIS[t.type] for t in inline if t.type in EMPHASIS)
    return Structure(
        blocks=tuple(blocks),
        links=tuple(str(t.attrGet("href")) for t in inline if t.type == "link_open"),
        code=tuple(t.content for t in inline if t.type == "code_inline"),
        emphasis=tuple(sorted(emphasis.items())),
        loose_marks=sum(_loose(t.content) for t in inline if t.type == "text"),
    )


def _loose(text: str) -> int:
    return sum(text.count(mark) for mark in LOOSE_MARKS)


def differences(original: str, output: str) -> list[str]:
    """What the output changed of the original's Markdown structure (empty: kept)."""
    want, got = parse(original), parse(output)
    found = []
    if want.blocks != got.blocks:
        found.append(f"blocks {list(want.blocks)} became {list(got.blocks)}")
    if want.links != got.links:
        found.append(f"link targets {list(want.links)} became {list(got.links)}")
    if want.code != got.code:
        found.append(f"code spans {list(want.code)} became {list(got.code)}")
    if want.emphasis != got.emphasis:
        found.append(f"emphasis {dict(want.emphasis)} became {dict(got.emphasis)}")
    if got.loose_marks > want.loose_marks:
        found.append(f"{got.loose_marks - want.loose_marks} loose Markdown marks added")
    return found
