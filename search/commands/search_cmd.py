"""`mtgrules search QUERY`: ranked rules, grouped by English key, every language side by side."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from corpus.paths import home
from search import meaning, payloads, render, served
from search.commands.options import (
    filters_from,
    json_option,
    problems_as_errors,
    result_options,
    show_results,
)
from search.query import QueryError, as_number, validate
from search.safe_text import echo, echo_json
from search.session import open_engine

if TYPE_CHECKING:
    from search.engine import Engine

# A search shows so many records of a result per language: a section's heading takes in its
# rules (603: some forty records in Spanish, a wall for `--limit 3`); `show` shows them all.
MOST_RECORDS = 12


@click.command("search")
@click.argument("query", nargs=-1, required=True)
@result_options
@click.option(
    "--limit", default=5, show_default=True, type=click.IntRange(1, 500), help="Results to show."
)
@click.option(
    "--brief",
    is_flag=True,
    help="One line per result: its key and title, or the beginning of its text.",
)
@json_option
def command(
    query: tuple[str, ...], as_json: bool, limit: int, brief: bool, **options: object
) -> None:
    """Search the rules. A rule number (205.4d, 205.4, 205.4., 205) looks the rule up."""
    text = " ".join(query)
    if brief and as_json:
        raise click.UsageError("--brief and --json print differently: give one of them")
    try:
        validate(text)  # before any indexing: a malformed query is the user's to fix first
    except QueryError as error:
        raise click.UsageError(str(error)) from None
    filters, show = filters_from(options)
    meaning.one_shot()  # ask the home's meaning daemon rather than load the encoder
    # Whoosh is opened only if the daemon does not answer the whole search (search/served.py).
    number = as_number(text)
    with open_engine(searching=False) as engine, problems_as_errors():
        answered = None if number else served.search(engine, text, filters, limit, show)
        payload, results, matched = answered or payloads.search(engine, text, filters, limit, show)
        # A brief list is in the query's language when it has that text ("arrollar": the
        # Spanish 702.19b), unless --show says which.
        asked_in = query_language(engine, text) if brief and not show and not number else ()
        # A served search had the vectors: nothing is being prepared.
        if not number and not answered and meaning.preparing(engine.folder, home()):
            echo(meaning.PREPARING, err=True)  # the vectors come after the lexical index
            # A script comparing answers is told too: these will change once they are ready.
            payload = {**payload, "preparing_meaning": True}
    if "missing" in payload and not as_json:
        missing = ", ".join(payload["missing"])
        nowhere = f" (found nowhere: {missing})" if missing else " (each is in some rule)"
        close = payloads.did_you_mean(payload) if missing else ""  # "marqées": marquées
        echo(f"note: no rule has every word; rules with some of them{nowhere}{close}", err=True)
    if payload.get("by_meaning") and not as_json:
        close = payloads.did_you_mean(payload)
        echo(f"note: no rule has the words of {text!r}; ranked by meaning{close}", err=True)
    if payload.get("edition_note") and not as_json:
        echo(f"note: {payload['edition_note']}", err=True)  # a date between editions
    if payload.get("note") and results and not as_json:
        echo(f"note: {payload['note']}", err=True)  # --edition's number is another today
    if not results:  # on stderr as every command's error, with --json too
        echo(f"error: {payload['error']}", err=True)
    if as_json:
        # With its "error" when nothing matched and the exit code, as every command's --json
        # says a failure.
        echo_json(payload if results else {**payload, "exit_code": 1})
    elif results and brief:
        render.echo_brief(results, show or asked_in)
    elif results:
        show_results(results, show, matched, most=MOST_RECORDS)
    if not results:
        raise SystemExit(1)


def query_language(engine: Engine, text: str) -> tuple[str, ...]:
    """The one language a query is written in, when its words say so and it is not English."""
    from search.parse import languages_of

    languages = languages_of(text, engine)
    return tuple(languages) if len(languages) == 1 and languages != ["en"] else ()
