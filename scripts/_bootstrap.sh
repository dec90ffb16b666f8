# Sourced by the scripts: create .venv with python3 and install the project (editable) into it,
# again whenever pyproject.toml or this script changes. $1: the extras to install ("" or "test").
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="$ROOT/.venv"
extras="${1:-}"
stamp="$VENV/.installed-${extras:-base}"
# The checkout's path is part of what was installed: a .venv copied from another checkout
# runs that checkout's code (its editable install points there) until installed again here.
want="$( (cat "$ROOT/pyproject.toml" "${BASH_SOURCE[0]}"; echo "$ROOT") | sha256sum | cut -d' ' -f1)"
# One setup at a time: commands started together (serve and a search, two terminals) wait for
# the first one's install and compilation instead of running pip side by side.
if command -v flock >/dev/null 2>&1; then
  mkdir -p "$VENV"
  exec 9>"$VENV/.setup.lock"
  flock 9
fi
# An install with the test extras has everything the plain commands need too.
installed() { [ "$(cat "$VENV/.installed-$1" 2>/dev/null)" = "$want" ]; }
if [ ! -x "$VENV/bin/python" ] || ! { installed "${extras:-base}" || { [ -z "$extras" ] && installed test; }; }; then
  echo "mtgrules: setting up $VENV (first run only)..." >&2
  [ -x "$VENV/bin/python" ] || python3 -m venv "$VENV"
  spec="$ROOT"
  [ -n "$extras" ] && spec="$ROOT[$extras]"
  # pip's chatter (and index warnings about this machine's mirrors) goes to a log, shown only
  # when the install fails.
  log="$VENV/bootstrap.log"
  # editable_mode=compat: a plain path in a .pth file. The default import-hook finder costs
  # every command some 10 ms before it starts.
  if ! "$VENV/bin/python" -m pip install --disable-pip-version-check \
    --config-settings editable_mode=compat -e "$spec" >"$log" 2>&1; then
    tail -n 30 "$log" >&2
    echo "mtgrules: installing into $VENV failed (full log: $log)" >&2
    exit 1
  fi
  # pip compiles what it installs, but not an editable project; and where PYTHONDONTWRITEBYTECODE
  # is set (as on these machines) every command would compile our modules again at start-up.
  echo "$want" > "$stamp"
  rm -f "$VENV/.compiled"
fi
# A module edited or merged since the last compilation (pyproject.toml unchanged) would be
# compiled again by every command, at every start (a stale languages.py: some 10 ms a show):
# compile whatever is newer than the last compilation.
compiled="$VENV/.compiled"
if [ ! -e "$compiled" ] || [ -n "$(find "$ROOT/corpus" "$ROOT/indexer" "$ROOT/search" \
  -name '*.py' -newer "$compiled" -print -quit)" ]; then
  # Each process its own marker: two commands started together both compile, and the second
  # rename must not find the first's marker gone (under set -e that ended the command).
  marker="$compiled.new.$$"
  touch "$marker"
  "$VENV/bin/python" -m compileall -q "$ROOT/corpus" "$ROOT/indexer" "$ROOT/search" \
    >>"$VENV/bootstrap.log" 2>&1 || true
  # and the methods @dataclass writes for each class (search/dataclass_code.py)
  (cd "$ROOT" && "$VENV/bin/python" -m search.dataclass_code >>"$VENV/bootstrap.log" 2>&1) || true
  mv -f "$marker" "$compiled"
fi
# Let go of the lock: the command itself runs beside others.
exec 9>&-
