"""`mtgrules serve`: the web app and the JSON API, from one warm process."""

from __future__ import annotations

import os

import click

from corpus.paths import home
from search.safe_text import echo
from search.session import ensure_fresh


@click.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True, help="The address to listen on.")
@click.option(
    "--port",
    default=8008,
    show_default=True,
    type=click.IntRange(0, 65535),
    help="The port to listen on.",
)
@click.option(
    "--workers",
    default=1,
    show_default=True,
    type=click.IntRange(1, 64),
    help="Processes answering requests, each with the build open read-only (for many judges).",
)
@click.option("--open", "open_browser", is_flag=True, help="Open the search page in a browser.")
def command(host: str, port: int, workers: int, open_browser: bool) -> None:
    """Serve the library of MTGRULES_HOME in a browser (search, rules, terms, diffs, sources)
    and as a JSON API under /api/ with the shapes of --json. Binds to this machine only unless
    --host says otherwise; a rebuilt index is picked up without a restart. With --workers N,
    N processes share the port, each with its own engine over the same read-only build."""
    from search.web import serving
    from search.web.app import create_app

    try:  # bound before anything is said: a busy port is one line, not "serving" then a death
        sock = serving.bind(host, port)
    except serving.PortInUse as error:
        raise click.ClickException(
            f"cannot listen on {host}:{port} ({error.strerror}); {_bind_fix(error.errno)}"
        ) from error
    try:
        ensure_fresh(home())  # index now, once, so that no request waits for it
        # One worker: the app made here; several: each worker process makes its own.
        app = create_app(home()) if workers == 1 else None
        bound = sock.getsockname()[1]
        address = f"http://{host if ':' not in host else f'[{host}]'}:{bound}/"
        several = f" with {workers} worker processes" if workers > 1 else ""
        echo(f"mtgrules: serving {home()} at {address}{several} (Ctrl-C stops)")
        if open_browser:
            import webbrowser

            webbrowser.open(address)
        if workers > 1:  # each worker imports the app itself: MTGRULES_HOME is in its environment
            os.environ["MTGRULES_HOME"] = str(home())
        serving.run(app, sock, host, workers)
    finally:
        sock.close()


def _bind_fix(number: int | None) -> str:
    """What to change when an address cannot be had: the port when it is taken or reserved,
    the host when it is no address of this machine (or no name at all)."""
    import errno

    if number == errno.EADDRINUSE:
        return "give another --port, or stop what holds it"
    if number == errno.EACCES:
        return "give a --port above 1023"
    return "give a --host of this machine (127.0.0.1, or 0.0.0.0 for every address)"
