"""The IPG's infractions named by meaning: two or three words of a query that mean an
infraction's name though the term base has not those words ("aiuto esterno", "ayuda externa":
Outside Assistance, whose curated names are "assistenza esterna" and "asistencia externa").

The encoder compares the words with every name of every infraction (English and the curated
Italian, French and Spanish ones). A single name is too easily near: short texts that share one
word score high ("cartas van" and "cartas marcadas" 0.87), so an infraction is meant only when
its best few names, in several languages, are all near; and a run that shares a word with the
names must mean them by its other words too ("cartes donnent" is near "cartes marquées" by
"cartes" alone; "carte marcate" is near by "marcate" too)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from corpus.model.text import fold

# The mean similarity of an infraction's NAMES_AVERAGED nearest names that means it: measured on
# our own probes, true "aiuto esterno" 0.85, "aide extérieure" 0.89, "gioco troppo lento"
# 0.87; false "cartas van" (cartas marcadas) 0.80, "cartes a-t-on" 0.79, "pioché carte" 0.79.
MEANT_NAME_FLOOR = 0.82
NAMES_AVERAGED = 3
# The same mean for a run's words that are not written in the names: true "marcate" 0.51
# (carte segnate), "aide" 0.61, "ayuda" 0.56; false "donnent" 0.26, "van" 0.23, "a-t-on" 0.31,
# "pioché" 0.25 (each against Marked Cards' names). Not asked when most of the run's words are
# the names' ("gioco troppo lento": "troppo" 0.37).
OTHER_WORDS_FLOOR = 0.45


@dataclass(frozen=True)
class InfractionNames:
    """Every name of each listed infraction, encoded."""

    keys: tuple[tuple[str, ...], ...]  # each infraction's keys ("IPG 3.2",)
    of_name: tuple[int, ...]  # each name's infraction (an index into keys)
    vectors: Any  # (names, dimensions), L2-normalised
    words: tuple[frozenset[str], ...]  # each infraction's names' words, folded

    @classmethod
    def of(
        cls,
        listed: Mapping[str, tuple[str, ...]],
        termbase: Any,
        embed: Callable[[list[str]], Any],
    ) -> InfractionNames | None:
        """From {English name: its keys} and the term base's names of each (those with names
        in several languages: an infraction's), encoded by `embed`; None when none."""
        names: list[str] = []
        of_name: list[int] = []
        keys: list[tuple[str, ...]] = []
        words: list[frozenset[str]] = []
        for english, listed_keys in sorted(listed.items()):
            named = list(dict.fromkeys([english, *(t.term for t in termbase.terms_of(english))]))
            if len(named) < NAMES_AVERAGED:
                continue  # a list's word ("rules"), not a name said in every language
            names += named
            of_name += [len(keys)] * len(named)
            keys.append(listed_keys)
            words.append(frozenset(fold(word) for name in named for word in name.split()))
        if not names:
            return None
        return cls(tuple(keys), tuple(of_name), embed(names), tuple(words))

    def meant(self, runs: list[str], embed: Callable[[list[str]], Any]) -> set[str]:
        """The keys of the infraction runs of words mean best, if one is near enough by its
        words (OTHER_WORDS_FLOOR) and whole; else none. `embed` encodes texts."""
        best, best_at, run = self._nearest(embed(runs))
        if best < MEANT_NAME_FLOOR:
            return set()
        written = self.words[best_at]
        others = [word for word in runs[run].split() if fold(word) not in written]
        if others and 2 * len(others) >= len(runs[run].split()):
            # As many words of its own as of the names': those must mean the infraction too.
            near, _, _ = self._nearest(embed([" ".join(others)]), best_at)
            if near < OTHER_WORDS_FLOOR:
                return set()
        return set(self.keys[best_at])

    def _nearest(self, asked: Any, only: int | None = None) -> tuple[float, int, int]:
        """The mean similarity of the infraction the encoded runs (rows of `asked`) are
        nearest (or of infraction `only`), its index and the nearest run's."""
        import numpy as np

        similar = asked @ self.vectors.T  # runs x names
        of_name = np.asarray(self.of_name)
        best, best_at, best_run = 0.0, -1, -1
        for at in range(len(self.keys)) if only is None else (only,):
            near = np.sort(similar[:, of_name == at], axis=1)[:, ::-1][:, :NAMES_AVERAGED]
            if not near.size:
                continue
            means = near.mean(axis=1)
            if float(means.max()) > best:
                best, best_at, best_run = float(means.max()), at, int(means.argmax())
        return best, best_at, best_run
