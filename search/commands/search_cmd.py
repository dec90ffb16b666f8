"""`mtgrules search QUERY`: ranked rules, grouped by English key, every language side by side."""

from __future__ import annotations

import click

from search.commands.options import json_option, result_options
from search.safe_text import echo, echo_json


@click.command("search")
@click.argument("query", nargs=-1, required=True)
@result_options
@click.option(
    "--limit", default=5, show_default=True, type=click.IntRange(1, 500), help="Results to show."
)
@json_option
def command(query: tuple[str, ...], as_json: bool, limit: int, **options: object) -> None:
    """Search the rules. A rule number (205.4d, 205.4, 205.4., 205) looks the rule up."""
    from search.commands.options import filters_from, show_results
    from search.query import QueryError, as_number, validate
    from search.results import Result
    from search.session import open_engine

    text = " ".join(query)
    try:
        validate(text)  # before any indexing: a malformed query is the user's to fix first
    except QueryError as error:
        raise click.UsageError(str(error)) from None
    filters, show = filters_from(options)
    number = as_number(text)
    with open_engine() as engine:
        matched: set[str] = set()
        try:
            engine.check_edition(filters.edition)
        except QueryError as error:
            raise click.ClickException(str(error)) from None
        try:
            if number:
                results: list[Result] = engine.lookup(number, filters)
            else:
                results, matched = engine.search(text, filters, limit)
        except QueryError as error:
            raise click.UsageError(str(error)) from None
        suggestions = [] if results or number else engine.suggestions(text)
    if as_json:
        payload = {"query": text, "results": [r.to_json(show) for r in results]}
        if suggestions:
            payload["suggestions"] = suggestions
        echo_json(payload)
    elif not results:
        hint = f"; did you mean: {', '.join(suggestions)}?" if suggestions else ""
        echo(f"no rules match {text!r}{hint}", err=True)
    else:
        show_results(results, show, matched)
    if not results:
        raise SystemExit(1)
