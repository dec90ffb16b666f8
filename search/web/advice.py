"""A message's fix said for the web page that shows it: the payloads' messages are written for
the command line ("show it without --lang", "`mtgrules stale --lang es`"); on a page a command
becomes a link to the page that does it, and an option the form control that sets it. Commands
with no page (`mtgrules add`) stay as they are: the command line is the way to do them."""

from __future__ import annotations

import re
import shlex

from markupsafe import Markup, escape

from corpus.model.languages import LANGUAGES
from search.web.links import href

_COMMAND = re.compile(r"`mtgrules ([^`]+)`")
_OPTIONS = (
    (re.compile(r"\bwithout --lang\b"), "with no language ticked"),
    (re.compile(r"\bwith --lang ([a-z]{2})\b"), lambda m: f"with {_language(m[1])} ticked"),
    (re.compile(r"--lang ([a-z]{2})\b"), lambda m: f"{_language(m[1])} ticked"),
    (re.compile(r"--edition\b"), "the edition"),
    (re.compile(r"--from\b"), "From"),
    (re.compile(r"--to\b"), "To"),
    (re.compile(r"--kind\b"), "Kinds"),
    (re.compile(r"--doc ([a-z]{2,3})\b"), lambda m: f"the {m[1].upper()} document"),
)


def for_web(message: str) -> Markup:
    """The message, HTML-escaped, with its commands as links and its options as controls."""
    parts, last = [], 0
    for found in _COMMAND.finditer(message):
        parts.append(_options(message[last : found.start()]))
        parts.append(_command(found[1]))
        last = found.end()
    parts.append(_options(message[last:]))
    return Markup("").join(parts)


def _language(code: str) -> str:
    return LANGUAGES[code].name if code in LANGUAGES else code


def _options(text: str) -> Markup:
    for pattern, said in _OPTIONS:
        text = pattern.sub(said, text)
    return escape(text)


def _command(command: str) -> Markup:
    """A command as a link to its page, or as code when it has none."""
    try:
        words = shlex.split(command)
    except ValueError:
        words = []
    name, args = (words[0], words[1:]) if words else ("", [])
    options, rest = _parsed(args)
    url = None
    if name == "search" and rest:
        url = href("", q=" ".join(rest), doc=options.get("--doc"), lang=options.get("--lang"))
    elif name == "show" and rest:
        url = href("rule", rest[0], edition=options.get("--edition"), lang=options.get("--lang"))
    elif name == "history" and rest:
        url = href("history", rest[0])
    elif name == "term" and rest:
        url = href("term", rest[0])
    elif name == "stale":
        url = href("sources")  # each translation's rules changed in English since, by document
    elif name == "diff":
        url = href("diff", doc=options.get("--doc"), from_=options.get("--from"))
    if url is None:
        return Markup("<code>mtgrules {}</code>").format(command)
    label = {
        "search": f"search for “{' '.join(rest)}”",
        "history": f"the history of {rest[0] if rest else ''}",
        "stale": "the Sources page",
        "diff": "the diff page",
    }.get(name, rest[0] if rest else name)
    return Markup('<a href="{}">{}</a>').format(url, label)


def _parsed(args: list[str]) -> tuple[dict[str, str], list[str]]:
    """--option value pairs, and the other words."""
    options: dict[str, str] = {}
    rest: list[str] = []
    words = iter(args)
    for word in words:
        if word.startswith("--"):
            options[word] = next(words, "")
        else:
            rest.append(word)
    return options, rest
