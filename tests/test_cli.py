"""The command line end to end on the embedded corpus, with CliRunner."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import IT, SEEDS

from search.cli import cli


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, catch_exceptions=False, args=list(args))
    return result.exit_code, result.stdout, result.stderr


def test_sources_lists_the_four_seeds():
    """`sources --json` gives language, edition, layout and counts of the four documents."""
    code, out, _ = run("sources", "--json")
    assert code == 0
    docs = {d["source"]: d for d in json.loads(out)["documents"]}
    summary = {
        name: (d["lang"], d["edition"], d["format"], d["counts"]) for name, d in docs.items()
    }
    assert summary == {
        "000_3f40d4614bb0d7a7.txt": (
            "it",
            "2024-11-23",
            "numbered-rules",
            {"rule": 34, "example": 6},
        ),
        "001_1dd839522fb4465e.txt": (
            "fr",
            None,
            "forum-copy",
            {"rule": 18, "example": 1, "note": 1},
        ),
        "002_35a44381c797d734.txt": (
            "it",
            None,
            "mechanics-article",
            {"reminder": 3, "article": 14, "ruling": 23},
        ),
        "003_70161cce7a97982c.txt": ("es", None, "rules-web-page", {"rule": 3, "example": 2}),
    }
    assert docs["001_1dd839522fb4465e.txt"]["dropped"][0] == {
        "line": 1,
        "text": "5 messages · 721 vues · qui a participé ?",
        "reason": "boilerplate: forum header",
    }


def test_export_jsonl_is_deterministic_and_complete():
    """`export --format jsonl` prints all 105 seed records, identically twice."""
    code, first, _ = run("export", "--format", "jsonl")
    _, second, _ = run("export", "--format", "jsonl")
    records = [json.loads(line) for line in first.splitlines()]
    assert code == 0 and first == second and len(records) == 105
    legend = next(r for r in records if r["lang"] == "it" and r["number"] == "205.4d")
    assert legend["key"] == "205.4d" and "legendary" in legend["terms"]
    assert legend["edition"] == "2024-11-23" and legend["lines"] == [39, 39]


@pytest.mark.parametrize("fmt", ["jsonl", "tmx", "csv", "tbx"])
def test_export_writes_into_the_output_folder_in_every_format(fmt: str, tmp_path: Path):
    """`--output DIR` writes DIR/mtgrules.FORMAT, the very text standard output gets, and says
    so on stderr (TMX and CSV printed to the terminal and ignored the folder)."""
    _, printed, _ = run("export", "--format", fmt, "--lang", "it,fr")
    code, out, err = run("export", "--format", fmt, "--lang", "it,fr", "--output", str(tmp_path))
    written = tmp_path / f"mtgrules.{fmt}"
    assert code == 0 and out == "" and err == f"wrote {written}\n"
    assert written.read_text("utf-8") == printed and "205.4d" in printed


@pytest.mark.parametrize("fmt", ["jsonl", "tmx", "csv", "po"])
def test_export_of_a_language_the_library_lacks_is_an_error(fmt: str):
    """`export --lang pt` with no Portuguese document (the seeds): exit 1 and one line that
    says so, in every format, as the PO export did; TMX wrote an empty memory, exit 0."""
    code, out, err = run("export", "--format", fmt, "--lang", "pt")
    assert (code, out) == (1, "")
    assert err.splitlines()[-1] == "error: no pt documents in the library; see `mtgrules sources`"


def test_export_refuses_an_output_folder_under_one_that_is_not_there(tmp_path: Path):
    """`--output` makes its folder, not the folders above it: a mistyped path is refused as a
    bad option (exit 2, as an --output that is a file)."""
    code, out, err = run("export", "--format", "csv", "--output", str(tmp_path / "no" / "dir"))
    assert code == 2 and not out and not (tmp_path / "no").exists()
    assert err == (
        f"error: --output {tmp_path / 'no' / 'dir'}: there is no folder {tmp_path / 'no'}; "
        "create it first, or give a folder that exists (see `cli export --help`)\n"
    )


def test_a_query_in_another_alphabet_is_told_the_languages_read_here():
    """`search 'κανόνας του θρύλου'`: an error like every command's, naming the languages."""
    code, out, err = run("search", "κανόνας του θρύλου")
    assert (code, out) == (1, "")
    assert err.splitlines()[-1] + "\n" == (
        "error: no rules match 'κανόνας του θρύλου'; ask in Italian, French, Spanish, Portuguese "
        "or English, the languages of the rules here\n"
    )


