"""Download an official English Comprehensive Rules text from Wizards of the Coast.

Wizards publishes each edition at {media}/{year}/downloads/MagicCompRules%20{YYYYMMDD}.txt and
links the current one from its rules page. Both addresses are configurable (options or the
environment) so that a mirror, or a local server in the tests, can stand in."""

from __future__ import annotations

import os
import re
import time
import urllib.error
import urllib.request
from urllib.parse import quote, urljoin, urlparse

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
    """The TXT link on the rules page (http or https only; spaces and controls in it quoted)."""
    from bs4 import BeautifulSoup

    page = page or rules_page()
    html = download(page).decode("utf-8", errors="replace")
    for link in BeautifulSoup(html, "html.parser").find_all("a", href=True):
        href = str(link["href"]).strip()
        if "MagicCompRules" in href.replace("%20", " ").replace(" ", "") and href.lower().endswith(
            ".txt"
        ):
            return quote(urljoin(page, href), safe=":/?#[]@!$&'()*+,;=%~")
    raise FetchError(f"{page}: no Comprehensive Rules TXT link found on the rules page")


MAX_BYTES = 16 * 1024 * 1024  # the CR is about 1 MB (2 MB in UTF-16)
CHUNK = 64 * 1024


def total_seconds() -> float:
    """How long one download may take in all (MTGRULES_FETCH_SECONDS, default 120)."""
    try:
        return float(os.environ.get("MTGRULES_FETCH_SECONDS", "120"))
    except ValueError:
        return 120.0


def download(url: str) -> bytes:
    """The body at an http(s) address, bounded in size and in total time (a server that
    trickles its answer is given up on)."""
    try:
        parts = urlparse(url)
        parts.port  # noqa: B018 - read to check it: a port out of range is a ValueError
    except ValueError as error:  # "http://[::1": an unclosed IPv6 address
        raise FetchError(
            f"{url!r} is not a valid address ({error}); check --media-url/--rules-page and "
            "MTGRULES_CR_MEDIA_URL/MTGRULES_CR_RULES_PAGE"
        ) from None
    host = parts.netloc or url
    if parts.scheme not in ("http", "https"):
        raise FetchError(f"{url!r}: only http and https addresses are fetched")
    request = urllib.request.Request(url, headers={"User-Agent": "mtgrules"})
    deadline = time.monotonic() + total_seconds()
    try:
        with urllib.request.urlopen(request, timeout=min(TIMEOUT, total_seconds())) as response:
            length = response.headers.get("Content-Length")
            if length and length.isdigit() and int(length) > MAX_BYTES:
                raise FetchError(f"{url}: {int(length) // 2**20} MB is not a rules document")
            chunks: list[bytes] = []
            size = 0
            while block := response.read1(CHUNK):
                size += len(block)
                if size > MAX_BYTES:
                    raise FetchError(
                        f"{url}: more than {MAX_BYTES // 2**20} MB, not a rules document"
                    )
                if time.monotonic() > deadline:
                    seconds = f"{total_seconds():.0f} s"
                    raise FetchError(f"{host} is too slow: gave up after {seconds}; try later")
                chunks.append(block)
            return b"".join(chunks)
    except urllib.error.HTTPError as error:
        raise FetchError(f"{url}: the server answered {error.code} {error.reason}") from None
    except (urllib.error.URLError, OSError, ValueError) as error:
        reason = getattr(error, "reason", error)
        raise FetchError(
            f"cannot reach {host} ({reason}); check the network connection, or pass "
            "--media-url/--rules-page for a mirror"
        ) from None
