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
# $extras: the optional dependency groups the calling script needs (unset = the runtime only)
EXTRAS="${extras-}"
stamp="$VENV/.warlog-installed${EXTRAS:+-${EXTRAS//,/-}}"
if [ ! -f "$stamp" ] || [ "$ROOT/pyproject.toml" -nt "$stamp" ] || [ "$ROOT/setup.py" -nt "$stamp" ]; then
  echo "warlog: installing dependencies (pip install -e .${EXTRAS:+[$EXTRAS]})" >&2
  "$VENV/bin/python" -m pip install --quiet --upgrade pip >&2
  "$VENV/bin/python" -m pip install --quiet -e "$ROOT${EXTRAS:+[$EXTRAS]}" >&2
  if "$VENV/bin/python" -m pip show validators >/dev/null 2>&1; then
    echo "warlog: the PyPI package 'validators' got installed; it shadows our validators/ package" >&2
    exit 1
  fi
  touch "$stamp"
fi
# cairosvg (the PNG of a replay step) needs the system's Cairo library: Debian's libcairo2.
if ! "$VENV/bin/python" -c "import cairosvg" >/dev/null 2>&1; then
  echo "warlog: installing Debian's libcairo2 for cairosvg" >&2
  sudo=""
  if [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null; then sudo="sudo"; fi
  if command -v apt-get >/dev/null; then
    { $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq libcairo2; } >&2 \
      || echo "warlog: could not install libcairo2; the replay PNGs will fail" >&2
  else
    echo "warlog: no apt-get to install libcairo2; the replay PNGs will fail" >&2
  fi
fi
export PATH="$VENV/bin:$PATH"
cd "$ROOT"