def test_a_word_that_is_no_rule_gets_a_hint_that_works():
    """`history 9999` said "see `mtgrules show 9999`", which answered that 9999 is not a rule
    number; `show zzz` said "not a rule number" though show takes titles: each says what it
    takes and the command that answers words."""
    code, _, err = run("history", "9999")
    assert (
        code == 2 and "error: '9999' is not a rule number nor a rule's title; write it like" in err
    )
    assert "mtgrules show" not in err
    code, _, err = run("show", "zzz")
    assert code == 2 and "'zzz' is no rule number, nor the title of a rule or glossary entry" in err
    assert "`mtgrules search 'zzz'`" in err
    assert run("search", "zzz")[0] == 1  # that command answers: no rules match


def test_a_rule_asked_for_by_a_number_that_is_none_is_a_usage_error():
    """ "rule 9999" asks for a rule: searched as words it answered with a rule that says "rule";
    it is a usage error that says how numbers are written, while "regola 205.4d",
    "regla 205,4d" and "205 .4d" (a space typed inside it) are the rule."""
    code, _, err = run("search", "rule 9999")
    assert code == 2
    assert "query 'rule 9999' names no rule number; write one like 205, 205.4 or 205.4d" in err
    for written in ("regola 205.4d", "regla 205,4d", "205 .4d", "205.4 d"):
        code, out, _ = run("search", written, "--json")
        assert code == 0 and json.loads(out)["results"][0]["key"] == "205.4d"


def test_add_rejects_bad_files_with_one_line(tmp_path: Path):
    """Empty, binary, missing files and directories: exit 1, one line naming the file."""
    empty = tmp_path / "vuoto.txt"
    empty.write_bytes(b"")
    binary = tmp_path / "immagine.png"
    binary.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)))
    prose = tmp_path / "ricetta.txt"
    prose.write_text("Ricetta della nonna: farina, uova e un po' di latte per la torta.\n")
    for path, reason in [
        (empty, "the file is empty"),
        (binary, "binary data"),
        (tmp_path / "manca.txt", "no such file"),
        (tmp_path, "is a directory"),
        (prose, "unknown layout"),
    ]:
        code, out, err = run("add", str(path))
        assert code == 1, path
        assert out == ""
        assert err.count("\n") == 1 and str(path.name) in err and reason in err


def test_remove_json_reports_each_document(tmp_path: Path, home: Path):
    """`remove --json`: each document removed or why not, one object, exit 1 when one fails
    (there was no --json)."""
    rules = tmp_path / "regole.txt"
    rules.write_text("205.1. Regola di prova.\n205.2. Un'altra regola di prova.\n", "utf-8")
    assert run("add", str(rules))[0] == 0
    code, out, err = run("remove", "regole.txt", "manca.txt", "--json")
    assert code == 1 and err.startswith("error: no document 'manca.txt' in the library")
    report = json.loads(out)
    assert report["exit_code"] == 1
    assert report["documents"][0] == {"document": "regole.txt", "removed": "regole.txt"}
    assert report["documents"][1]["error"].startswith("no document 'manca.txt' in the library")


