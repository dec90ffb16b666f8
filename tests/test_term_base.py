"""A term names a concept only where its words are written alike: inflected, never merely
stemmed alike, and not through a mere accent."""

from __future__ import annotations

import gc
import weakref

from hypothesis import given
from hypothesis import strategies as st

from corpus.model.inflection import inflected_alike
from corpus.model.words import tokens
from corpus.terms.learning import Pair, extract
from corpus.terms.termbase import Term, TermBase, static_terms, written_alike

FRENCH_LEGEND_RULE = (
    "Un permanent avec le sur-type légendaire est soumis à l'effet basé sur un état relatif aux "
    'permanents légendaires, aussi appelé "règle des légendes" (voir règle 420.5e).'
)


def test_the_french_legend_rule_names_no_basic_land():
    """'basé' (based) folds and stems like 'base' (basic) but is not that word."""
    termbase = TermBase(static_terms())
    concepts = termbase.concepts_in(FRENCH_LEGEND_RULE, "fr")
    assert "basic land" not in concepts
    assert {"legendary", "supertype", "state-based action", "permanent"} <= set(concepts)
    assert "basic land" in termbase.concepts_in("Un terrain de base", "fr")


def test_inflections_and_missing_accents_still_match():
    """Gender, number and a forgotten accent are the same word; an extra accent is not."""
    assert written_alike("leggendaria", "leggendario")
    assert written_alike("légendaires", "légendaire")
    assert written_alike("legendaire", "légendaire")
    assert not written_alike("basé", "base")
    assert not written_alike("basés", "base")


def test_stems_that_merge_two_words_make_no_concept():
    """deserter is not desert, magia (spell) is not mago (wizard), though Snowball stems both
    pairs alike; leggendari and leggendario, acciones and acción are one word."""
    assert not inflected_alike("deserter", "desert", "en")
    assert not inflected_alike("magia", "mago", "it")
    assert inflected_alike("leggendari", "leggendario", "it")
    assert inflected_alike("acciones", "acción", "es")
    assert inflected_alike("abilities", "ability", "en")
    termbase = TermBase(
        [
            Term("desert", "it", "deserto", "test"),
            Term("deserter", "it", "disertore", "test"),
            Term("wizard", "it", "mago", "test"),
            Term("spell", "it", "magia", "test"),
        ]
    )
    assert termbase.named_by("deserter") == {"deserter"}
    assert termbase.named_by("desert") == {"desert"}
    assert termbase.concepts_in("Scegli un mago.", "it") == ["wizard"]
    assert termbase.concepts_in("Lancia una magia.", "it") == ["spell"]
    assert {t.term for t in termbase.lookup("deserter")} == {"disertore"}


def test_a_query_word_is_read_as_a_text_word_is():
    """Looking a word up applies the same check: French 'basé' does not ask for basic lands."""
    termbase = TermBase(static_terms())
    assert termbase.english_for("basé") == set()
    assert termbase.english_for("terrain de base") == {"basic land"}


@given(st.text(max_size=12), st.text(max_size=12), st.sampled_from(["en", "it", "fr", "es"]))
def test_inflection_is_symmetric_and_reflexive(a: str, b: str, lang: str):
    """Two words are one word inflected whichever is the term; a word is itself."""
    assert inflected_alike(a, b, lang) == inflected_alike(b, a, lang)
    assert inflected_alike(a, a, lang)


@given(
    st.lists(st.tuples(st.text(max_size=40), st.text(max_size=40), st.booleans()), max_size=5),
    st.lists(st.tuples(st.integers(0, 8), st.integers(0, 8)), max_size=10),
)
def test_term_extraction_never_crashes(texts: list[tuple[str, str, bool]], links: list):
    """Any pairs and any links (even out of range) give terms or none, never an error."""
    pairs = [Pair("es", english, foreign, "test", title) for english, foreign, title in texts]
    english = {"toque mortal": "deathtouch", "deathtouch": "deathtouch"}
    linked = [
        [(i, j) for i, j in links if i < len(tokens(p.english)) and j < len(tokens(p.foreign))]
        for p in pairs
    ]
    for term in extract(pairs, linked, english):
        assert term.count >= 1 and 0 < term.confidence <= 1


def test_a_term_base_is_freed_after_use():
    """Its lookup tables live on the instance, so a term base let go of is freed (`serve`
    makes one per rebuild), whether built or loaded from a build's ready tables."""
    built = TermBase(static_terms())
    loaded = TermBase.from_ready(built.to_ready())
    refs = []
    for termbase in (built, loaded):
        assert termbase.lookup("follia") and termbase.concepts_in("Un terrain de base", "fr")
        refs.append(weakref.ref(termbase))
    del built, loaded, termbase
    gc.collect()
    assert [ref() for ref in refs] == [None, None]


