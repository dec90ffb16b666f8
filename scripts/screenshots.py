#!/usr/bin/env python3
"""Screenshots of the web app for the README: the search page and a rule page, at 1280 px,
from a library of the seeds, English 2025-11-14 and the Spanish CR (when ../shared/data has
them), in headless Chromium. Writes docs/search.png and docs/rule.png."""

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


def main() -> int:
    home = Path(tempfile.mkdtemp(prefix="mtgrules-shots-"))
    env = {**os.environ, "MTGRULES_HOME": str(home)}
    mtgrules = str(ROOT / ".venv" / "bin" / "mtgrules")
    files = [DATA / "en" / "MagicCompRules-20251114.txt", DATA / "es" / "magic_rules_clean.pdf"]
    present = [str(f) for f in files if f.exists()]
    if present:
        subprocess.run([mtgrules, "add", *present], env=env, check=True, capture_output=True)
    subprocess.run([mtgrules, "index"], env=env, check=True, capture_output=True)
    server = subprocess.Popen([mtgrules, "serve", "--port", "8099"], env=env)
    try:
        time.sleep(3)
        (ROOT / "docs").mkdir(exist_ok=True)
        for name, path in (("search", "/?q=regla+de+leyendas"), ("rule", "/rule/704.5j")):
            subprocess.run(
                [
                    shutil.which("chromium") or "chromium", "--headless=new", "--no-sandbox",
                    "--disable-gpu", "--no-first-run", "--disable-background-networking",
                    "--disable-component-update", "--disable-sync", "--hide-scrollbars",
                    f"--user-data-dir={home / 'profile'}", "--window-size=1280,900",
                    f"--screenshot={ROOT / 'docs' / (name + '.png')}",
                    f"http://127.0.0.1:8099{path}",
                ],
                check=True,
                capture_output=True,
            )  # fmt: skip
    finally:
        server.terminate()
        shutil.rmtree(home, ignore_errors=True)
    print("docs/search.png, docs/rule.png")
    return 0


if __name__ == "__main__":
    sys.exit(main())
