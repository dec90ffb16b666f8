"""The web app's pages as a judge or a translator uses them: every internal link answers (a
crawl two levels deep), every key has a page, bad parameters are a 400 that says why, every
answer carries the security headers, the home page says what the library holds, and the
pages say what is missing and what changed since a translation's edition."""

from __future__ import annotations

import re
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import pytest
from click.testing import CliRunner
from conftest import copy_home
from starlette.testclient import TestClient

from search.cli import cli
from search.web.app import SECURITY_HEADERS, create_app
from search.web.links import href

SEED_STARTS = [
    "/",
    "/?q=regola+delle+leggende",
    "/?q=tipo+di+carta&lang=it",
    "/?q=l%C3%A9gendaire",
    "/?q=sous-type&show=fr&show=it",
    "/?q=tipo+de+carta",
    "/?q=tipos+de+carta&lang=es",
    "/rule/205.4d",
    "/rule/205.3",
    "/sources",
    "/diff",
    "/diff?lang=it",
    "/term",
    "/term/leggendario",
]


class _Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.links: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        href = dict(attrs).get("href")
        if tag in ("a", "link") and href:
            self.links.append(href)


def crawl(client: TestClient, starts: list[str], depth: int = 2, bound: int = 400) -> dict:
    """url -> status, from `starts` and every internal link `depth` levels down (at most
    `bound` pages: the diff page of two full editions links to hundreds of rules)."""
    seen: dict[str, int] = {}
    frontier = list(starts)
    for _ in range(depth + 1):
        following: list[str] = []
        for url in frontier:
            if url in seen or len(seen) >= bound:
                continue
            response = client.get(url)
            seen[url] = response.status_code
            if "text/html" in response.headers.get("content-type", ""):
                parser = _Links()
                parser.feed(response.text)
                for link in parser.links:
                    split = urlsplit(urljoin("http://testserver" + url, link))
                    if split.netloc == "testserver":
                        following.append(split.path + ("?" + split.query if split.query else ""))
        frontier = following
    return seen


@pytest.fixture
def client(home: Path) -> TestClient:
    assert CliRunner().invoke(cli, ["index"]).exit_code == 0
    return TestClient(create_app(home), raise_server_exceptions=False)


def test_every_internal_link_answers(client: TestClient):
    """From the home page, searches in each language, a rule, sources, diff and term pages,
    every internal link two levels deep answers 200."""
    seen = crawl(client, SEED_STARTS)
    broken = {url: status for url, status in seen.items() if status != 200}
    assert not broken
    assert any(url.startswith("/rule/Station") for url in seen)
    assert any("%40" in url for url in seen)  # a translation's own key, 205.2c@FILE


def test_the_language_filters_are_the_librarys_languages(client: TestClient):
    """A search page's filters offer the languages the library has documents in (the seeds:
    no Portuguese), and a language asked for that it lacks stays ticked, to be unticked."""
    boxes = re.findall(r'name="lang" value="(\w+)"', client.get("/", params={"q": "trample"}).text)
    assert "it" in boxes and "fr" in boxes and "es" in boxes and "pt" not in boxes
    asked = client.get("/", params={"q": "trample", "lang": "pt"}).text
    assert 'name="lang" value="pt" checked' in asked


def test_every_key_has_a_page(client: TestClient):
    """A mechanic and a translation's own key open pages of their own, with their text."""
    station = client.get("/rule/Station")
    assert station.status_code == 200 and "<h1>Station</h1>" in station.text
    assert 'lang="it"' in station.text
    own = client.get(href("rule", "205.2c@001_1dd839522fb4465e.txt"))
    assert own.status_code == 200 and 'lang="fr"' in own.text
    assert client.get("/rule/Nessuna%20Voce").status_code == 400


def test_a_rule_page_names_the_number_as_the_rules_print_it(client: TestClient):
    """/rule/regla%20205.4D is the page of 205.4d, titled so: nothing on it says "regla"."""
    page = client.get(href("rule", "regla 205.4D"))
    assert page.status_code == 200
    assert "<title>205.4d — mtgrules</title>" in page.text and "regla" not in page.text.lower()


def test_links_escape_what_they_must():
    """A slash, a space, an @ or a ? in a key stays in the key; empty parameters vanish."""
    assert href("term", "Exilio / Exiliar") == "/term/Exilio%20%2F%20Exiliar"
    assert href("rule", "205.2c@001_x.txt") == "/rule/205.2c%40001_x.txt"
    assert href("rule", "a?b#c") == "/rule/a%3Fb%23c"
    assert href("diff", from_="2025-11-14", to="2026-08-07", rule=None) == (
        "/diff?from=2025-11-14&to=2026-08-07"
    )
    assert href("", q="régle de légende") == "/?q=r%C3%A9gle+de+l%C3%A9gende"


