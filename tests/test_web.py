"""The web app and its JSON API (`mtgrules serve`), through Starlette's test client: the API
answers with exactly the CLI's --json, errors are JSON with the status that fits, every text
is escaped, and nothing but reading is exposed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from starlette.testclient import TestClient

from search.cli import cli
from search.web.app import create_app


def cli_json(*args: str) -> dict:
    result = CliRunner().invoke(cli, catch_exceptions=False, args=[*args, "--json"])
    return json.loads(result.stdout)


@pytest.fixture
def client(home: Path) -> TestClient:
    assert CliRunner().invoke(cli, catch_exceptions=False, args=["index"]).exit_code == 0
    return TestClient(create_app(home))


@pytest.mark.parametrize(
    ("url", "command"),
    [
        ("/api/search?q=regola+delle+leggende", ("search", "regola delle leggende")),
        (
            "/api/search?q=tipo&lang=it&kind=rule&limit=3",
            ("search", "tipo", "--lang", "it", "--kind", "rule", "--limit", "3"),
        ),
        ("/api/show/205.4d", ("show", "205.4d")),
        ("/api/show/205.4?lang=it", ("show", "205.4", "--lang", "it")),
        ("/api/term/leggendario", ("term", "leggendario")),
        ("/api/term?q=leggendario", ("term", "leggendario")),  # as the term page's form asks
        ("/api/sources", ("sources",)),
    ],
)
def test_the_api_answers_what_json_prints(client: TestClient, url: str, command: tuple[str, ...]):
    """The same shapes and values as the command's --json, from the same code."""
    response = client.get(url)
    assert response.status_code == 200
    assert response.json() == cli_json(*command)


def test_errors_are_json_with_their_status(client: TestClient):
    """A malformed query is 400, an unknown rule 404, with the CLI's message (its fix a request)."""
    response = client.get("/api/search", params={"q": 'regola "aperta'})
    assert response.status_code == 400 and "unbalanced quote" in response.json()["error"]
    response = client.get("/api/show/999.9")
    assert response.status_code == 404
    assert response.json() == {
        "error": "no rule 999.9 in the library (`/api/sources` lists its documents and editions)"
    }
    assert client.get("/api/search", params={"q": "x" * 501}).status_code == 400
    assert client.get("/api/search", params={"q": "tipo", "limit": "1000"}).status_code == 400
    assert client.get("/rule/999.9").status_code == 404
    # An empty rule is no rule, not every rule of the library.
    assert client.get("/api/show/").status_code == 400
    assert client.get("/api/show/").json()["error"].startswith("no rule given; give a number")
    assert client.get("/rule/").status_code == 400
    # A language to show that the language filter leaves out: not "no English text for 205.4d".
    for url in ("/", "/api/search", "/rule/205.4d"):
        params = {"q": "205.4d", "lang": "it", "show": "en"}
        assert client.get(url, params=params).status_code == 400, url


def test_pages_escape_every_text_and_link_cited_rules(
    client: TestClient, home: Path, tmp_path: Path
):
    """A rule whose text holds <script> renders as text; cited rules the library has are
    links; the search page marks the matched words; headers forbid inline script."""
    from conftest import IT, seed

    path = tmp_path / "copia.txt"
    path.write_bytes(
        seed(IT) + b"\n- 205.9. Vedi regola 205.4d <script>alert(1)</script> e 999.9z.\n"
    )
    assert CliRunner().invoke(cli, catch_exceptions=False, args=["add", str(path)]).exit_code == 0
    assert CliRunner().invoke(cli, catch_exceptions=False, args=["index"]).exit_code == 0
    client = TestClient(create_app(home))
    page = client.get("/rule/205.9")
    assert page.status_code == 200
    assert "<script>alert" not in page.text and "&lt;script&gt;alert(1)&lt;/script&gt;" in page.text
    assert (
        '<a href="/rule/205.4d">205.4d</a>' in page.text
        and '<a href="/rule/999.9z">' not in page.text
    )
    assert "<title>205.9 — mtgrules</title>" in page.text
    assert "script-src 'self'" in page.headers["content-security-policy"]
    assert page.headers["x-content-type-options"] == "nosniff"
    search = client.get("/", params={"q": "regola delle leggende"})
    assert "<mark>" in search.text and 'class="columns"' in search.text


def test_only_reading_is_exposed(client: TestClient):
    """No route changes state: POST, PUT and DELETE are refused; no path reaches a file."""
    for method in ("post", "put", "delete"):
        assert getattr(client, method)("/api/search?q=tipo").status_code == 405
    assert client.get("/static/../../pyproject.toml").status_code == 404


def test_a_rebuilt_index_is_picked_up(client: TestClient, tmp_path: Path):
    """A document added while the server runs: after the rebuild, it answers from it."""
    from conftest import IT, seed

    assert client.get("/api/show/205.9").status_code == 404
    path = tmp_path / "nuova.txt"
    path.write_bytes(seed(IT) + b"\n- 205.9. Una regola nuova di zecca.\n")
    assert CliRunner().invoke(cli, catch_exceptions=False, args=["add", str(path)]).exit_code == 0
    assert CliRunner().invoke(cli, catch_exceptions=False, args=["index"]).exit_code == 0
    assert client.get("/api/show/205.9").status_code == 200


@pytest.mark.shared_data
def test_translators_api_answers_what_json_prints(full: Path):
    """diff, history, stale and check over HTTP: the CLI's --json."""
    client = TestClient(create_app(full))
    pairs = [
        (
            "/api/diff?from=2024-09-20&to=2024-11-08&rule=509",
            ("diff", "--from", "2024-09-20", "--to", "2024-11-08", "509"),
        ),
        ("/api/history/704.5j", ("history", "704.5j")),
        ("/api/stale?lang=it", ("stale", "--lang", "it")),
        ("/api/check?lang=it", ("check", "--lang", "it")),
    ]
    for url, command in pairs:
        response = client.get(url)
        assert response.status_code == 200, url
        printed = cli_json(*command)
        printed.pop("exit_code", None)  # check's problems found: the process's exit, not HTTP's
        assert response.json() == printed, url
    page = client.get("/diff", params={"from": "2024-09-20", "to": "2024-11-08", "rule": "509"})
    assert 'class="change moved-changed"' in page.text
    # Backwards, as `diff` says it: the newer edition first.
    page = client.get("/diff", params={"from": "2024-11-08", "to": "2024-09-20", "rule": "509"})
    assert "(backwards: from the newer edition to the older)</h2>" in page.text


def test_the_icon_browsers_ask_for_is_there(client: TestClient):
    """/favicon.ico (asked by every browser) leads to the icon the pages link: no 404."""
    response = client.get("/favicon.ico")
    assert response.status_code == 200 and response.headers["content-type"] == "image/svg+xml"
    assert '<link rel="icon" href="/static/favicon.svg"' in client.get("/").text
