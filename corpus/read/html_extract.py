"""Saved HTML pages to text lines: one line per block, site chrome set aside with reasons."""

from __future__ import annotations

import re
import warnings

from corpus.model.text import normalize

# Whole elements that are never rules text.
CHROME_TAGS = {
    "script": "script",
    "style": "style",
    "noscript": "script",
    "nav": "navigation",
    "header": "page header",
    "footer": "page footer",
    "aside": "sidebar",
    "form": "form",
    "button": "button",
    "iframe": "embedded frame",
    "svg": "image",
    "template": "template",
}
# class/id/role words of chrome: cookie banners, adverts, menus, share buttons...
CHROME_NAMES = re.compile(
    r"cookie|consent|gdpr|banner|advert|\bads?\b|sponsor|promo|newsletter|subscribe|share|social|"
    r"navbar|\bnav\b|menu|breadcrumb|sidebar|footer|header|comment-form|signature|modal|popup",
    re.IGNORECASE,
)
BLOCK_TAGS = {
    "p", "div", "li", "dt", "dd", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "pre",
    "td", "th", "tr", "section", "article", "main", "body", "ol", "ul", "dl", "table", "br",
    "hr", "figcaption", "caption", "summary", "details",
}  # fmt: skip


def looks_like_html(text: str) -> bool:
    head = text[:4096].lower()
    return bool(re.search(r"<!doctype html|<html[\s>]|<body[\s>]|<head[\s>]", head))


def html_lines(html: str) -> tuple[list[str], dict[int, str]]:
    """The page's text, one block per line, and the chrome lines (1-based) with their reason."""
    from corpus.read.pdftohtml import looks_like_pdftohtml, pdftohtml_lines

    if looks_like_pdftohtml(html):  # a PDF's pages as positioned text: read as the PDF reads
        return pdftohtml_lines(html)
    from bs4 import BeautifulSoup, Comment, Declaration, Doctype, NavigableString, Tag

    with warnings.catch_warnings():  # an XHTML page is read as HTML, as browsers read it
        warnings.simplefilter("ignore")
        soup = BeautifulSoup(html, "html.parser")
    lines: list[str] = []
    chrome: dict[int, str] = {}
    title = soup.title.get_text(" ", strip=True) if soup.title else ""
    if soup.head is not None:
        soup.head.decompose()
    if title:
        lines.append(title)
        chrome[len(lines)] = "metadata: page title"

    def chrome_reason(tag: Tag) -> str | None:
        if tag.name in CHROME_TAGS:
            return CHROME_TAGS[tag.name]
        classes: object = tag.get("class") or []
        words = list(classes) if isinstance(classes, list) else [str(classes)]
        names = " ".join([*words, str(tag.get("id") or ""), str(tag.get("role") or "")])
        found = CHROME_NAMES.search(names)
        return f"site chrome ({found.group(0).lower()})" if found else None

    buffer: list[str] = []
    linked: list[int] = [0]  # characters of link text in the buffer
    link_share: dict[int, float] = {}  # line -> the share of its text that links elsewhere

    def flush() -> None:
        text = normalize(" ".join(buffer))
        buffer.clear()
        if text:
            lines.append(text)
            link_share[len(lines)] = linked[0] / len(text)
        linked[0] = 0

    # Iteratively, with a stack: a hostile page nests a thousand elements deep.
    stack = [iter(soup.children)]
    closes_block = [False]
    while stack:
        child = next(stack[-1], None)
        if child is None:
            stack.pop()
            if closes_block.pop():
                flush()
            continue
        if isinstance(child, (Comment, Doctype, Declaration)):
            continue
        if isinstance(child, NavigableString):
            buffer.append(str(child))
            continue
        if not isinstance(child, Tag):
            continue
        reason = chrome_reason(child)
        if reason:
            flush()
            text = normalize(child.get_text(" ", strip=True))
            if text:
                lines.append(text)
                chrome[len(lines)] = f"boilerplate: {reason}"
            continue
        block = child.name in BLOCK_TAGS
        if block:
            flush()
        if child.name == "a":
            linked[0] += len(normalize(child.get_text(" ")))
        stack.append(iter(child.children))
        closes_block.append(block)
    flush()
    last = max((n for n in range(1, len(lines) + 1) if n not in chrome), default=None)
    if last is not None and _navigation(lines[last - 1], link_share.get(last, 0.0), title):
        chrome[last] = "boilerplate: navigation at the end of the page"
    return lines, chrome


_SITE_NAME = re.compile(r"\s[|–—·:-]\s")  # "Regole – 205.4 Supertipi | Archivio delle Regole"


def _navigation(text: str, link_share: float, title: str) -> bool:
    """Whether a page's last line is its navigation ("← back to the index · Site name"), not
    the last rule's text: short, no sentence, mostly a link or naming the site its title
    ends with."""
    if len(text.split()) > 12 or re.search(r"[.;!?»”\"]$", text):
        return False
    site = _SITE_NAME.split(title)[-1].strip() if _SITE_NAME.search(title) else ""
    return link_share >= 0.4 or (len(site) >= 4 and site.casefold() in text.casefold())
