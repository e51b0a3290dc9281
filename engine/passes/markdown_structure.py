"""Where a passage's Markdown structure lies, and what that structure is, by markdown-it-py.

:func:`structure_spans` gives the character spans of a passage that are Markdown rather than
words: a heading's or list item's leading mark, quote marks, emphasis and strikethrough
markers, a link's brackets and target (its text stays free), images, inline code spans,
autolinks and HTML tags whole, and whole lines for code blocks, fences, HTML blocks, rules,
tables, setext underlines and reference definitions. :func:`structure_of` is the structure a
passage parses to (blocks, links and their targets, code spans, emphasis count), so a rewrite
can be checked to re-parse the same.

markdown-it's inline tokens carry no character offsets, only each block's lines. So each
block's inline tokens are walked in order against its source lines (:class:`InlineAligner`),
matching each token's text character by character and skipping what markdown-it drops
(backslashes of escapes, the rest of an entity, quote marks of continuation lines). A block
whose tokens cannot be found in its source is locked whole: its words stay as written, never
its structure at risk.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

from markdown_it import MarkdownIt
from markdown_it.token import Token

# The Markdown the editor writes: CommonMark, with GitHub's tables and strikethrough.
PARSER = MarkdownIt("commonmark").enable(["table", "strikethrough"])

Span = tuple[int, int]

# Blocks that are structure through and through: their lines are locked whole.
WHOLE_BLOCKS = frozenset({"fence", "code_block", "html_block", "hr", "table_open"})
# Blocks whose first line opens with a mark (a list item's, a heading's, a quote's).
MARKED_BLOCKS = frozenset({"list_item_open", "heading_open", "blockquote_open"})
# A line's leading marks: indentation, quote marks, list markers, then a heading's hashes.
LEADING_MARKS = re.compile(r"[ \t]*(?:(?:>|[-*+]|\d{1,9}[.)])(?:[ \t]+|$))*(?:#{1,6}(?:[ \t]+|$))?")
QUOTE_MARKS = re.compile(r"[ \t]*(?:>[ \t]?)+")
WORDS = re.compile(r"[\w']+")
# Inline tokens whose markup is locked where it stands (emphasis, strong, strikethrough).
MARKER_TOKENS = frozenset(
    {"em_open", "em_close", "strong_open", "strong_close", "s_open", "s_close"}
)


def line_starts(text: str) -> list[int]:
    """The offset of each line's first character, and the text's length last."""
    starts = [0]
    starts += [m.end() for m in re.finditer("\n", text)]
    return [*starts, len(text)] if starts[-1] != len(text) else starts


def structure_spans(text: str) -> list[Span]:
    """Sorted, merged character spans of ``text`` that are Markdown structure, not words."""
    tokens = PARSER.parse(text)
    starts = line_starts(text)
    spans = list(_uncovered_lines(text, tokens, starts))
    quoted = 0  # depth of blockquotes open: their lines' quote marks are structure
    for token in tokens:
        quoted += token.nesting if token.type.startswith("blockquote") else 0
        if token.map is None:
            continue
        first, last = token.map
        if token.type in WHOLE_BLOCKS or _setext(token):
            spans += _lines(text, starts, first, last, whole=token.type in WHOLE_BLOCKS)
        elif token.type in MARKED_BLOCKS:
            spans += _leading_marks(text, starts, first)
        elif token.type == "inline":
            spans += InlineAligner(text, starts[first], starts[min(last, len(starts) - 1)]).spans(
                token.children or []
            )
        if quoted and token.type == "inline":
            spans += _quote_marks(text, starts, first, last)
    return merge(spans)


def _setext(token: Token) -> bool:
    return token.type == "heading_open" and token.markup[:1] in ("=", "-")


def _lines(text: str, starts: list[int], first: int, last: int, whole: bool) -> list[Span]:
    """Whole lines ``first``..``last`` (a block), or only the last (a setext underline)."""
    begin = starts[first] if whole else starts[max(last - 1, first)]
    end = starts[min(last, len(starts) - 1)]
    return [(begin, end)] if end > begin else []


def _leading_marks(text: str, starts: list[int], line: int) -> list[Span]:
    at = starts[line]
    found = LEADING_MARKS.match(text, at)
    return [(at, found.end())] if found and found.end() > at else []


def _quote_marks(text: str, starts: list[int], first: int, last: int) -> list[Span]:
    spans = []
    for line in range(first, min(last, len(starts) - 1)):
        found = QUOTE_MARKS.match(text, starts[line])
        if found and found.end() > starts[line]:
            spans.append((starts[line], found.end()))
    return spans


def _uncovered_lines(text: str, tokens: Sequence[Token], starts: list[int]) -> list[Span]:
    """Non-blank lines no block claims: reference definitions, which markdown-it consumes."""
    covered: set[int] = set()
    for token in tokens:
        if token.map is not None and token.level == 0:
            covered.update(range(*token.map))
    spans = []
    for line in range(len(starts) - 1):
        begin, end = starts[line], starts[line + 1]
        if line not in covered and text[begin:end].strip():
            spans.append((begin, end))
    return spans


def merge(spans: Sequence[Span]) -> list[Span]:
    """Spans sorted, with overlapping and touching ones joined."""
    merged: list[Span] = []
    for begin, end in sorted(s for s in spans if s[1] > s[0]):
        if merged and begin <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], end))
        else:
            merged.append((begin, end))
    return merged


class AlignmentLost(Exception):
    """An inline token's text is not where the walk expected it in the source."""


