"""Every client finds the daemon in the one order README.md's "Finding the
daemon" documents (issue #45): the argument, $FLOWLAYOUTD, `.build/release`
then `.build/debug` from the working directory upward, the same from the
client's own file upward, then PATH. The Python and JavaScript clients are
run in a scratch tree of stub daemons; the Swift client's order is
FlowLayoutClientTests' testFindDaemonOrder. The README's JavaScript example
runs with no FLOWLAYOUTD from the checkout, as after `make demo`."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from daemon_support import REPO

README = (REPO / "README.md").read_text(encoding="utf-8")


def stub(path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("#!/bin/sh\nexit 0\n")
    path.chmod(0o755)
    return path


def python_finder(lib: Path) -> list[str]:
    shutil.copytree(REPO / "clients/python/flowlayout", lib / "flowlayout",
                    ignore=shutil.ignore_patterns("__pycache__"))
    return [sys.executable, "-c", "from flowlayout import find_daemon; print(find_daemon())"]


def js_finder(lib: Path) -> list[str]:
    lib.mkdir(parents=True, exist_ok=True)
    for f in ("flowlayout.js", "methods.js"):
        shutil.copy(REPO / "clients/js" / f, lib / f)
    code = f"import {{ findDaemon }} from {(lib / 'flowlayout.js').as_uri()!r}; console.log(await findDaemon());"
    return [shutil.which("node") or "node", "--input-type=module", "-e", code]


FINDERS = {"python": python_finder, "js": js_finder}


def found(command: list[str], cwd: Path, env: dict[str, str]) -> tuple[int, str]:
    done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=60)
    return done.returncode, (done.stdout.strip() if done.returncode == 0 else done.stderr)


@pytest.mark.parametrize("client", sorted(FINDERS))
def test_the_documented_order(client, tmp_path):
    # The client's module lives in lib/, under a tree with its own .build
    # (a checkout's client); the working directory is project/sub/deeper.
    checkout = tmp_path / "checkout"
    command = FINDERS[client](checkout / "clients" / client)
    project = tmp_path / "project"
    cwd = project / "sub" / "deeper"
    cwd.mkdir(parents=True)
    bin_dir = tmp_path / "bin"
    on_path = stub(bin_dir / "flowlayoutd")
    env = {k: v for k, v in os.environ.items() if k != "FLOWLAYOUTD"}
    env["PATH"] = f"{bin_dir}{os.pathsep}{os.environ['PATH']}"
    env["PYTHONPATH"] = str(checkout / "clients" / client)

    # 5. PATH, when no .build is above the working directory or the client.
    assert found(command, cwd, env) == (0, str(on_path))
    # 4. The client's own checkout: debug, then release over it.
    own_debug = stub(checkout / ".build/debug/flowlayoutd")
    assert found(command, cwd, env) == (0, str(own_debug))
    own_release = stub(checkout / ".build/release/flowlayoutd")
    assert found(command, cwd, env) == (0, str(own_release))
    # 3. The working directory's ancestors come before the client's own.
    debug = stub(project / ".build/debug/flowlayoutd")
    assert found(command, cwd, env) == (0, str(debug))
    release = stub(project / ".build/release/flowlayoutd")
    assert found(command, cwd, env) == (0, str(release))
    # A directory or a file that cannot be run is not a daemon.
    (cwd / ".build/release/flowlayoutd").mkdir(parents=True)
    (cwd / ".build/debug").mkdir(parents=True)
    (cwd / ".build/debug/flowlayoutd").write_text("not executable")
    assert found(command, cwd, env) == (0, str(release))
    # 2. $FLOWLAYOUTD before any of them.
    assert found(command, cwd, dict(env, FLOWLAYOUTD="/opt/x/flowlayoutd")) == (0, "/opt/x/flowlayoutd")


@pytest.mark.parametrize("client", sorted(FINDERS))
def test_nothing_found_names_every_place_looked(client, tmp_path):
    command = FINDERS[client](tmp_path / "lib")
    env = {k: v for k, v in os.environ.items() if k != "FLOWLAYOUTD"}
    (tmp_path / "empty").mkdir()
    env["PATH"] = str(tmp_path / "empty")
    env["PYTHONPATH"] = str(tmp_path / "lib")
    code, err = found(command, tmp_path, env)
    assert code != 0
    for place in ("FLOWLAYOUTD", ".build/{release,debug}/flowlayoutd", "PATH"):
        assert place in err, err


def test_the_readme_documents_the_order_once():
    section = re.search(r"### Finding the daemon\n(.*?)\n#", README, re.S).group(1)
    items = re.findall(r"^\d\. (.*)", section, re.M)
    assert len(items) == 5 and "$FLOWLAYOUTD" in items[1] and "PATH" in items[4], items
    for readme in ("clients/python/README.md", "clients/js/README.md"):
        assert "Finding the daemon" in " ".join((REPO / readme).read_text(encoding="utf-8").split()), readme


def test_the_javascript_readme_example_finds_the_checkouts_daemon(tmp_path):
    """After `make demo` (a debug build), from the checkout's root and with
    no FLOWLAYOUTD: the issue's DaemonError must not happen."""
    code = re.search(r"```js\n(.*?)\n```", README, re.S).group(1)
    script = REPO / ".build" / f"readme-example-{os.getpid()}.mjs"
    script.write_text(code.replace("'./clients/js/flowlayout.js'", "'../clients/js/flowlayout.js'"), encoding="utf-8")
    try:
        env = {k: v for k, v in os.environ.items() if k != "FLOWLAYOUTD"}
        env["PATH"] = str(script.parent)  # no flowlayoutd on PATH
        done = subprocess.run([shutil.which("node"), str(script)], cwd=REPO, env=env, capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr
    finally:
        script.unlink()
