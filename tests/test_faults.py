"""Faults and hostile input, done for real: a build killed with its workers alive, a full disk,
damaged index files, hostile file names, escape sequences in documents, deeply nested HTML,
formula cells, a hostile HTTP server on 127.0.0.1, malformed queries. The library is never
stuck, never half written, and never serves damage; errors are one line."""

from __future__ import annotations

import csv
import fcntl
import io
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import IT, ROOT, local_server, seed

from corpus import paths
from indexer.store import read_current
from search.cli import cli

ESCAPES = "\x1b]0;owned\x07\x1b[2J\x1b]8;;http://example.invalid\x1b\\link\x1b]8;;\x1b\\\x1b[31m"


def run(*args: str, env: dict[str, str] | None = None) -> tuple[int, str, str]:
    result = CliRunner(env=env).invoke(
        cli, catch_exceptions=False, args=list(args), prog_name="mtgrules"
    )
    assert "Traceback" not in result.stderr and "Traceback" not in result.stdout
    return result.exit_code, result.stdout, result.stderr


def italian_rules(extra: str = "") -> bytes:
    """The Italian seed with one more rule, as a user would add a copy of it."""
    return seed(IT) + f"\n- 205.9. Ogni permanente nevoso è soggetto alla regola{extra}.\n".encode()


def live_folder(home: Path) -> Path:
    current = read_current(home)
    assert current is not None
    return paths.index_root(home) / current["dir"]


# --- a killed build ---------------------------------------------------------------------------


