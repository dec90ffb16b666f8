"""Bytes to text, lines and normalized text; nothing here knows about rules."""

from __future__ import annotations

import re
import unicodedata

_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_SPACES = re.compile(r"\s+")


class UnreadableError(ValueError):
    """A file that is not text we can read."""


def decode(data: bytes, name: str) -> str:
    """Decode a document's bytes: BOM first, then UTF-8, then Windows-1252."""
    if not data.strip():
        raise UnreadableError(f"{name}: the file is empty; give a rules document with text in it")
    if data.startswith(b"\xef\xbb\xbf"):
        return data[3:].decode("utf-8", errors="replace")
    if data.startswith((b"\xfe\xff", b"\xff\xfe")):
        return data.decode("utf-16")
    if b"\x00" in data[:4096]:
        raise UnreadableError(
            f"{name}: binary data (NUL bytes), not a text document; "
            "give a .txt, .html or .pdf rules document"
        )
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        text = data.decode("cp1252", errors="replace")
    if text.count("\ufffd") > max(3, len(text) // 100):
        raise UnreadableError(
            f"{name}: undecodable text (neither UTF-8 nor Windows-1252); "
            "convert it to UTF-8 and add it again"
        )
    return text


def split_lines(text: str) -> list[str]:
    """Split on CRLF, bare CR or LF, as the CR editions use all three."""
    return _LINE_BREAK.split(text)


def normalize(text: str) -> str:
    """Unicode NFC and collapsed whitespace; quotes, dashes and accents are kept."""
    return _SPACES.sub(" ", unicodedata.normalize("NFC", text)).strip()


def fold(text: str) -> str:
    """Case, accent and quote folding for comparisons (not for display)."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    stripped = "".join(c for c in decomposed if not unicodedata.combining(c))
    return stripped.replace("’", "'").replace("‘", "'")
