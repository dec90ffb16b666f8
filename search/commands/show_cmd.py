"""`mtgrules show RULE`: one rule (with subrules, examples, notes) and its cross-references."""

from __future__ import annotations

import click

from corpus.numbers import cited_numbers
from search.commands.options import json_option, result_options
from search.safe_text import echo, echo_json


@click.command("show")
@click.argument("rule")
@result_options
@json_option
def command(rule: str, as_json: bool, **options: object) -> None:
    """Show a rule: 205.4d the subrule, 205.4 with its subrules, 205.4. alone, 205 the section."""
    from search.commands.options import filters_from, show_results
    from search.query import QueryError, as_number
    from search.session import open_engine

    number = as_number(rule)
    if number is None:
        raise click.UsageError(
            f"{rule!r} is not a rule number; write it like 205.4d, 205.4, 205.4. or 205 "
            "(use `mtgrules search` for words)"
        )
    filters, show = filters_from(options)
    with open_engine(searching=False) as engine:
        try:
            engine.check_edition(filters.edition)
        except QueryError as error:
            raise click.ClickException(str(error)) from None
        results = engine.lookup(number, filters)
        if not results:
            raise click.ClickException(
                f"no rule {rule} in the library; try `mtgrules search {rule}`"
            )
        cites = sorted(
            {m for r in results for rec in r.records for m in cited_numbers(rec["text"])}
            - {r.key for r in results}
        )
        cited_by = engine.referring_to(number.number)
    if as_json:
        payload = {
            "query": rule,
            "results": [r.to_json(show) for r in results],
            "refers_to": cites,
            "referred_by": cited_by,
        }
        echo_json(payload)
        return
    show_results(results, show, set())
    if cites:
        echo(f"\nrefers to: {', '.join(cites)}")
    if cited_by:
        echo(f"referred to by: {', '.join(cited_by)}")
