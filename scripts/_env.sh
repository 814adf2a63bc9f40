# Shared set-up for scripts/serve and scripts/test: a project virtualenv with everything the
# project needs, installed from pyproject.toml. Re-installs only when pyproject.toml changed.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="${WARLOG_VENV:-$ROOT/.venv}"
PY="${PYTHON:-python3}"

if [ ! -x "$VENV/bin/python" ]; then
  echo "warlog: creating virtualenv $VENV" >&2
  "$PY" -m venv "$VENV"
fi
stamp="$VENV/.warlog-installed"
if [ ! -f "$stamp" ] || [ "$ROOT/pyproject.toml" -nt "$stamp" ]; then
  echo "warlog: installing dependencies (pip install -e .[test,deploy])" >&2
  "$VENV/bin/python" -m pip install --quiet --upgrade pip >&2
  "$VENV/bin/python" -m pip install --quiet -e "$ROOT[test,deploy]" >&2
  if "$VENV/bin/python" -m pip show validators >/dev/null 2>&1; then
    echo "warlog: the PyPI package 'validators' got installed; it shadows our validators/ package" >&2
    exit 1
  fi
  touch "$stamp"
fi
export PATH="$VENV/bin:$PATH"
cd "$ROOT"
