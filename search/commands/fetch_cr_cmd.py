"""`mtgrules fetch-cr [DATE]`: download an official English CR and add it."""

from __future__ import annotations

import re

import click

from corpus.model.dates import find_edition
from corpus.model.text import UnreadableError, decode_report, split_lines
from search.commands.add_cmd import keep
from search.commands.options import EDITION


@click.command("fetch-cr")
@click.argument("edition", default="latest", type=EDITION, metavar="[DATE]")
@click.option("--media-url", envvar="MTGRULES_CR_MEDIA_URL", help="Where editions are published.")
@click.option("--rules-page", envvar="MTGRULES_CR_RULES_PAGE", help="The page linking the latest.")
def command(edition: str, media_url: str | None, rules_page: str | None) -> None:
    """Download an English Comprehensive Rules edition from Wizards of the Coast into
    MTGRULES_HOME and add it to the library. DATE is the edition's effective date (YYYY-MM-DD
    or YYYYMMDD) or latest, the default."""
    from corpus.read.fetch import FetchError, download, edition_url, latest_url
    from corpus.read.ingest import IngestError

    edition = edition.replace("-", "")  # the published names use YYYYMMDD
    try:
        url = latest_url(rules_page) if edition == "latest" else edition_url(edition, media_url)
        data = download(url)
        keep(data, fetched_name(data, edition, url))
    except (FetchError, IngestError) as error:
        raise click.ClickException(str(error)) from None


def fetched_name(data: bytes, edition: str, url: str) -> str:
    """A name of our own, never the server's: MagicCompRules-YYYYMMDD.txt, the date asked for,
    else the one in the address, else the one the text states."""
    if edition != "latest":
        return f"MagicCompRules-{edition}.txt"
    if found := re.search(r"(?<!\d)(20\d{6})(?!\d)", url):
        return f"MagicCompRules-{found.group(1)}.txt"
    try:
        stated, _ = find_edition(split_lines(decode_report(data, "download")[0]))
    except UnreadableError:
        stated = None
    return f"MagicCompRules-{stated.replace('-', '') if stated else 'latest'}.txt"