def test_the_saved_term_base_answers_as_the_one_saved(tmp_path):
    """The term base a build saves for the commands (SQLite, read a key at a time) answers every
    lookup as the term base it was saved from: words, phrases, lemmas' languages, composed
    names, a text's concepts, its terms and its English concepts, and it saves the same again."""
    built = TermBase(static_terms(), english=["legend rule", "state-based action"])
    saved = tmp_path / "termbase.sqlite"
    saved.write_bytes(built.to_ready())
    loaded = TermBase.read(saved, tmp_path / "none.json")
    assert loaded is not None and type(loaded) is not TermBase
    asked = [
        "follia",
        "leggendario",
        "regola delle leggende",
        "toque mortal",
        "types d'artefacts",
        "terrain de base",
        "Créature",
        "permanente",
        "joueur",
        "legend rule",
        "nulla",
    ]
    for phrase in asked:
        assert loaded.named_by(phrase) == built.named_by(phrase), phrase
        assert loaded.languages_of(phrase) == built.languages_of(phrase), phrase
        assert loaded.lookup(phrase) == built.lookup(phrase), phrase
        assert loaded.composed(phrase) == built.composed(phrase), phrase
        assert loaded.names_english_concept(phrase) == built.names_english_concept(phrase)
    for text, lang in [
        ("Un terrain de base et une créature légendaire", "fr"),
        ("Se un giocatore controlla due o più permanenti leggendari", "it"),
        ("The legend rule is a state-based action", "en"),
    ]:
        assert loaded.concepts_in(text, lang) == built.concepts_in(text, lang)
    assert loaded.terms == built.terms and loaded.english == built.english
    assert loaded.to_json() == built.to_json()
    assert TermBase.from_ready(loaded.to_ready()).to_json() == built.to_json()


def test_a_damaged_saved_term_base_is_read_from_its_json(tmp_path):
    """A saved term base that is not a database (cut, or an older build's) falls back to the
    JSON the build wrote beside it."""
    built = TermBase(static_terms())
    (tmp_path / "termbase.sqlite").write_bytes(b"not a database")
    (tmp_path / "termbase.json").write_text(built.to_json(), "utf-8")
    loaded = TermBase.read(tmp_path / "termbase.sqlite", tmp_path / "termbase.json")
    assert loaded is not None and type(loaded) is TermBase
    assert loaded.to_json() == built.to_json()


def test_a_concept_its_content_words_would_misname_needs_its_whole_phrase(tmp_path):
    """ "level up" is not every "level" (MTR 1.12's Rules Enforcement Level), "in play" not every
    "play", "any target" not every "target": an English concept left with one content word once
    its small words are dropped is found only as its whole phrase, inflected or not, in a text
    and in a query; the saved term base answers alike."""
    built = TermBase(static_terms(), english=["level up", "in play", "any target", "monarch"])
    saved = tmp_path / "termbase.sqlite"
    saved.write_bytes(built.to_ready())
    loaded = TermBase.read(saved, tmp_path / "none.json")
    assert loaded is not None
    for termbase in (built, loaded):
        found = termbase.concepts_in("Rules Enforcement Level: players play at this level", "en")
        assert not {"level up", "in play"} & set(found)
        assert "level up" in termbase.concepts_in("A creature with level up levels up", "en")
        assert "in play" in termbase.concepts_in("Cards in play are permanents", "en")
        assert "any target" not in termbase.concepts_in("Choose target creature", "en")
        assert "any target" in termbase.concepts_in("It deals 3 damage to any target", "en")
        assert "level up" not in termbase.named_by("level")
        assert "level up" in termbase.named_by("level up")


def test_the_glossarys_obsolete_entries_name_what_replaced_them():
    """Read off the CR glossary's own words: "An obsolete term for mana value", "See rule
    702.89, “Umbra Armor.”", "See Exile."; an entry that names nothing has no replacement."""
    from corpus.terms.obsolete import obsolete_concepts, still_used

    entries = [
        (
            "Converted Mana Cost (Obsolete)",
            "An obsolete term for mana value. Cards printed with this term have received errata"
            " in the Oracle card reference.",
        ),
        (
            "Totem Armor (Obsolete)",
            "An obsolete keyword ability that has been renamed. See rule 702.89, “Umbra Armor.”",
        ),
        (
            "Set Aside (Obsolete)",
            "“Set [something] aside” is an obsolete term for “exile [something].” Cards with"
            " that text have received errata in the Oracle card reference. See Exile.",
        ),
        ("Mana Burn (Obsolete)", "Older versions of the rules stated that unspent mana …"),
        ("Mana Value", "The total amount of mana in a card’s mana cost."),
    ]
    assert obsolete_concepts(entries) == {
        "converted mana cost": "mana value",
        "totem armor": "umbra armor",
        "set aside": "exile",
        "mana burn": None,
    }
    assert still_used("removed", ["506.4. A permanent that’s removed from combat stops …"])
    assert not still_used("converted mana cost", ["202.3. The mana value of an object …"])


def test_a_web_address_or_the_publishers_name_names_no_concept():
    """The MTR's "wpn.wizards.com" and "Wizards of the Coast" are no Wizard; the creature
    type in a rule still is one."""
    termbase = TermBase(static_terms(), english=["wizard", "event"])
    said = "Players can find events at https://wpn.wizards.com/en/events and locator.wizards.com."
    assert "wizard" not in termbase.concepts_in(said, "en")
    assert "wizard" not in termbase.concepts_in("Wizards of the Coast may change this.", "en")
    assert "wizard" in termbase.concepts_in("Choose a Wizard you control.", "en")
