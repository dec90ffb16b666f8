"""Per-language analyzers: tokenize, lowercase, that language's stop words (and only its own),
accent and quote folding, then that language's Snowball stemmer."""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cache
from typing import Any

from whoosh.analysis import (
    Analyzer,
    CharsetFilter,
    IntraWordFilter,
    LowercaseFilter,
    RegexTokenizer,
    StemFilter,
    StopFilter,
    Token,
)
from whoosh.formats import Positions
from whoosh.support.charset import accent_map

from corpus.model.words import stop_words

# Words split on apostrophes (l'artefatto, l’artefatto -> l / artefatto); rule numbers such as
# 205.4d stay one token; hyphenated words are kept whole here and split below.
TOKEN_PATTERN = r"\w+(?:[-.]\w+)*"


@cache
def analyzer(lang: str) -> Analyzer:
    return WordMemoAnalyzer(_chain(lang))


def _chain(lang: str) -> Analyzer:
    stop = stop_words(lang)
    return (
        RegexTokenizer(TOKEN_PATTERN)
        # sur-type -> type + surtype: "sur" is a French stop word, "surtype" is the concept.
        | IntraWordFilter(delims="-", splitnums=False, mergewords=True, mergenums=False)
        | LowercaseFilter()
        | StopFilter(stoplist=stop, minsize=1)
        | CharsetFilter(accent_map)
        | StemFilter(lang=lang, cachesize=-1)
    )


class WordMemoAnalyzer(Analyzer):
    """A language's filter chain, run once per distinct word instead of once per occurrence.

    Every filter in the chain acts on one word at a time, but Whoosh passes each occurrence
    through five generators; indexing spent most of its time there. This tokenizes with the
    same pattern, looks each word's output up (computing it with the chain the first time) and
    numbers positions as the chain does: the first kept token keeps its position, the others
    follow it one by one (StopFilter's renumbering). tests/test_analyzers.py checks that the
    tokens are the chain's own on real text."""

    def __init__(self, chain: Analyzer) -> None:
        self.chain = chain
        self._words = re.compile(TOKEN_PATTERN, re.UNICODE)
        self._split = chain.items[0] | chain.items[1]  # tokenizer and word splitting
        self._memo: dict[tuple[str, str], tuple[int, list[tuple[str, int, int, int]]]] = {}

    def __getstate__(self) -> dict[str, object]:
        return {"chain": self.chain}  # the schema is pickled into the index: not the memo

    def __setstate__(self, state: dict[str, object]) -> None:
        self.__init__(state["chain"])  # type: ignore[misc]

    def __eq__(self, other: object) -> bool:
        return isinstance(other, WordMemoAnalyzer) and self.chain == other.chain

    __hash__ = None  # type: ignore[assignment]

    def _word(self, word: str, mode: str) -> tuple[int, list[tuple[str, int, int, int]]]:
        found = self._memo.get((word, mode))
        if found is None:
            consumed = sum(1 for _ in self._split(word, positions=True, mode=mode))
            tokens = [
                (t.text, t.pos, t.startchar, t.endchar)
                for t in self.chain(word, positions=True, chars=True, mode=mode)
            ]
            found = self._memo[word, mode] = (consumed, tokens)
        return found

    def __call__(
        self,
        value: str,
        positions: bool = False,
        chars: bool = False,
        keeporiginal: bool = False,
        removestops: bool = True,
        start_pos: int = 0,
        start_char: int = 0,
        tokenize: bool = True,
        mode: str = "",
        boosts: bool = False,  # every token's boost is 1.0, as the chain's
        **kwargs: object,
    ) -> Iterator[Token]:
        if keeporiginal or not removestops or not tokenize or start_pos or start_char or kwargs:
            yield from self.chain(
                value,
                positions=positions,
                chars=chars,
                keeporiginal=keeporiginal,
                removestops=removestops,
                start_pos=start_pos,
                start_char=start_char,
                tokenize=tokenize,
                mode=mode,
                boosts=boosts,
                **kwargs,
            )
            return
        token = Token(positions, chars, removestops=removestops, mode=mode)
        for text, pos, startchar, endchar in self._placed(value, mode):
            token.text = text
            token.boost = 1.0
            token.stopped = False
            if positions:
                token.pos = pos
            if chars:
                token.startchar = startchar
                token.endchar = endchar
            yield token

    def positions(self, value: str, mode: str = "") -> dict[str, list[int]]:
        """Each token's text with its positions, texts in the order first seen: what the
        tokens of `__call__` say, without making them."""
        # _placed's loop written out: indexing asks this of every text (a generator step per
        # token was a fifth of the analysis).
        found: dict[str, list[int]] = {}
        memo, base, first, kept = self._memo, 0, -1, 0
        for word in self._words.findall(value):
            consumed, outputs = memo.get((word, mode)) or self._word(word, mode)
            for text, pos, _, _ in outputs:
                if first < 0:
                    first = base + pos
                places = found.get(text)
                if places is None:
                    found[text] = [first + kept]
                else:
                    places.append(first + kept)
                kept += 1
            base += consumed
        return found

    def _placed(self, value: str, mode: str) -> Iterator[tuple[str, int, int, int]]:
        """Each token's text, position and span in `value`, numbered as the chain numbers
        them (StopFilter's renumbering: the first kept token keeps its position)."""
        base, first, kept = 0, -1, 0
        for match in self._words.finditer(value):
            consumed, outputs = self._word(match.group(), mode)
            start = match.start()
            for text, pos, startchar, endchar in outputs:
                if first < 0:
                    first = base + pos
                yield text, first + kept, start + startchar, start + endchar
                kept += 1
            base += consumed


class MemoPositions(Positions):
    """Whoosh's phrase format (positions in each posting), given a text's positions by the
    memo analyzer at once: indexing made a Token per occurrence only to read its text and
    position. The postings are Positions' own; anything else is left to it."""

    def word_values(
        self, value: Any, analyzer: Analyzer, **kwargs: Any
    ) -> Iterator[tuple[str, int, float, bytes]]:
        memo = isinstance(analyzer, WordMemoAnalyzer) and isinstance(value, str)
        if not memo or set(kwargs) - {"mode"}:
            yield from super().word_values(value, analyzer, **kwargs)
            return
        boost = self.field_boost
        for text, places in analyzer.positions(value, kwargs.get("mode", "")).items():
            # A token's boost is 1.0: its weight is its count (Positions sums the boosts).
            yield text, len(places), float(len(places)) * boost, self.encode(places)


@cache
def folding_analyzer() -> Analyzer:
    """No stemming, no stop words: for exact-ish fields such as titles and English keys."""
    return RegexTokenizer(r"\w+(?:\.\w+)*") | LowercaseFilter() | CharsetFilter(accent_map)


def stems(text: str, lang: str) -> list[str]:
    return [token.text for token in analyzer(lang)(text)]
