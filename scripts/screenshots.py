#!/usr/bin/env python3
"""Screenshots of the web app for the README, in headless Chromium, from a library of the seeds,
English 2024-11-08, 2025-11-14 and 2026-08-07 and the Spanish CR (when ../shared/data has
them): the home, search, rule and diff pages at 1280 px and the search page on a 390 px phone.
Writes docs/{home,search,rule,diff,phone}.png."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT.parent / "shared" / "data" / "cr"
SHOTS = [
    ("home", "/", 1280),
    ("search", "/?q=regla+de+leyendas", 1280),
    ("rule", "/rule/310.8", 1280),
    ("diff", "/diff?rule=205.3", 1280),
    ("phone", "/?q=regla+de+leyendas", 390),
]


def main() -> int:
    home = Path(tempfile.mkdtemp(prefix="mtgrules-shots-"))
    env = {**os.environ, "MTGRULES_HOME": str(home)}
    mtgrules = str(ROOT / ".venv" / "bin" / "mtgrules")
    files = [DATA / "en" / f"MagicCompRules-{d}.txt" for d in ("20241108", "20251114", "20260807")]
    files.append(DATA / "es" / "magic_rules_clean.pdf")
    present = [str(f) for f in files if f.exists()]
    if present:
        subprocess.run([mtgrules, "add", *present], env=env, check=True, capture_output=True)
    subprocess.run([mtgrules, "index"], env=env, check=True, capture_output=True)
    server = subprocess.Popen([mtgrules, "serve", "--port", "8099"], env=env)
    try:
        time.sleep(3)
        (ROOT / "docs").mkdir(exist_ok=True)
        for name, path, width in SHOTS:
            subprocess.run(
                [
                    shutil.which("chromium") or "chromium", "--headless=new", "--no-sandbox",
                    "--disable-gpu", "--no-first-run", "--disable-background-networking",
                    "--disable-component-update", "--disable-sync", "--hide-scrollbars",
                    f"--user-data-dir={home / 'profile'}", f"--window-size={width},900",
                    f"--screenshot={ROOT / 'docs' / (name + '.png')}",
                    f"http://127.0.0.1:8099{path}",
                ],
                check=True,
                capture_output=True,
            )  # fmt: skip
    finally:
        server.terminate()
        shutil.rmtree(home, ignore_errors=True)
    print(", ".join(f"docs/{name}.png" for name, _, _ in SHOTS))
    return 0


if __name__ == "__main__":
    sys.exit(main())