class InlineAligner:
    """Walks one block's inline tokens over its source ``text[begin:end]``, collecting spans."""

    def __init__(self, text: str, begin: int, end: int) -> None:
        self.text, self.begin, self.end, self.at = text, begin, end, begin

    def spans(self, children: Sequence[Token]) -> list[Span]:
        try:
            return self._walk(children)
        except AlignmentLost:  # never guess: the block's words stay as the user wrote them
            return [(self.begin, self.end)]

    def _walk(self, children: Sequence[Token]) -> list[Span]:
        spans: list[Span] = []
        skip_to_close = False
        for child in children:
            if skip_to_close:  # an autolink's text is inside its locked span
                skip_to_close = child.type != "link_close"
                continue
            if child.type == "text":
                self.match(child.content)
            elif child.type in MARKER_TOKENS:
                spans.append(self.marker(child.markup))
            elif child.type == "code_inline":
                spans.append(self.code_span(child.markup))
            elif child.type == "html_inline":
                spans.append(self.literal(child.content))
            elif child.type == "link_open" and child.markup == "autolink":
                spans.append(self.enclosed("<", ">"))
                skip_to_close = True
            elif child.type == "link_open":
                spans.append(self.marker("["))
            elif child.type == "link_close":
                spans.append(self.link_end())
            elif child.type == "image":
                spans.append(self.image())
        return spans

    def find(self, char: str) -> int:
        """The next ``char`` at or after the walk, past what markdown-it dropped before it."""
        found = self.text.find(char, self.at, self.end)
        if found < 0:
            raise AlignmentLost(char)
        return found

    def match(self, content: str) -> None:
        if self.text.startswith(content, self.at):
            self.at += len(content)
            return
        for char in content:
            self.at = self.find(char) + 1

    def marker(self, markup: str) -> Span:
        begin = self.find(markup[0])
        if not self.text.startswith(markup, begin):
            raise AlignmentLost(markup)
        self.at = begin + len(markup)
        return (begin, self.at)

    def literal(self, content: str) -> Span:
        begin = self.text.find(content, self.at, self.end)
        if begin < 0:
            raise AlignmentLost(content)
        self.at = begin + len(content)
        return (begin, self.at)

    def code_span(self, fence: str) -> Span:
        """A code span whole: its opening backtick run, to the next run of the same length."""
        begin = self.marker(fence)[0]
        for run in re.finditer("`+", self.text[self.at : self.end]):
            if len(run.group()) == len(fence):
                self.at += run.end()
                return (begin, self.at)
        raise AlignmentLost(fence)

    def enclosed(self, opener: str, closer: str) -> Span:
        begin = self.find(opener)
        self.at = begin + 1
        self.at = self.find(closer) + 1
        return (begin, self.at)

    def link_end(self) -> Span:
        """A link's closing bracket and its target: ``](url "title")``, ``][ref]`` or ``]``."""
        begin = self.find("]")
        self.at = begin + 1
        self.destination()
        return (begin, self.at)

    def image(self) -> Span:
        """An image whole: ``![alt](src)``, its alt text included."""
        begin = self.find("!")
        if not self.text.startswith("![", begin):
            raise AlignmentLost("![")
        self.at = self.balanced(begin + 1, "[", "]")
        self.destination()
        return (begin, self.at)

    def destination(self) -> None:
        """Past a link's target right after its closing bracket, if it has one there."""
        if self.text.startswith("(", self.at):
            self.at = self.balanced(self.at, "(", ")")
        elif self.text.startswith("[", self.at):
            self.at = self.balanced(self.at, "[", "]")

    def balanced(self, at: int, opener: str, closer: str) -> int:
        """The offset just past the ``closer`` that balances the ``opener`` at ``at``."""
        depth, index = 0, at
        while index < self.end:
            char = self.text[index]
            if char == "\\":
                index += 2
                continue
            depth += (char == opener) - (char == closer)
            index += 1
            if depth == 0:
                return index
        raise AlignmentLost(closer)


def structure_of(text: str) -> tuple[object, ...]:
    """What a rewrite must keep: the blocks, each link's target, code spans, emphasis count."""
    blocks, links, code, emphasis = [], [], [], 0
    for token in PARSER.parse(text):
        if token.type != "inline":
            blocks.append((token.type, token.tag, token.markup, token.info))
            continue
        for child in token.children or []:
            if child.type in ("link_open", "image"):
                links.append((child.type, child.attrGet("href") or child.attrGet("src")))
            elif child.type == "code_inline":
                code.append(child.content)
            elif child.type in MARKER_TOKENS and child.nesting == 1:
                emphasis += 1
            elif child.type == "html_inline":
                code.append(child.content)
    return (tuple(blocks), tuple(links), tuple(code), emphasis)


def link_words(text: str) -> tuple[list[Counter[str]], Counter[str]]:
    """The lower-cased words of each link's text, in order, and those outside every link."""
    inside: list[Counter[str]] = []
    outside: Counter[str] = Counter()
    for token in PARSER.parse(text):
        depth = 0
        for child in token.children or []:
            if child.type == "link_open":
                depth += 1
                inside.append(Counter())
            elif child.type == "link_close":
                depth -= 1
            elif child.type == "text":
                found = Counter(WORDS.findall(child.content.lower()))
                if depth:
                    inside[-1].update(found)
                else:
                    outside.update(found)
    return inside, outside


def moved_out_of_links(was: str, now: str) -> bool:
    """Whether a word of a link's text in ``was`` stands outside every link in ``now`` and
    not in ``was``: "[style guide](…)" written "style [guide](…)" points at less than it
    did, though its brackets and target are where they were. Texts with other links are
    :func:`structure_of`'s business."""
    (was_links, was_out), (now_links, now_out) = link_words(was), link_words(now)
    if len(was_links) != len(now_links):
        return False
    gained_outside = now_out - was_out
    return any((old - new) & gained_outside for old, new in zip(was_links, now_links, strict=True))
