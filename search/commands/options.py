"""Options shared by several commands, as decorators."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import click

F = TypeVar("F", bound=Callable[..., Any])


def json_option(func: F) -> F:
    return click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")(func)


def parse_languages(ctx: click.Context, param: click.Parameter, value: tuple[str, ...]) -> tuple[str, ...]:
    from corpus.languages import UnknownLanguageError, validate_languages

    try:
        return validate_languages(value)
    except UnknownLanguageError as error:
        raise click.BadParameter(str(error)) from None


def lang_option(help_text: str) -> Callable[[F], F]:
    return click.option(
        "--lang",
        "langs",
        multiple=True,
        callback=parse_languages,
        metavar="LANG[,LANG]",
        help=help_text,
    )
