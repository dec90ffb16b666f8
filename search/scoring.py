"""BM25F with each language field's own statistics.

Whoosh takes a field's average length and its terms' document frequencies against every
document of the index. Here each document has text in one language only: against twelve
thousand English versions, twenty French rules would look very long (scored down) and every
French word very rare (scored up). Both are taken over the documents in that language instead."""

from __future__ import annotations

from math import log
from typing import Any

from whoosh.scoring import BM25F, BM25FScorer, bm25


def documents_in(searcher: Any, fieldname: str) -> int:
    """How many documents have text in this language field (0 for other fields)."""
    if not fieldname.startswith("text_"):
        return 0
    return int(searcher.get_parent().doc_frequency("lang", fieldname.removeprefix("text_")))


class PerLanguageBM25F(BM25F):
    def idf(self, searcher: Any, fieldname: str, text: bytes) -> float:
        having = documents_in(searcher, fieldname)
        if not having:
            return float(super().idf(searcher, fieldname, text))
        frequency = searcher.get_parent().doc_frequency(fieldname, text)
        return log(having / (frequency + 1)) + 1

    def scorer(self, searcher: Any, fieldname: str, text: bytes, qf: int = 1) -> Any:
        scorer = super().scorer(searcher, fieldname, text, qf=qf)
        if not isinstance(scorer, BM25FScorer):
            return scorer
        capped = CappedBM25FScorer(searcher, fieldname, text, scorer.B, scorer.K1, qf=qf)
        having = documents_in(searcher, fieldname)
        if having:
            capped.avgfl = (searcher.get_parent().field_length(fieldname) / having) or 1
        return capped


LENGTH_CAP = 3.0  # times the average: past this a rule is a list, and its length says no more


class CappedBM25FScorer(BM25FScorer):
    """BM25F whose length normalization stops at LENGTH_CAP times the average length: the
    rule that lists every creature type should not vanish under its own list."""

    def _score(self, weight: float, length: float) -> float:
        return float(super()._score(weight, min(length, LENGTH_CAP * self.avgfl)))

    def scores(self, weights: Any, lengths: Any) -> Any:
        """`_score` of numpy arrays of postings' weights and lengths (search/scan.py): the same
        formula, operation for operation, so each is the float `_score` gives."""
        capped = lengths.clip(max=LENGTH_CAP * self.avgfl)
        return bm25(self.idf, weights, capped, self.avgfl, self.B, self.K1)
