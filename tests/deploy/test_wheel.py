"""A built wheel is the whole application: installed into a fresh virtualenv, far from the
repository, `warlog serve` answers every page (the templates and static files travel in the
wheel), and `warlog --version` names the version of pyproject.toml."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import sysconfig
import time
import tomllib
import urllib.request
from pathlib import Path

import pytest

from tests.support.services import free_port

ROOT = Path(__file__).resolve().parents[2]


def _get(url: str, body: dict[str, object] | None = None) -> tuple[int, bytes]:
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json"} if data else {})
    try:
        with urllib.request.urlopen(req, timeout=20) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as err:
        return err.code, err.read()


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh venv holding only the wheel (no pip install of dependencies: this machine's test
    virtualenv lends its site-packages through a .pth file, which reads no .pth of its own, so
    the repository's editable install is not seen)."""
    tmp = tmp_path_factory.mktemp("wheel")
    src = tmp / "src"  # a copy of the files git would track: the build never writes into the checkout
    files = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT, capture_output=True, check=True).stdout
    for name in filter(None, files.decode().split("\0")):
        if (ROOT / name).is_file():
            (src / name).parent.mkdir(parents=True, exist_ok=True)
            (src / name).write_bytes((ROOT / name).read_bytes())
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp / "dist"),
                            str(src)], capture_output=True, text=True)
    assert built.returncode == 0, built.stderr[-3000:]
    assert "Warning" not in built.stderr, built.stderr[-3000:]
    venv = tmp / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    wheel = next((tmp / "dist").glob("warlog-*.whl"))
    subprocess.run([str(venv / "bin/python"), "-m", "pip", "install", "-q", "--no-deps", "--no-index", str(wheel)],
                   check=True)
    site = subprocess.run([str(venv / "bin/python"), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          capture_output=True, text=True, check=True).stdout.strip()
    Path(site, "borrowed-dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    return venv


@pytest.mark.slow
def test_the_wheel_reports_its_version(installed: Path, tmp_path: Path) -> None:
    version = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    out = subprocess.run([str(installed / "bin/warlog"), "--version"], cwd=tmp_path, capture_output=True, text=True)
    assert out.returncode == 0 and version in out.stdout, out.stdout + out.stderr


@pytest.mark.slow
def test_a_wheel_in_a_fresh_venv_serves_every_page(installed: Path, tmp_path: Path) -> None:
    where = subprocess.run([str(installed / "bin/python"), "-c", "import warlog; print(warlog.__file__)"],
                           cwd=tmp_path, capture_output=True, text=True, check=True).stdout
    assert str(installed) in where, f"warlog imported from {where}, not from the wheel"
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("WARLOG_")}
    proc = subprocess.Popen([str(installed / "bin/warlog"), "serve", "--port", str(port),
                             "--db", f"sqlite:///{tmp_path}/ledger.sqlite3"], cwd=tmp_path, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if _get(base + "/healthz")[0] == 200:
                    break
            except OSError:
                pass
            assert proc.poll() is None and time.monotonic() < deadline, "warlog serve from the wheel did not start"
            time.sleep(0.2)
        status, body = _get(base + "/api/v1/games", {"game": "assault-on-belgium"})
        assert status == 201, body[:500]
        game = json.loads(body)
        pages = ["/", "/static/warlog.css", "/static/warlog.js", "/static/favicon.svg", "/tournaments",
                 "/ratings", "/signin", f"/games/{game['id']}", f"/games/{game['id']}/replay/0",
                 f"/games/{game['id']}/replay/0.png", f"/games/{game['id']}/audit",
                 f"/games/{game['id']}/replay.html"]
        for page in pages:
            status, body = _get(base + page)
            assert status == 200, f"{page}: {status} {body[:300]!r}"
            assert b"TemplateNotFound" not in body
    finally:
        proc.terminate()
        out = proc.communicate(timeout=20)[0].decode(errors="replace")
    assert "Traceback" not in out, out[-3000:]
