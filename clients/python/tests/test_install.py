"""The client package as a user gets it (issue #15): `pip install
./clients/python` into a fresh virtualenv, then `flowlayout demo`,
`replay`, `render` and `web` run from a directory outside the checkout,
with the daemon found on PATH (a `flowlayoutd` symlink to $FLOWLAYOUTD) or
through $FLOWLAYOUTD, and nothing else of the checkout in reach: no
PYTHONPATH, no FLOWLAYOUT_WEB_ROOT / FLOWLAYOUT_JS_ROOT.

The wheel must carry the web client (clients/web as flowlayout/web/) and
the JS client module (clients/js as flowlayout/js/, when there is one),
and so must a wheel built from an sdist; a build that cannot find the
page fails. One venv serves the whole module (conftest's
`installed_flowlayout`); pip fetches setuptools from PyPI for the build.
The browser check of the installed bridge is in test_web.py.
"""

from __future__ import annotations

import http.client
import json
import re
import shutil
import struct
import sys
import tarfile
import xml.etree.ElementTree as ET
import zipfile
from pathlib import Path
from typing import Any, Dict, Sequence, Tuple

import pytest

from daemon_support import TIMEOUT, WebBridge, daemon_gone
from install_support import (
    JS,
    PACKAGE,
    Installed,
    base_env,
    daemon_path,
    inside_checkout,
    js_files,
    run,
    web_files,
)

SVG = "{http://www.w3.org/2000/svg}"

SEED_OPEN = {
    "session": "seed",
    "layout": {"type": "coverFlow", "minimumLineSpacing": 30, "scale": {"factor": 0.5}},
    "bounds": {"x": 0, "y": 0, "width": 375, "height": 300},
    "sections": [{"itemCount": 10}],
}
AT_460 = {"x": 460, "y": 0, "width": 375, "height": 300}
#: At x=460 card 2 is centred; cards 1 and 3, one pitch away, show too.
SCRIPT = [
    {"id": 1, "method": "layout/open", "params": SEED_OPEN},
    {"id": 2, "method": "layout/setBounds", "params": {"session": "seed", "bounds": AT_460}},
    {"id": 3, "method": "layout/attributesInRect", "params": {"session": "seed", "rect": AT_460}},
]

DAEMON_VIA = pytest.mark.parametrize("daemon_via", ["path", "env"], ids=["on-PATH", "FLOWLAYOUTD"])


@pytest.fixture(scope="module")
def installed(installed_flowlayout: Installed) -> Installed:
    return installed_flowlayout


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    """A working directory outside the checkout, with no .build above it."""
    cwd = tmp_path / "elsewhere"
    cwd.mkdir()
    assert not inside_checkout(cwd)
    assert not any((d / ".build").exists() for d in (cwd, *cwd.parents)), cwd
    return cwd


def write_script(path: Path, messages: Sequence[Any]) -> Path:
    path.write_text("".join(json.dumps(m) + "\n" for m in messages), encoding="utf-8")
    return path


# MARK: what was installed


def test_the_package_is_installed_outside_the_checkout(installed: Installed) -> None:
    print(f"venv and pip install: {installed.seconds:.1f} s")
    assert installed.package.is_relative_to(installed.venv), installed.package
    assert not inside_checkout(installed.package)
    assert installed.flowlayout.is_file()


def test_the_wheel_carries_the_web_client(installed: Installed) -> None:
    files = web_files()
    assert {p.name for p in files} >= {"index.html", "app.js", "style.css"}
    shipped = installed.package / "web"
    assert sorted(p.name for p in shipped.iterdir()) == [p.name for p in files]
    for p in files:
        assert (shipped / p.name).read_bytes() == p.read_bytes(), p.name


def test_the_wheel_carries_the_js_client_when_there_is_one(installed: Installed) -> None:
    files = js_files()
    shipped = installed.package / "js"
    if not JS.is_dir():
        assert not shipped.exists()
        return
    assert sorted(p.name for p in shipped.iterdir()) == [p.name for p in files]
    for p in files:
        assert (shipped / p.name).read_bytes() == p.read_bytes(), p.name


# MARK: the commands, from elsewhere


