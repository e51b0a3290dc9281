"""The user's own dictionary: a plain word list, one word a line, in Settle's configuration
folder (``dictionary.txt`` beside the remote-engine token, :func:`engine.remote.auth.config_dir`:
``$SETTLE_CONFIG_DIR``, else ``~/.config/settle``).

The window adds to it ("Add to dictionary" on a misspelt word) and reads it for its
underlines; every rewrite, in the window and from ``settle-cli rewrite`` (which also takes
``--dictionary FILE``), sends the dictionary's words that stand in the passage as
``Edit.known_words``, so the engine never "corrects" them. A person may edit the file by hand:
blank lines and lines starting with ``#`` are skipped, and so is anything that is not one word.
"""

from __future__ import annotations

import os
import re
import tempfile
from pathlib import Path

from engine.core.protocol import MAX_KNOWN_WORD_CHARS, MAX_KNOWN_WORDS
from engine.remote.auth import config_dir

FILE_NAME = "dictionary.txt"
COMMENT = "#"
HEADER = "# Settle: your own words, one a line; spelling never changes them.\n"
WORD_IN_TEXT = re.compile(r"[^\W\d_]+(?:['’-][^\W\d_]+)*")


class DictionaryError(ValueError):
    """A word the dictionary cannot hold, or a file it cannot read or write (said plainly)."""


def default_path() -> Path:
    return config_dir() / FILE_NAME


class UserDictionary:
    """The word list at ``path`` (the default one when not given), read on each :meth:`words`
    (it is small, and a person may have edited it)."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or default_path()

    def words(self) -> tuple[str, ...]:
        """The file's words in file order, once each (compared ignoring case); none when
        there is no file yet."""
        try:
            text = self.path.read_text(encoding="utf-8", errors="replace")
        except FileNotFoundError:
            return ()
        except OSError as error:
            raise DictionaryError(f"Cannot read the dictionary {self.path}: {error}") from None
        seen: dict[str, str] = {}
        for line in text.splitlines():
            word = line.strip()
            if is_word(word):
                seen.setdefault(word.lower(), word)
        return tuple(seen.values())

    def add(self, word: str) -> None:
        """Add ``word`` (a no-op when it is there already, in any case)."""
        word = word.strip()
        if not is_word(word):
            raise DictionaryError(f"{word[:MAX_KNOWN_WORD_CHARS]!r} is not one word.")
        words = self.words()
        if word.lower() in {w.lower() for w in words}:
            return
        self._write([*words, word])

    def known_in(self, text: str) -> tuple[str, ...]:
        """The dictionary's words that stand in ``text`` as whole words (what a request
        carries), at most :data:`~engine.core.protocol.MAX_KNOWN_WORDS`."""
        present = {match.group().lower() for match in WORD_IN_TEXT.finditer(text)}
        return tuple(w for w in self.words() if w.lower() in present)[:MAX_KNOWN_WORDS]

    def _write(self, words: list[str]) -> None:
        """The whole list, written to a temporary file beside it and moved into place, so a
        crash never leaves half a dictionary."""
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            handle, temporary = tempfile.mkstemp(dir=self.path.parent, prefix=".dictionary-")
        except OSError as error:
            raise DictionaryError(f"Cannot save the dictionary {self.path}: {error}") from None
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as out:
                out.write(HEADER + "".join(f"{w}\n" for w in words))
            os.replace(temporary, self.path)
        except OSError as error:
            Path(temporary).unlink(missing_ok=True)
            raise DictionaryError(f"Cannot save the dictionary {self.path}: {error}") from None


def is_word(text: str) -> bool:
    """Whether a line of the file is one word the engine accepts (not a comment)."""
    return (
        0 < len(text) <= MAX_KNOWN_WORD_CHARS
        and not text.startswith(COMMENT)
        and not any(ch.isspace() or not ch.isprintable() for ch in text)
    )
