"""Documents as people find them: saved HTML pages, PDFs, old encodings, other layouts; and bad
files refused in one line without disturbing the library."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import IT, ROOT, seed
from pdf_maker import two_column_pdf

from corpus.read.ingest import IngestError, ingest_bytes
from search.cli import cli

FIXTURES = ROOT / "tests" / "fixtures"


def reasons(document) -> dict[str, str]:
    return {d.text: d.reason for d in document.dropped}


def test_saved_html_page_keeps_rules_and_drops_chrome():
    """Numbers in <b>/<span>; cookie banner, menu, advert, footer and scripts set aside."""
    doc = ingest_bytes((FIXTURES / "regola-205-4.html").read_bytes(), "regola-205-4.html")
    assert (doc.lang, doc.layout, dict(doc.metadata)["format"]) == ("it", "numbered-rules", "HTML")
    assert [(r.kind, r.number or r.parent) for r in doc.records] == [
        ("rule", "205.4"),
        ("rule", "205.4a"),
        ("rule", "205.4b"),
        ("example", "205.4b"),
        ("rule", "205.4d"),
    ]
    assert doc.records[-1].text.startswith('Ogni permanente con il supertipo "leggendario"')
    why = reasons(doc)
    assert (
        why["Usiamo i cookie per migliorare il sito. Accetta"]
        == "boilerplate: site chrome (cookie)"
    )
    assert why["Home Regole Glossario"] == "boilerplate: navigation"
    assert why["Compra le buste di Ai Confini dell'Eternità al miglior prezzo!"].startswith(
        "boilerplate: site chrome"
    )
    assert why["© 2025 Archivio delle Regole · Privacy"] == "boilerplate: page footer"
    assert why["trackPageView();"] == "boilerplate: script"


def test_html_without_rules_is_refused():
    """A page with no rules: one line naming the file, unknown layout, and what a rules
    document would have (not a catalogue's entries: it is no catalogue)."""
    page = (
        b"<!DOCTYPE html><html><body><nav>Home</nav><p>Benvenuti nel nostro negozio di carte, "
        b"con le offerte della settimana e gli orari di apertura.</p></body></html>"
    )
    with pytest.raises(IngestError, match=r"^negozio.html: unknown layout") as refused:
        ingest_bytes(page, "negozio.html")
    assert "fewer than two numbered rule lines" in str(refused.value)
    assert "gettext" not in str(refused.value)


LEFT1 = [
    "205.4. Supertipi",
    "205.4a Un oggetto puo avere uno o piu supertipi.",
    "I supertipi sono: base, leggendario, In corso,",
    "neve e mondo.",
]
RIGHT1 = [
    "205.4b Il supertipo di un oggetto e indipendente",
    "dal suo tipo di carta e sottotipo.",
    "Esempio: Una terra leggendaria su cui ha effetto",
    "questa abilita e ancora leggendaria.",
]
LEFT2 = [
    '205.4c Qualsiasi terra con il supertipo "base" e una',
    "terra base.",
    '205.4d Ogni permanente con il supertipo "leggen-',
    'dario" e soggetto all azione generata dallo stato.',
]
RIGHT2 = [
    "205.4e Ogni magia istantaneo o stregoneria con il",
    'supertipo "leggendario" e soggetta a una restrizione.',
]
LEFT3 = ['205.4f Ogni permanente con il supertipo "mondo" e', "soggetto alla regola dei mondi."]
RIGHT3 = ['205.4g Ogni permanente con il supertipo "neve" e un', "permanente neve."]  # fmt: skip


def test_pdf_two_columns_headers_and_hyphens(tmp_path: Path):
    """Columns left then right; running header and page numbers dropped; leggen-/dario joined."""
    path = two_column_pdf(
        tmp_path / "supertipi.pdf", [(LEFT1, RIGHT1), (LEFT2, RIGHT2), (LEFT3, RIGHT3)]
    )
    doc = ingest_bytes(path.read_bytes(), path.name)
    assert (doc.lang, doc.layout, dict(doc.metadata)["format"]) == ("it", "numbered-rules", "PDF")
    numbers = [r.number for r in doc.records if r.kind == "rule"]
    assert numbers == [
        "205.4",
        "205.4a",
        "205.4b",
        "205.4c",
        "205.4d",
        "205.4e",
        "205.4f",
        "205.4g",
    ]
    by_number = {r.number: r.text for r in doc.records}
    assert by_number["205.4d"] == (
        'Ogni permanente con il supertipo "leggendario" e soggetto all azione generata dallo stato.'
    )
    assert by_number["205.4g"].endswith("e un permanente neve.")
    dropped = [d.reason for d in doc.dropped]
    assert dropped.count("boilerplate: running header or footer") == 3
    assert dropped.count("boilerplate: page number") == 3


@pytest.mark.parametrize(
    ("encoding", "note"),
    [
        ("cp1252", "cp1252 (detected)"),
        ("latin-1", "cp1252 (detected)"),  # Windows-1252 reads Latin-1 text as the same text
        ("utf-16-le", "utf-16-le without a byte order mark"),
        ("utf-16", "utf-16 with a byte order mark"),
    ],
)
def test_encodings_give_the_same_records(encoding: str, note: str | None):
    """The Italian excerpt in other encodings: the same records as in UTF-8."""
    text = seed(IT).decode("utf-8").replace("’", "'")
    expected = ingest_bytes(text.encode("utf-8"), IT).records
    doc = ingest_bytes(text.encode(encoding), IT)
    assert doc.records == expected
    assert dict(doc.metadata).get("encoding") == note


def test_mojibake_is_repaired_and_flagged():
    """UTF-8 read as Windows-1252 and saved again ("è" as "Ã¨") is repaired, with a warning."""
    broken = seed(IT).decode("utf-8").encode("utf-8").decode("cp1252", errors="replace")
    doc = ingest_bytes(broken.encode("utf-8"), IT)
    rule = next(r for r in doc.records if r.number == "205.1")
    assert rule.text.startswith("La riga del tipo è stampata direttamente sotto")
    assert "mojibake repaired (ftfy)" in doc.warnings


def test_number_alone_on_its_line():
    """'205.4d' on one line, the text on the next."""
    text = (
        '205.4\nSupertipi\n\n205.4d\nOgni permanente con il supertipo "leggendario" è '
        "soggetto all'azione generata dallo stato per i permanenti leggendari.\n"
        '205.4f\nOgni permanente con il supertipo "mondo" è soggetto alla regola dei mondi.\n'
    )
    doc = ingest_bytes(text.encode("utf-8"), "a-capo.txt")
    assert [(r.number, r.title, r.text[:24]) for r in doc.records] == [
        ("205.4", "Supertipi", "Supertipi"),
        ("205.4d", None, "Ogni permanente con il s"),
        ("205.4f", None, "Ogni permanente con il s"),
    ]


def test_page_with_several_rule_headings():
    """Two 'Regla N' sections on one page, each with its own unnumbered subrules."""
    text = (
        "Regla 205.2 · Tipos de carta\n\n"
        "Los tipos de carta son artefacto, batalla, criatura y tierra.\n\nSubreglas\n\n"
        "Algunos objetos tienen más de un tipo de carta (por ejemplo, una criatura artefacto).\n\n"
        "Regla 205.4 · Supertipos\n\nUn objeto puede tener uno o más supertipos.\n\nSubreglas\n\n"
        "Los supertipos de un objeto son independientes de su tipo de carta y su subtipo.\n"
    )
    doc = ingest_bytes(text.encode("utf-8"), "reglas.txt")
    assert [(r.number, r.inferred) for r in doc.records] == [
        ("205.2", False),
        ("205.2a", True),
        ("205.4", False),
        ("205.4a", True),
    ]


def test_a_rule_heading_followed_by_numbered_subrules_is_the_rule_and_its_subrules():
    """ "Regola 702.19 · Travolgere", then "702.19a Travolgere è…" and "702.19b …": the rule is
    its title (as the CR's "702.19. Trample") and 702.19a is a subrule, not the rule's own text
    with "702.19a" left in it; nothing lost."""
    page = (
        "<html><head><title>Regola 702.19 · Travolgere — MTG Regole</title></head><body>"
        "<nav>Home · Regole · Contatti</nav><h1>Regola 702.19 · Travolgere</h1>"
        "<p>702.19a Travolgere è un'abilità statica che modifica le regole per l'assegnazione "
        "del danno da combattimento di una creatura attaccante.</p>"
        "<p>702.19b Il controllore di una creatura attaccante con travolgere assegna prima il "
        "danno alle creature che la bloccano.</p>"
        "<p>Esempio: Una creatura 6/6 verde con travolgere è bloccata da una creatura 2/2.</p>"
        "</body></html>"
    )
    doc = ingest_bytes(page.encode("utf-8"), "pagina.html")
    assert doc.layout == "rules-web-page"
    assert [(r.kind, r.number or r.parent, r.text[:24]) for r in doc.records] == [
        ("rule", "702.19", "Travolgere"),
        ("rule", "702.19a", "Travolgere è un'abilità "),
        ("rule", "702.19b", "Il controllore di una cr"),
        ("example", "702.19b", "Esempio: Una creatura 6/"),
    ]
    assert not doc.warnings


@pytest.mark.shared_data
def test_a_small_page_of_current_numbers_is_aligned_by_them(
    shared_data: Path, home: Path, tmp_path: Path
) -> None:
    """A French page of 702.19a and 702.19b beside English 2026-08-07: too few rules to prove an
    old numbering, so its printed numbers stand (content alignment put 702.19b beside 702.19g,
    "0.38 uncertain")."""
    import json

    page = (
        "<html><body><h1>Règle 702.19 · Piétinement</h1>"
        "<p><b>702.19a</b> Le piétinement est une capacité statique qui modifie les règles "
        "d'attribution des blessures de combat d'une créature attaquante.</p>"
        "<p><b>702.19b</b> Le contrôleur d'une créature attaquante avec le piétinement "
        "attribue d'abord les blessures aux créatures qui la bloquent.</p></body></html>"
    )
    (tmp_path / "regle.html").write_text(page, encoding="utf-8")
    english = shared_data / "cr" / "en" / "MagicCompRules-20260807.txt"
    added = CliRunner().invoke(cli, ["add", str(english), str(tmp_path / "regle.html")])
    assert added.exit_code == 0
    result = CliRunner().invoke(cli, ["show", "702.19b", "--json"])
    french = [r for r in json.loads(result.stdout)["results"][0]["records"] if r["lang"] == "fr"]
    assert [(r["number"], r["align"]["method"]) for r in french] == [("702.19b", "number")]


def test_forum_quote_and_reply_chrome_is_dropped():
    """'Citation de …:', 'Re: …' and 'Répondre' lines inside a thread are not rule text."""
    text = (
        "12 messages · 300 vues\n"
        '205.4b. Un terrain avec le sur-type "de base" est un terrain de base.\n'
        "Citation de Marco :\n"
        "205.4c. Un permanent avec le sur-type légendaire est soumis à la règle des légendes.\n"
        "Re: Ligne de type\n"
        "Répondre\n"
        '205.4d. Un permanent avec le sur-type "du Monde" est soumis à la règle des mondes.\n'
        "Règles du forum\n"
    )
    doc = ingest_bytes(text.encode("utf-8"), "forum.txt")
    assert doc.layout == "forum-copy"
    assert next(r.text for r in doc.records if r.number == "205.4c").endswith(
        "la règle des légendes."
    )
    why = reasons(doc)
    assert why["Citation de Marco :"] == why["Re: Ligne de type"] == "boilerplate: forum chrome"
    assert why["Répondre"] == "boilerplate: forum chrome"


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x01\x00", "binary data"),
        (b"%PDF-1.4\n%broken\n", "unreadable PDF"),
        (b"a" * 5_000_000, "line 1 is 5,000,000 characters long"),
        (b"   \n\n  ", "the file is empty"),
    ],
)
def test_bad_files_are_refused_in_one_line(tmp_path: Path, content: bytes, reason: str, home: Path):
    """Images, broken PDFs, a 5 MB single line, blank files: exit 1, one line, library intact."""
    path = tmp_path / "cattivo.bin"
    path.write_bytes(content)
    good = tmp_path / "buono.txt"
    good.write_text(
        "- 205.1. La riga del tipo è stampata direttamente sotto l'illustrazione.\n"
        "- 205.2. Tipi di carta\n- 205.2c Le pedine hanno tipi di carta anche se non sono carte.\n",
        encoding="utf-8",
    )
    result = CliRunner().invoke(cli, catch_exceptions=False, args=["add", str(path), str(good)])
    assert result.exit_code == 1
    assert (
        result.stderr.count("\n") == 1
        and "cattivo.bin" in result.stderr
        and reason in result.stderr
    )
    assert [p.name for p in (home / "documents").iterdir()] == ["buono.txt"]


