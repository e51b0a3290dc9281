"""Markdown syntax highlighting for the editor (a ``QSyntaxHighlighter``, line by line).

Covers what a writer sees most: ATX headings, emphasis (``*``/``_``, single and double),
inline code and fenced code blocks (tracked across lines with the block state), links and
autolinks, list markers, blockquotes and horizontal rules. Markup characters are drawn
lighter than the words they mark, so the prose stays the darkest thing on the page.

Misspelt words of prose get a red wavy underline when a spell source is set
(:meth:`MarkdownHighlighter.set_spelling`; :mod:`ui.spellcheck`): never in code, link targets,
URLs or locked text.

Public API: ``MarkdownHighlighter(document)``; it re-highlights by itself as the text changes.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

from PySide6.QtGui import (
    QColor,
    QFont,
    QFontDatabase,
    QSyntaxHighlighter,
    QTextBlock,
    QTextCharFormat,
    QTextDocument,
)

from ui import palette
from ui.palette import INK
from ui.spellcheck import LineWord, SpellSource, misspelt_format, plain_words

_IN_FENCE = 1  # block state: this line is inside a ``` / ~~~ fence

_FENCE = re.compile(r"^\s{0,3}(`{3,}|~{3,})")
_HEADING = re.compile(r"^\s{0,3}(#{1,6})(\s+|$)")
_QUOTE = re.compile(r"^\s{0,3}(>\s?)+")
_LIST = re.compile(r"^\s*([-*+]|\d{1,9}[.)])(\s+)")
_RULE = re.compile(r"^\s{0,3}([-*_])(\s*\1){2,}\s*$")
_CODE = re.compile(r"(`+)(?!`)(.+?)(?<!`)\1(?!`)")
_STRONG = re.compile(r"(\*\*|__)(?=\S)(.+?)(?<=\S)\1")
_EMPHASIS = re.compile(r"(?<![*\w])([*_])(?=[^\s*_])(.+?)(?<=[^\s*_])\1(?![*\w])")
_LINK = re.compile(r"(!?\[)([^\]\n]*)(\]\()([^)\s]*)((?:\s+\"[^\"]*\")?\))")
_AUTOLINK = re.compile(r"<(?:https?://|mailto:)[^>\s]+>|\bhttps?://[^\s<>()]+[^\s<>().,;:!?]")

_INK = INK
_MARKUP = palette.MARKUP_INK
_HEADING_INK = palette.HEADING_INK
_LINK_INK = palette.LINK_INK
_CODE_INK = palette.CODE_INK
_CODE_PAPER = palette.CODE_PAPER
_QUOTE_INK = palette.QUOTE_INK
_LIST_INK = palette.LIST_INK

_HEADING_SCALE = {1: 1.35, 2: 1.2, 3: 1.08}


def _format(
    color: QColor | None = None,
    *,
    bold: bool = False,
    italic: bool = False,
    underline: bool = False,
    background: QColor | None = None,
    mono: bool = False,
) -> QTextCharFormat:
    fmt = QTextCharFormat()
    if color is not None:
        fmt.setForeground(color)
    if bold:
        fmt.setFontWeight(QFont.Weight.Bold)
    if italic:
        fmt.setFontItalic(True)
    if underline:
        fmt.setFontUnderline(True)
    if background is not None:
        fmt.setBackground(background)
    if mono:
        fixed = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
        fmt.setFontFamilies([fixed.family()])
    return fmt


def _mask_code(text: str) -> str:
    """``text`` with its code spans blanked out (``"\\0"``), offsets kept."""
    masked = text
    for match in _CODE.finditer(text):
        masked = masked[: match.start()] + "\0" * len(match.group(0)) + masked[match.end() :]
    return masked


def _blank_link_target(link: re.Match[str]) -> str:
    """A link with its target blanked out (its words stay prose): ``[text]`` then spaces."""
    kept = link.group(1) + link.group(2)
    return kept + " " * (len(link.group(0)) - len(kept))


class MarkdownHighlighter(QSyntaxHighlighter):
    """Highlights Markdown in ``document``; attach once, it follows every edit."""

    def __init__(self, document: QTextDocument) -> None:
        super().__init__(document)
        self._markup = _format(_MARKUP)
        self._code = _format(_CODE_INK, background=_CODE_PAPER, mono=True)
        self._fence = _format(_MARKUP, background=_CODE_PAPER, mono=True)
        self._strong = _format(bold=True)
        self._emphasis = _format(italic=True)
        self._link_text = _format(_LINK_INK, underline=True)
        self._quote = _format(_QUOTE_INK, italic=True)
        self._list = _format(_LIST_INK, bold=True)
        self._misspelt = misspelt_format()
        self._spelling: SpellSource | None = None
        self._locked: Callable[[int, int], bool] = lambda _start, _end: False
        base = document.defaultFont().pointSizeF()
        self._headings = {
            level: self._heading_format(base * _HEADING_SCALE.get(level, 1.0))
            for level in range(1, 7)
        }

    def set_spelling(
        self, source: SpellSource | None, locked: Callable[[int, int], bool] | None = None
    ) -> None:
        """Underline what ``source`` calls misspelt (``None``: nothing); ``locked(start, end)``
        says whether document positions ``start:end`` are locked (never underlined)."""
        self._spelling = source
        if locked is not None:
            self._locked = locked
        self.rehighlight()

    @staticmethod
    def _heading_format(point_size: float) -> QTextCharFormat:
        fmt = _format(_HEADING_INK, bold=True)
        if point_size > 0:
            fmt.setFontPointSize(point_size)
        return fmt

    def highlightBlock(self, text: str) -> None:
        if self._fenced_line(text):
            return
        if _RULE.match(text):
            self.setFormat(0, len(text), self._markup)
            return
        self._block_markup(text)
        self._inline(text)

    def _fenced_line(self, text: str) -> bool:
        """Format the line if it opens, closes or sits inside a fence; True if it did."""
        inside = self.previousBlockState() == _IN_FENCE
        fence = _FENCE.match(text)
        if fence:
            self.setFormat(0, len(text), self._fence)
            self.setCurrentBlockState(-1 if inside else _IN_FENCE)
            return True
        self.setCurrentBlockState(_IN_FENCE if inside else -1)
        if inside:
            self.setFormat(0, len(text), self._code)
        return inside

    def _block_markup(self, text: str) -> None:
        heading = _HEADING.match(text)
        if heading:
            self.setFormat(0, len(text), self._headings[len(heading.group(1))])
            self._merge(0, heading.end(1), _format(_MARKUP))
            return
        quote = _QUOTE.match(text)
        if quote:
            self.setFormat(0, len(text), self._quote)
            self._merge(0, quote.end(), _format(_MARKUP))
        item = _LIST.match(text)
        if item:
            self._merge(item.start(1), item.end(1) - item.start(1), self._list)

    def _inline(self, text: str) -> None:
        # Mask code spans first, so "*" or "[" inside backticks is not read as markup.
        masked = _mask_code(text)
        for match in _STRONG.finditer(masked):
            self._marked_span(match, self._strong)
        for match in _EMPHASIS.finditer(masked):
            self._marked_span(match, self._emphasis)
        for match in _LINK.finditer(masked):
            self._merge(match.start(1), len(match.group(1)), self._markup)
            self._merge(match.start(2), len(match.group(2)), self._link_text)
            self._merge(match.start(3), match.end(5) - match.start(3), self._markup)
        for match in _AUTOLINK.finditer(masked):
            self._merge(match.start(), len(match.group(0)), self._link_text)
        self._underline_misspelt(masked)
        for match in _CODE.finditer(text):
            fence = len(match.group(1))
            self.setFormat(match.start(), len(match.group(0)), self._code)
            self._merge(match.start(), fence, _format(_MARKUP))
            self._merge(match.end() - fence, fence, _format(_MARKUP))

    def _underline_misspelt(self, masked: str) -> None:
        """Underline the misspelt plain words of the line being highlighted."""
        for word in self._misspelt_words(masked, self.currentBlock().position()):
            self._merge(word.start, len(word.word), self._misspelt)

    def misspelt_at(self, block: QTextBlock, offset: int) -> LineWord | None:
        """The misspelt word of ``block`` covering ``offset`` (in the block), if any."""
        previous = block.previous()
        inside = previous.isValid() and previous.userState() == _IN_FENCE
        if inside or _FENCE.match(block.text()):
            return None
        masked = _mask_code(block.text())
        for word in self._misspelt_words(masked, block.position()):
            if word.start <= offset <= word.end:
                return word
        return None

    def _misspelt_words(self, masked: str, where: int) -> Iterator[LineWord]:
        """The misspelt plain words of a line at document position ``where`` whose code
        spans are masked: link targets and URLs are masked here, locked words left alone."""
        if self._spelling is None:
            return
        masked = _LINK.sub(_blank_link_target, masked)
        masked = _AUTOLINK.sub(lambda m: "\0" * len(m.group(0)), masked)
        for word in plain_words(masked):
            if self._locked(where + word.start, where + word.end):
                continue
            if self._spelling.misspelt(word.word, word.opens_sentence):
                yield word

    def _marked_span(self, match: re.Match[str], fmt: QTextCharFormat) -> None:
        marker = len(match.group(1))
        self._merge(match.start(), len(match.group(0)), fmt)
        self._merge(match.start(), marker, self._markup)
        self._merge(match.end() - marker, marker, self._markup)

    def _merge(self, start: int, length: int, fmt: QTextCharFormat) -> None:
        """Layer ``fmt`` over what is already set, so bold inside a heading stays a heading."""
        for offset in range(start, start + length):
            combined = QTextCharFormat(self.format(offset))
            combined.merge(fmt)
            self.setFormat(offset, 1, combined)
