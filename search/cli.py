"""The `mtgrules` command: a thin click group; each command lives in its own module, imported
only when it runs, so that a search starts fast."""

from __future__ import annotations

import importlib

import click

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
}


class LazyGroup(click.Group):
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
    """Magic: The Gathering rules in Italian, French, Spanish and English, side by side."""


def main() -> None:
    cli(prog_name="mtgrules")
