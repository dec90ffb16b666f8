"""`mtgrules term TERM`: a term in any language, its English concept, its equivalents."""

from __future__ import annotations

from shlex import quote
from typing import Any

import click

from search import payloads
from search.commands.options import json_option, problems_as_errors, utf8_words
from search.safe_text import counted, echo, echo_json
from search.session import open_engine


@click.command("term")
@click.argument("words", nargs=-1, required=True, callback=utf8_words)
@json_option
def command(words: tuple[str, ...], as_json: bool) -> None:
    """Look a term up in the term base, in any language: 'leggendario', 'légendaire', 'land
    type', 'Indizio'."""
    with open_engine() as engine, problems_as_errors():
        payload = payloads.term(engine, " ".join(words))
    if not payload["concepts"]:
        # The hint's command is one to copy: "robar cartas" quoted, to be one query.
        phrase = payload["query"]
        dashes = "-- " if phrase.startswith("-") else ""  # "-1" is no option of search
        missing = (
            f"{phrase!r} is not in the term base; try `mtgrules search {dashes}{quote(phrase)}`"
        )
        echo(f"error: {missing}", err=True)  # with --json too, as every command's error
        if as_json:  # its message beside what was looked up, as every --json says a failure
            echo_json({"error": missing, "exit_code": 1, **payload})
        raise SystemExit(1)
    if as_json:
        echo_json(payload)
        return
    for concept in payload["concepts"]:
        echo(f"{concept['english']}{_obsolete_note(concept)}")
        for term in concept["terms"]:
            echo(
                f"  {term['lang']}  {term['term']}{_dictionary_form(term)}{_period(term)}"
                f"  — {term['source']}"
            )
        if concept["rules"]:
            echo(f"  rules: {', '.join(concept['rules'])}")
    if payload.get("hidden"):
        from corpus.terms.termbase import SHOWN_CONFIDENCE

        hidden = counted(payload["hidden"], "learned pair")
        echo(f"({hidden} below confidence {SHOWN_CONFIDENCE} hidden)")


def _obsolete_note(concept: dict[str, Any]) -> str:
    """ "converted mana cost (obsolete in English: now mana value)"."""
    if not concept.get("obsolete"):
        return ""
    now = f": now {concept['replaced_by']}" if concept.get("replaced_by") else ""
    return f" (obsolete in English{now})"


def _dictionary_form(term: dict[str, Any]) -> str:
    """ " (dictionary form: piocher)" for a term cards print inflected ("piochez")."""
    headword = term.get("dictionary_form")
    return f" (dictionary form: {headword})" if headword else ""


def _period(term: dict[str, Any]) -> str:
    """A term's period, said as no longer in use when it is, and the old concept it names when
    it is listed under its replacement."""
    said = [term["period"]] if term["period"] else []
    if term.get("as"):
        said.append(f"translates {term['as']}")
    if term.get("obsolete"):
        return f" (no longer in use{': ' if said else ''}{', '.join(said)})"
    return f" ({', '.join(said)})" if said else ""