def test_add_json_reports_each_file(tmp_path: Path, home: Path):
    """`add --json`: one entry per file, what was added (language, edition, layout, records,
    lines dropped), what the library had already, what was refused and why; exit 1 (and
    `exit_code`) when one was refused, the others still added."""
    page = tmp_path / "regola-205-2.txt"
    page.write_text(
        "Regola 205.2 · Tipi di carta\n\nI tipi di carta sono artefatto, creatura e terra.\n",
        encoding="utf-8",
    )
    binary = tmp_path / "immagine.png"
    binary.write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(256)))
    code, out, err = run("add", "--json", str(SEEDS / IT), str(page), str(binary))
    assert code == 1 and err.startswith("error: immagine.png: binary data")  # as without --json
    assert json.loads(out)["exit_code"] == 1
    known, added, refused = json.loads(out)["files"]
    assert known == {"file": IT, "status": "already in the library"}
    assert added["status"] == "added" and added["lang"] == "it"
    assert added["added_as"] == "regola-205-2.txt" and added["dropped_lines"] == 1
    # The names and types `sources --json` gives: a count, the counts per kind.
    assert added["records"] == 1 and added["counts"] == {"rule": 1}
    assert refused["status"] == "refused" and refused["error"].startswith("immagine.png: ")
    assert (home / "documents" / "regola-205-2.txt").exists()


def test_a_search_with_no_results_gives_its_error_in_json():
    """`search zzqqxx --json`: no results, an `error` a script can read, exit 1."""
    code, out, _ = run("search", "zzqqxx", "--json")
    assert code == 1
    assert json.loads(out) == {
        "query": "zzqqxx",
        "results": [],
        "error": "no rules match 'zzqqxx'; check its spelling, or ask in other words",
        "exit_code": 1,
    }


def test_add_keeps_a_new_document_and_skips_a_known_one(tmp_path: Path, home: Path):
    """A new rules file is stored in MTGRULES_HOME; a seed already there is a no-op."""
    code, out, _ = run("add", str(SEEDS / IT))
    assert (code, out) == (0, f"{IT}: already in the library, nothing to do\n")
    page = tmp_path / "regola-205-2.txt"
    page.write_text(
        "Regola 205.2 · Tipi di carta\n\nI tipi di carta sono artefatto, creatura e terra.\n",
        encoding="utf-8",
    )
    code, out, _ = run("add", str(page))
    assert code == 0 and "added as regola-205-2.txt (lang=it" in out
    assert (home / "documents" / "regola-205-2.txt").read_bytes() == page.read_bytes()


def test_search_prints_the_legend_rule_with_its_key():
    """The README's main command prints 205.4d with every record of that key."""
    code, out, _ = run("search", "regola delle leggende")
    assert code == 0
    first_block = out.split("\n\n")[0].splitlines()
    assert first_block[0].startswith("205.4d [")
    assert first_block[1] == "  it  205.4d · rule · 2024-11-23 · 000_3f40d4614bb0d7a7.txt"
    assert first_block[2].startswith('      Ogni permanente con il supertipo "leggendario"')
    assert first_block[4] == (
        "  fr  205.4c · rule · edition unknown · 001_1dd839522fb4465e.txt · aligned by content 0.93"
    )
    assert first_block[5].startswith("      Un permanent avec le sur-type légendaire")


def test_search_brief_prints_one_line_per_result():
    """`--brief` is a judge's quick list: a key and the beginning of its first language's text
    per line (the seeds have no English: Italian first), and refuses to mix with --json."""
    code, out, _ = run("search", "--brief", "--limit", "3", "regola delle leggende")
    assert code == 0
    lines = out.splitlines()
    assert len(lines) == 3
    assert lines[0] == (
        '205.4d — it Ogni permanente con il supertipo "leggendario" è soggetto all\'azione '
        "generata dallo …"
    )
    code, _, err = run("search", "--brief", "--json", "leggende")
    assert code == 2 and "give one of them" in err


