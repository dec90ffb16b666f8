"""The Whoosh schema: one text field per language, English terms, exact fields, a payload."""

from __future__ import annotations

from whoosh.fields import ID, STORED, TEXT, Schema

from indexer.analyzers import analyzer

INDEX_LANGS = ("it", "fr", "es", "en")


def text_field(lang: str) -> str:
    return f"text_{lang}"


def build_schema() -> Schema:
    fields = {text_field(lang): TEXT(analyzer=analyzer(lang), phrase=True) for lang in INDEX_LANGS}
    return Schema(
        # Only what queries and filters need: the records are in the side store, by key.
        key=ID(stored=True),
        vid=ID(unique=True),  # the version's id in the side store
        lang=ID(stored=True),
        kind=ID,
        heading=STORED,  # the folded title, for "the query names this rule" (Supertipi -> 205.4)
        terms=TEXT(analyzer=analyzer("en"), phrase=True),
        **fields,
    )
