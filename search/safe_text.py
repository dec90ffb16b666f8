"""Text from documents made safe for a terminal: no control or escape sequence reaches it raw.

A rule text, a dropped line or a file name could hold ESC]0;…BEL (window title), ESC[2J
(clear screen), OSC 8 links or colours. Every such character is shown as a visible escape
(\\x1b, \\x07, \\u202e) instead; tabs and newlines are kept where a layout needs them."""

from __future__ import annotations

import json
import re

import click

# C0 and C1 controls (but tab and newline), DEL, bidirectional overrides and isolates, and the
# lone surrogates an undecodable file name leaves.
_UNSAFE = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")


def _visible(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def terminal_safe(text: str) -> str:
    """The text with every control, escape and bidirectional-override character shown as a
    visible escape."""
    return _UNSAFE.sub(_visible, text)


# In JSON the same characters are written as \u escapes, which JSON reads back as they were.
_UNSAFE_IN_JSON = re.compile(r"[\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]")


def json_text(payload: object) -> str:
    """One JSON object as every command prints it (indented by one space; non-ASCII letters as
    they are, controls and bidirectional overrides escaped)."""
    text = json.dumps(payload, ensure_ascii=False, indent=1)
    return _UNSAFE_IN_JSON.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def echo(message: object = "", err: bool = False, nl: bool = True) -> None:
    """click.echo, with the text made safe for a terminal."""
    click.echo(terminal_safe(str(message)), err=err, nl=nl)


def echo_json(payload: object) -> None:

    click.echo(json_text(payload))
