"""The README's command reference and the commands' own help say the same thing."""

from __future__ import annotations

import re

import click
from conftest import ROOT

from search.cli import cli


def _documented() -> dict[str, str]:
    """Each `### mtgrules NAME` section of the README, by command name."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    sections = {}
    for section in re.split(r"^### ", text, flags=re.MULTILINE):
        name = re.match(r"`mtgrules ([a-z-]+)", section)
        if name:
            sections[name.group(1)] = section.split("\n## ")[0]
    return sections


def test_every_command_and_option_is_in_the_readme():
    """Each command has its README section, and each of its options is named there."""
    context = click.Context(cli)
    documented = _documented()
    assert set(cli.list_commands(context)) == set(documented)
    for name in cli.list_commands(context):
        command = cli.get_command(context, name)
        assert command is not None
        options = [
            option
            for param in command.params
            for option in (*param.opts, *getattr(param, "secondary_opts", ()))
            if option.startswith("--") and option != "--help"
        ]
        assert [o for o in options if o not in documented[name]] == [], name


def test_help_texts_are_sentences():
    """Every command's help is whole sentences; every option's help starts with a capital."""
    context = click.Context(cli)
    for name in cli.list_commands(context):
        command = cli.get_command(context, name)
        assert command is not None and command.help, name
        assert command.help[0].isupper() and command.help.rstrip().endswith("."), name
        for param in command.params:
            if isinstance(param, click.Option) and param.name != "help":
                assert param.help and param.help[0].isupper(), (name, param.name)
