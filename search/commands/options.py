"""Options shared by several commands, as decorators."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

import click

from corpus.model.dates import EDITION_FORMS, typed_edition
from corpus.model.documents import DOCUMENTS
from corpus.model.languages import (
    SHOWN_ORDER,
    UnknownLanguageError,
    validate_languages,
    validate_translations,
)
from corpus.model.records import KINDS
from search import payloads, render
from search.query import not_utf8
from search.results import Filters

F = TypeVar("F", bound=Callable[..., Any])


def utf8_words(
    ctx: click.Context, param: click.Parameter, value: tuple[str, ...]
) -> tuple[str, ...]:
    """An argument of words (a rule, a term) as the shell gave it: bytes that are not UTF-8 are
    a usage error, as for a search (`show` failed with a traceback)."""
    for word in value:
        if (undecoded := not_utf8(word)) is not None:
            raise click.BadParameter(undecoded)
    return value


def json_option(func: F) -> F:
    return click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")(func)


def _parsed(
    validate: Callable[[tuple[str, ...]], tuple[str, ...]],
) -> Callable[[click.Context, click.Parameter, tuple[str, ...]], tuple[str, ...]]:
    """A --lang callback: the codes `validate` takes, or the option's usage error."""

    def parse(
        ctx: click.Context, param: click.Parameter, value: tuple[str, ...]
    ) -> tuple[str, ...]:
        try:
            return validate(value)
        except UnknownLanguageError as error:
            raise click.BadParameter(str(error)) from None

    return parse


parse_languages = _parsed(validate_languages)


def lang_option(help_text: str, translations: bool = False) -> Callable[[F], F]:
    """--lang; with `translations`, a translation's languages only (English is what they are
    compared with)."""
    return click.option(
        "--lang",
        "langs",
        multiple=True,
        callback=_parsed(validate_translations) if translations else parse_languages,
        metavar="LANG[,LANG]",
        help=help_text,
    )


def _choices(
    names: tuple[str, ...],
) -> Callable[[click.Context, click.Parameter, tuple[str, ...]], tuple[str, ...]]:
    def parse(
        ctx: click.Context, param: click.Parameter, value: tuple[str, ...]
    ) -> tuple[str, ...]:
        chosen = tuple(  # any case, as show and the web take them ("--doc MTR")
            dict.fromkeys(v.strip().lower() for raw in value for v in raw.split(",") if v.strip())
        )
        unknown = [v for v in chosen if v not in names]
        if unknown:
            raise click.BadParameter(f"unknown {unknown[0]!r}; valid: {', '.join(names)}")
        if value and not chosen:  # `--doc ""`, `--kind ,`: refused as `--lang ""` is
            raise click.BadParameter(f"give one or more of {', '.join(names)}")
        return chosen

    return parse


class EditionDate(click.ParamType):
    """An edition as every command takes it: YYYY-MM-DD, YYYYMMDD or latest."""

    name = "date"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> str:
        edition = typed_edition(str(value))
        if edition is None:
            self.fail(f"{value!r} is not a date; {EDITION_FORMS}", param, ctx)
        return edition


EDITION = EditionDate()


def doc_option(func: F) -> F:
    """--doc: which documents (corpus/model/documents.py) a search or lookup reads."""
    return click.option(
        "--doc",
        "docs",
        multiple=True,
        callback=_choices(tuple(DOCUMENTS)),
        metavar="DOC[,DOC]",
        help="Only these documents: cr, mtr, ipg, jar (default: all).",
    )(func)


def result_options(func: F) -> F:
    """--lang, --show, --kind, --edition: which records a search or lookup returns and shows."""
    func = click.option(
        "--edition",
        type=EDITION,
        metavar="DATE",
        help="Only texts of this edition (YYYY-MM-DD, YYYYMMDD or latest).",
    )(func)
    func = click.option(
        "--all-editions",
        is_flag=True,
        help="Rank on the English text of every loaded edition, not only the newest.",
    )(func)
    func = doc_option(func)
    func = click.option(
        "--kind",
        "kinds",
        multiple=True,
        callback=_choices(KINDS),
        metavar="KIND[,KIND]",
        help=f"Only these kinds of record ({', '.join(KINDS)}).",
    )(func)
    func = click.option(
        "--show",
        "show",
        multiple=True,
        callback=parse_languages,
        metavar="LANG[,LANG]",
        help="Which language columns to print (default: all).",
    )(func)
    return lang_option(f"Only search and show these languages ({', '.join(SHOWN_ORDER)}).")(func)


def filters_from(options: dict[str, Any]):
    langs = tuple(options.get("langs") or ())
    filters = Filters(
        langs=langs,
        kinds=tuple(options.get("kinds") or ()),
        edition=options.get("edition"),
        all_editions=bool(options.get("all_editions")),
        docs=tuple(options.get("docs") or ()),
    )
    return filters, tuple(options.get("show") or ())


def show_results(results, show, matched, most=None) -> None:
    if render.use_rich():
        render.echo_rich(results, show, matched, most=most)
    else:
        render.echo_plain(results, show, most=most)


@contextmanager
def problems_as_errors() -> Iterator[None]:
    """A payload's Problem as the command line's error: a bad request is bad usage (exit 2),
    anything else bad data or nothing found (exit 1)."""
    try:
        yield
    except payloads.Problem as problem:
        if problem.status == 400:
            raise click.UsageError(str(problem)) from None
        raise click.ClickException(str(problem)) from None


def numbered(rule: str, doc: str | None = None) -> str:
    """A rule asked by its title in any language (`Trample`, `tocco letale`: 702.19; as `show`
    reads it, payloads.titled_number), or a judge document's section by its title (`Tardiness`:
    IPG 3.1; with `doc`, only that document's), else as written."""
    if not payloads.may_be_a_title(rule):  # no engine opened for a number
        return rule
    from search.session import open_engine

    with open_engine() as engine:
        return payloads.as_titled(engine, rule, doc)
