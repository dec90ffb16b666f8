"""A learned term's dictionary form, when the term is a form cards print: French cards say
"Piochez" and "jetons", Italian "Sacrifica", Spanish "Adivina"; a translator looks up piocher,
jeton, sacrificare, adivinar.

simplemma's lemma is taken only when it is one and its relation to the printed form is one of
the regular ones below: the dictionary reads many nouns that are mechanic names as verbs or
other nouns (French "tempêtes" as tempêter, Italian "indizio" as indiziare, "partita" as
partito, Spanish "manifiesta" as manifiesto), and a wrong headword costs a translator's trust
more than a missing one."""

from __future__ import annotations

from corpus.model.languages import LANGUAGES
from corpus.model.lemmas import Lemmas


def dictionary_form(term: str, lang: str, lemmas: Lemmas | None) -> str | None:
    """The dictionary form of a one-word term printed inflected ("piochez" fr: piocher), or
    None (a phrase, a headword already, a lemma not regularly related, no lemma tables)."""
    if lemmas is None or " " in term.strip():
        return None
    written = term.strip().lower()
    found = lemmas.lemmas(written, lang)
    if len(found) != 1 or found[0] == written:
        return None
    lemma = found[0]
    return lemma if _regular(written, lemma, lang) else None


def _regular(written: str, lemma: str, lang: str) -> bool:
    """Whether a printed form is a regular plural or card imperative of `lemma` (the language
    table's printed_forms)."""
    language = LANGUAGES.get(lang)
    for printed, ending, same_stem in language.printed_forms if language else ():
        if not written.endswith(printed):
            continue
        if lemma == written.removesuffix(printed) + ending if same_stem else lemma.endswith(ending):
            return True
    return False
