"""Faults, round three, done for real: two adds at once, damage under a running server, idle
sockets under a small open-file limit, endless and hostile inputs, a closed pipe, a full disk,
an 8-bit terminal, a read-only home, odd terminal widths, hostile Host headers. Nothing lost,
nothing damaged served, one line for every failure."""

from __future__ import annotations

import json
import os
import pty
import re
import resource
import select
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import IT, ROOT, seed
from pdf_maker import tall_page_pdf

from corpus import library, paths
from indexer.store import read_current
from search.cli import cli

MTGRULES = [sys.executable, "-c", "from search.cli import main; main()"]
RULE = "- 205.9. Ogni permanente nevoso è soggetto alla regola della neve.\n"


def run(*args: str, env: dict[str, str] | None = None) -> tuple[int, str, str]:
    result = CliRunner(env=env).invoke(
        cli, catch_exceptions=False, args=list(args), prog_name="mtgrules"
    )
    assert "Traceback" not in result.stderr and "Traceback" not in result.stdout
    return result.exit_code, result.stdout, result.stderr


def mtgrules(*args: str, **options: object) -> subprocess.CompletedProcess[bytes]:
    """The command in its own process (a real stdout, a real exit code)."""
    if "stdout" not in options and "stderr" not in options:
        options["capture_output"] = True
    done = subprocess.run([*MTGRULES, *args], cwd=ROOT, timeout=300, **options)  # type: ignore[call-overload]
    assert b"Traceback" not in (done.stderr or b"")
    return done


# --- data loss ----------------------------------------------------------------------------------


def test_two_adds_at_once_of_one_name_keep_both_documents(home: Path, tmp_path: Path):
    """Two processes add a/regole.txt and b/regole.txt at the same moment, three times over:
    each says where it kept its file, and both files are in the library, whole."""
    for trial in range(3):
        files = []
        for folder in ("a", "b"):
            path = tmp_path / f"{trial}{folder}" / "regole.txt"
            path.parent.mkdir()
            path.write_bytes(seed(IT) + RULE.replace("neve", f"neve {trial}{folder}").encode())
            files.append(path)
        adds = [
            subprocess.Popen([*MTGRULES, "add", str(p)], cwd=ROOT, stdout=subprocess.PIPE)
            for p in files
        ]
        outputs = [add.communicate(timeout=300)[0].decode() for add in adds]
        assert [add.returncode for add in adds] == [0, 0]
        kept = {re.search(r"added as (\S+) ", out)[1] for out in outputs}  # type: ignore[index]
        assert len(kept) == 2
        stored = {(paths.documents(home) / name).read_bytes() for name in kept}
        assert stored == {p.read_bytes() for p in files}


def test_threads_adding_one_name_at_once_lose_nothing(home: Path):
    """Twenty-five rounds of two threads storing two documents of one name at once (the race
    `exists()` then rename lost one of them in up to half the rounds): every one is kept."""
    datas = []
    for trial in range(25):
        pair = [seed(IT) + RULE.replace("neve", f"neve {trial}{s}").encode() for s in "ab"]
        barrier = threading.Barrier(2)

        def add(data: bytes, barrier: threading.Barrier = barrier) -> None:
            barrier.wait()
            library.add_document(home, data, "regole.txt", known=set())

        threads = [threading.Thread(target=add, args=(data,)) for data in pair]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(60)
        datas += pair
    kept = {p.read_bytes() for p in library.document_paths(home)}
    assert kept == set(datas) and len(library.document_paths(home)) == 50


# --- damage served ------------------------------------------------------------------------------