def _children(pid: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.append(int(entry))
    return found


def _cmdline(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""


def _running(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state not in ("Z", "X")


@pytest.mark.shared_data
def test_a_killed_build_leaves_no_lock_and_no_workers(shared_data: Path, tmp_path: Path):
    """kill -9 of a build with its parsing workers alive: they die with it, the lock is free,
    and the next build runs at once."""
    home = tmp_path / "home"
    (home / "documents").mkdir(parents=True)
    for path in sorted((shared_data / "cr" / "en").glob("*.txt"))[:12]:
        shutil.copy(path, home / "documents")
    env = {**os.environ, "MTGRULES_HOME": str(home)}
    command = [sys.executable, "-c", "from search.cli import main; main()", "index"]
    build = subprocess.Popen(command, env=env, cwd=ROOT, stderr=subprocess.DEVNULL)

    def forked() -> list[int]:  # the build's workers: forked, so the same command line
        mine = _cmdline(build.pid)
        return [c for c in _children(build.pid) if _cmdline(c) == mine]

    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and len(forked()) < 2:
        time.sleep(0.02)
    workers = forked()
    assert len(workers) >= 2, "the build never started its workers"
    os.kill(build.pid, signal.SIGKILL)
    build.wait()
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and any(map(_running, workers)):
        time.sleep(0.05)
    assert not any(map(_running, workers))
    with open(paths.index_root(home) / ".lock", "a+") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)  # free: raises if anything holds it
        fcntl.flock(lock, fcntl.LOCK_UN)
    assert run("index", "--rebuild", env={"MTGRULES_HOME": str(home)})[0] == 0


# --- a full disk ------------------------------------------------------------------------------


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A 600 KB tmpfs, where the machine lets the tests mount one (root on Linux)."""
    mount = tmp_path / "small"
    mount.mkdir()
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=600k", "tmpfs", str(mount)], capture_output=True
    )
    if done.returncode != 0:
        pytest.skip(f"cannot mount a small tmpfs here: {done.stderr.decode().strip()}")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], capture_output=True)


@pytest.mark.shared_data
def test_a_full_disk_leaves_no_half_document(small_disk: Path, shared_data: Path):
    """add on a full disk: one line, no truncated document, no leftovers; once there is room,
    the same file is added whole."""
    edition = shared_data / "cr" / "en" / "MagicCompRules-20250207.txt"
    env = {"MTGRULES_HOME": str(small_disk / "home")}
    code, _, err = run("add", str(edition), env=env)
    assert code == 1 and err.startswith("error: MagicCompRules-20250207.txt: cannot store it")
    documents = small_disk / "home" / "documents"
    assert not documents.exists() or list(documents.iterdir()) == []
    roomy = small_disk.parent / "roomy"
    shutil.copytree(small_disk / "home", roomy, dirs_exist_ok=True)
    env = {"MTGRULES_HOME": str(roomy)}
    assert run("add", str(edition), env=env)[0] == 0
    code, out, _ = run("sources", "--json", "--no-dropped", env=env)
    (document,) = [d for d in json.loads(out)["documents"] if d["lang"] == "en"]
    assert document["records"] == 4152 and len(list((roomy / "documents").iterdir())) == 1


# --- damage in the index ----------------------------------------------------------------------


def _damage(path: Path, keep_time: bool) -> None:
    stat = path.stat()
    with path.open("r+b") as data:
        data.seek(stat.st_size // 2)
        data.write(os.urandom(4096))
    if keep_time:
        os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))


def test_a_damaged_segment_is_rebuilt_not_served(home: Path):
    """Random bytes in a Whoosh segment: the next search says so, rebuilds, answers."""
    assert run("index")[0] == 0
    (segment,) = live_folder(home).glob("*.seg")
    _damage(segment, keep_time=False)
    code, out, err = run("search", "regola delle leggende", "--json")
    assert code == 0 and "the index is damaged" in err
    assert json.loads(out)["results"][0]["key"] == "205.4d"


def test_damage_that_keeps_the_file_time_is_found_by_its_checksum(home: Path):
    """The same damage with the file's time put back: `index` finds it by its CRC."""
    assert run("index")[0] == 0
    (segment,) = live_folder(home).glob("*.seg")
    _damage(segment, keep_time=True)
    code, out, err = run("index")
    assert code == 0 and "the index is damaged" in err and out.startswith("indexed ")
    assert run("search", "regola delle leggende")[0] == 0


def test_a_copied_library_is_not_damaged(home: Path, tmp_path: Path, monkeypatch):
    """A library copied as `cp -r` copies it (every file a new time, the same bytes): no
    damage said, nothing rebuilt; the copy records the new times and the next command checks
    them as it did before."""
    assert run("index")[0] == 0
    copy = tmp_path / "copy"
    shutil.copytree(home, copy, copy_function=shutil.copy)  # contents, not times
    monkeypatch.setenv("MTGRULES_HOME", str(copy))
    built = read_current(copy)["dir"]  # type: ignore[index]
    code, out, err = run("search", "regola delle leggende", "--json")
    assert code == 0 and err == "" and json.loads(out)["results"][0]["key"] == "205.4d"
    assert read_current(copy)["dir"] == built  # type: ignore[index]
    (segment,) = live_folder(copy).glob("*.seg")
    _damage(segment, keep_time=False)  # damage after the copy is still damage
    code, _, err = run("search", "regola delle leggende")
    assert code == 0 and "the index is damaged" in err


def test_a_damaged_side_store_is_rebuilt(home: Path):
    """Random bytes in versions.sqlite: show rebuilds and answers."""
    assert run("index")[0] == 0
    _damage(live_folder(home) / "versions.sqlite", keep_time=False)
    code, out, err = run("show", "205.4d", "--json")
    assert code == 0 and "the index is damaged" in err
    assert json.loads(out)["results"][0]["key"] == "205.4d"


@pytest.mark.parametrize("harm", ["delete", "cut"])
def test_a_missing_or_cut_hand_off_file_is_written_again(home: Path, harm: str):
    """records.jsonl deleted or cut: the translators' commands and exports rebuild it."""
    assert run("index")[0] == 0
    records = home / "records.jsonl"
    whole = records.read_bytes()
    if harm == "delete":
        records.unlink()
    else:
        records.write_bytes(whole[: len(whole) // 2])
    code, out, err = run("export", "--format", "jsonl")
    assert code == 0 and "rebuilding the index" in err
    assert out.encode() == whole


# --- hostile names, text and markup -----------------------------------------------------------


def test_any_file_name_is_stored_safely(home: Path, tmp_path: Path):
    """A Latin-1 byte in a name and a hidden name: both added under safe names, indexed, and
    every command still works."""
    latin = tmp_path / os.fsdecode(b"latin1_\xe9.txt")
    latin.write_bytes(italian_rules(" latina"))
    hidden = tmp_path / ".nascosto.txt"
    hidden.write_bytes(italian_rules(" nascosta"))
    code, out, _ = run("add", str(latin), str(hidden))
    assert code == 0
    stored = sorted(p.name for p in (home / "documents").iterdir())
    assert len(stored) == 2 and all(not n.startswith(".") for n in stored)
    assert all(n.encode("utf-8") for n in stored)
    for args in (("search", "regola latina"), ("show", "205.9"), ("index",), ("sources",)):
        assert run(*args)[0] == 0, args
    code, out, _ = run("search", "nevoso nascosta", "--json")
    assert code == 0 and json.loads(out)["results"][0]["key"] == "205.9"


def test_escape_sequences_never_reach_the_terminal(home: Path, tmp_path: Path):
    """A rule and a file name holding escape sequences: shown as visible escapes in plain and
    rich output and in sources; JSON keeps the text exactly."""
    from rich.console import Console

    from search import render
    from search.session import open_engine

    path = tmp_path / "rules\x1b[2J.txt"
    path.write_bytes(italian_rules(ESCAPES))
    assert run("add", str(path))[0] == 0
    for args in (("show", "205.9"), ("sources",)):
        code, out, _ = run(*args, env={"NO_COLOR": "1"})
        assert code == 0 and "\x1b" not in out and "\x07" not in out, args
    assert "\\x1b]0;owned\\x07" in run("show", "205.9")[1]
    code, out, _ = run("show", "205.9", "--json")
    assert ESCAPES in json.loads(out)["results"][0]["records"][0]["text"]
    buffer = io.StringIO()
    with open_engine(searching=False) as engine:
        from search.query import as_number
        from search.results import Filters

        number = as_number("205.9")
        assert number is not None
        results = engine.lookup(number, Filters())
    render.echo_rich(results, (), set(), Console(file=buffer, force_terminal=True, width=120))
    shown = buffer.getvalue()
    assert "\x1b]0;" not in shown and "\x1b[2J" not in shown and "\x07" not in shown
    assert "\\x1b]0;owned" in shown


def test_exports_stay_well_formed_and_unarmed(home: Path, tmp_path: Path):
    """Control characters and U+FFFE in a rule: TMX and TBX parse; a cell that starts like a
    formula is written as text."""
    from lxml import etree

    path = tmp_path / "copia\x01.txt"
    path.write_bytes(italian_rules(" \x01\x0b\ufffe") + b"- 205.9a =HYPERLINK(1)\n")
    assert run("add", str(path))[0] == 0
    for fmt in ("tmx", "tbx"):
        code, out, _ = run("export", "--format", fmt, "--lang", "it")
        assert code == 0
        etree.fromstring(out.encode("utf-8"))  # well-formed, or it raises
    code, out, _ = run("export", "--format", "csv", "--lang", "it")
    cells = [cell for row in csv.reader(io.StringIO(out)) for cell in row]
    assert "'=HYPERLINK(1)" in cells and "=HYPERLINK(1)" not in cells


def test_deeply_nested_html_is_read_and_the_next_file_added(home: Path, tmp_path: Path):
    """3,000 nested elements: read without a recursion error; the files after it are added."""
    deep = tmp_path / "profondo.html"
    rules = "<p>205.1. La riga del tipo è stampata direttamente sotto l'illustrazione.</p>"
    rules += "<p>205.2. Tipi di carta: artefatto, creatura, incantesimo e terra.</p>"
    deep.write_text(f"<html><body>{'<div>' * 3000}{rules}{'</div>' * 3000}</body></html>")
    after = tmp_path / "dopo.txt"
    after.write_bytes(italian_rules(" dopo"))
    code, out, err = run("add", str(deep), str(after))
    assert code == 0, err
    assert out.count("added as") == 2
    assert run("search", "illustrazione")[0] == 0


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        ("- 205.1. " + "regola " * 850_000, "characters long, not a rules document's line"),
        ("- 205.1. regola\n" * 1_300_000, "more than a rules document"),
    ],
)
def test_oversized_documents_are_refused(home: Path, tmp_path: Path, content: str, reason: str):
    """A 6 MB single line and a 20 MB document: refused in one line, library untouched."""
    path = tmp_path / "enorme.txt"
    path.write_text(content)
    code, _, err = run("add", str(path))
    assert code == 1 and reason in err and err.count("\n") == 1
    assert not (home / "documents").exists() or not list((home / "documents").iterdir())


# --- malformed queries and usage --------------------------------------------------------------


@pytest.mark.parametrize(
    "written", ["205.3I", "regola 205.3i", "CR 205.3i", "205,3i", "Rule 205.3i"]
)
def test_rule_numbers_as_people_write_them(home: Path, written: str):
    """Any case, 'rule/regola/règle/regla N', 'CR N', a decimal comma: the lookup of 205.3i."""
    for command in ("search", "show"):
        code, out, _ = run(command, written, "--json")
        assert code == 0, (command, written)
        assert json.loads(out)["results"][0]["key"] == "205.3i"


def test_errors_are_one_line_with_their_fix(home: Path):
    """Usage errors, a query starting with '-', bad dates, unknown editions: one line each;
    with --json a JSON object on stdout too."""
    code, out, err = run("search", "-1/-1")
    assert code == 2 and err.count("\n") == 1
    assert "goes after `--`: mtgrules search -- -1/-1" in err
    code, out, err = run("search", "--edition", "2025-13-45", "tipo")
    assert code == 2 and err.count("\n") == 1 and "'2025-13-45' is not a date" in err
    code, out, err = run("search", "--edition", "2025-01-01", "tipo")
    assert code == 1 and "no text of edition 2025-01-01" in err
    code, out, err = run("show", "999.9", "--json")
    assert code == 1 and json.loads(out) == {
        "error": (
            "no rule 999.9 in the library (`mtgrules sources` lists its documents and editions)"
        ),
        "exit_code": 1,
    }
    code, _, err = run("search", "--nonsense", "tipo")
    assert code == 2
    assert err == "error: No such option '--nonsense'. (see `mtgrules search --help`)\n"


def test_a_query_that_is_not_utf8_is_refused(home: Path):
    """Bytes of another encoding in the query, the rule or the term: one line, exit 2, in every
    command that takes words (`show` failed with a traceback)."""
    query = os.fsdecode(b"regola \xe9")
    code, _, err = run("search", query)
    assert code == 2 and "is not valid UTF-8" in err and err.count("\n") == 1
    for command in ("show", "term", "history", "diff"):
        code, _, err = run(command, os.fsdecode(b"pi\xe9tinement"))
        assert code == 2 and "is not valid UTF-8" in err and err.count("\n") == 1, command


# --- a hostile server for fetch-cr ------------------------------------------------------------


class _Hostile(BaseHTTPRequestHandler):
    edition: bytes = b""

    def do_GET(self) -> None:
        if self.path == "/huge":
            self.send_response(200)
            self.send_header("Content-Length", str(300 * 2**20))
            self.end_headers()
            self.wfile.write(b"x" * 65536)
        elif self.path == "/endless":
            self.send_response(200)
            self.end_headers()
            with __import__("contextlib").suppress(OSError):
                for _ in range(20 * 2**20 // 65536 + 2):
                    self.wfile.write(b"y" * 65536)
        elif self.path == "/trickle":
            self.send_response(200)
            self.end_headers()
            with __import__("contextlib").suppress(OSError):
                for _ in range(40):
                    self.wfile.write(b"z")
                    self.wfile.flush()
                    time.sleep(0.25)
        elif self.path.startswith("/rules-file"):
            self._page('<a href="file:///etc/passwd#MagicCompRules.txt">MagicCompRules.txt</a>')
        elif self.path.startswith("/rules-space"):
            self._page('<a href="/dl/.MagicCompRules 20241108.txt">the rules</a>')
        elif self.path == "/dl/.MagicCompRules%2020241108.txt":
            self.send_response(200)
            self.end_headers()
            self.wfile.write(self.edition)
        else:
            self.send_response(404)
            self.end_headers()

    def _page(self, body: str) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.end_headers()
        self.wfile.write(f"<html><body>{body}</body></html>".encode())

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def hostile(shared_data: Path) -> Iterator[str]:
    _Hostile.edition = (shared_data / "cr" / "en" / "MagicCompRules-20241108.txt").read_bytes()
    with local_server(_Hostile) as url:
        yield url


@pytest.mark.shared_data
def test_fetch_cr_does_not_trust_the_server(hostile: str, home: Path):
    """Too large (by its header or by what it sends), too slow in all, a file:// link: refused
    in one line. A link with a space works, under a name of our own, not the server's."""
    from corpus.read.fetch import FetchError, download

    for path, said in (("/huge", "not a rules document"), ("/endless", "not a rules document")):
        with pytest.raises(FetchError, match=said):
            download(hostile + path)
    env = {"MTGRULES_FETCH_SECONDS": "2"}
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("MTGRULES_FETCH_SECONDS", "2")
        with pytest.raises(FetchError, match="too slow"):
            download(hostile + "/trickle")
    code, _, err = run("fetch-cr", "latest", "--rules-page", hostile + "/rules-file", env=env)
    assert code == 1 and "only http and https" in err
    code, out, err = run("fetch-cr", "latest", "--rules-page", hostile + "/rules-space")
    assert code == 0, err
    assert out.startswith("MagicCompRules-20241108.txt: added as MagicCompRules-20241108.txt")


def test_a_bug_while_opening_a_sound_index_is_not_rebuilt_over(
    home: Path, monkeypatch: pytest.MonkeyPatch
):
    """An index as the build wrote it is not rebuilt when opening it fails: the error is the
    code's, and a rebuild would only hide it."""
    from search import session
    from search.engine import Engine

    assert CliRunner().invoke(cli, catch_exceptions=False, args=["index"]).exit_code == 0
    built = read_current(home)

    def broken(self: Engine, *args: object, **kwargs: object) -> None:
        raise RuntimeError("a bug in the engine")

    monkeypatch.setattr(Engine, "__init__", broken)
    with pytest.raises(RuntimeError, match="a bug in the engine"), session.open_engine():
        pass
    assert read_current(home) == built  # no rebuild