def test_markdown_copy():
    """'## 205.4 Supertipi', '**205.4a** …', '> Esempio: …' as a wiki or notes app writes them."""
    text = (
        "# Appunti per l'esame da giudice\n\n"
        "## 205.4 Supertipi\n\n"
        "**205.4a** Un oggetto può avere uno o più supertipi. I supertipi sono: base, leggendario, "
        "In corso, neve e mondo.\n\n"
        '**205.4d** Ogni permanente con il supertipo "leggendario" è soggetto all\'azione '
        "generata dallo stato per i permanenti leggendari (vedi regola 704.5j).\n\n"
        "> Esempio: Una terra leggendaria su cui ha effetto questa abilità è ancora leggendaria.\n"
    )
    doc = ingest_bytes(text.encode("utf-8"), "appunti.md")
    assert [(r.kind, r.number or r.parent) for r in doc.records] == [
        ("rule", "205.4"),
        ("rule", "205.4a"),
        ("rule", "205.4d"),
        ("example", "205.4d"),
    ]
    assert doc.records[2].text.startswith('Ogni permanente con il supertipo "leggendario"')
    assert reasons(doc)["# Appunti per l'esame da giudice"] == "metadata: document header"


def test_one_rule_per_line_after_its_rule_word():
    """'Regola 205.4d: text' lines: each heading carries its rule's text."""
    text = (
        'Regola 205.4c: Qualsiasi terra con il supertipo "base" è una terra base.\n'
        'Regola 205.4d: Ogni permanente con il supertipo "leggendario" è soggetto all\'azione '
        "generata dallo stato per i permanenti leggendari.\n"
        'Regola 205.4f: Ogni permanente con il supertipo "mondo" è soggetto alla regola '
        "dei mondi.\n"
    )
    doc = ingest_bytes(text.encode("utf-8"), "regole.txt")
    assert [(r.number, r.lines) for r in doc.records] == [
        ("205.4c", (1, 1)),
        ("205.4d", (2, 2)),
        ("205.4f", (3, 3)),
    ]
    assert (
        doc.records[2].text
        == 'Ogni permanente con il supertipo "mondo" è soggetto alla regola dei mondi.'
    )


