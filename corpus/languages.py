"""The one table of languages mtgrules reads, and the words that mark structure in each."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class Language:
    code: str
    name: str
    # Labels that open an example or a note paragraph ("Esempio:", "Exemple :").
    example_labels: tuple[str, ...]
    note_labels: tuple[str, ...]
    # The word for "rule" in headings and cross-references ("vedi regola 704.5j").
    rule_words: tuple[str, ...]
    # The heading that introduces unnumbered subrules on a rules web page.
    subrules_headings: tuple[str, ...]
    # The heading before the official rulings in a set-mechanics article.
    rulings_headings: tuple[str, ...]
    # First words of a mechanic's category line ("Abilità definita da parola chiave").
    category_words: tuple[str, ...]
    # Function words that are frequent in this language and rare in the others.
    marker_words: frozenset[str]


LANGUAGES: dict[str, Language] = {
    "it": Language(
        code="it",
        name="Italiano",
        example_labels=("Esempio", "Esempi"),
        note_labels=("Nota", "Note"),
        rule_words=("regola", "regole", "sezione"),
        subrules_headings=("Sottoregole",),
        rulings_headings=("Note di regolamento ufficiali", "Note di regolamento"),
        category_words=(
            "Abilità",
            "Azione",
            "Parola",
            "Tipo",
            "Sottotipo",
            "Supertipo",
            "Meccanica",
        ),
        marker_words=frozenset(
            [
                "il",
                "lo",
                "loro",
                "hanno",
                "dei",
                "gli",
                "della",
                "delle",
                "dello",
                "degli",
                "del",
                "di",
                "che",
                "è",
                "sono",
                "una",
                "uno",
                "con",
                "per",
                "non",
                "questa",
                "questo",
                "quella",
                "quello",
                "anche",
                "più",
                "può",
                "essere",
                "ogni",
                "come",
                "nella",
                "nel",
            ]
        ),
    ),
    "fr": Language(
        code="fr",
        name="Français",
        example_labels=("Exemple", "Exemples"),
        note_labels=("Note", "Remarque"),
        rule_words=("règle", "règles", "section"),
        subrules_headings=("Sous-règles", "Sous-regles"),
        rulings_headings=("Notes de règles officielles", "Précisions de règles"),
        category_words=(
            "Capacité",
            "Action",
            "Mot",
            "Type",
            "Sous-type",
            "Super-type",
            "Mécanique",
        ),
        marker_words=frozenset(
            [
                "le",
                "les",
                "des",
                "est",
                "une",
                "du",
                "et",
                "un",
                "sur",
                "pour",
                "qui",
                "dans",
                "ce",
                "cette",
                "ces",
                "au",
                "aux",
                "son",
                "ses",
                "leur",
                "peut",
                "être",
                "avec",
                "pas",
                "plus",
            ]
        ),
    ),
    "es": Language(
        code="es",
        name="Español",
        example_labels=("Ejemplo", "Ejemplos"),
        note_labels=("Nota",),
        rule_words=("regla", "reglas", "sección"),
        subrules_headings=("Subreglas",),
        rulings_headings=("Notas oficiales de reglas", "Aclaraciones oficiales"),
        category_words=(
            "Habilidad",
            "Acción",
            "Palabra",
            "Tipo",
            "Subtipo",
            "Supertipo",
            "Mecánica",
        ),
        marker_words=frozenset(
            [
                "el",
                "los",
                "las",
                "del",
                "que",
                "es",
                "una",
                "y",
                "en",
                "por",
                "para",
                "con",
                "se",
                "su",
                "sus",
                "como",
                "más",
                "puede",
                "este",
                "esta",
                "ese",
                "esa",
                "también",
            ]
        ),
    ),
    "en": Language(
        code="en",
        name="English",
        example_labels=("Example", "Examples"),
        note_labels=("Note",),
        rule_words=("rule", "rules", "section"),
        subrules_headings=("Subrules",),
        rulings_headings=("Official rulings notes", "Notes and rules information"),
        category_words=(
            "Keyword",
            "Ability",
            "Predefined",
            "Token",
            "Artifact",
            "Land",
            "Mechanic",
        ),
        marker_words=frozenset(
            [
                "the",
                "of",
                "and",
                "is",
                "to",
                "that",
                "in",
                "with",
                "it",
                "its",
                "this",
                "an",
                "as",
                "by",
                "or",
                "be",
                "can",
                "if",
                "any",
                "from",
                "which",
                "has",
                "have",
            ]
        ),
    ),
}


CODES = tuple(LANGUAGES)  # it, fr, es, en: every language the product reads and indexes
TRANSLATED = tuple(code for code in CODES if code != "en")  # the translations' languages
SHOWN_ORDER = ("en", *TRANSLATED)  # columns, exports and results: English first


class UnknownLanguageError(ValueError):
    """A language code outside the table."""


def validate_languages(codes: Iterable[str]) -> tuple[str, ...]:
    """Return the codes lower-cased, or raise naming the valid ones."""
    result = []
    for raw in codes:
        for code in raw.split(","):
            code = code.strip().lower()
            if not code:
                continue
            if code not in LANGUAGES:
                valid = ", ".join(LANGUAGES)
                raise UnknownLanguageError(f"unknown language {code!r}; valid: {valid}")
            result.append(code)
    return tuple(dict.fromkeys(result))


def all_labels(attribute: str) -> tuple[str, ...]:
    """Every language's labels of one kind, longest first (for regex alternations)."""
    labels = {label for lang in LANGUAGES.values() for label in getattr(lang, attribute)}
    return tuple(sorted(labels, key=len, reverse=True))