def test_search_brief_titles_a_rule_in_the_language_shown():
    """`--brief --show fr` titles 205.4 as the French copy does ("Sur-types"), not with the
    first title the records give (the Italian "Supertipi")."""
    assert run("search", "--brief", "205.4")[1].splitlines()[0] == "205.4 — Supertipi"
    assert run("search", "--brief", "--show", "fr", "205.4")[1].splitlines()[0] == (
        "205.4 — Sur-types"
    )


def test_search_json_shape_and_rule_lookup():
    """`search 205.1b --json`: the Italian and the Spanish (inferred) 205.1b in one result."""
    code, out, _ = run("search", "205.1b", "--json")
    payload = json.loads(out)
    assert code == 0 and payload["query"] == "205.1b"
    (result,) = payload["results"]
    assert result["key"] == "205.1b" and result["english"]["rule"] == "205.1b"
    langs = [(r["lang"], r["kind"], r.get("inferred", False)) for r in result["records"]]
    assert ("it", "rule", False) in langs and ("es", "rule", True) in langs
    assert ("es", "example", False) in langs


def test_number_lookups_whole_rule_alone_and_section():
    """205.4 includes its subrules, 205.4. is the rule alone, 205 the whole section."""
    keys = lambda q: [r["key"] for r in json.loads(run("show", q, "--json")[1])["results"]]  # noqa: E731
    assert keys("205.4")[:3] == ["205.4", "205.4a", "205.4b"] and keys("205.4")[-1] == "205.4h"
    assert keys("205.4.") == ["205.4"]
    section = keys("205")
    assert len(section) == 36  # 34 modern keys and two old French rules with keys of their own
    assert "205.2c@001_1dd839522fb4465e.txt" in section


def test_show_lists_references():
    """`show 205.4d` lists the rules it cites, each the seeds do not have said to be absent
    (704.5j; the French seed's 420.5e, its 2006 number of 704.5j, which no edition prints):
    `show` of either would find nothing."""
    code, out, _ = run("show", "205.4d", "--json")
    payload = json.loads(out)
    assert code == 0 and payload["refers_to"] == ["420.5e", "704.5j"]
    assert payload["not_in_library"] == ["420.5e", "704.5j"]
    code, out, _ = run("show", "205.4d")
    assert out.endswith("\nrefers to: 420.5e (not in the library), 704.5j (not in the library)\n")


def test_show_says_which_languages_have_a_rule_the_lang_filter_leaves_out():
    """`show 205.4d --lang pt`: the rule is in the library, only not in Portuguese; the fix
    names every language that has it."""
    code, _, err = run("show", "205.4d", "--lang", "pt")
    assert code == 1
    assert err.splitlines()[-1] + "\n" == (
        "error: the library has no Portuguese text of 205.4d, only Italian and French;"
        " show it without --lang or with --lang it,fr\n"
    )


def test_show_may_only_pick_among_the_languages_lang_keeps():
    """`--lang it,fr --show en` is a usage error naming both options, in search and show: it
    said "no English text for 205.4d", which the library has."""
    for command in ("search", "show"):
        code, out, err = run(command, "205.4d", "--lang", "it,fr", "--show", "en")
        assert code == 2 and not out
        assert err.splitlines()[-1] == (
            "error: --show en asks for what --lang it,fr leaves out; add en to --lang, or leave "
            f"--show out (see `cli {command} --help`)"
        )


def test_english_query_finds_translated_text():
    """English words find Italian rules through the term base."""
    payload = json.loads(run("search", "artifact types", "--json", "--limit", "3")[1])
    assert "205.3g" in [r["key"] for r in payload["results"]]
    payload = json.loads(run("search", "Lander token", "--json", "--limit", "3")[1])
    assert payload["results"][0]["key"] == "Lander"
    assert payload["results"][0]["english"]["rule"] == "111.10u"


