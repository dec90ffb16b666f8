"""Every internal link of the web app, built by one function: a key is escaped whole (a slash,
a space, an @, a `?` or a `#` in it stays part of the key), parameters are URL-encoded, and
empty parameters are left out. A judge document's part has its own page: href("rule",
"MTR 2.3") is /doc/mtr/2.3."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any
from urllib.parse import quote, urlencode

from corpus.model.documents import doc_of_key


def href(route: str = "", key: str | None = None, **params: Any) -> str:
    """/route/KEY?a=1&b=2. A parameter named like a Python keyword takes a trailing
    underscore (from_=...); a list or tuple gives the parameter once per value."""
    url = "/" + route.strip("/")
    if key is not None:
        doc = doc_of_key(key) if route.strip("/") == "rule" else "cr"
        if doc != "cr":  # a judge document's part: /doc/mtr/2.3
            url, key = f"/doc/{doc}", key[4:]
        url = url.rstrip("/") + "/" + quote(key, safe="")
    pairs: list[tuple[str, str]] = []
    for name, value in params.items():
        values: Iterable[Any] = value if isinstance(value, list | tuple) else [value]
        pairs += [(name.rstrip("_"), str(v)) for v in values if v not in (None, "", False)]
    return url + ("?" + urlencode(pairs) if pairs else "")


def rule_href(key: str) -> str:
    """A rule's page, or a judge document's part's: /rule/704.5j, /doc/mtr/2.3 (the templates'
    `|rule_href` filter; the same builder as every other link)."""
    return href("rule", key)
