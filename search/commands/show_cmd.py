"""`mtgrules show RULE`: one rule (with subrules, examples, notes) and its cross-references."""

from __future__ import annotations

import click

from search import payloads
from search.commands.options import (
    filters_from,
    json_option,
    problems_as_errors,
    result_options,
    show_results,
    utf8_words,
)
from search.results import Result
from search.safe_text import echo, echo_json
from search.session import open_engine


@click.command("show")
@click.argument("words", nargs=-1, required=True, metavar="RULE", callback=utf8_words)
@result_options
@json_option
def command(words: tuple[str, ...], as_json: bool, **options: object) -> None:
    """Show a rule: 205.4d the subrule, 205.4 with its subrules, 205.4. alone, 205 the section;
    a judge document's part as typed (MTR 2.3, ipg3.1), quoted or not."""
    rule = " ".join(words)
    filters, show = filters_from(options)
    with open_engine(searching=False) as engine, problems_as_errors():
        payload, results = payloads.show(engine, rule, filters, show)
    if as_json:
        echo_json(payload)
        return
    if payload.get("edition_note"):
        echo(f"note: {payload['edition_note']}", err=True)  # a date between editions
    if "contents" in payload:  # a judge document named alone
        show_contents(payload)
        return
    if payload.get("note"):
        echo(payload["note"])  # the number asked is another rule's, or none, today
    if payloads.is_chapter(rule) and len(results) > 1:
        show_chapter(results)  # 7: its title and its sections' titles, one line each
        return
    show_results(results, show, set())
    if payload["refers_to"]:
        absent = set(payload.get("not_in_library", ()))
        cited = [f"{n} (not in the library)" if n in absent else n for n in payload["refers_to"]]
        echo(f"\nrefers to: {', '.join(cited)}")
    if payload["referred_by"]:
        echo(f"referred to by: {', '.join(payload['referred_by'])}")


def show_chapter(results: list[Result]) -> None:
    """A CR chapter and its sections, one line each: the English title, then each other
    language's ("701 — Keyword Actions · es Acciones de palabra clave")."""
    for at, result in enumerate(results):
        titles = [
            (record.lang, (record.title or record.text or "").strip())
            for record in result.records
            if record.kind == "rule"
        ]
        english = next((title for lang, title in titles if lang == "en"), "")
        others = [f"{lang} {title}" for lang, title in dict.fromkeys(titles) if lang != "en"]
        line = " · ".join([english, *others] if english else others)
        echo(f"{'  ' if at else ''}{result.key} — {line}")
    echo(f"\nshow a section: mtgrules show {results[1].key}")


def show_contents(payload: dict) -> None:
    """A judge document's parts, a section indented under its chapter, an infraction with its
    penalty."""
    echo(f"{payload['query']} — {payload['title']}, {payload['edition']}")
    for part in payload["contents"]:
        number = part["key"].partition(" ")[2]
        indent = "  " if "." in number or part.get("parent") else ""
        penalty = f" · penalty: {part['penalty']}" if part.get("penalty") else ""
        echo(f"{indent}{part['key']} — {part['title']}{penalty}")
    if payload["contents"]:
        echo(f"\nshow a part: mtgrules show '{payload['contents'][0]['key']}'")