def test_accent_and_case_folding():
    """Sottocitta finds Sottocittà; SUPERTIPO finds supertipo."""
    assert json.loads(run("search", "Sottocitta", "--json")[1])["results"][0]["key"] == "205.3p"
    assert (
        json.loads(run("search", "SUPERTIPO MONDO", "--json")[1])["results"][0]["key"] == "205.4f"
    )


def test_malformed_queries_get_one_line_and_exit_2():
    """Empty, unbalanced, lone operators, '*', leading NOT, 10,000 characters: exit 2, and the
    message says the fix."""
    for query, message in [
        ("", "empty query"),
        ('"regola delle', "unbalanced quote"),
        ("(REL Regular", "close each ( with ) or leave them out"),
        ("*", "no words"),
        ("AND OR", "only operators"),
        ("NOT mondo", "starts with NOT"),
        ("a" * 10_000, "10000 characters"),
    ]:
        code, _out, err = run("search", query)
        assert code == 2, query
        assert message in err and "Traceback" not in err


def test_operators_and_phrases():
    """OR widens, NOT narrows, a quoted phrase must match in order."""

    def ids(*q):
        return {
            r["key"] for r in json.loads(run("search", "--json", "--limit", "50", *q)[1])["results"]
        }

    assert ids("mondo OR neve") >= {"205.4f", "205.4g"}
    assert "205.4f" not in ids("supertipo NOT mondo", "--lang", "it")
    assert ids('"regola delle leggende"') == {"205.4d"}


def test_a_rule_number_among_operators_is_that_rule():
    """`205.4c OR neve`: the rule named by its number first, then the words' (it was left out:
    only texts citing 205.4c matched); `supertipo NOT 205.4d` leaves the rule out."""
    found = json.loads(run("search", "--json", "--limit", "10", "205.4c OR neve")[1])["results"]
    assert found[0]["key"] == "205.4c" and "205.4g" in [r["key"] for r in found]
    left = json.loads(run("search", "--json", "--limit", "50", "supertipo NOT 205.4d")[1])
    assert "205.4d" not in [r["key"] for r in left["results"]]


def test_no_match_suggests_words():
    """A misspelt word gets 'did you mean' from the index vocabulary and exit 1; one very close
    to a word of the query's language (difflib ratio 0.88 or more) is searched as that word,
    said first."""
    code, _, err = run("search", "stazonarr")
    assert code == 1 and "did you mean" in err and "stazionare" in err
    code, out, err = run("search", "stazionarre", "--brief")
    assert (
        code == 0 and err == "note: no rule has 'stazionarre' as typed: searched as 'stazionare'\n"
    )
    assert out.startswith("Station")


def test_a_wildcard_that_begins_no_word_of_the_texts_offers_the_terms_it_begins():
    """`tocco*`: no text of the seeds has a word so begun (the Italian library is section 205),
    the term base's deathtouch does: it is offered, and the search still exits 1."""
    code, _, err = run("search", "tocco*")
    assert code == 1
    assert err.splitlines()[-1] == "error: no rules match 'tocco*'; did you mean: tocco letale?"


def test_unknown_language_lists_valid_ones():
    """--lang xx is a usage error naming the valid languages."""
    code, _, err = run("search", "tipo", "--lang", "xx")
    assert code == 2 and "valid: it, fr, es, pt, en" in err


def test_a_regional_language_tag_is_its_language():
    """--lang it-IT, es_ES (as CAT tools and PO headers write them) are it and es; an unknown
    region of an unknown language is still refused."""
    code, out, _ = run("search", "205.4", "--json", "--lang", "it-IT,es_ES")
    assert code == 0
    langs = {r["lang"] for result in json.loads(out)["results"] for r in result["records"]}
    assert "it" in langs and langs <= {"it", "es"}
    code, _, err = run("search", "tipo", "--lang", "xx-YY")
    assert code == 2 and "unknown language 'xx'; valid: it, fr, es, pt, en" in err


