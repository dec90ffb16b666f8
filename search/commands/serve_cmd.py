"""`mtgrules serve`: the web app and the JSON API, from one warm process."""

from __future__ import annotations

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
@click.option("--open", "open_browser", is_flag=True, help="Open the search page in a browser.")
def command(host: str, port: int, open_browser: bool) -> None:
    """Serve the library of MTGRULES_HOME in a browser (search, rules, terms, diffs, sources)
    and as a JSON API under /api/ with the shapes of --json. Binds to this machine only unless
    --host says otherwise; a rebuilt index is picked up without a restart."""
    from search.web import serving
    from search.web.app import create_app

    try:  # bound before anything is said: a busy port is one line, not "serving" then a death
        sock = serving.bind(host, port)
    except serving.PortInUse as error:
        raise click.ClickException(
            f"cannot listen on {host}:{port} ({error.strerror}); give another --port, or stop "
            "what holds it"
        ) from error
    try:
        ensure_fresh(home())  # index now, once, so that no request waits for it
        app = create_app(home())
        bound = sock.getsockname()[1]
        address = f"http://{host if ':' not in host else f'[{host}]'}:{bound}/"
        echo(f"mtgrules: serving {home()} at {address} (Ctrl-C stops)")
        if open_browser:
            import webbrowser

            webbrowser.open(address)
        serving.run(app, sock, host)
    finally:
        sock.close()
