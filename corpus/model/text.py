"""Bytes to text, lines and normalized text; nothing here knows about rules."""

from __future__ import annotations

import re
import unicodedata
from functools import cache

_LINE_BREAK = re.compile(r"\r\n|\r|\n")


class UnreadableError(ValueError):
    """A file that is not text we can read."""


def decode_report(data: bytes, name: str) -> tuple[str, list[str]]:
    """Decode a document: BOM, UTF-16 without BOM, UTF-8, then charset-normalizer's best guess;
    mojibake such as "Ã¨" is repaired with ftfy. Returns the text and notes on what was done."""
    # Empty, or blank but for a byte order mark ("\ufeff" alone: what an editor saves).
    if not data.removeprefix(b"\xef\xbb\xbf").strip():
        raise UnreadableError(f"{name}: the file is empty; give a rules document with text in it")
    notes: list[str] = []
    if data.startswith(b"\xef\xbb\xbf"):
        text = data[3:].decode("utf-8", errors="replace")
        notes.append("encoding: utf-8 with a byte order mark")
    elif data.startswith((b"\xfe\xff", b"\xff\xfe")):
        text = data.decode("utf-16", errors="replace")
        notes.append("encoding: utf-16 with a byte order mark")
    elif _utf16_without_bom(data):
        encoding = "utf-16-le" if data[1:200:2].count(0) > data[0:200:2].count(0) else "utf-16-be"
        text = data.decode(encoding, errors="replace")
        notes.append(f"encoding: {encoding} without a byte order mark")
    elif b"\x00" in data[:4096]:
        raise UnreadableError(
            f"{name}: binary data (NUL bytes), not a text document; "
            "give a .txt, .html or .pdf rules document"
        )
    else:
        try:
            text = data.decode("utf-8")
            notes.append("encoding: utf-8")
        except UnicodeDecodeError:
            text, encoding = _guess(data, name)
            notes.append(f"encoding: {encoding} (detected)")
    # The characters first (a scan in C): the expression took a tenth of a text file's parse.
    if any(mark in text for mark in _MOJIBAKE_MARKS) and _MOJIBAKE.search(text):
        import ftfy

        fixed = ftfy.fix_text(text, normalization="NFC")
        if fixed != text:
            notes.append("mojibake repaired (ftfy)")
            text = fixed
    return text, notes


WESTERN_ENCODINGS = ["cp1252", "latin_1", "iso8859_15", "mac_roman", "cp850"]
_MOJIBAKE = re.compile(r"[ÃÂ][\u0080-\u00bf]|â€")
_MOJIBAKE_MARKS = ("Ã", "Â", "â€")  # what every match of _MOJIBAKE holds


def _utf16_without_bom(data: bytes) -> bool:
    sample = data[:2000]
    if len(sample) < 8:
        return False
    even, odd = sample[0::2].count(0), sample[1::2].count(0)
    return max(even, odd) > 0.3 * len(sample) / 2 and min(even, odd) < 0.05 * len(sample) / 2


def _guess(data: bytes, name: str) -> tuple[str, str]:
    """Not UTF-8: Windows-1252 (which reads Latin-1 text too) when every byte is defined there,
    else charset-normalizer's best guess among Western European encodings. (Asked first, the
    detector takes mostly-ASCII English CR editions for Mac Roman or Central European pages.)"""
    from charset_normalizer import from_bytes

    try:
        return data.decode("cp1252"), "cp1252"
    except UnicodeDecodeError:
        pass
    best = from_bytes(data[:200_000], cp_isolation=WESTERN_ENCODINGS).best()
    encoding = best.encoding if best is not None else "cp1252"
    try:
        text = data.decode(encoding)
    except (UnicodeDecodeError, LookupError):
        encoding = "cp1252"
        text = data.decode(encoding, errors="replace")
    if text.count("\ufffd") > max(3, len(text) // 100):
        raise UnreadableError(
            f"{name}: undecodable text (no known encoding fits); "
            "convert it to UTF-8 and add it again"
        )
    return text, encoding


def split_lines(text: str) -> list[str]:
    """Split on CRLF, bare CR or LF, as the CR editions use all three."""
    return _LINE_BREAK.split(text)


def normalize(text: str) -> str:
    """Unicode NFC and collapsed whitespace; quotes, dashes and accents are kept."""
    # str.split() collapses the same whitespace as \s+ and strips, three times faster.
    return " ".join(unicodedata.normalize("NFC", text).split())


def fold(text: str) -> str:
    """Case, accent and quote folding for comparisons (not for display)."""
    if text.isascii():  # no marks, no curly quotes: NFKD and casefold leave what lower() does
        return text.lower()
    stripped = _combining().sub("", unicodedata.normalize("NFKD", text.casefold()))
    return stripped.replace("’", "'").replace("‘", "'")


@cache
def _combining() -> re.Pattern[str]:
    """The combining marks' blocks: a regular expression removes them four times faster than a
    test of every character, which showed in a full build's 190,000 calls. Compiled on first
    use (0.9 ms: a command that folds no accented text compiles none)."""
    return re.compile(r"[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]")