@DAEMON_VIA
def test_demo(installed: Installed, outside: Path, tmp_path: Path, daemon_via: str) -> None:
    env = installed.env(daemon_via, tmp_path / "bin")
    done = run([str(installed.flowlayout), "demo"], outside, env)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    out = done.stdout
    lines = out.splitlines()
    assert lines[0].startswith("flowlayoutd ")
    assert lines[0].endswith(": cover flow, 10 cards 200x300 pt, spacing 30, scale factor 0.5, "
                             "viewport 375x300; * marks the centred card")
    steps = [line.split("  ")[0] for line in lines if line.startswith("[")]
    assert steps == ["[1] open", "[2] drag to x=60", "[3] drag to x=120", "[4] drag to x=300",
                     "[5] release (v=0), snap", "[6] fling v=1.5 pt/ms", "[7] insert at item 4",
                     "[8] scrollToItem 4", "[9] delete item 4"]
    assert "[1] open                   bounds.x=0      contentSize=2445x300  centredItem=0" in lines
    assert "    scrollEnded at x=300, velocity 0 -> targetContentOffset x=230 (item 1)" in lines
    assert "    targetContentOffset x=920 (item 4), durationMs 3616.7" in lines
    assert "    appearing: 4 at x=1038.2..1176.8, alpha 0" in lines
    assert "    disappearing: 4 at x=1007.5..1207.5, alpha 0" in lines
    # The same as the checkout's own `python -m flowlayout demo`.
    checkout_env = base_env()
    checkout_env["PYTHONPATH"] = str(PACKAGE)
    checkout_env["FLOWLAYOUTD"] = daemon_path()
    ours = run([sys.executable, "-m", "flowlayout", "demo"], outside, checkout_env)
    assert ours.returncode == 0, ours.stderr
    assert out == ours.stdout


@DAEMON_VIA
def test_replay(installed: Installed, outside: Path, tmp_path: Path, daemon_via: str) -> None:
    env = installed.env(daemon_via, tmp_path / "bin")
    write_script(outside / "script.jsonl", [
        *SCRIPT,
        {"id": 4, "method": "layout/contentSize", "params": {"session": "nope"}},
        {"id": 5, "method": "shutdown"},
        {"method": "exit"},
    ])
    done = run([str(installed.flowlayout), "replay", "script.jsonl"], outside, env)
    assert done.returncode == 0, done.stderr
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert [a["id"] for a in answers] == [1, 2, 3, 4, 5]
    assert answers[0]["result"]["contentSize"] == {"width": 2445, "height": 300}
    assert answers[1]["result"]["centeredItem"] == {"section": 0, "item": 2}
    assert answers[1]["result"]["removed"] == [{"kind": "cell", "section": 0, "item": 0}]
    assert sorted(a["item"] for a in answers[2]["result"]["attributes"]) == [1, 2, 3]
    assert answers[3]["error"]["code"] == 1001
    assert answers[4] == {"id": 5, "jsonrpc": "2.0", "result": None}


@DAEMON_VIA
def test_render(installed: Installed, outside: Path, tmp_path: Path, daemon_via: str) -> None:
    env = installed.env(daemon_via, tmp_path / "bin")
    write_script(outside / "script.jsonl", SCRIPT)
    done = run([str(installed.flowlayout), "render", "--session-script", "script.jsonl",
                "--out", "view.svg"], outside, env)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("flowlayout render: wrote view.svg: session 'seed', 3 elements")
    root = ET.parse(outside / "view.svg").getroot()
    assert root.tag == SVG + "svg"
    # The chrome is drawn with paths: every rect or polygon is an element.
    shapes = [e for e in root.iter() if e.tag in (SVG + "rect", SVG + "polygon")]
    assert len(shapes) == 3
    group = root.find(f"{SVG}g[@id='elements']")
    assert group is not None
    assert sorted(g.get("data-item") for g in group) == ["1", "2", "3"]
    centred = [g for g in group if "centered" in (g.get("class") or "").split()]
    assert [g.get("data-item") for g in centred] == ["2"]


# MARK: flowlayout web, from elsewhere


def fetch(port: int, method: str, path: str, body: Any = None) -> Tuple[int, Dict[str, str], bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=TIMEOUT)
    try:
        headers = {"Content-Type": "application/json"} if body is not None else {}
        conn.request(method, path, body=None if body is None else json.dumps(body), headers=headers)
        r = conn.getresponse()
        return r.status, {k.lower(): v for k, v in r.getheaders()}, r.read()
    finally:
        conn.close()


