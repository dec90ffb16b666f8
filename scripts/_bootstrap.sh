# Sourced by the scripts: create .venv with python3 and install the project (editable) into it,
# again whenever pyproject.toml changes. $1: the extras to install ("" or "test").
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="$ROOT/.venv"
extras="${1:-}"
stamp="$VENV/.installed-${extras:-base}"
want="$(sha256sum "$ROOT/pyproject.toml" | cut -d' ' -f1)"
if [ ! -x "$VENV/bin/python" ] || [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
  echo "mtgrules: setting up $VENV (first run only)..." >&2
  [ -x "$VENV/bin/python" ] || python3 -m venv "$VENV"
  spec="$ROOT"
  [ -n "$extras" ] && spec="$ROOT[$extras]"
  "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check -e "$spec" >&2
  echo "$want" > "$stamp"
fi
