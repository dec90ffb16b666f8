"""The lexical side of a query (issue 23 item 3): lemmas for Italian, French and Spanish, each
word's language decided on its own, did-you-mean in the query's language, and a question mark
that ends a query."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from corpus.model.lemmas import Lemmas
from corpus.terms.headwords import dictionary_form
from corpus.terms.termbase import TermBase, static_terms
from search.cli import cli
from search.engine import Engine
from search.parse import parse
from search.query import without_question_marks
from search.results import Filters


@pytest.fixture(scope="session")
def lemma_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One lemma cache for the session: simplemma decodes a language in seconds, once."""
    return tmp_path_factory.mktemp("lemmas")


@pytest.fixture(scope="session")
def lemmas(lemma_cache: Path) -> Lemmas:
    return Lemmas(lemma_cache)


@pytest.fixture(scope="session")
def termbase() -> TermBase:
    return TermBase(static_terms())


def with_lemmas(home: Path, lemma_cache: Path, lemmas: Lemmas) -> None:
    """The session's lemma tables in a home's cache (every language read once, then linked)."""
    for lang in ("it", "fr", "es"):
        lemmas.lemmas("a", lang)
    link = home / "cache" / "lemmas"
    if not link.exists():
        link.parent.mkdir(parents=True, exist_ok=True)
        link.symlink_to(lemma_cache, target_is_directory=True)


@pytest.fixture
def cached_home(
    home: Path, lemma_cache: Path, lemmas: Lemmas, monkeypatch: pytest.MonkeyPatch
) -> Iterator[Path]:
    """The test's home, lemmas on (the suite's default is off), its tables cached."""
    monkeypatch.setenv("MTGRULES_LEMMAS", "background")
    with_lemmas(home, lemma_cache, lemmas)
    yield home


@pytest.fixture
def full_lemmas(
    full: Path, lemma_cache: Path, lemmas: Lemmas, monkeypatch: pytest.MonkeyPatch
) -> Path:
    """The full library (every English edition), lemmas on and cached."""
    monkeypatch.setenv("MTGRULES_LEMMAS", "background")
    with_lemmas(full, lemma_cache, lemmas)
    return full


@pytest.fixture
def seeds_lemmas(seeds_engine: Engine, cached_home: Path) -> Iterator[Engine]:
    """An engine over the seeds' build whose home has the lemma tables."""
    engine = Engine(seeds_engine.folder, seeds_engine.english_editions, cached_home)
    yield engine
    engine.close()


