"""`mtgrules term TERM`: a term in any language, its English concept, its equivalents."""

from __future__ import annotations

from typing import Any

import click

from search.commands.options import json_option
from search.safe_text import echo, echo_json

LANG_NAMES = {"en": "English", "it": "Italian", "fr": "French", "es": "Spanish"}


@click.command("term")
@click.argument("words", nargs=-1, required=True)
@json_option
def command(words: tuple[str, ...], as_json: bool) -> None:
    """Look a term up in the term base: 'leggendario', 'légendaire', 'land type', 'Indizio'."""
    from search.session import open_engine

    phrase = " ".join(words).strip()
    if not phrase:
        raise click.UsageError("give a term, e.g. `mtgrules term leggendario`")
    with open_engine() as engine:
        found = engine.termbase.lookup(phrase)
        concepts: dict[str, list[dict[str, str | None]]] = {}
        for term in found:
            concepts.setdefault(term.english.lower(), []).append(
                {"lang": term.lang, "term": term.term, "source": term.source, "period": term.period}
            )
        payload: dict[str, Any] = {
            "query": phrase,
            "concepts": [
                {"english": english, "terms": _unique(terms), "rules": engine.rules_using(english)}
                for english, terms in sorted(concepts.items())
            ],
        }
    if as_json:
        echo_json(payload)
    elif not payload["concepts"]:
        echo(f"{phrase!r} is not in the term base; try `mtgrules search {phrase}`", err=True)
    else:
        for concept in payload["concepts"]:
            echo(f"{concept['english']}")
            for term in concept["terms"]:
                period = f" ({term['period']})" if term["period"] else ""
                echo(f"  {term['lang']}  {term['term']}{period}  — {term['source']}")
            if concept["rules"]:
                echo(f"  rules: {', '.join(concept['rules'])}")
    if not payload["concepts"]:
        raise SystemExit(1)


def _unique(terms: list[dict[str, str | None]]) -> list[dict[str, str | None]]:
    """One row per (language, term), the first source kept; languages in a fixed order."""
    seen: dict[tuple[str | None, str | None], dict[str, str | None]] = {}
    for term in terms:
        seen.setdefault((term["lang"], (term["term"] or "").lower()), term)
    order = list(LANG_NAMES)
    return sorted(seen.values(), key=lambda t: order.index(t["lang"] or "en"))
