"""index/CURRENT as a typed value: what a build writes is what the next one reads, and a CURRENT
written by older code, without the later fields, still reads."""

from __future__ import annotations

import json
from pathlib import Path

from corpus import paths
from indexer.store import Current, live_build, read_current, write_current


def current(folder: str) -> Current:
    return Current(
        dir=folder,
        fingerprint="0123abcd",
        code="code-stamp",
        files={"documents/MagicCompRules-20260807.txt": [968425, 1, "b3d9e2"]},
        records=3162,
        versions=3100,
        failures=("documents/broken.pdf: no text",),
        english_editions=("2025-11-14", "2026-08-07"),
        built="2026-12-01T10:00:00",
        checksums={"MAIN_1.toc": [120, 5, 77]},
        records_checksum=(4096, 123456),
    )


def test_current_is_read_back_as_written(tmp_path: Path):
    """write_current then live_build gives the same value; the JSON keeps the field names."""
    (paths.index_root(tmp_path) / "build-1").mkdir(parents=True)
    write_current(tmp_path, current("build-1"))
    assert live_build(tmp_path) == current("build-1")
    raw = read_current(tmp_path)
    assert raw is not None and raw["dir"] == "build-1" and raw["records_checksum"] == [4096, 123456]


def test_a_current_without_its_folder_or_fields(tmp_path: Path):
    """No live build when the folder is gone; an older CURRENT's missing fields read empty."""
    root = paths.index_root(tmp_path)
    root.mkdir(parents=True)
    (root / "CURRENT").write_text(json.dumps({"dir": "build-2"}), "utf-8")
    assert live_build(tmp_path) is None
    (root / "build-2").mkdir()
    old = live_build(tmp_path)
    assert old is not None
    assert (old.dir, old.records, old.checksums, old.records_checksum) == ("build-2", 0, {}, None)
    (root / "CURRENT").write_text("[1, 2]", "utf-8")
    assert live_build(tmp_path) is None