def test_an_empty_language_is_refused():
    """--lang "" is a usage error naming the valid languages, not a search of every one."""
    code, _, err = run("search", "tipo", "--lang", "")
    assert code == 2 and "no language given; valid: it, fr, es, pt, en" in err


def test_an_empty_document_or_kind_and_two_edition_options_are_refused():
    """`--doc ""`, `--kind ,` are usage errors naming the valid values, as `--lang ""` is;
    `--edition` beside `--all-editions` asks two things at once (both were taken silently)."""
    for option, valid in (("--doc", "cr, mtr, ipg, jar"), ("--kind", "rule, example")):
        for given in ("", ","):
            code, _, err = run("search", "tipo", option, given)
            assert code == 2 and f"give one or more of {valid}" in err, (option, given)
    code, _, err = run("search", "tipo", "--all-editions", "--edition", "latest")
    assert code == 2 and "one edition (--edition) or every one (--all-editions)" in err


def test_lang_filter_restricts_records():
    """--lang fr returns French records only."""
    payload = json.loads(run("search", "205.4", "--json", "--lang", "fr")[1])
    assert {r["lang"] for res in payload["results"] for r in res["records"]} == {"fr"}


def test_kind_and_edition_filters():
    """--kind example returns examples only; --edition keeps that edition's texts."""
    payload = json.loads(run("search", "terre", "--kind", "example", "--json")[1])
    kinds = {r["kind"] for res in payload["results"] for r in res["records"]}
    assert kinds == {"example"}
    payload = json.loads(run("search", "tipo", "--edition", "2024-11-23", "--json")[1])
    assert {r["edition"] for res in payload["results"] for r in res["records"]} <= {
        "2024-11-23",
        None,
    }
    code, _, err = run("search", "tipo", "--edition", "novembre")
    assert code == 2 and "YYYY-MM-DD" in err


def test_show_option_picks_the_columns():
    """--show fr prints (and returns) only the French records, while English keys still group."""
    code, out, _ = run("search", "regola delle leggende", "--show", "fr")
    assert code == 0 and out.splitlines()[1].startswith("  fr  205.4c · rule")
    payload = json.loads(run("search", "regola delle leggende", "--show", "fr", "--json")[1])
    assert [r["lang"] for r in payload["results"][0]["records"]] == ["fr"]


def test_a_term_not_in_the_term_base_is_an_error_in_json_too():
    """`term zzzz --json` says the failure as every --json does: an "error" and its exit code."""
    code, out, _ = run("term", "zzzz", "--json")
    assert code == 1
    assert json.loads(out) == {
        "error": "'zzzz' is not in the term base; try `mtgrules search zzzz`",
        "exit_code": 1,
        "query": "zzzz",
        "concepts": [],
        "hidden": 0,
    }
    code, _, err = run("term", "zzzz qqqq")  # the hint's command is one to copy: quoted
    assert code == 1 and err.endswith("try `mtgrules search 'zzzz qqqq'`\n")
    code, _, err = run("term", "--", "-1")  # and a word that begins with a dash, after --
    assert code == 1 and err.endswith("try `mtgrules search -- -1`\n")


def test_multiplayer_has_its_name_in_every_language():
    """`term multijoueur` (and multigiocatore, multijugador, the Spanish CR's "varios
    jugadores") is multiplayer: it was not in the term base."""
    for asked in ("multijoueur", "multigiocatore", "multijugador", "varios jugadores"):
        code, out, _ = run("term", asked, "--json")
        assert code == 0 and json.loads(out)["concepts"][0]["english"] == "multiplayer", asked


