"""The Whoosh schema: one text field per language, English terms, exact fields, a payload."""

from __future__ import annotations

from whoosh.fields import ID, KEYWORD, STORED, TEXT, Schema

from indexer.analyzers import analyzer, folding_analyzer

INDEX_LANGS = ("it", "fr", "es", "en")
INDEX_VERSION = "4"


def text_field(lang: str) -> str:
    return f"text_{lang}"


def build_schema() -> Schema:
    fields = {text_field(lang): TEXT(analyzer=analyzer(lang), phrase=True) for lang in INDEX_LANGS}
    return Schema(
        vid=ID(unique=True, stored=True),
        key=ID(stored=True),
        section=ID,  # "205" for every record keyed 205.x: a section lookup is one term
        number=ID(stored=True),
        lang=ID(stored=True),
        kind=ID(stored=True),
        source=KEYWORD(commas=True, stored=True),
        editions=KEYWORD(commas=True, stored=True),
        terms=TEXT(analyzer=analyzer("en"), phrase=True),
        # Unstemmed words of every language: the vocabulary for "did you mean".
        words=TEXT(analyzer=folding_analyzer(), phrase=False, spelling=True),
        payload=STORED,
        **fields,
    )