def test_a_key_with_a_slash_reaches_its_page(client: TestClient):
    """/term/Exilio%20%2F%20Exiliar is the term page of "Exilio / Exiliar", not a 404 of no
    route."""
    page = client.get(href("term", "Exilio / Exiliar"))
    assert page.status_code == 404
    assert "“Exilio / Exiliar” is not in the term base" in page.text


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("/?q=tipo&limit=%C2%B2", "limit: a whole number from 1 to 50"),
        ("/?q=tipo&limit=" + "9" * 5000, "limit: a whole number from 1 to 50"),
        ("/api/search?q=tipo&limit=%C2%B2", "limit: a whole number from 1 to 50"),
        ("/rule/205.4?show=zz", "show: unknown language"),
        ("/api/show/205.4?show=zz", "show: unknown language"),
        ("/?q=tipo&lang=zz", "unknown language"),
        ("/api/search?q=tipo&lang=", "lang: no language given; valid:"),
        ("/api/show/205.4?lang=", "lang: no language given; valid:"),
        ("/?q=tipo&kind=nope", "unknown kind"),
        ("/rule/205.4?edition=someday", "edition:"),
        ("/diff?lang=zz", "lang: one of"),
        ("/stale?lang=es,it", "lang: one at a time here (`/api/stale` takes several)"),
    ],
)
def test_bad_parameters_are_400_with_a_message(client: TestClient, url: str, message: str):
    """A malformed parameter is a 400 that says which and how to write it, page or API."""
    response = client.get(url)
    assert response.status_code == 400
    assert message in response.text
    assert (
        response.headers["content-security-policy"] == SECURITY_HEADERS["Content-Security-Policy"]
    )


def test_every_answer_carries_the_security_headers(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
):
    """200s, 404s of no route, 405s and a 500 of a fault all carry the headers; the 500 says
    nothing of the internals."""
    from search import payloads

    def broken(*_: object) -> None:
        raise RuntimeError("secret internals")

    monkeypatch.setattr(payloads, "sources", broken)
    answers = [
        client.get("/"),
        client.get("/nowhere"),
        client.get("/api/nowhere"),
        client.post("/"),
        client.get("/sources"),
        client.get("/api/sources"),
    ]
    assert [a.status_code for a in answers] == [200, 404, 404, 405, 500, 500]
    for answer in answers:
        for name, value in SECURITY_HEADERS.items():
            assert answer.headers[name] == value
    assert "secret internals" not in answers[4].text + answers[5].text
    assert answers[2].json() == {
        "error": "no such page; start from the search box or the home page"
    }


def test_the_filters_form_keeps_what_it_has_no_box_for(client: TestClient):
    """`show=` and `limit=` (asked in the address, no box in the form) are kept through "Apply
    filters" and said in its summary: the form dropped them."""
    page = client.get("/", params={"q": "leggendario", "show": "it", "limit": "3"}).text
    form = page[page.index('<details class="filters"') :]
    assert "<summary>Filters: show=it, limit=3</summary>" in form
    assert '<input type="hidden" name="show" value="it">' in form
    assert '<input type="hidden" name="limit" value="3">' in form


def test_the_sources_page_lists_every_document(client: TestClient):
    """/sources (the 500 of issue 27) lists each seed document with its records."""
    from conftest import ES, FR, IT

    page = client.get("/sources")
    assert page.status_code == 200
    assert all(f"<h2>{name}</h2>" in page.text for name in (IT, FR, ES))


def test_the_home_page_orients(client: TestClient):
    """The home page says what the library holds per language, offers searches in each of
    them and links to the diff, term and sources pages."""
    page = client.get("/").text
    assert re.search(r"<th scope=\"row\">Français</th>\s*<td>1</td>\s*<td>undated</td>", page)
    assert '<td lang="en">section 205' in page
    assert 'href="/?q=regola+delle+leggende"' in page and 'href="/?q=l%C3%A9gendaire"' in page
    assert all(f'href="/{name}"' in page for name in ("diff", "term", "sources"))
    assert 'href="/?q=legend+rule"' not in page  # no English document: no English examples


