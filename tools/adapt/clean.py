"""Cleaning documentation sources into plain text and Markdown for the corpus.

Two converters, each deliberately small: reStructuredText (Python's ``_sources``) loses its
directives and roles but keeps headings and code; mdBook HTML (the Rust books) keeps headings,
paragraphs, lists and code blocks of its ``<main>`` element and drops navigation and scripts.
"""

from __future__ import annotations

import html
import re
from html.parser import HTMLParser

RST_UNDERLINE = re.compile(r"^([=\-~^*#+\"'`])\1{2,}\s*$")
RST_ROLE = re.compile(r":[\w:.-]+:`~?([^`<]*?)(?:\s*<[^>]*>)?`")
RST_DROP = re.compile(
    r"^\.\. (index|_[^:]*|module|moduleauthor|sectionauthor|highlight|currentmodule|testsetup|"
    r"testcleanup|toctree|seealso|versionadded|versionchanged|deprecated|impl-detail|"
    r"include|only|raw|tabularcolumns|audit-event)\b"
)
RST_FIELD = re.compile(r"^\s*:[\w -]+:(\s|$)")  # option lines such as ":synopsis: ..."
HEADING_LEVEL = {"=": "#", "-": "##", "~": "###", "^": "####"}


def rst_to_markdown(text: str) -> str:
    """reST to Markdown-ish text: headings as ``#``, roles as their text, directives dropped."""
    out: list[str] = []
    dropping = False  # inside the indented body of a dropped directive
    for line in text.splitlines():
        if dropping and (line.startswith(" ") or not line.strip()):
            dropping = bool(line.strip())
            continue
        dropping = bool(RST_DROP.match(line.strip()))
        match = RST_UNDERLINE.match(line)
        if match and out and out[-1].strip() and not RST_UNDERLINE.match(out[-1]):
            out[-1] = f"{HEADING_LEVEL.get(match.group(1), '##')} {out[-1].strip()}"
            continue
        if match or RST_DROP.match(line.strip()) or RST_FIELD.match(line):
            continue
        line = RST_ROLE.sub(lambda m: f"`{m.group(1).strip()}`", line)
        out.append(line.replace("``", "`").rstrip())
    return re.sub(r"\n{3,}", "\n\n", "\n".join(out)).strip()


class _MarkdownWriter(HTMLParser):
    """Collects the text of ``<main>`` as Markdown; everything outside it is skipped."""

    BLOCKS = ("p", "div", "ul", "ol", "table", "tr", "blockquote")

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.in_main = 0
        self.skip = 0
        self.in_pre = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "main":
            self.in_main += 1
        elif tag in ("script", "style", "nav", "button"):
            self.skip += 1
        elif self.in_main and not self.skip:
            self._open(tag)

    def _open(self, tag: str) -> None:
        if tag in ("h1", "h2", "h3", "h4"):
            self.parts.append("\n\n" + "#" * int(tag[1]) + " ")
        elif tag == "pre":
            self.in_pre = True
            self.parts.append("\n\n```\n")
        elif tag == "li":
            self.parts.append("\n- ")
        elif tag in self.BLOCKS:
            self.parts.append("\n\n")
        elif tag == "code" and not self.in_pre:
            self.parts.append("`")

    def handle_endtag(self, tag: str) -> None:
        if tag == "main":
            self.in_main -= 1
        elif tag in ("script", "style", "nav", "button"):
            self.skip = max(0, self.skip - 1)
        elif self.in_main and not self.skip:
            self._close(tag)

    def _close(self, tag: str) -> None:
        if tag == "pre":
            self.in_pre = False
            self.parts.append("\n```\n\n")
        elif tag == "code" and not self.in_pre:
            self.parts.append("`")
        elif tag in ("h1", "h2", "h3", "h4", *self.BLOCKS):
            self.parts.append("\n\n")

    def handle_data(self, data: str) -> None:
        if self.in_main and not self.skip:
            self.parts.append(data if self.in_pre else re.sub(r"\s+", " ", data))


def html_to_markdown(page: str) -> str:
    """The ``<main>`` content of an mdBook page as Markdown text."""
    writer = _MarkdownWriter()
    writer.feed(page)
    text = html.unescape("".join(writer.parts))
    text = re.sub(r"[ \t]+\n", "\n", text)
    return re.sub(r"\n{3,}", "\n\n", text).strip()
