"""A message's fix said for the web page or the API that gives it: the payloads' messages are
written for the command line ("show it without --lang", "`mtgrules stale --lang es`"); on a page
a command becomes a link to the page that does it, and an option the form control that sets it;
in the API, the request that does it and the parameter. Commands with no page (`mtgrules add`)
stay as they are: the command line is the way to do them."""

from __future__ import annotations

import re
import shlex

from markupsafe import Markup, escape

from corpus.model.languages import LANGUAGES
from search.web.links import href

_COMMAND = re.compile(r"`mtgrules ([^`]+)`")
_CODES = "|".join(LANGUAGES)  # "--lang or" is no language
_OPTIONS = (
    (re.compile(r"\bwithout --lang\b"), "with no language ticked"),
    (re.compile(r"\bwithout --doc\b"), "with no document ticked"),
    (
        re.compile(rf"\bwith --lang ((?:{_CODES})(?:,(?:{_CODES}))*)\b"),
        lambda m: f"with {' and '.join(_language(c) for c in m[1].split(','))} ticked",
    ),
    (re.compile(rf"\badd ({_CODES}) to --lang\b"), lambda m: f"tick {_language(m[1])}"),
    (re.compile(r"\bleave --show out\b"), "take show= out of the address"),
    (re.compile(rf"--show ((?:{_CODES})(?:,(?:{_CODES}))*)\b"), lambda m: f"show={m[1]}"),
    (
        re.compile(rf"--lang ((?:{_CODES})(?:,(?:{_CODES}))+)\b"),
        lambda m: f"{' and '.join(_language(c) for c in m[1].split(','))} ticked",
    ),
    (re.compile(rf"--lang ({_CODES})\b"), lambda m: f"{_language(m[1])} ticked"),
    (re.compile(r"--all-editions\b"), "all_editions=1"),
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
    return LANGUAGES[code].name


def _options(text: str) -> Markup:
    for pattern, said in _OPTIONS:
        text = pattern.sub(said, text)
    return escape(text)


def _command(command: str) -> Markup:
    """A command as a link to its page, or as code when it has none."""
    name, options, rest = _invocation(command)
    url = None
    if name == "search" and rest:
        url = href("", q=" ".join(rest), doc=options.get("--doc"), lang=options.get("--lang"))
    elif name == "show" and rest:
        url = href("rule", rest[0], edition=options.get("--edition"), lang=options.get("--lang"))
    elif name == "history" and rest:
        url = href("history", rest[0])
    elif name == "term" and rest:
        url = href("term", rest[0])
    elif name == "sources":
        url = href("sources")
    elif name == "stale":
        # The stale page of the language asked (several: the first; the page picks others).
        url = href("stale", lang=(options.get("--lang") or "").split(",")[0] or None)
    elif name == "diff":
        # "--from DATE" is a placeholder for a date to choose: the page's pickers choose it.
        dates = {
            key: options[key] for key in ("--from", "--to") if options.get(key, "DATE") != "DATE"
        }
        url = href(
            "diff",
            doc=options.get("--doc"),
            from_=dates.get("--from"),
            to=dates.get("--to"),
            rule=rest[0] if rest else None,
        )
    if url is None:
        return Markup("<code>mtgrules {}</code>").format(command)
    label = {
        "search": f"search for “{' '.join(rest)}”",
        "history": f"the history of {rest[0] if rest else ''}",
        "stale": "the stale translations page",
        "diff": "the diff page",
        "sources": "the sources page",
    }.get(name, rest[0] if rest else name)
    return Markup('<a href="{}">{}</a>').format(url, label)


def _invocation(command: str) -> tuple[str, dict[str, str], list[str]]:
    """A command's name, its --option value pairs and its other words ("" when it cannot be
    read: a stray quote)."""
    try:
        name, *args = shlex.split(command) or [""]
    except ValueError:
        return "", {}, []
    options: dict[str, str] = {}
    rest: list[str] = []
    words = iter(args)
    for word in words:
        if word.startswith("--"):
            options[word] = next(words, "")
        else:
            rest.append(word)
    return name, options, rest


# An option with its value ("--lang es", "--from 2024-11-08", "--doc ipg"), else alone.
_API_OPTION = re.compile(
    rf"--(?:(lang|show) ((?:{_CODES})(?:,(?:{_CODES}))*)\b"
    r"|(from|to|edition) (\d{4}-?\d{2}-?\d{2}|latest|DATE)\b"
    r"|(kind|doc|limit|against) ([a-z0-9]+)\b"
    r"|(lang|show|from|to|edition|kind|doc|limit|against)\b)"
)


def _parameter(found: re.Match[str]) -> str:
    groups = [g for g in found.groups() if g is not None]
    return f"{groups[0]}={groups[1]}" if len(groups) == 2 else f"{groups[0]}="


def for_api(message: str) -> str:
    """The message for a script calling the API: its commands as requests (`mtgrules search
    trample` is /api/search?q=trample), its options as parameters (--lang es is lang=es)."""

    def request(found: re.Match[str]) -> str:
        name, options, rest = _invocation(found[1])
        parameters = {key.lstrip("-"): value for key, value in options.items()}
        url = None
        if name == "search" and rest:
            url = href("api/search", q=" ".join(rest), **parameters)
        elif name in ("show", "history", "term") and rest:
            url = href(f"api/{name}", rest[0], **parameters)
        elif name in ("stale", "check", "diff", "sources"):
            url = href(f"api/{name}", **parameters)
        return f"`{url}`" if url else found[0]

    return _API_OPTION.sub(_parameter, _COMMAND.sub(request, message))