def test_a_page_says_which_language_is_missing(client: TestClient):
    """A rule with no Spanish text in a section the Spanish documents translate says they leave
    it out (outside it: what they cover); a search that asks for Spanish says so under each
    result without it; a language with no document at all is named as such."""
    rule = client.get("/rule/205.4d").text
    assert (
        "no Spanish text for 205.4d in this library, though its section 205 is translated: the"
        " Spanish documents leave this rule out" in rule
    )
    assert "no English text for 205.4d: this library has no English document" in rule
    search = client.get("/?q=tipo+di+carta&show=it&show=es").text
    assert "no Spanish text for 205.2a in this library, though its section 205" in search


def test_the_diff_page_defaults_to_the_two_newest_editions(client: TestClient, tmp_path: Path):
    """With no parameters, /diff compares the two newest editions of the language; with a
    single edition it says a diff needs two."""
    english = client.get("/diff")
    assert english.status_code == 200 and "no English editions; a diff needs two" in (english.text)
    italian = client.get("/diff?lang=it")
    assert italian.status_code == 200 and "a diff needs two" in italian.text


def test_serve_with_workers_answers(home: Path):
    """`serve --workers 2`: two processes over one build answer the pages and the API."""
    assert CliRunner().invoke(cli, ["index"]).exit_code == 0
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    mtgrules = Path(sys.executable).parent / "mtgrules"
    server = subprocess.Popen(
        [str(mtgrules), "serve", "--port", str(port), "--workers", "2"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )  # fmt: skip
    try:
        answers = list(_get_when_up(f"http://127.0.0.1:{port}", ["/", "/api/show/205.4d"]))
    finally:
        server.terminate()
        output = server.communicate(timeout=30)[0]
    assert answers == [200, 200]
    assert "with 2 worker processes" in output


def _get_when_up(base: str, paths: list[str]) -> Iterator[int]:
    deadline = time.monotonic() + 60
    while True:
        try:
            urllib.request.urlopen(base + "/", timeout=5).read()
            break
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)
    for path in paths:
        with urllib.request.urlopen(base + path, timeout=10) as response:
            yield response.status


@pytest.fixture(scope="module")
def event_library(tmp_path_factory: pytest.TempPathFactory, renumbering_library: Path) -> Path:
    """The seeds, English 2024-11-08, 2025-11-14 and 2026-08-07, and the Spanish CR (which
    follows 2025-11-14; 310.8 became 310.9 in 2026-08-07): this module's copy of the session's."""
    return copy_home(renumbering_library, tmp_path_factory.mktemp("event"))


@pytest.fixture
def event(event_library: Path, monkeypatch: pytest.MonkeyPatch) -> TestClient:
    monkeypatch.setenv("MTGRULES_HOME", str(event_library))
    return TestClient(create_app(event_library), raise_server_exceptions=False)


@pytest.mark.shared_data
def test_every_link_answers_on_three_editions_and_spanish(event: TestClient):
    """The crawl over full editions: searches in English and Spanish, a renumbered rule, a
    glossary entry, the diff, a history and a term page; every answer 200 (bounded)."""
    starts = [
        "/", "/?q=legend+rule", "/?q=regla+de+leyendas", "/?q=deathtouch&show=fr",
        "/rule/310.8", "/rule/Legend%20Rule", "/diff", "/history/704.5j", "/term/legendary",
        "/sources",
    ]  # fmt: skip
    seen = crawl(event, starts, bound=300)
    assert {url: s for url, s in seen.items() if s != 200} == {}


@pytest.mark.shared_data
def test_a_renumbered_rule_is_a_move_for_its_translation(event: TestClient):
    """The Spanish 310.8 sits under its rule's current key (issue 22), 310.9: there the banner
    names the edition the Spanish CR follows and says the rule moved to 310.9, its text
    unchanged, without a word diff of two unrelated rules."""
    page = event.get("/rule/310.9").text
    banner = page[page.index('<p class="stale"') :]
    banner = banner[: banner.index("</p>")]
    assert "Spanish (magic_rules_clean.pdf) follows English 2025-11-14" in banner
    assert 'moved to <a href="/rule/310.9">310.9</a></strong>, its text unchanged.' in banner
    assert "<del>" not in banner and "[-" not in banner
    assert 'href="/diff?from=2025-11-14&amp;to=2026-08-07&amp;rule=310.9&amp;numbering=to"' in page


@pytest.mark.shared_data
def test_a_rule_newer_than_a_translations_edition_is_not_said_left_out(event: TestClient):
    """/rule/122.1j (hone counters, new in English 2026-08-07): the Spanish CR follows
    2025-11-14 and could not have it; the page said "the Spanish documents leave this rule
    out", as of a rule a translator skipped. One older than the edition followed still says
    so."""
    page = " ".join(re.sub(r"<[^>]+>", "", event.get("/rule/122.1j").text).split())
    assert (
        "no Spanish text for 122.1j: English added it in 2026-08-07, after the edition the"
        " Spanish documents follow (2025-11-14)"
    ) in page
    assert "leave this rule out" not in page