def search(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, ["search", *args], catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


def keys(query: str, *args: str) -> list[str]:
    code, out, err = search(query, "--json", *args)
    assert code == 0, err
    return [result["key"] for result in json.loads(out)["results"]]


# --- lemmas ------------------------------------------------------------------------------------


def test_lemmas_join_the_forms_of_a_word(lemmas: Lemmas):
    """A written form has its lemma and a lemma its forms, in each language, accents folded."""
    assert lemmas.lemmas("piochent", "fr") == ("piocher",)
    assert {"piochez", "piochent", "piocher"} <= set(lemmas.forms("piocher", "fr"))
    assert lemmas.lemmas("muore", "it") == ("morire",)
    assert lemmas.lemmas("pesco", "it") == ("pescare",)
    assert lemmas.lemmas("arrolla", "es") == ("arrollar",)
    assert lemmas.lemmas("vidas", "es") == ("vida",)
    assert lemmas.lemmas("Piétinent", "fr") == lemmas.lemmas("pietinent", "fr") != ()


def test_a_verb_with_its_pronoun_joined_on_is_its_verb(lemmas: Lemmas):
    """An Italian or Spanish infinitive, gerund or imperative with a pronoun joined on, which
    the dictionary lacks, is its verb ("rimetterlo": rimettere; "ponerla": poner)."""
    assert lemmas.lemmas("rimetterlo", "it") == ("rimettere",)
    assert lemmas.lemmas("sacrificarla", "it") == ("sacrificare",)
    assert lemmas.lemmas("prendilo", "it") == ("prendere",)
    assert lemmas.lemmas("ponerla", "es") == ("poner",)
    assert lemmas.lemmas("devolverlo", "es") == ("devolver",)
    assert lemmas.lemmas("stella", "it") == ("stella",)  # a word the dictionary has: itself


def test_lemmas_exist_only_for_the_translated_languages(lemmas: Lemmas):
    """English keeps its stemmer: no lemmas for it, nor for a word no dictionary has."""
    assert lemmas.lemmas("draws", "en") == ()
    assert lemmas.lemmas("xyzzyq", "it") == ()


def in_a_fresh_process(imports: str, expression: str) -> list[str]:
    """What `expression` prints in a new interpreter after `imports`, and whether simplemma was
    imported there."""
    probe = (
        f"import sys; from pathlib import Path; {imports}; "
        f"print({expression}, any(m.startswith('simplemma') for m in sys.modules))"
    )
    run = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    return run.stdout.split()


def test_a_later_process_reads_the_lemma_cache_without_simplemma(lemmas: Lemmas, lemma_cache):
    """Once a language is cached, a process reads only its buckets and never imports simplemma
    (which costs half a second to import and seconds to decode a dictionary)."""
    assert lemmas.lemmas("muore", "it")
    lemma = f"Lemmas(Path({str(lemma_cache)!r})).lemmas('muore', 'it')[0]"
    assert in_a_fresh_process("from corpus.model.lemmas import Lemmas", lemma) == [
        "morire",
        "False",
    ]


# --- the term base through lemmas --------------------------------------------------------------


def english(termbase: TermBase, word: str, lemmas: Lemmas | None, *langs: str) -> set[str]:
    return {term.english for term in termbase.lookup(word, lemmas, langs)}


def test_term_base_finds_a_word_through_its_lemma(termbase: TermBase, lemmas: Lemmas):
    """A word no term is written like is read as its lemma: "piochent" is piocher, whose form
    "piochez" is the term for draw; "morire" has the term "muore"."""
    assert english(termbase, "piochent", None) == set()
    assert english(termbase, "piochent", lemmas) == {"draw"}
    assert english(termbase, "piochent", lemmas, "fr") == {"draw"}
    assert english(termbase, "morire", lemmas, "it") == {"die"}
    assert english(termbase, "arrollar", lemmas, "es") == {"trample"}
    assert english(termbase, "pescare", lemmas, "it") == {"draw"}
    assert english(termbase, "muoiono", lemmas, "it") == {"die"}


def test_a_lemma_reaches_the_general_words_too(termbase: TermBase, lemmas: Lemmas):
    """A question's verb whose form is a general word of the cards (Italian "perde", lose):
    "perdono" (they lose) is read as perdere, and "perde" is that form."""
    assert english(termbase, "perde", None, "it") == {"lose"}
    assert english(termbase, "perdono", None, "it") == set()
    assert english(termbase, "perdono", lemmas, "it") == {"lose"}


def test_a_lemma_reaches_only_terms_that_are_its_forms(termbase: TermBase, lemmas: Lemmas):
    """A form of the lemma must be the term itself: Spanish "muero" (a form of morir) shares a
    stem with "muro" (wall) and is not it."""
    assert english(termbase, "morire", lemmas) == {"die"}


def test_a_word_with_a_term_is_not_read_as_its_lemma(termbase: TermBase, lemmas: Lemmas):
    """Lemmas are only asked for when the word as written names nothing."""
    assert english(termbase, "piochez", lemmas) == english(termbase, "piochez", None)
    assert english(termbase, "vidas", lemmas, "es") == {"life"}


def test_a_word_is_read_as_the_lemma_of_its_own_language(termbase: TermBase, lemmas: Lemmas):
    """A word whose lemma the query's language lacks is read in the others': Italian
    "sacrificare" in a query taken for French ("un" is a French marker word) is still the
    infinitive of "sacrifica", the term for sacrifice; a French word stays French."""
    assert english(termbase, "sacrificare", lemmas, "fr") == {"sacrifice"}
    assert english(termbase, "sacrificare", lemmas, "it") == {"sacrifice"}
    assert english(termbase, "piochent", lemmas, "fr") == {"draw"}


def test_a_lemma_read_before_its_tables_are_written_is_not_kept(
    lemma_cache: Path, lemmas: Lemmas, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    """While a detached process writes the lemma tables a word has no lemma; the term base
    remembers what a word's lemma names only once its language's tables are read, so the same
    term base finds "piochent" (draw) when the tables arrive (a long-running server's engine
    would otherwise never find it)."""
    import shutil

    monkeypatch.setattr("corpus.model.lemmas._start", lambda cache: None)
    for lang in ("it", "fr", "es"):
        lemmas.lemmas("a", lang)  # the session's tables, written
    later = Lemmas(tmp_path / "lemmas", wait=False)
    fresh = TermBase(static_terms())
    assert english(fresh, "piochent", later, "fr") == set()
    shutil.copytree(lemma_cache, tmp_path / "lemmas")
    assert english(fresh, "piochent", later, "fr") == {"draw"}


def test_engine_translations_use_lemmas(seeds_lemmas: Engine):
    """The engine's translations of a word read it as its lemma in the query's language."""
    assert ("en", "draw") in seeds_lemmas.translations("piochent", ["fr"])
    assert ("en", "die") in seeds_lemmas.translations("morire", ["it"])
    assert ("es", "arrolla") in seeds_lemmas.translations("arrollar", ["es"])


def test_a_search_without_lemma_tables_does_not_wait_for_them(
    home: Path, monkeypatch: pytest.MonkeyPatch
):
    """With no tables in the home's cache a search answers at once, without lemmas and without
    importing simplemma; a detached process writes the tables meanwhile."""
    monkeypatch.setenv("MTGRULES_LEMMAS", "background")
    lemmas = f"for_cache(Path({str(home / 'lemmas')!r})).lemmas('muore', 'it')"
    assert in_a_fresh_process("from corpus.model.lemmas import for_cache", lemmas) == [
        "()",
        "False",
    ]
    assert (home / "lemmas" / ".preparing").exists()


def test_an_inflected_word_finds_the_rule_of_its_term_through_its_lemma(cached_home: Path):
    """On the seeds, Italian "arcieri" (archers: no term is written so) finds 205.3m, whose
    list of creature types names "Archer (Arciere)", through its lemma "arciere"."""
    assert keys("arcieri") == ["205.3m"]


@pytest.mark.parametrize(
    ("printed", "lang", "headword"),
    [("piochez", "fr", "piocher"), ("jetons", "fr", "jeton"), ("pedine", "it", "pedina"),
     ("sacrifica", "it", "sacrificare"), ("adivina", "es", "adivinar"), ("vidas", "es", "vida"),
     ("tempêtes", "fr", None), ("indizio", "it", None), ("partita", "it", None),
     ("manifiesta", "es", None), ("piocher", "fr", None), ("segnalino veleno", "it", None)],
)  # fmt: skip
def test_a_printed_term_has_its_dictionary_form_when_regular(
    lemmas: Lemmas, printed: str, lang: str, headword: str | None
):
    """A card's imperative or plural gets its dictionary form; a keyword noun the dictionary
    reads as another word (tempêtes as tempêter, indizio as indiziare) gets none."""
    assert dictionary_form(printed, lang, lemmas) == headword


def test_term_shows_the_dictionary_form_of_a_term_cards_print_inflected(cached_home: Path):
    """`term piocher` lists draw's French "piochez" (as cards print it) with its dictionary
    form, piocher, and so do --json and the web's term page; a term that is its own headword
    has none."""
    result = CliRunner().invoke(cli, ["term", "piocher"], catch_exceptions=False)
    assert "  fr  piochez (dictionary form: piocher)  — learned from MTGJSON card text" in (
        result.output
    )
    result = CliRunner().invoke(cli, ["term", "draw", "--json"], catch_exceptions=False)
    terms = {t["term"]: t for t in json.loads(result.output)["concepts"][0]["terms"]}
    assert terms["piochez"]["dictionary_form"] == "piocher"
    assert "dictionary_form" not in terms["pesca"]
    from starlette.testclient import TestClient

    from search.web.app import create_app

    page = TestClient(create_app(cached_home)).get("/term/piocher").text
    assert "piochez</a> <small>(dictionary form: piocher)</small>" in page


# --- each word's language ----------------------------------------------------------------------


@pytest.mark.shared_data
def test_an_english_abbreviation_in_an_italian_query_is_searched_in_english(full_lemmas: Path):
    """ "ordine APNAP delle scelte": APNAP is in the English text only and no Italian term, so
    it is an English word, searched in English, though the query is Italian."""
    query = parse("ordine APNAP delle scelte", _engine(full_lemmas))
    assert query.languages == ("it",) and query.english == ("APNAP",)
    code, out, err = search("ordine APNAP", "--json")
    assert code == 0 and "APNAP" not in err
    assert {"608.2e", "APNAP Order"} & set(r["key"] for r in json.loads(out)["results"][:5])


@pytest.mark.shared_data
def test_words_of_the_query_language_stay_in_it(full: Path):
    """A word of the query's language (a term of it, or in its text) is not an English word."""
    query = parse("regola delle leggende", _engine(full))
    assert query.languages == ("it",) and query.english == ()


@pytest.mark.shared_data
def test_lemmas_answer_on_the_full_library(full_lemmas: Path):
    """ "cosa significa morire" finds 700.4 (dies) and "piochent" the drawing rules, both
    through their lemmas; both found nothing before."""
    assert "700.4" in keys("cosa significa morire", "--limit", "10")
    assert any(key.startswith("121.") for key in keys("piochent")[:3])


@pytest.mark.shared_data
def test_a_verb_in_a_query_taken_for_another_language_finds_its_rule(full_lemmas: Path):
    """ "sacrificare un permanente" is voted French by "un"; its Italian verb found nothing
    before ("found nowhere: sacrificare") and now finds the keyword action sacrifice."""
    code, out, _ = search("sacrificare un permanente", "--json", "--limit", "5")
    assert code == 0 and "sacrificare" not in json.loads(out).get("missing", [])
    assert {"701.21", "701.21a", "Sacrifice"} & set(r["key"] for r in json.loads(out)["results"])


@pytest.mark.shared_data
def test_a_keyword_with_its_number_asks_for_the_keyword(full_lemmas: Path):
    """ "scry 2" is the keyword as cards print it: 701.22 first (it prints "scry N", so the
    number as a required word left it out for 111.10e's token that scries 1 or 2); the same
    in Italian ("macinare 3": mill) and for an ability ("egida 2": ward), and inside a
    question ("profetizzare 2 come funziona" had 111.10's tokens first). A number after a word
    that names no keyword stays a word of the query."""
    assert keys("scry 2")[0] == "701.22"
    assert keys("macinare 3")[0] == "701.17"
    assert keys("egida 2")[0] == "702.21"
    assert keys("profetizzare 2 come funziona")[0].startswith("701.22")
    code, out, _ = search("toughness 0", "--json", "--limit", "5")
    results = json.loads(out)["results"]
    assert code == 0 and results
    assert all(any("0" in r["text"] for r in result["records"]) for result in results)


@pytest.mark.shared_data
def test_words_found_through_the_term_they_name_together_are_not_missing(full_lemmas: Path):
    """ "legame vitale" and "contact mortel" are terms (lifelink, deathtouch) though neither
    word is one alone: their one-word English is searched (on English editions alone the
    Italian question found nothing, and beside the Spanish CR only its "vínculo vital"), and
    the note no longer says "found nowhere: legame, vitale" above 702.15."""
    for asked, section in (
        ("come funziona il legame vitale", "702.15"),
        ("contact mortel", "702.2"),
    ):
        code, out, err = search(asked, "--json", "--limit", "3")
        payload = json.loads(out)
        assert code == 0 and payload["results"][0]["key"] == section, (asked, out, err)
        assert "missing" not in payload and "found nowhere" not in err
    code, out, _ = search("sacrificare xyzzyq", "--json", "--limit", "3")
    assert json.loads(out)["missing"] == ["xyzzyq"]


@pytest.mark.shared_data
def test_a_misspelt_word_among_found_ones_gets_its_close_words(full_lemmas: Path):
    """ "blocked creature trampel": the rules with some of the words, and for the word found
    nowhere the close ones, as a query that finds nothing gets them (a newcomer's "pénalitée
    pour cartes marqées" was told only "found nowhere")."""
    code, out, err = search("blocked creature trampel", "--limit", "1")
    assert code == 0 and out
    assert err.startswith("note: no rule has every word; rules with some of them (found nowhere: ")
    assert "trampel); did you mean: trample" in err.splitlines()[0]
    code, out, _ = search("blocked creature trampel", "--json", "--limit", "1")
    assert "trample" in json.loads(out)["suggestions"]


def _engine(home: Path) -> Engine:
    from indexer.store import live_build

    current = live_build(home)
    assert current is not None
    return Engine.of_build(home, current)


# --- did you mean ------------------------------------------------------------------------------


def test_vocabulary_lists_each_words_languages(seeds_engine: Engine):
    """The did-you-mean vocabulary gives every word the languages whose texts have it."""
    from corpus.paths import VOCABULARY

    lines = (seeds_engine.folder / VOCABULARY).read_text("utf-8").split("\n")
    langs = dict(line.split("\t") for line in lines)
    assert langs["leggendario"] == "it" and langs["subtipos"] == "es"
    assert langs["artefact"] == "fr" and langs["tipo"] == "es it"


def test_did_you_mean_offers_words_of_the_query_language(seeds_engine: Engine):
    """A misspelt word of a Spanish query is offered Spanish words, not the French "artefact"
    (which the Spanish stemmer once let through)."""
    assert seeds_engine.suggestions("el artefattoo") == ["artefacto", "artefactos"]


def test_did_you_mean_offers_the_term_bases_words_too(seeds_engine: Engine):
    """A library with little French text has its keywords' names in the term base: a misspelt
    "piétinemnt" is offered "piétinement" (it was "pertinents"), as written, and each
    misspelt word of a query gets its best before any gets a second."""
    assert seeds_engine.suggestions("comment fonctionne le piétinemnt")[0] == "piétinement"
    assert seeds_engine.suggestions("déclencheurr oublé")[:2] == ["déclencheur", "oublié"]


def test_did_you_mean_leaves_a_word_the_dictionary_knows(seeds_lemmas: Engine):
    """An Italian word spelt right is not "corrected" to another because the library's Italian
    text lacks it: "morire" is not offered "fornire"."""
    assert seeds_lemmas.suggestions("cosa significa morire") == []
    assert seeds_lemmas.suggestions("cosa significa morrire")


# --- question marks ----------------------------------------------------------------------------


def test_a_question_mark_ending_a_query_of_several_words_is_punctuation(seeds_engine: Engine):
    """ "¿qué significa escrutar 2?" is a plain question: its '?' after a digit is not a
    wildcard; a lone word's '?' still is."""
    assert without_question_marks("¿qué significa escrutar 2?") == "qué significa escrutar 2"
    query = parse("¿qué significa escrutar 2?", seeds_engine)
    assert query.plain and query.asked
    assert without_question_marks("legg?ndario") == "legg?ndario"
    assert not parse("205.4?", seeds_engine).plain


def test_sentence_punctuation_is_not_part_of_a_word(seeds_engine: Engine):
    """ "mis fundas están marcadas, ¿qué penalización?" searches "marcadas", not "marcadas,":
    commas, colons, guillemets and a final full stop around a word are the sentence's."""
    query = parse("mis fundas están marcadas, ¿qué penalización? «supertipo»", seeds_engine)
    assert "marcadas" in query.words and "supertipo" in query.words
    assert not any(w.strip(",;:.!¡¿«»") != w for w in query.words)
    assert "205.4d" in parse("regola 205.4d.", seeds_engine).words


def test_a_star_alone_is_the_one_printed_for_power_not_a_wildcard(seeds_engine: Engine):
    """ "una criatura que tiene * en su fuerza" and "a */* creature" are plain questions (the
    encoder is asked them); a star against a letter or a digit is still a wildcard."""
    query = parse(
        "cómo se calcula la fuerza de una criatura que tiene * en su fuerza", seeds_engine
    )
    assert query.plain and query.asked
    assert parse("a */* creature", seeds_engine).plain
    assert not parse("leggend*", seeds_engine).plain
    assert not parse("205.4*", seeds_engine).plain


def test_a_wildcard_stands_for_the_library_words_it_matches(seeds_engine: Engine):
    """ "leggend*" and "legg?ndario" are matched against the library's words (leggendaria,
    leggendario…), not against the index's stems, which a pattern typed as a word does not
    match: both find the Italian rules of legendary permanents; a pattern no word matches finds
    nothing."""
    assert seeds_engine.words_like("leggend*") == [
        "leggendaria", "leggendario", "leggendari", "leggende",
    ]  # fmt: skip
    assert seeds_engine.words_like("legg?ndario") == ["leggendario"]
    assert parse("L'Artefatt* NOT tipo", seeds_engine).wildcards == (
        ("L'Artefatt*", ("artefatto", "artefatti")),
    )
    for typed in ("leggend*", "legg?ndario"):
        keys = [r.key for r in seeds_engine.search(typed, Filters(), 5).results]
        assert {"205.4d", "205.4e"} <= set(keys[:2] + keys[2:4])
        assert all(key.startswith("205.4") for key in keys)
    assert seeds_engine.search("zzqx*", Filters(), 5).results == []


def test_a_wildcard_no_text_matches_stands_for_the_terms_it_matches(seeds_engine: Engine):
    """ "piétin*" matches no word of the seeds' texts: it stands for the term base's
    "piétinement" and its one-word names in the other languages (trample, travolgere,
    arrolla), so a library without the French CR still finds Trample by it (it found
    nothing); a pattern that matches words of the texts stays with them."""
    words = seeds_engine.words_like("piétin*")
    assert words[0] == "pietinement" and {"trample", "travolgere", "arrolla"} <= set(words)
    assert seeds_engine.words_like("leggend*")[0] == "leggendaria"


@pytest.mark.shared_data
def test_a_french_keyword_pattern_finds_its_rules_on_english_editions(full_lemmas: Path):
    """On English editions alone "piétin*" finds 702.19 Trample first."""
    assert keys("piétin*")[0] == "702.19"


def test_a_rule_number_with_a_star_is_the_rule_with_its_subrules(seeds_engine: Engine):
    """ "205.4*" and "regola 205,4*" are looked up as 205.4 is (the rule and its subrules), not
    searched as words (which found the glossary entries that cite 205.4); "205.4." is still
    the rule alone."""
    from search.query import as_number

    for written in ("205.4*", "regola 205,4*", "205.4"):
        number = as_number(written)
        assert number is not None and str(number.rule) == "205.4" and not number.alone
    alone = as_number("205.4.")
    assert alone is not None and alone.alone
    assert as_number("tramp*") is None
