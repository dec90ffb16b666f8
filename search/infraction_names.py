"""The IPG's infractions named by meaning: two or three words of a query that mean an
infraction's name though the term base has not those words ("aiuto esterno", "ayuda externa":
Outside Assistance, whose curated names are "assistenza esterna" and "asistencia externa").

The encoder compares the words with every name of every infraction (English and the curated
Italian, French and Spanish ones). A single name is too easily near: short texts that share one
word score high ("cartas van" and "cartas marcadas" 0.87), so an infraction is meant only when
its best few names, in several languages, are all near."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

# The mean similarity of an infraction's NAMES_AVERAGED nearest names that means it: measured on
# our own probes, true "aiuto esterno" 0.85, "aide extérieure" 0.89, "gioco troppo lento"
# 0.87; false "cartas van" (cartas marcadas) 0.80, "cartes a-t-on" 0.79, "pioché carte" 0.79.
MEANT_NAME_FLOOR = 0.82
NAMES_AVERAGED = 3


@dataclass(frozen=True)
class InfractionNames:
    """Every name of each listed infraction, encoded."""

    keys: tuple[tuple[str, ...], ...]  # each infraction's keys ("IPG 3.2",)
    of_name: tuple[int, ...]  # each name's infraction (an index into keys)
    vectors: Any  # (names, dimensions), L2-normalised

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
        for english, listed_keys in sorted(listed.items()):
            named = list(dict.fromkeys([english, *(t.term for t in termbase.terms_of(english))]))
            if len(named) < NAMES_AVERAGED:
                continue  # a list's word ("rules"), not a name said in every language
            names += named
            of_name += [len(keys)] * len(named)
            keys.append(listed_keys)
        if not names:
            return None
        return cls(tuple(keys), tuple(of_name), embed(names))

    def meant(self, asked: Any) -> set[str]:
        """The keys of the infraction the encoded runs of words (rows of `asked`) mean best,
        if it is near enough; else none."""
        import numpy as np

        similar = asked @ self.vectors.T  # runs x names
        of_name = np.asarray(self.of_name)
        best, best_at = 0.0, -1
        for at in range(len(self.keys)):
            near = np.sort(similar[:, of_name == at], axis=1)[:, ::-1][:, :NAMES_AVERAGED]
            score = float(near.mean(axis=1).max()) if near.size else 0.0
            if score > best:
                best, best_at = score, at
        return set(self.keys[best_at]) if best >= MEANT_NAME_FLOOR else set()
