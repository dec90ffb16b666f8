"""The Whoosh schema: one text field per language, the translations' English concepts, and the
exact fields queries and filters need."""

from __future__ import annotations

from whoosh.fields import ID, TEXT, Schema

from corpus.model.languages import CODES
from indexer.analyzers import MemoPositions, analyzer

INDEX_LANGS = CODES  # one text field per language of the table
TERMS_FIELD = "terms"  # the English concepts found in a translated record's text


def text_field(lang: str) -> str:
    return f"text_{lang}"


def _phrase_text(lang: str) -> TEXT:
    """A text field with positions (for phrases), analysed in `lang`."""
    field = TEXT(analyzer=analyzer(lang), phrase=True)
    field.format = MemoPositions(field_boost=field.format.field_boost)
    return field


def build_schema() -> Schema:
    fields = {text_field(lang): _phrase_text(lang) for lang in INDEX_LANGS}
    fields[TERMS_FIELD] = _phrase_text("en")
    return Schema(
        # Only what queries and filters need: the records are in the side store, by key. A hit's
        # key and language are read from columns, which is much quicker than stored fields.
        key=ID(sortable=True),
        vid=ID(unique=True, sortable=True),  # the version's id in the side store (a column)
        lang=ID(sortable=True),
        kind=ID,
        doc=ID,  # the document: cr, mtr, ipg, jar (corpus/model/documents.py), for --doc
        **fields,
    )
