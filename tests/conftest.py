from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SEEDS = ROOT / "corpus" / "sources"
SHARED = ROOT.parent / "shared"
IT, FR, ARTICLE, ES = (
    "000_3f40d4614bb0d7a7.txt",
    "001_1dd839522fb4465e.txt",
    "002_35a44381c797d734.txt",
    "003_70161cce7a97982c.txt",
)


def seed(name: str) -> bytes:
    return (SEEDS / name).read_bytes()


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test gets its own empty MTGRULES_HOME."""
    state = tmp_path / "home"
    monkeypatch.setenv("MTGRULES_HOME", str(state))
    monkeypatch.delenv("NO_COLOR", raising=False)
    return state


@pytest.fixture(scope="session")
def shared_data() -> Path:
    data = SHARED / "data"
    if not (data / "cr" / "en").is_dir():
        pytest.skip("../shared/data is absent: the third-party English CR editions are not here")
    return data
