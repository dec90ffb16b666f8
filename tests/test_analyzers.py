"""The index's analyzers: each word's tokens computed once, identical to the filter chain's."""

from __future__ import annotations

import pytest
from conftest import SEED_OF_LANG, seed
from hypothesis import given
from hypothesis import strategies as st

from corpus.model.text import decode_report
from indexer.analyzers import analyzer


def _tokens(chain, text: str, **options: object) -> list[tuple[str, int, int, int, float]]:
    return [
        (t.text, t.pos, t.startchar, t.endchar, t.boost)
        for t in chain(text, positions=True, chars=True, **options)
    ]


@pytest.mark.parametrize("lang", ["it", "fr", "es"])
def test_memo_gives_the_chains_tokens_on_the_seeds(lang: str):
    """On a whole seed document, as Whoosh indexes it (boosts asked for, mode index) and as a
    query is parsed, the memoized analyzer yields the chain's tokens, positions and spans."""
    text = decode_report(seed(SEED_OF_LANG[lang]), SEED_OF_LANG[lang])[0]
    memo = analyzer(lang)
    for options in ({"boosts": True, "mode": "index"}, {"mode": "query"}, {}):
        assert _tokens(memo, text, **options) == _tokens(memo.chain, text, **options)


def test_memo_serves_indexing():
    """Indexing (boosts=True) is answered from the memo: a word seen once is not analysed again."""
    memo = analyzer("it")
    list(memo("leggendario leggendari", positions=True, boosts=True, mode="index"))
    assert ("leggendario", "index") in memo._memo


@given(st.text(max_size=60))
def test_memo_equals_chain_on_any_text(text: str):
    """Any text: the same tokens, positions and spans."""
    memo = analyzer("fr")
    options = {"boosts": True, "mode": "index"}
    assert _tokens(memo, text, **options) == _tokens(memo.chain, text, **options)


def _postings(format_, text: str, memo) -> list[tuple[str, int, float, bytes]]:
    return list(format_.word_values(text, memo, mode="index"))


@pytest.mark.parametrize("lang", ["it", "fr", "es"])
def test_memo_positions_are_whooshs_postings_on_the_seeds(lang: str):
    """The phrase format fed by the memo gives Whoosh's own Positions postings (text, count,
    weight, encoded positions) for a whole seed document, boost included."""
    from whoosh.formats import Positions

    from indexer.analyzers import MemoPositions

    text = decode_report(seed(SEED_OF_LANG[lang]), SEED_OF_LANG[lang])[0]
    memo = analyzer(lang)
    for boost in (1.0, 0.6):
        ours = _postings(MemoPositions(field_boost=boost), text, memo)
        assert ours == _postings(Positions(field_boost=boost), text, memo.chain)
        assert ours and any(count > 1 for _, count, _, _ in ours)


@given(st.text(max_size=80))
def test_memo_positions_equal_whooshs_on_any_text(text: str):
    """Any text: the same postings as Whoosh's Positions over the filter chain."""
    from whoosh.formats import Positions

    from indexer.analyzers import MemoPositions

    memo = analyzer("es")
    assert _postings(MemoPositions(), text, memo) == _postings(Positions(), text, memo.chain)