def test_term_base_expands_queries_across_languages():
    """legendary finds leggendario and légendaire; tipos de tierra finds Italian 205.3i;
    types d'artefacts finds Italian 205.3g (the examples of the English-backbone issue)."""

    def top(query: str) -> list[dict]:
        return json.loads(run("search", query, "--limit", "3", "--json")[1])["results"]

    legendary = top("legendary")
    texts = [r["text"] for result in legendary for r in result["records"]]
    assert any("leggendario" in t for t in texts) and any("légendaire" in t for t in texts)
    assert "205.3i" in [r["key"] for r in top("tipos de tierra")]
    assert top("types d'artefacts")[0]["key"] == "205.3g"


@pytest.mark.parametrize(
    ("question", "key"),
    [("come funziona la curvatura", "Warp"), ("how does warp work", "Warp"),
     ("quali sono i tipi di terra", "205.3i"), ("what are the land types", "205.3i"),
     ("¿cómo funciona la línea de tipo?", "205.1"),
     ("qu'est-ce que la règle des légendes ?", "205.4d")],
)  # fmt: skip
def test_natural_questions_find_their_rule(question: str, key: str):
    """Question words are no content words; the rule asked about comes first."""
    result = CliRunner().invoke(cli, catch_exceptions=False, args=["search", question, "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["results"][0]["key"] == key


def test_when_no_rule_has_every_word_some_of_them_do():
    """'esiliato fase finale curvatura': no text has all four; the Warp rulings have most,
    with a note on stderr and 'missing' (the words found nowhere) in the JSON."""
    result = CliRunner().invoke(
        cli, catch_exceptions=False, args=["search", "esiliato fase finale curvatura", "--json"]
    )
    assert result.exit_code == 0
    payload = json.loads(result.stdout)
    assert payload["missing"] == [] and payload["results"][0]["key"] == "Warp"
    plain = CliRunner().invoke(
        cli, catch_exceptions=False, args=["search", "esiliato fase finale curvatura"]
    )
    assert plain.stderr.startswith("note: no rule has every word; rules with some of them")


def test_a_weak_content_alignment_is_marked_uncertain(seeds_engine):
    """Below the alignment's low-confidence mark, the record's label says so."""
    from corpus.model.records import Align
    from search.render import label

    section = seeds_engine.versions.in_section("205")
    french = [r for r in section if r.lang == "fr" and r.number == "205.3d"]
    assert french and french[0].lang == "fr" and french[0].align.method == "content"
    weak = french[0].but(align=Align("content", 0.41))
    assert label(weak).endswith("001_1dd839522fb4465e.txt · aligned by content 0.41 (uncertain)")
    assert label(weak.but(align=Align("content", 0.58))).endswith("· aligned by content 0.58")


def test_a_judge_section_not_in_the_library_says_how_to_search_it():
    """`show "MTR 99.9"` on a library without it: one line, exit 1, and the search it suggests
    quoted so that the shell passes it as one query."""
    code, out, err = run("show", "MTR 99.9")
    assert (code, out) == (1, "")
    assert err.splitlines()[-1] == (
        "error: no MTR 99.9 in the library; add the document with `mtgrules add`, "
        "or try `mtgrules search 'MTR 99.9'`"
    )


def test_a_search_that_finds_nothing_in_a_language_says_which_have_it():
    """`search stazione --lang fr` finds no French text, but the Italian seed has it: the error
    says so (stderr and --json), and a language no document is in (pt-BR) that the library has
    none; a rule number no document prints says it is not in the library."""
    code, _, err = run("search", "stazione", "--lang", "fr")
    assert code == 1
    assert err.endswith("; no French text matches it, Italian text does; search without --lang\n")
    code, _, err = run("search", "stazione", "--lang", "pt-BR")  # the seeds have no Portuguese
    assert code == 1
    assert err.endswith(
        "; the library has no Portuguese documents; search without --lang, or add one with"
        " `mtgrules add FILE`\n"
    )
    code, out, _ = run("search", "999.9z", "--json")
    assert code == 1 and json.loads(out)["error"] == (
        "no rules match '999.9z'; no rule 999.9z in the library (`mtgrules sources` lists its"
        " documents and editions)"
    )
