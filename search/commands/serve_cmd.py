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
    import uvicorn

    from search.web.app import create_app

    ensure_fresh(home())  # index now, once, so that no request waits for it
    address = f"http://{host}:{port}/"
    several = f" with {workers} worker processes" if workers > 1 else ""
    echo(f"mtgrules: serving {home()} at {address}{several} (Ctrl-C stops)")
    if open_browser:
        import webbrowser

        webbrowser.open(address)
    if workers > 1:  # each worker imports the app itself: MTGRULES_HOME is in its environment
        os.environ["MTGRULES_HOME"] = str(home())
        uvicorn.run(
            "search.web.app:app_from_environment", factory=True, workers=workers,
            host=host, port=port, log_level="warning",
        )  # fmt: skip
        return
    uvicorn.run(create_app(home()), host=host, port=port, log_level="warning")
