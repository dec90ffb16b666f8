"""The `mtgrules` command: a thin click group; each command lives in its own module, imported
only when it runs, so that a search starts fast."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Sequence
from typing import Any

import click

from search.safe_text import json_text, terminal_safe

COMMANDS = {
    "search": "search.commands.search_cmd",
    "show": "search.commands.show_cmd",
    "sources": "search.commands.sources_cmd",
    "add": "search.commands.add_cmd",
    "remove": "search.commands.remove_cmd",
    "export": "search.commands.export_cmd",
    "index": "search.commands.index_cmd",
    "term": "search.commands.term_cmd",
    "fetch-cr": "search.commands.fetch_cr_cmd",
    "diff": "search.commands.diff_cmd",
    "history": "search.commands.history_cmd",
    "stale": "search.commands.stale_cmd",
    "check": "search.commands.check_cmd",
    "serve": "search.commands.serve_cmd",
}


class LazyGroup(click.Group):
    def main(
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        """Every failure in one line on stderr with its fix, and with --json a JSON object on
        stdout too; the exit code is 1 for bad data, 2 for bad usage, 130 when interrupted."""
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode, **extra)
        argv = list(sys.argv[1:] if args is None else args)
        try:
            super().main(argv, prog_name, complete_var, standalone_mode=False, **extra)
        except click.exceptions.Exit as done:
            sys.exit(done.exit_code)
        except click.UsageError as error:
            _fail(argv, _usage_message(error, argv), 2)
        except click.ClickException as error:
            _fail(argv, error.format_message(), error.exit_code)
        except (click.exceptions.Abort, KeyboardInterrupt):
            _fail(argv, "interrupted; the previous index, if any, still answers", 130)
        sys.exit(0)

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        module = COMMANDS.get(cmd_name)
        if module is None:
            return None
        command: click.Command = importlib.import_module(module).command
        return command


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="mtgrules")
def cli() -> None:
    """Magic: The Gathering rules in Italian, French, Spanish, Portuguese and English, side by
    side."""


def _usage_message(error: click.UsageError, argv: list[str]) -> str:
    message = error.format_message()
    command = error.ctx.command_path if error.ctx else "mtgrules"
    option = getattr(error, "option_name", "") or ""
    if isinstance(error, click.NoSuchOption) and option[1:2].isdigit():
        token = next((a for a in argv if a.startswith(option)), option)
        return f"{message} A query that starts with '-' goes after `--`: {command} -- {token}"
    return f"{message} (see `{command} --help`)"


def _fail(argv: list[str], message: str, code: int) -> None:
    """One line on stderr (control characters shown, never sent raw); with --json, the same
    as a JSON object on stdout."""
    if "--json" in argv:
        click.echo(json_text({"error": message, "exit_code": code}))
    click.echo(f"error: {terminal_safe(message)}", err=True)
    sys.exit(code)


def main() -> None:
    cli(prog_name="mtgrules")