@pytest.mark.shared_data
def test_a_number_a_translation_prints_for_another_rule_says_where_it_is(event: TestClient):
    """`310.8` is today's 310.8, and a translator who typed their Spanish document's 310.8 is
    told that rule is 310.9 now (the page said nothing)."""
    note = event.get("/api/search", params={"q": "310.8"}).json()["note"]
    assert note == "the Spanish text (following English 2025-11-14) numbers 310.8 what is 310.9 now"
    page = re.sub(r"<[^>]+>", "", event.get("/", params={"q": "310.8"}).text)
    assert f"The {note[4:]}." in " ".join(page.split())  # as a sentence


@pytest.mark.shared_data
def test_a_history_links_an_old_number_to_its_editions_rule(event: TestClient):
    """/history/310.9: its number before the move, 310.8, links to the rule an older edition
    printed so, not to today's 310.8, another rule; today's number links as it is."""
    page = event.get("/history/310.9").text
    assert re.search(r'<a href="/rule/310\.8\?edition=20\d\d-\d\d-\d\d">310\.8</a> → ', page)
    assert '<a href="/rule/310.9">310.9</a>' in page


@pytest.mark.shared_data
def test_the_diff_page_reads_as_a_translator_needs(event: TestClient):
    """/diff compares the two newest English editions by default, marks words with <ins> and
    <del> (never the terminal's markup), shows 310.8 -> 310.9 as a move, links rules."""
    page = event.get("/diff").text
    assert "<option selected>2025-11-14</option>" in page.split('name="to"')[0]
    assert "<option selected>2026-08-07</option>" in page.split('name="to"')[1]
    assert "<ins>" in page and "<del>" in page and "{+" not in page and "[-" not in page
    move = re.search(r'<span class="from">310\.8</span> → <a href="/rule/310\.9">310\.9</a>', page)
    assert move is not None
    one = event.get("/diff?from=2024-11-08&to=2026-08-07&rule=704.5j")
    assert one.status_code == 200 and "English 2024-11-08 → 2026-08-07, 704.5j" in one.text


@pytest.mark.shared_data
def test_full_library_pages_say_what_is_missing(event: TestClient):
    """704.5j has no French text: the French documents (the seed) cover section 205; a
    glossary entry has a page with its Spanish counterpart."""
    page = event.get("/rule/704.5j").text
    assert (
        "no French text for 704.5j in this library: the French documents cover section 205" in page
    )
    assert 'href="/rule/704.5j"' in page and "What changed in this rule" in page
    glossary = event.get(href("rule", "Legend Rule"))
    assert glossary.status_code == 200 and "Regla de leyendas" in glossary.text
    home = event.get("/").text
    assert "Newest English Comprehensive Rules: <strong>2026-08-07</strong>" in home
    # English counts are the newest edition's (MagicCompRules-20260807.txt), not three summed.
    assert "; 277 examples; 739 glossary entries (in 2026-08-07)</td>" in home


@pytest.mark.shared_data
def test_an_undated_translation_follows_one_edition_on_every_page(shared_data: Path, home: Path):
    """The French seed is undated: beside English 2020-11-20 and 2026-08-07 every rule page says
    it follows the edition `stale` compares it from, whether a rule on the page changed or not
    (205.4d's page said "2026-08-07, the newest", 205.2a's "2020-11-20")."""
    from click.testing import CliRunner

    from search.cli import cli

    editions = [shared_data / "cr/pt/MagicCompRules-20201120.txt"]
    editions.append(shared_data / "cr/en/MagicCompRules-20260807.txt")
    added = CliRunner().invoke(cli, ["add", *map(str, editions)], catch_exceptions=False)
    assert added.exit_code == 0, added.output
    assert CliRunner().invoke(cli, ["index"], catch_exceptions=False).exit_code == 0
    said = set()
    client = TestClient(create_app(home))
    for rule in ("205.4d", "205.2a", "205.4a"):
        text = re.sub(r"<[^>]+>", "", client.get(f"/rule/{rule}").text)
        said |= set(
            re.findall(r"French \(001_1dd839522fb4465e\.txt\) follows English [^.;:]*", text)
        )
    assert said == {"French (001_1dd839522fb4465e.txt) follows English 2020-11-20"}


