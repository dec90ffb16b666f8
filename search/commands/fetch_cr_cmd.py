"""`mtgrules fetch-cr [latest|YYYYMMDD]`: download an official English CR and add it."""

from __future__ import annotations

import click


@click.command("fetch-cr")
@click.argument("edition", default="latest")
@click.option("--media-url", envvar="MTGRULES_CR_MEDIA_URL", help="Where editions are published.")
@click.option("--rules-page", envvar="MTGRULES_CR_RULES_PAGE", help="The page linking the latest.")
def command(edition: str, media_url: str | None, rules_page: str | None) -> None:
    """Download the English Comprehensive Rules (the latest, or the one effective on YYYYMMDD)
    from Wizards of the Coast into MTGRULES_HOME and add it to the library."""
    import re

    from corpus.fetch import FetchError, download, edition_url, latest_url
    from corpus.ingest import IngestError
    from search.commands.add_cmd import keep

    if edition != "latest" and not re.fullmatch(r"\d{8}", edition):
        raise click.UsageError(
            f"{edition!r} is not an edition; give YYYYMMDD (e.g. 20241108) or latest"
        )
    try:
        url = latest_url(rules_page) if edition == "latest" else edition_url(edition, media_url)
        data = download(url)
        name = url.rsplit("/", 1)[-1].replace("%20", "-").replace(" ", "-")
        keep(data, name)
    except (FetchError, IngestError) as error:
        raise click.ClickException(str(error)) from None