@contextmanager
def serving(home: Path, files: int | None = None) -> Iterator[str]:
    """`mtgrules serve --port 0` in its own process (under an open-file limit of `files`):
    its address. Its stdout is a pipe nobody reads after the first line."""

    def limit() -> None:
        if files:
            resource.setrlimit(resource.RLIMIT_NOFILE, (files, files))

    errors = (home.parent / "serve.err").open("wb")
    server = subprocess.Popen(
        [*MTGRULES, "serve", "--port", "0"],
        cwd=ROOT,
        env={**os.environ, "MTGRULES_HOME": str(home)},
        stdout=subprocess.PIPE,
        stderr=errors,
        preexec_fn=limit,
    )
    try:
        assert server.stdout is not None
        ready, _, _ = select.select([server.stdout], [], [], 300)
        line = server.stdout.readline().decode() if ready else ""
        found = re.search(r"at (http://\S+)/ ", line)
        assert found, (home.parent / "serve.err").read_text()
        yield found[1]
    finally:
        server.terminate()
        try:
            server.wait(30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait(30)
        errors.close()


def get(url: str, host: str | None = None) -> tuple[int, dict[str, str], str]:
    request = urllib.request.Request(url, headers={"Host": host} if host else {})
    try:
        with urllib.request.urlopen(request, timeout=120) as response:
            return (
                response.status,
                {k.lower(): v for k, v in response.headers.items()},
                response.read().decode(),
            )
    except urllib.error.HTTPError as error:
        return error.code, {k.lower(): v for k, v in error.headers.items()}, error.read().decode()


def answered(url: str, rounds: int = 240) -> tuple[int, str]:
    """The answer once the server has rebuilt (503 meanwhile), polled a bounded number of
    times; every answer on the way is a 503 or the right one, never a 404 or a 500."""
    for _ in range(rounds):
        status, _, body = get(url)
        assert status in (200, 503), (status, body)
        if status == 200:
            return status, body
        assert "damaged" in body and "rebuilt" in body
        time.sleep(0.5)
    raise AssertionError(f"{url}: still 503 after {rounds} tries")


def test_a_cut_hand_off_file_is_not_served(home: Path):
    """records.jsonl cut in half, or deleted, before the server reads it: the pages that read
    it answer 503 (the index is being rebuilt), then the right answer; never a 404 or a 500."""
    assert run("index")[0] == 0
    damaged = read_current(home)["dir"]  # type: ignore[index]
    records = paths.records_file(home)
    whole = records.read_bytes()
    records.write_bytes(whole[: len(whole) // 2])
    with serving(home) as url:
        assert get(f"{url}/history/205.4d")[0] == 503  # it read the cut file: 404, no rule
        answered(f"{url}/api/check")
        # The rebuild writes the whole file before it swaps its build in: an answer read
        # meanwhile is the damaged build's, whose records a new build reads again. Wait for
        # the swap (a loaded machine took long enough for that read to happen).
        for _ in range(240):
            if read_current(home)["dir"] != damaged:  # type: ignore[index]
                break
            time.sleep(0.5)
        _, body = answered(f"{url}/api/check")
        assert json.loads(body)["problems"] == []  # and counts (issue 26): none
        records.unlink()
        assert get(f"{url}/api/check")[0] == 200  # read whole once, kept for this build
    with serving(home) as url:
        assert get(f"{url}/history/205.4d")[0] == 503  # it answered 500 (FileNotFoundError)
        assert answered(f"{url}/api/check")[0] == 200


def test_damage_in_the_live_side_store_is_rebuilt_not_served(home: Path):
    """Bytes overwritten in the live versions.sqlite while serving (its time kept, so only the
    failed read tells): show, search and the rule page answer 503, then the rule, as before."""
    assert run("index")[0] == 0
    with serving(home) as url:
        before = get(f"{url}/api/show/205.4d")
        assert before[0] == 200
        store = paths.index_root(home) / read_current(home)["dir"] / "versions.sqlite"  # type: ignore[index]
        stat = store.stat()
        with store.open("r+b") as data:
            data.seek(4096)
            data.write(b"\xff" * 8192)
        os.utime(store, ns=(stat.st_atime_ns, stat.st_mtime_ns))
        for path in ("/api/show/205.4d", "/api/search?q=leggendario", "/rule/205.4d"):
            status, _, _ = get(url + path)
            assert status in (200, 503)
        status, body = answered(f"{url}/api/show/205.4d")
        assert json.loads(body) == json.loads(before[2])
        assert answered(f"{url}/api/search?q=leggendario")[0] == 200


# --- exhaustion ---------------------------------------------------------------------------------


def test_idle_sockets_do_not_starve_the_server(home: Path):
    """Under an open-file limit of 64, 200 connections that send nothing: requests are still
    answered, and the server's log stays short (it logged accept() errors without end)."""
    assert run("index")[0] == 0
    with serving(home, files=64) as url:
        port = int(url.rsplit(":", 1)[1])
        idle = [socket.create_connection(("127.0.0.1", port), timeout=60) for _ in range(200)]
        try:
            for _ in range(5):
                assert get(f"{url}/api/show/205.4d")[0] == 200
        finally:
            for sock in idle:
                sock.close()
    assert (home.parent / "serve.err").stat().st_size < 2000


def test_a_silent_client_is_closed(home: Path):
    """A connection that never sends a request is closed by the server (after 10 s), not kept
    forever; the socket is read with a generous timeout that only prevents hanging."""
    assert run("index")[0] == 0
    with serving(home) as url:
        port = int(url.rsplit(":", 1)[1])
        with socket.create_connection(("127.0.0.1", port), timeout=120) as sock:
            sock.sendall(b"GET /api/show/205.4d HTTP/1.1\r\n")  # a request never finished
            assert sock.recv(1024) == b""  # closed by the server


def test_endless_inputs_are_not_read_to_the_end(home: Path, tmp_path: Path):
    """add /dev/zero, a FIFO: refused in one line at once; an endless file is read no further
    than one byte past the limit."""
    fifo = tmp_path / "regole.txt"
    os.mkfifo(fifo)
    for path in ("/dev/zero", str(fifo)):
        done = mtgrules("add", path, env={**os.environ, "MTGRULES_HOME": str(home)})
        assert done.returncode == 1
        assert done.stderr.decode() == (
            f"error: {path}: not a regular file (a device, pipe or socket); save the document "
            "to a file and add that\n"
        )
    assert len(library.read_bounded(Path("/dev/zero"))) == library.MAX_BYTES + 1


def test_a_tall_pdf_page_is_read_in_linear_time(tmp_path: Path):
    """One PDF page of 4,000 lines (this took 7 s, 16,000 lines 95 s): every line read, in
    order."""
    from corpus.read.pdf_extract import pdf_lines

    lines = [f"100.{n}. Regola numero {n} del regolamento." for n in range(1, 4001)]
    out, dropped = pdf_lines(tall_page_pdf(tmp_path / "alta.pdf", lines).read_bytes())
    assert out == lines and not dropped


def test_huge_repetitive_documents_are_refused_early(home: Path, tmp_path: Path):
    """One rule 100,000 times: refused for its records; 1.15 million empty elements: refused
    for its tags; each in one line. A document that fails is remembered: listing the sources
    again does not parse it again."""
    repeated = tmp_path / "ripetuto.txt"
    repeated.write_text("100.1. Ogni giocatore inizia con venti punti vita.\n" * 100_000)
    empty = tmp_path / "vuoto.html"
    empty.write_text("<html><body>" + "<b></b>" * 575_000 + "</body></html>")
    code, _, err = run("add", str(repeated), str(empty))
    assert code == 1 and err.count("\n") == 2
    assert "ripetuto.txt: 100,000 records, more than a rules document" in err
    assert "vuoto.html: 1,150,004 HTML tags, more than a rules page" in err
    (home / "documents").mkdir(parents=True, exist_ok=True)
    (home / "documents" / "vuoto.html").write_bytes(empty.read_bytes())
    first = library.load(home).failures
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("corpus.read.ingest.ingest_bytes", lambda *a: pytest.fail("parsed again"))
        assert library.load(home).failures == first


def test_a_duplicate_warning_stays_one_short_line(home: Path, tmp_path: Path):
    """A rule numbered 300 times: the warning names ten of its lines and how many more."""
    path = tmp_path / "doppi.txt"
    rule = "Regola copiata numero {}, per ogni giocatore della partita.\n"
    path.write_text("".join(f"- 205.1. {rule.format(n)}" for n in range(300)))
    code, out, _ = run("add", str(path))
    assert code == 0
    (warning,) = [line for line in out.splitlines() if "205.1 is numbered" in line]
    assert warning == (
        "  warning: rule 205.1 is numbered 300 times (lines 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 "
        "and 290 more); all kept"
    )


def test_web_sources_never_write_the_parse_cache(home: Path):
    """A document put in documents/ while serving: the sources page and API list it (a
    failure too) without writing a byte to the parse cache."""
    assert run("index")[0] == 0
    cache = paths.parse_cache(home)
    with serving(home) as url:
        (home / "documents").mkdir(exist_ok=True)
        (home / "documents" / "nuovo.txt").write_bytes(seed(IT) + RULE.encode())
        (home / "documents" / "rotto.txt").write_bytes(b"nothing numbered here\n")
        before = sorted(p.name for p in cache.iterdir())
        for _ in range(2):
            status, _, body = get(f"{url}/api/sources")
            assert status == 200
            payload = json.loads(body)
            assert "nuovo.txt" in {d["source"] for d in payload["documents"]}
            assert any("rotto.txt" in failure for failure in payload["failures"])
            assert get(f"{url}/sources")[0] == 200
        assert sorted(p.name for p in cache.iterdir()) == before


# --- tracebacks instead of one line ------------------------------------------------------------


@pytest.mark.parametrize(
    "command",
    [
        ("search", "leggendario"),
        ("show", "205.4d"),
        ("export",),
        ("sources",),
        ("term", "leggendario"),
        ("search", "leggendario", "--json"),
    ],
)
def test_output_errors_end_in_one_line(home: Path, command: tuple[str, ...]):
    """stdout on a full disk: one line, exit 1; stdout a pipe already closed: nothing said,
    exit 141 (as a shell reports SIGPIPE); stdout closed: one line, exit 1."""
    env = {**os.environ, "MTGRULES_HOME": str(home)}
    assert run("index")[0] == 0
    with open("/dev/full", "wb") as full:
        done = mtgrules(*command, stdout=full, stderr=subprocess.PIPE, env=env)
    assert done.returncode == 1
    assert done.stderr.decode() == (
        "error: cannot write the output (No space left on device); free some space, or write "
        "elsewhere\n"
    )
    reader, writer = os.pipe()
    os.close(reader)
    done = mtgrules(*command, stdout=writer, stderr=subprocess.PIPE, env=env)
    os.close(writer)
    assert (done.returncode, done.stderr) == (141, b"")
    done = subprocess.run(
        f"{' '.join(MTGRULES[:2])} '{MTGRULES[2]}' {' '.join(command)} >&-",
        shell=True, cwd=ROOT, env=env, capture_output=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 1 and done.stderr.decode().count("\n") == 1
    assert done.stderr.startswith(b"error: cannot write the output")


def test_an_eight_bit_terminal_gets_the_nearest_characters(home: Path):
    """PYTHONIOENCODING=latin-1 (an ISO-8859-1 terminal): the rule is printed, its accented
    letters as they are, its typographic apostrophe as ', never a UnicodeEncodeError."""
    env = {**os.environ, "MTGRULES_HOME": str(home), "PYTHONIOENCODING": "latin-1"}
    done = mtgrules("show", "205.1b", env=env)
    assert done.returncode == 0
    text = done.stdout.decode("latin-1")
    assert "prima dell'applicazione dell'effetto" in text and "modalità" not in text
    assert "Alcuni effetti cambiano il tipo di carta" in text and "è" in text


def test_an_eight_bit_terminal_gets_whole_json_and_utf8_exports(home: Path):
    """PYTHONIOENCODING=latin-1: --json escapes what the output cannot encode, so the JSON is
    valid and its text exact ("“" degraded to a bare quote broke it), and an export is UTF-8 as
    its header says (the PO failed msgfmt, the TMX was no XML)."""
    env = {**os.environ, "MTGRULES_HOME": str(home), "PYTHONIOENCODING": "latin-1"}
    done = mtgrules("show", "205.4d", "--json", env=env)
    assert done.returncode == 0
    latin = json.loads(done.stdout.decode("latin-1"))
    done = mtgrules("show", "205.4d", "--json", env={**env, "PYTHONIOENCODING": "utf-8"})
    assert latin == json.loads(done.stdout.decode("utf-8"))
    done = mtgrules("export", "--format", "tmx", env=env)
    assert done.returncode == 0
    units = ET.fromstring(done.stdout).iter("seg")  # well-formed, in UTF-8
    assert any("è" in "".join(seg.itertext()) for seg in units)


def test_remove_on_a_read_only_home_is_one_line(home: Path, tmp_path: Path):
    """remove on a home mounted read-only: one line naming the folder, exit 1; the document
    stays."""
    mount = tmp_path / "ro"
    mount.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "tmpfs", str(mount)], capture_output=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.decode().strip()}")
    try:
        env = {"MTGRULES_HOME": str(mount / "home")}
        document = tmp_path / "regole.txt"
        document.write_bytes(seed(IT) + RULE.encode())
        assert run("add", str(document), env=env)[0] == 0
        subprocess.run(["mount", "-o", "remount,ro", str(mount)], check=True)
        code, out, err = run("remove", "regole.txt", env=env)
        assert code == 1 and out == "" and err.count("\n") == 1
        assert err.startswith(f"error: regole.txt: cannot remove it from {mount}/home/documents")
        assert "Read-only file system" in err
        assert (mount / "home" / "documents" / "regole.txt").exists()
    finally:
        subprocess.run(["umount", "-l", str(mount)], capture_output=True)


def test_a_malformed_media_address_is_one_line():
    """MTGRULES_CR_MEDIA_URL='http://[::1': one line naming the address, exit 1."""
    code, _, err = run("fetch-cr", "2024-11-08", env={"MTGRULES_CR_MEDIA_URL": "http://[::1"})
    assert code == 1 and err.count("\n") == 1
    assert err == (
        "error: 'http://[::1/2024/downloads/MagicCompRules%2020241108.txt' is not a valid "
        "address (Invalid IPv6 URL); check --media-url/--rules-page and "
        "MTGRULES_CR_MEDIA_URL/MTGRULES_CR_RULES_PAGE\n"
    )


# --- wrong or poor answers ----------------------------------------------------------------------


def on_a_terminal(columns: str, *args: str, home: Path) -> str:
    """The command's output on a pseudo-terminal that says it is `columns` wide."""
    leader, follower = pty.openpty()
    env = {**os.environ, "MTGRULES_HOME": str(home), "COLUMNS": columns}
    process = subprocess.Popen([*MTGRULES, *args], cwd=ROOT, env=env, stdout=follower)
    os.close(follower)
    out = b""
    while select.select([leader], [], [], 120)[0]:
        try:
            chunk = os.read(leader, 65536)
        except OSError:
            break
        if not chunk:
            break
        out += chunk
    os.close(leader)
    assert process.wait(120) == 0
    return re.sub(r"\x1b\[[0-9;]*m|[│╭╮╰╯─\s]+", " ", out.decode())


@pytest.mark.parametrize("columns", ["0", "3"])
def test_a_terminal_of_no_width_still_shows_the_rule(home: Path, columns: str):
    """COLUMNS=0 or 3 on a terminal: the rule's text is printed (it printed only "refers to")."""
    assert run("index")[0] == 0
    shown = " ".join(on_a_terminal(columns, "show", "205.4d", home=home).split())
    assert "Ogni permanente con il supertipo" in shown
    assert "refers to: 420.5e (not in the library), 704.5j" in shown


def test_export_of_an_edition_with_no_text_is_an_error(home: Path):
    """export --edition 2099-01-01 in every format but the term base: exit 1 and the message
    search gives, not an empty file."""
    for fmt in ("tmx", "jsonl", "csv"):
        code, out, err = run("export", "--format", fmt, "--edition", "2099-01-01")
        assert code == 1 and out == ""
        assert err.splitlines()[-1].startswith(
            "error: no text of edition 2099-01-01 in the library; English editions loaded:"
        )


def test_file_names_long_in_bytes_and_with_newlines(home: Path, tmp_path: Path):
    """A 254-byte name of 83 CJK characters is added (under a name cut at a character, within
    the file system's 255 bytes); a newline in a name is printed as \\n, in one line."""
    cjk = tmp_path / ("規" * 83 + ".txt")
    assert len(cjk.name.encode()) == 253
    cjk.write_bytes(seed(IT) + RULE.encode())
    code, out, err = run("add", str(cjk))
    assert code == 0, err
    (stored,) = library.document_paths(home)
    assert len(stored.name.encode()) <= 255 and stored.name.endswith(".txt")
    forged = tmp_path / "regole.txt\nregole.txt: added as evil.txt"
    forged.write_bytes(seed(IT) + RULE.replace("neve", "ghiaccio").encode())
    code, out, _ = run("add", str(forged))
    assert code == 0 and out.count("\n") == 1
    assert out.startswith("regole.txt\\nregole.txt: added as evil.txt: added as ")


def test_a_busy_port_is_one_line_before_serving(home: Path):
    """serve --port of a port in use: one line, exit 1, and no "serving" said first."""
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = mtgrules(
            "serve", "--port", str(port), env={**os.environ, "MTGRULES_HOME": str(home)}
        )
    assert done.returncode == 1 and done.stdout == b""
    assert done.stderr.decode() == (
        f"error: cannot listen on 127.0.0.1:{port} (Address already in use); give another "
        "--port, or stop what holds it\n"
    )


def test_a_host_of_no_address_here_names_the_host(home: Path):
    """serve --host of a name that resolves to nothing: the fix is another --host, not another
    --port (it said "give another --port, or stop what holds it")."""
    done = mtgrules(
        "serve",
        "--host",
        "nosuchhost.invalid",
        env={**os.environ, "MTGRULES_HOME": str(home)},
    )
    assert done.returncode == 1 and done.stdout == b""
    said = done.stderr.decode()
    assert said.startswith("error: cannot listen on nosuchhost.invalid:")
    assert said.endswith(
        "; give a --host of this machine (127.0.0.1, or 0.0.0.0 for every address)\n"
    )


def test_leftovers_dated_in_the_future_are_removed(tmp_path: Path):
    """A `.part-` file dated a day ahead (a clock set back) is a leftover like an old one."""
    future = tmp_path / f"{library.TEMPORARY}abc"
    future.write_bytes(b"half")
    ahead = time.time() + 86_400
    os.utime(future, (ahead, ahead))
    assert library.remove_leftovers(tmp_path) == 1 and not future.exists()


def test_symbolic_links_in_documents_are_not_followed(home: Path):
    """A link in documents/ to /etc/passwd is not read: not listed, not a failure."""
    (home / "documents").mkdir(parents=True)
    (home / "documents" / "passwd.txt").symlink_to("/etc/passwd")
    assert library.document_paths(home) == []
    code, out, _ = run("sources", "--json")
    assert code == 0 and "passwd" not in out


@pytest.mark.parametrize("encoding", ["cp1252", "utf-16"])
def test_a_one_rule_document_is_read(home: Path, tmp_path: Path, encoding: str):
    """One line, one numbered rule, in Windows-1252 or UTF-16 with a BOM: added as that rule."""
    path = tmp_path / "una.txt"
    path.write_bytes("205.9. Ogni permanente nevoso è soggetto alla regola.\r\n".encode(encoding))
    code, out, err = run("add", str(path))
    assert code == 0, err
    assert "(lang=it, edition=unknown, format=numbered-rules; 1 rule; 0 lines dropped)" in out
    code, out, _ = run("show", "205.9")
    assert "Ogni permanente nevoso è soggetto alla regola." in out


def test_a_saved_pages_closing_navigation_is_set_aside(home: Path, tmp_path: Path):
    """A "back to the index · site name" line ending a saved rules page: dropped as
    navigation, not the last rule's text."""
    page = (ROOT / "tests" / "fixtures" / "regola-205-4.html").read_text()
    navigation = '<p><a href="/regole">← Torna all\'indice</a> · Archivio delle Regole</p>'
    path = tmp_path / "pagina.html"
    path.write_text(page.replace("</main>", navigation + "\n</main>"))
    assert run("add", str(path))[0] == 0
    out = run("sources", "--json")[1]
    (document,) = [d for d in json.loads(out)["documents"] if d["source"] == "pagina.html"]
    reasons = {d["text"]: d["reason"] for d in document["dropped"]}
    assert reasons["← Torna all'indice · Archivio delle Regole"] == (
        "boilerplate: navigation at the end of the page"
    )
    assert "Torna" not in run("show", "205.4d")[1]


def test_only_the_served_host_is_answered(home: Path):
    """A Host header of another site (DNS rebinding) is refused 400, with the security
    headers; 127.0.0.1 and localhost are answered."""
    assert run("index")[0] == 0
    with serving(home) as url:
        port = url.rsplit(":", 1)[1]
        for host in ("evil.example", f"evil.example:{port}", "127.0.0.1.evil.example"):
            status, headers, _ = get(f"{url}/api/show/205.4d", host=host)
            assert status == 400 and headers["x-frame-options"] == "DENY"
        for host in (f"127.0.0.1:{port}", f"localhost:{port}", "localhost"):
            assert get(f"{url}/api/show/205.4d", host=host)[0] == 200


def test_the_listening_socket_says_it_is_tcp_so_answers_are_not_held_back():
    """asyncio turns Nagle's algorithm off only on sockets that name IPPROTO_TCP: kept-alive
    answers waited 40 ms for an ACK when the socket serve binds did not."""
    import socket

    from search.web.serving import bind

    sock = bind("127.0.0.1", 0)
    try:
        assert sock.proto == socket.IPPROTO_TCP
    finally:
        sock.close()


# --- two texts of one edition ------------------------------------------------------------------


@pytest.mark.shared_data
def test_a_second_different_copy_of_an_english_edition_is_refused(
    home: Path, tmp_path: Path, shared_data: Path
):
    """An edited copy of English 2026-08-07 beside the whole one would make two texts of one
    edition (diff and history would read either): refused in one line naming the copy kept and
    how to replace it, whether the first is indexed yet or not; the same bytes again are no
    change."""
    whole = shared_data / "cr/en/MagicCompRules-20260807.txt"
    cut = tmp_path / "MagicCompRules-edited.txt"
    edited = whole.read_bytes().replace(b"has 0 or less life", b"has zero or less life", 1)
    assert edited != whole.read_bytes()
    cut.write_bytes(edited)
    refusal = (
        "error: MagicCompRules-edited.txt: English 2026-08-07 is already in the library as "
        "MagicCompRules-20260807.txt, and this copy differs from it; to replace it, "
        "`mtgrules remove MagicCompRules-20260807.txt` first\n"
    )
    code, out, err = run("add", str(whole), str(cut))
    assert code == 1 and out.startswith("MagicCompRules-20260807.txt: added as ")
    assert err == refusal
    assert run("index")[0] == 0
    assert run("add", str(cut)) == (1, "", refusal)
    assert run("add", str(whole)) == (
        0,
        "MagicCompRules-20260807.txt: already in the library, nothing to do\n",
        "",
    )
    # The same rules saved in another encoding are the same edition, not a second copy.
    utf16 = tmp_path / "MagicCompRules-utf16.txt"
    utf16.write_bytes(whole.read_bytes().decode("utf-8-sig").encode("utf-16"))
    assert run("add", str(utf16)) == (
        0,
        "MagicCompRules-utf16.txt: already in the library (as MagicCompRules-20260807.txt, in"
        " another encoding), nothing to do\n",
        "",
    )
    assert sorted(p.name for p in paths.documents(home).iterdir()) == [
        "MagicCompRules-20260807.txt"
    ]
    assert run("remove", "MagicCompRules-20260807.txt")[0] == 0
    code, out, _ = run("add", str(cut))
    assert code == 0 and out.startswith("MagicCompRules-edited.txt: added as ")


@pytest.mark.shared_data
def test_an_english_edition_cut_short_is_refused(home: Path, tmp_path: Path, shared_data: Path):
    """The first half of English 2025-04-04 (its title and contents, rules up to 701.52c, no
    glossary) would read as an edition that removed 1,400 rules and end their identities:
    refused in one line saying where its rules end; the other files are still added."""
    whole = shared_data / "cr/en/MagicCompRules-20250404.txt"
    half = tmp_path / "cr-half.txt"
    half.write_bytes(whole.read_bytes()[: whole.stat().st_size // 2])
    code, out, err = run("add", str(half), str(whole))
    assert code == 1 and out.startswith("MagicCompRules-20250404.txt: added as ")
    assert err == (
        "error: cr-half.txt: the English Comprehensive Rules 2025-04-04 cut short: its title, "
        "but no glossary after its rules, which end at 701.52c; give the whole file\n"
    )


TMX = """<?xml version="1.0" encoding="UTF-8"?>
<tmx version="1.4"><header srclang="en" datatype="plaintext" segtype="sentence" adminlang="en"
o-tmf="mtgrules" creationtool="mtgrules" creationtoolversion="1"/><body>
<tu tuid="205.4d"><tuv xml:lang="en"><seg>Any permanent with the supertype legendary</seg></tuv>
<tuv xml:lang="it"><seg>Ogni permanente con il supertipo leggendario</seg></tuv></tu></body></tmx>
"""
APP_PO = """msgid ""
msgstr ""
"Content-Type: text/plain; charset=UTF-8\\n"
"Language: it\\n"

msgid "Hello"
msgstr "Ciao"
"""


@pytest.mark.parametrize(
    "name, content, said",
    [
        (
            "memoria.tmx",
            TMX.encode(),
            "a TMX translation memory, which mtgrules writes (export --format tmx) but does not "
            "read; add the translation as a PO catalogue or as the rules' text",
        ),
        (
            "app.po",
            APP_PO.encode(),
            "a catalogue whose msgids are not the Comprehensive Rules' lines (no rule, example "
            "or glossary entry among them); add the CR's catalogue",
        ),
        ("bom.txt", b"\xef\xbb\xbf\n", "the file is empty; give a rules document with text in it"),
    ],
)
def test_what_a_translator_may_add_by_mistake_is_refused_in_one_line(
    home: Path, tmp_path: Path, name: str, content: bytes, said: str
):
    """A translation memory (the TMX mtgrules exports: it was read as an HTML page, with a
    parser's fifteen-line warning, then refused for a long line), a PO catalogue of another
    program (it was "every msgstr is empty", though it has translations) and a file of a byte
    order mark alone (it was "cannot tell its language"): each one line saying what it is."""
    path = tmp_path / name
    path.write_bytes(content)
    code, out, err = run("add", str(path))
    assert (code, out, err) == (1, "", f"error: {name}: {said}\n")


def test_a_file_name_that_is_no_utf8_reads_back_from_json(home: Path, tmp_path: Path):
    """A file name with a Latin-1 byte is shown as `lat\\xe9.txt`, in the terminal and in
    `--json`, which a UTF-8 reader takes (a lone surrogate escape it could not re-encode)."""
    name = os.path.join(os.fsencode(tmp_path), b"lat\xe9.txt")
    with open(name, "wb") as out:
        out.write(seed(IT))
    done = mtgrules("add", "--json", os.fsdecode(name), env={**os.environ})
    assert done.returncode == 0
    report = json.loads(done.stdout.decode("utf-8"))
    assert report["files"][0]["file"] == "lat\\xe9.txt"
    assert report["files"][0]["file"].encode("utf-8")
    done = mtgrules("add", os.fsdecode(name), env={**os.environ})
    assert done.stdout.decode("utf-8") == "lat\\xe9.txt: already in the library, nothing to do\n"


def test_invisible_characters_inside_a_query_word_are_not_part_of_it(home: Path):
    """A control character or a zero-width space a copy left inside a word is dropped: the
    word is searched as the reader sees it, with the same answer."""
    code, plain, _ = run("search", "leggendario", "--brief")
    assert code == 0 and "205.4d" in plain
    for copied in ("leggen\x01dario", "leggen\u200bdario", "leggen\u00addario"):
        assert run("search", copied, "--brief")[:2] == (0, plain)


def test_an_export_whose_reader_stops_early_ends_as_a_closed_pipe(home: Path):
    """`export | head -c 10`: the reader closes the pipe after a part of the export (the
    seeds' 85 KB, more than a pipe holds): exit 141 as every command, not 0 with the rest
    silently unwritten."""
    env = {**os.environ, "MTGRULES_HOME": str(home)}
    assert run("index")[0] == 0
    export = subprocess.Popen(
        [*MTGRULES, "export"], cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    assert export.stdout is not None and export.stderr is not None
    assert export.stdout.read(10) == b'{"lang":"i'
    export.stdout.close()
    assert (export.wait(timeout=300), export.stderr.read()) == (141, b"")