def test_a_messages_command_line_fix_is_said_in_the_pages_words():
    """A payload's message on a page: its options become the controls that set them, its
    commands links to the pages that do them (escaped), a command with no page stays code."""
    from search.web.advice import for_web

    assert str(for_web("show it without --lang or with --lang en")) == (
        "show it with no language ticked or with English ticked"
    )
    assert str(for_web("show it without --lang or with --lang en,es")) == (
        "show it with no language ticked or with English and Español ticked"
    )
    assert str(for_web("no rule 999 <b>; try `mtgrules search 999`")) == (
        'no rule 999 &lt;b&gt;; try <a href="/?q=999">search for “999”</a>'
    )
    assert str(for_web("its chapter MTR 3 (`mtgrules show 'MTR 3'`)")) == (
        'its chapter MTR 3 (<a href="/doc/mtr/3">MTR 3</a>)'
    )
    assert str(for_web("--from 2025-11-14: `mtgrules stale --lang es`")) == (
        'From 2025-11-14: <a href="/stale?lang=es">the stale translations page</a>'
    )
    assert str(for_web("MTR 3.1 does: search without --doc")) == (
        "MTR 3.1 does: search with no document ticked"
    )
    assert str(for_web("add it: `mtgrules add FILE`")) == "add it: <code>mtgrules add FILE</code>"
    assert str(for_web("no IPG 9.9 in any loaded edition; see `mtgrules sources`")) == (
        'no IPG 9.9 in any loaded edition; see <a href="/sources">the sources page</a>'
    )
    # Options a page sets in its address or its boxes, said so (it read "--show es asks for what
    # Italiano ticked leaves out; add es to --lang").
    assert str(for_web("--show es asks for what --lang it,fr leaves out; add es to --lang, or "
                       "leave --show out")) == (
        "show=es asks for what Italiano and Français ticked leaves out; tick Español, or take "
        "show= out of the address"
    )  # fmt: skip
    # A date still to choose is the page's picker, not "from=DATE" (a 400); the part is kept.
    assert str(for_web("`mtgrules diff --doc mtr --from DATE --to DATE 'MTR 3.13'`")) == (
        '<a href="/diff?doc=mtr&amp;rule=MTR+3.13">the diff page</a>'
    )


def test_the_api_says_nothing_found_as_the_command_line_does(client: TestClient):
    """/api/search with no result gives the `error` `search --json` gives; /api/term of a word
    the term base lacks is a 404, as its page; a term of no word or too long is a 400."""
    found = client.get("/api/search", params={"q": "zzqqxx"})
    assert found.status_code == 200
    assert (
        found.json()["error"]
        == "no rules match 'zzqqxx'; check its spelling, or ask in other words"
    )
    assert client.get("/api/term/zzqqxx").status_code == 404
    assert client.get("/api/term/zzqqxx").json() == {"error": "'zzqqxx' is not in the term base"}
    assert client.get("/api/term/!!!").status_code == 400
    assert client.get("/api/term/" + "a" * 600).status_code == 400


def test_the_home_page_refuses_a_bad_parameter_without_a_query(client: TestClient):
    """`/?q=&limit=abc` is a 400 naming limit (it was the home page, the parameter ignored)."""
    answer = client.get("/?q=&limit=abc")
    assert answer.status_code == 400 and "limit: a whole number from 1 to" in answer.text
    assert client.get("/?limit=5").status_code == 200


def test_the_apis_errors_name_parameters_and_requests(client: TestClient):
    """An API error says its fix for a script: parameters (lang=, from=), requests
    (/api/search?q=…), not the command line's options and commands; bad values of against=,
    lang= (given empty), from= and numbering= are 400s as their options are."""
    shown = client.get("/api/show/999.9z").json()["error"]
    assert (
        shown == "no rule 999.9z in the library (`/api/sources` lists its documents and editions)"
    )
    assert (
        client.get("/api/show/205.4d?lang=en")
        .json()["error"]
        .endswith("show it without lang= or with lang=it,fr")
    )
    for url, said in (
        ("/api/check?against=xx", "against: only the English rules are a reference (en)"),
        ("/api/check?lang=", "lang: no language given; valid: it, fr, es, pt, en"),
        ("/api/diff?from=2025-13-01&to=latest", "'2025-13-01' for from= is not a date;"),
        ("/api/diff?from=2025-11-14&to=latest&numbering=foo", "numbering: to (the edition"),
    ):
        answer = client.get(url)
        assert answer.status_code == 400 and answer.json()["error"].startswith(said), url