def test_bracketed_and_colon_numbers_and_bbcode_quotes():
    """'[205.4b] …', '205.4c: …' and [quote] lines of a forum post."""
    text = (
        "Re: supertipi · 3 risposte\n"
        '[quote="Marco"]\n'
        "[205.4b] Il supertipo di un oggetto è indipendente dal suo tipo di carta e sottotipo.\n"
        "[/quote]\n"
        '205.4c: Qualsiasi terra con il supertipo "base" è una terra base.\n'
    )
    doc = ingest_bytes(text.encode("utf-8"), "thread.txt")
    assert doc.layout == "forum-copy"
    assert [r.number for r in doc.records] == ["205.4b", "205.4c"]
    assert doc.records[0].text.startswith("Il supertipo di un oggetto")
    why = reasons(doc)
    assert why['[quote="Marco"]'] == why["[/quote]"] == "boilerplate: forum chrome"


def test_translated_comprehensive_rules_layout():
    """A translated CR as Wizards publishes it: title, date, contents, chapters, glossary."""
    text = (
        "Regole Complete di Magic: The Gathering\n\n"
        "Queste regole sono in vigore dal 8 novembre 2024.\n\n"
        "Sommario\n\n1. Concetti di gioco\n100. Generale\nGlossario\nCrediti\n\n"
        "1. Concetti di gioco\n\n100. Generale\n\n"
        "100.1. Queste regole di Magic si applicano a ogni partita con due o più giocatori.\n\n"
        "100.1a Una partita a due giocatori è una partita che inizia con solo due giocatori.\n\n"
        "Glossario\n\nAbbandonare\nGirare a faccia in giù un intrigo in corso.\n\n"
        "Crediti\n\nProgettazione originale del gioco: Richard Garfield\n"
    )
    doc = ingest_bytes(text.encode("utf-8"), "regole-complete.txt")
    assert (doc.lang, doc.layout, doc.edition) == ("it", "comprehensive-rules", "2024-11-08")
    assert [(r.kind, r.number or r.key) for r in doc.records] == [
        ("rule", "1"),
        ("rule", "100"),
        ("rule", "100.1"),
        ("rule", "100.1a"),
        ("glossary", "Abbandonare"),
    ]
    assert reasons(doc)["Sommario"] == "table of contents"
