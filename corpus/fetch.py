"""Download an official English Comprehensive Rules text from Wizards of the Coast.

Wizards publishes each edition at {media}/{year}/downloads/MagicCompRules%20{YYYYMMDD}.txt and
links the current one from its rules page. Both addresses are configurable (options or the
environment) so that a mirror, or a local server in the tests, can stand in."""

from __future__ import annotations

import os
import re
import urllib.error
import urllib.request
from urllib.parse import urljoin, urlparse

DEFAULT_MEDIA = "https://media.wizards.com"
DEFAULT_RULES_PAGE = "https://magic.wizards.com/en/rules"
TIMEOUT = 30


class FetchError(RuntimeError):
    """A download that failed; the message says what to check."""


def media_base() -> str:
    return os.environ.get("MTGRULES_CR_MEDIA_URL", DEFAULT_MEDIA).rstrip("/")


def rules_page() -> str:
    return os.environ.get("MTGRULES_CR_RULES_PAGE", DEFAULT_RULES_PAGE)


def edition_url(date: str, base: str | None = None) -> str:
    """The published address of the edition effective on YYYYMMDD."""
    if not re.fullmatch(r"\d{8}", date):
        raise FetchError(
            f"{date!r} is not a date; write it as YYYYMMDD, e.g. 20241108, or 'latest'"
        )
    return f"{(base or media_base()).rstrip('/')}/{date[:4]}/downloads/MagicCompRules%20{date}.txt"


def latest_url(page: str | None = None) -> str:
    """The TXT link on the rules page."""
    from bs4 import BeautifulSoup

    page = page or rules_page()
    html = download(page).decode("utf-8", errors="replace")
    for link in BeautifulSoup(html, "html.parser").find_all("a", href=True):
        href = str(link["href"])
        if "MagicCompRules" in href.replace("%20", " ").replace(" ", "") and href.lower().endswith(
            ".txt"
        ):
            return urljoin(page, href)
    raise FetchError(f"{page}: no Comprehensive Rules TXT link found on the rules page")


def download(url: str) -> bytes:
    host = urlparse(url).netloc or url
    request = urllib.request.Request(url, headers={"User-Agent": "mtgrules"})
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT) as response:
            data: bytes = response.read()
            return data
    except urllib.error.HTTPError as error:
        raise FetchError(f"{url}: the server answered {error.code} {error.reason}") from None
    except (urllib.error.URLError, OSError) as error:
        reason = getattr(error, "reason", error)
        raise FetchError(
            f"cannot reach {host} ({reason}); check the network connection, or pass "
            "--media-url/--rules-page for a mirror"
        ) from None
