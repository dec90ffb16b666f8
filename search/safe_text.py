"""Text from documents made safe for a terminal: no control or escape sequence reaches it raw.

A rule text, a dropped line or a file name could hold ESC]0;…BEL (window title), ESC[2J
(clear screen), OSC 8 links or colours. Every such character is shown as a visible escape
(\\x1b, \\x07, \\u202e) instead; tabs and newlines are kept where a layout needs them."""

from __future__ import annotations

import codecs
import json
import re
import sys
import unicodedata

import click

# C0 and C1 controls (but tab and newline), DEL, bidirectional overrides and isolates, and the
# lone surrogates an undecodable file name leaves: none of them printable (str.isprintable).
# Compiled on first use (1.2 ms), for a text that is not all printable.
_UNSAFE = r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff]"


def _undecoded_byte(code: int) -> str | None:
    """The byte a lone surrogate stands for ("\\xe9"): a byte of a file name that is no UTF-8
    (surrogateescape); None for another character."""
    return f"\\x{code - 0xDC00:02x}" if 0xDC80 <= code <= 0xDCFF else None


def _visible(match: re.Match[str]) -> str:
    code = ord(match.group())
    if byte := _undecoded_byte(code):
        return byte
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def terminal_safe(text: str) -> str:
    """The text with every control, escape and bidirectional-override character shown as a
    visible escape."""
    if text.replace("\n", "").replace("\t", "").isprintable():
        return text
    return re.sub(_UNSAFE, _visible, text)


def one_line(text: str) -> str:
    """terminal_safe, with tabs and newlines shown as escapes too: a file name or an error
    message printed in one line can never forge a second one."""
    return terminal_safe(text).replace("\t", "\\t").replace("\n", "\\n")


# In JSON the same characters are written as \u escapes, which JSON reads back as they were.
# Compiled on first use (0.5 ms): a command without --json prints none.
_UNSAFE_IN_JSON = r"[\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]"


def json_text(payload: object, ascii_only: bool = False) -> str:
    """One JSON object as every command prints it (indented by one space; non-ASCII letters as
    they are, controls and bidirectional overrides escaped; with `ascii_only`, every
    non-ASCII character escaped)."""
    text = json.dumps(payload, ensure_ascii=ascii_only, indent=1)
    return re.sub(_UNSAFE_IN_JSON, _escaped_in_json, text)


def _escaped_in_json(match: re.Match[str]) -> str:
    """A \\u escape; a byte of a file name that is no UTF-8 (a lone surrogate, which no UTF-8
    reader takes) written as the terminal shows it, "\\xe9"."""
    code = ord(match.group())
    byte = _undecoded_byte(code)
    return byte.replace("\\", "\\\\") if byte else f"\\u{code:04x}"


def echo(message: object = "", err: bool = False, nl: bool = True) -> None:
    """click.echo, with the text made safe for a terminal."""
    click.echo(terminal_safe(str(message)), err=err, nl=nl)


def echo_json(payload: object) -> None:
    """The JSON object on standard output; escaped to ASCII where the output cannot encode
    every character (PYTHONIOENCODING=latin-1): degraded, "“" would become a bare quote inside
    a string and the JSON invalid."""
    click.echo(json_text(payload, ascii_only=not encodes_unicode(sys.stdout)))


def encodes_unicode(stream: object) -> bool:
    """Whether a stream writes every character (a UTF encoding)."""
    encoding = (getattr(stream, "encoding", None) or "utf-8").lower().replace("_", "-")
    return encoding.startswith("utf")


# Typography an 8-bit terminal lacks, as ASCII; other letters lose their accents, and what is
# left is shown as "?".
_PLAIN = str.maketrans(
    {"’": "'", "‘": "'", "“": '"', "”": '"', "„": '"', "«": '"', "»": '"', "—": "-", "–": "-",
     "−": "-", "…": "...", "•": "*", "→": "->", "←": "<-", "≤": "<=", "≥": ">=", "×": "x",
     "\u00a0": " ", "\u2009": " ", "\u202f": " "}
)  # fmt: skip


def _degrade(error: UnicodeError) -> tuple[str, int]:
    assert isinstance(error, UnicodeEncodeError)
    out = []
    for char in error.object[error.start : error.end].translate(_PLAIN):
        plain = "".join(
            c for c in unicodedata.normalize("NFKD", char) if not unicodedata.combining(c)
        )
        try:
            plain.encode(error.encoding)
        except (UnicodeError, LookupError):
            plain = "?"
        out.append(plain or "?")
    return "".join(out), error.end


def degrade_unencodable() -> None:
    """On an output that cannot encode every character (PYTHONIOENCODING=latin-1, an
    ISO-8859-1 locale), write the nearest it can (’ as ', é in ASCII as e, else ?) instead of
    failing with UnicodeEncodeError."""
    codecs.register_error("mtgrules-degrade", _degrade)
    for stream in (sys.stdout, sys.stderr):
        if not encodes_unicode(stream) and hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="mtgrules-degrade")


def counted(count: int, noun: str, plural: str | None = None) -> str:
    """ "1 line", "2 lines", "1,200 lines": a count with its noun in agreement."""
    return f"{count:,} {noun if count == 1 else plural or noun + 's'}"