def start_installed_bridge(installed: Installed, env: Dict[str, str], cwd: Path) -> WebBridge:
    return WebBridge(command=[str(installed.flowlayout), "web", "--port", "0"], env=env, cwd=str(cwd))


@DAEMON_VIA
def test_web(installed: Installed, outside: Path, tmp_path: Path, daemon_via: str) -> None:
    env = installed.env(daemon_via, tmp_path / "bin")
    bridge = start_installed_bridge(installed, env, outside)
    try:
        assert f"page from {installed.package / 'web'}" in bridge.first_line, bridge.first_line
        status, headers, body = fetch(bridge.port, "GET", "/")
        assert status == 200 and headers["content-type"].startswith("text/html")
        assert body == (installed.package / "web" / "index.html").read_bytes()
        for p in web_files():
            status, _, body = fetch(bridge.port, "GET", "/" + p.name)
            assert (status, body) == (200, p.read_bytes()), p.name
        status, headers, body = fetch(bridge.port, "GET", "/js/flowlayout.js")
        if (JS / "flowlayout.js").is_file():
            assert f"/js/ from {installed.package / 'js'}" in bridge.first_line, bridge.first_line
            assert status == 200 and headers["content-type"].startswith("text/javascript")
            assert body == (JS / "flowlayout.js").read_bytes()
        else:
            assert status == 404
        status, _, body = fetch(bridge.port, "POST", "/rpc",
                                {"jsonrpc": "2.0", "id": 1, "method": "layout/open", "params": SEED_OPEN})
        answer = json.loads(body)
        assert status == 200 and answer["id"] == 1
        assert answer["result"]["contentSize"] == {"width": 2445, "height": 300}
        status, _, body = fetch(bridge.port, "POST", "/rpc", {
            "jsonrpc": "2.0", "id": 2, "method": "layout/setBounds",
            "params": {"session": "seed", "bounds": AT_460}})
        assert status == 200 and json.loads(body)["result"]["centeredItem"] == {"section": 0, "item": 2}
    finally:
        code, rest = bridge.stop()
    assert code == 0, rest
    assert "flowlayoutd exited with status 0" in rest, rest
    assert daemon_gone(bridge.daemon_pid)


# MARK: sdist -> wheel, and a build without the page


def _wheel_names(wheel: Path) -> Dict[str, bytes]:
    with zipfile.ZipFile(wheel) as z:
        return {n: z.read(n) for n in z.namelist() if n.startswith(("flowlayout/web/", "flowlayout/js/"))}


def _expected_in_wheel() -> Dict[str, bytes]:
    expected = {f"flowlayout/web/{p.name}": p.read_bytes() for p in web_files()}
    expected.update({f"flowlayout/js/{p.name}": p.read_bytes() for p in js_files()})
    return expected


def _setuptools(installed: Installed, cwd: Path) -> None:
    """setuptools in the venv, for the sdist (a venv of Python 3.12 or
    later has none; pip installs it from PyPI)."""
    env = base_env()
    probe = run([str(installed.python), "-c",
                 "import setuptools, sys; sys.exit(int(setuptools.__version__.split('.')[0]) < 61)"],
                cwd, env)
    if probe.returncode != 0:
        done = run([str(installed.python), "-m", "pip", "install", "setuptools>=61"], cwd, env, timeout=600)
        assert done.returncode == 0, done.stdout + done.stderr


