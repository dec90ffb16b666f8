"""The `mtgrules` command: a thin click group; each command lives in its own module, imported
only when it runs, so that a search starts fast."""

from __future__ import annotations

import contextlib
import errno
import gc
import importlib
import io
import os
import sys
from collections.abc import Sequence
from typing import Any

import click
import click.core
import click.decorators
import click.exceptions
import click.formatting
import click.parser
import click.types

from search import dataclass_code
from search.safe_text import degrade_unencodable, json_text, one_line

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
# Commands that read the index or the records and answer once: what they make (the index's
# readers, the term base, the results, the 114,000 records `history` and `diff` align) lives
# until the process ends, so a collection finds no garbage worth its time (a search's
# collections cost some 20 ms, `history`'s a second and a half). Their process runs without the
# collector, but for a build they start (search.session.build_with_progress turns it back on).
ONE_SHOT = {"show", "search", "history", "diff", "stale", "check", "export"}


def _as_written(message: str) -> str:
    return message


# click asks gettext for each of its messages in the "messages" domain, for which nothing here
# ships a catalogue: the first lookup imports locale, and each one looks for catalogue files
# in every language the environment names (some 2 ms of every command). Its messages are shown
# as written, as they would be anyway.
for _module in (
    click.core,
    click.decorators,
    click.exceptions,
    click.formatting,
    click.parser,
    click.types,
):
    _module._ = _as_written  # type: ignore[attr-defined]


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
        code: Any = 0
        try:
            try:
                super().main(argv, prog_name, complete_var, standalone_mode=False, **extra)
            except click.exceptions.Exit as done:
                code = done.exit_code
            except click.UsageError as error:
                _fail(argv, _usage_message(error, argv), 2)
            except click.ClickException as error:
                _fail(argv, error.format_message(), error.exit_code)
            except (click.exceptions.Abort, KeyboardInterrupt):
                _fail(argv, "interrupted; the previous index, if any, still answers", 130)
        except SystemExit as done:
            code = done.code
        try:
            sys.stdout.flush()  # what is still buffered fails here, not at the interpreter's exit
        except OSError as error:
            code = _os_failure(argv, error)
        sys.exit(code)

    def invoke(self, ctx: click.Context) -> Any:
        """The command; an OSError it lets out (the output's pipe closed, a full disk) is
        handled here, at the edge, once (click would end a closed pipe with no set code)."""
        try:
            return super().invoke(ctx)
        except OSError as error:
            sys.exit(_os_failure(sys.argv[1:], error))

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
        with contextlib.suppress(OSError):  # the output itself failed: stderr still says why
            click.echo(json_text({"error": message, "exit_code": code}))
    click.echo(f"error: {one_line(message)}", err=True)
    sys.exit(code)


BROKEN_PIPE = 141  # as a shell reports a command that SIGPIPE ended (128 + 13)


def _os_failure(argv: list[str], error: OSError) -> int:
    """A write or a file that failed: a closed pipe (`| head`) ends quietly; anything else
    (a full disk) is one line. The output is sent to /dev/null from then on, so that what is
    still buffered does not fail again at the interpreter's exit."""
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError):  # no descriptor (a closed output): replaced as a whole
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - open until the interpreter's exit
    if isinstance(error, BrokenPipeError) or error.errno == errno.EPIPE:
        return BROKEN_PIPE
    full = error.errno in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG)
    if full:
        fix = "free some space, or write elsewhere"
    elif error.filename:
        fix = "check it and its permissions"
    else:
        fix = "give the command an output it can write (a file, a pipe, /dev/null)"
    what = f"{error.filename}" if error.filename else "cannot write the output"
    with contextlib.suppress(OSError):
        _fail(argv, f"{what} ({error.strerror or error}); {fix}", 1)
    return 1


class _ClosedOutput(io.RawIOBase):
    """Stands for a standard output the shell closed (`>&-`): writing to it is the OSError
    that the edge reports in one line; a command that prints nothing still runs."""

    def writable(self) -> bool:
        return True

    def write(self, data: Any) -> int:
        raise OSError(errno.EBADF, "the standard output is closed")


def main() -> None:
    if sys.stdout is None:
        sys.stdout = io.TextIOWrapper(io.BufferedWriter(_ClosedOutput()), encoding="utf-8")
    degrade_unencodable()
    # The dataclasses imported and made meanwhile get their methods' compiled code from the
    # bootstrap's cache (search/dataclass_code.py): 0.15 ms a class instead of 0.8.
    with dataclass_code.kept():
        _settle(sys.argv[1:2])
        try:
            cli(prog_name="mtgrules")
        finally:
            # What the command made is set aside too: the interpreter's exit then skips a last
            # full collection of it (`search`: the index's readers, the term base), some 10 ms.
            # Every file and database is closed by then (open_engine, the writers' blocks).
            gc.freeze()


def run() -> None:
    """The `mtgrules` console script: `main`, then a one-shot command's process (ONE_SHOT) ends
    without the interpreter's teardown, which frees every module and object one by one (some
    10 ms of a `show`). By then its output is flushed and its files are closed; when anything
    could still wait for the exit (another thread, an exit handler) it ends as usual."""
    try:
        main()
    except SystemExit as done:
        code = done.code  # an exit code; a message would still be printed
        one_shot = sys.argv[1:2] and sys.argv[1] in ONE_SHOT
        if one_shot and (code is None or isinstance(code, int)) and _nothing_waits():
            with contextlib.suppress(OSError, ValueError):  # a closed output: said already
                sys.stdout.flush()
                sys.stderr.flush()
            os._exit(code or 0)
        raise


def _nothing_waits() -> bool:
    """Whether the exit has nothing to do but free memory: no other thread, no exit handler
    (as the interpreter counts them; where it cannot say, the exit is the usual one)."""
    import atexit
    import threading

    handlers = getattr(atexit, "_ncallbacks", lambda: 1)()
    return threading.active_count() == 1 and not handlers


def _settle(name: list[str]) -> None:
    """Import the command's module, then set everything imported aside from the cyclic garbage
    collector (gc.freeze): modules, classes and functions live until the process ends, and
    scanning their tens of thousands of objects again at each full collection and at the
    interpreter's exit cost `show` and `search` some 10 ms. Only the process's own entry
    point does it (the tests' CliRunner calls `cli`, and a test process keeps collecting)."""
    gc.disable()  # no collection while importing: what is imported is never garbage
    try:
        if name and name[0] in COMMANDS:
            importlib.import_module(COMMANDS[name[0]])
    finally:
        gc.freeze()
        if not (name and name[0] in ONE_SHOT):
            gc.enable()