def test_a_wheel_built_from_the_sdist_carries_the_web_client(installed: Installed, tmp_path: Path) -> None:
    _setuptools(installed, tmp_path)
    dist = tmp_path / "dist"
    dist.mkdir()
    env = base_env()
    # The PEP 517 hook pip would call, run in clients/python as a build frontend does.
    done = run([str(installed.python), "-c",
                "import sys, setuptools.build_meta as b; print(b.build_sdist(sys.argv[1]))", str(dist)],
               PACKAGE, env, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    sdist = dist / done.stdout.strip().splitlines()[-1]
    with tarfile.open(sdist) as t:
        names = set(t.getnames())
    top = sdist.name[: -len(".tar.gz")]
    expected = _expected_in_wheel()
    assert {f"{top}/bundled/{n[len('flowlayout/'):]}" for n in expected} <= names, sorted(names)
    assert f"{top}/setup.py" in names
    # The sdist unpacked elsewhere, far from clients/web: pip builds the wheel from it.
    wheels = tmp_path / "wheels"
    done = run([str(installed.python), "-m", "pip", "wheel", "--no-deps", "-w", str(wheels), str(sdist)],
               tmp_path, env, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    (wheel,) = wheels.glob("flowlayout-*.whl")
    assert _wheel_names(wheel) == expected


def test_a_build_that_cannot_find_the_page_fails(installed: Installed, tmp_path: Path) -> None:
    """clients/python copied away from clients/web (as pip before 21.3
    did): no wheel without the page."""
    copy = tmp_path / "python"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("build", "*.egg-info", "tests", "__pycache__"))
    assert not (tmp_path / "web").exists()
    wheels = tmp_path / "wheels"
    done = run([str(installed.python), "-m", "pip", "wheel", "--no-deps", "-w", str(wheels), str(copy)],
               tmp_path, base_env(), timeout=600)
    assert done.returncode != 0
    assert "index.html was found neither in" in done.stdout + done.stderr, done.stdout + done.stderr
    assert not list(wheels.glob("*.whl"))


def test_make_install_into_a_prefix(tmp_path: Path) -> None:
    """`make install PREFIX=…` then, with only PREFIX/bin (and the system's
    own directories) on PATH and no FLOWLAYOUT* variable, `flowlayout demo`
    and `render` work from /tmp; `make uninstall` removes both commands."""
    import os
    import subprocess

    repo = Path(__file__).resolve().parents[3]
    prefix = tmp_path / "prefix"
    made = subprocess.run(
        ["make", "-s", "install", f"PREFIX={prefix}", f"INSTALL_DAEMON={daemon_path()}"],
        cwd=repo, capture_output=True, text=True, timeout=600,
    )
    assert made.returncode == 0, made.stdout + made.stderr
    assert (prefix / "bin" / "flowlayoutd").is_file() and os.access(prefix / "bin" / "flowlayout", os.X_OK)
    env = {"PATH": f"{prefix / 'bin'}:/usr/bin:/bin", "HOME": str(tmp_path), "LANG": "C.UTF-8"}
    demo = subprocess.run(["flowlayout", "demo"], cwd="/tmp", env=env, capture_output=True, text=True,
                          timeout=120)
    assert demo.returncode == 0, demo.stderr
    assert "release (v=0), snap" in demo.stdout and "targetContentOffset" in demo.stdout
    script = write_script(tmp_path / "s.jsonl", SCRIPT)
    out = tmp_path / "view.svg"
    drawn = subprocess.run(["flowlayout", "render", "--session-script", str(script), "--out", str(out)],
                           cwd="/tmp", env=env, capture_output=True, text=True, timeout=120)
    assert drawn.returncode == 0, drawn.stderr
    assert out.read_text().startswith("<svg") or "<svg" in out.read_text()[:200]
    # The README's render line, as written, against the installed commands:
    # PNG works (issue #45: `make install` installs Pillow in its venv).
    readme = (repo / "README.md").read_text(encoding="utf-8")
    line = re.search(r"`(flowlayout render\s+--session-script S\.jsonl --out view\.png)`", readme)
    assert line, "README.md lost its render line"
    command = line.group(1).split()
    command[command.index("S.jsonl")] = str(script)
    sizes = []
    for scale in (None, "2"):
        png = tmp_path / "view.png"
        png.unlink(missing_ok=True)
        drawn = subprocess.run(command + (["--scale", scale] if scale else []), cwd=tmp_path, env=env,
                               capture_output=True, text=True, timeout=120)
        assert drawn.returncode == 0, drawn.stderr
        data = png.read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n", data[:24]
        sizes.append(struct.unpack(">II", data[16:24]))
    # The 375×300 viewport and a 20-point margin at least; twice at --scale 2.
    (w, h), (w2, h2) = sizes
    assert w >= 415 and h >= 340 and (w2, h2) == (2 * w, 2 * h), sizes
    gone = subprocess.run(["make", "-s", "uninstall", f"PREFIX={prefix}"], cwd=repo, capture_output=True,
                          text=True, timeout=120)
    assert gone.returncode == 0, gone.stderr
    assert not (prefix / "bin" / "flowlayoutd").exists() and not (prefix / "bin" / "flowlayout").exists()
    assert not (prefix / "lib" / "flowlayout").exists()
