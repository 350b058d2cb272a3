"""The client package installed the way a user installs it, for
test_install.py and test_web.py: a fresh virtualenv (``python3 -m venv``)
in a temporary directory, ``pip install <repo>/clients/python`` into it
(with build isolation: pip fetches setuptools from PyPI), and environments
that run its ``flowlayout`` command from outside the checkout, with
nothing of the checkout in reach but the daemon.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, List, Optional

from daemon_support import DAEMON, REPO

PACKAGE = REPO / "clients" / "python"
WEB = REPO / "clients" / "web"
JS = REPO / "clients" / "js"

#: Variables that would let the installed command find the checkout.
CHECKOUT_VARIABLES = ("PYTHONPATH", "PYTHONHOME", "FLOWLAYOUTD", "FLOWLAYOUT_WEB_ROOT",
                      "FLOWLAYOUT_JS_ROOT", "VIRTUAL_ENV")

#: pip and the build may be slow on a busy machine; this is a hang, not slowness.
INSTALL_TIMEOUT = 600


def daemon_path() -> str:
    """$FLOWLAYOUTD as an absolute path: the commands run elsewhere, and
    `make` passes a relative one."""
    return os.path.abspath(DAEMON)


def web_files() -> List[Path]:
    """What the wheel must carry as flowlayout/web/ (setup.py's rule)."""
    return sorted(p for p in WEB.iterdir() if p.is_file() and not p.name.startswith("."))


def js_files() -> List[Path]:
    """What the wheel must carry as flowlayout/js/: none without clients/js."""
    if not JS.is_dir():
        return []
    return sorted(
        p for p in JS.iterdir()
        if p.is_file() and not p.name.startswith(".") and p.name.endswith((".js", ".mjs", ".d.ts"))
    )


def inside_checkout(path: Path) -> bool:
    path, repo = path.resolve(), REPO.resolve()
    return path == repo or repo in path.parents


def base_env() -> Dict[str, str]:
    """This process's environment less everything that points at the checkout."""
    env = {k: v for k, v in os.environ.items() if k not in CHECKOUT_VARIABLES}
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    env["PIP_NO_INPUT"] = "1"
    return env


def _path_without_flowlayoutd(path: str) -> List[str]:
    return [d for d in path.split(os.pathsep) if d and not os.path.exists(os.path.join(d, "flowlayoutd"))]


@dataclass
class Installed:
    venv: Path
    python: Path
    flowlayout: Path  # the console script
    package: Path     # site-packages/flowlayout
    seconds: float    # venv + pip install
    pip_output: str

    def env(self, daemon_via: str, bindir: Path) -> Dict[str, str]:
        """An environment for the installed command, with the daemon found
        through ``PATH`` (``"path"``: ``bindir`` gets a ``flowlayoutd``
        symlink to $FLOWLAYOUTD and goes first on PATH) or through
        ``$FLOWLAYOUTD`` (``"env"``: then no ``flowlayoutd`` is on PATH)."""
        env = base_env()
        rest = _path_without_flowlayoutd(env.get("PATH", os.defpath))
        if daemon_via == "path":
            bindir.mkdir(parents=True, exist_ok=True)
            link = bindir / "flowlayoutd"
            if not link.exists():
                link.symlink_to(daemon_path())
            env["PATH"] = os.pathsep.join([str(bindir), str(self.venv / "bin"), *rest])
            assert shutil.which("flowlayoutd", path=env["PATH"]) == str(link)
        elif daemon_via == "env":
            env["PATH"] = os.pathsep.join([str(self.venv / "bin"), *rest])
            env["FLOWLAYOUTD"] = daemon_path()
            assert shutil.which("flowlayoutd", path=env["PATH"]) is None
        else:
            raise ValueError(daemon_via)
        return env


def run(argv: List[str], cwd: Path, env: Dict[str, str], timeout: float = 60,
        stdin: Optional[str] = None) -> "subprocess.CompletedProcess[str]":
    return subprocess.run(argv, cwd=str(cwd), env=env, input=stdin, capture_output=True,
                          text=True, timeout=timeout)


def install(tmp: Path) -> Installed:
    """A new venv in ``tmp``/venv with the checkout's clients/python
    installed by pip, as the README says."""
    assert not inside_checkout(tmp), f"{tmp} is inside the checkout"
    start = time.monotonic()
    venv = tmp / "venv"
    env = base_env()
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, cwd=str(tmp), env=env,
                   timeout=INSTALL_TIMEOUT)
    python = venv / "bin" / "python"
    done = run([str(python), "-m", "pip", "install", str(PACKAGE)], tmp, env, timeout=INSTALL_TIMEOUT)
    assert done.returncode == 0, f"pip install failed:\n{done.stdout}\n{done.stderr}"
    where = run([str(python), "-c", "import flowlayout, os; print(os.path.dirname(flowlayout.__file__))"],
                tmp, env)
    assert where.returncode == 0, where.stderr
    package = Path(where.stdout.strip())
    return Installed(
        venv=venv, python=python, flowlayout=venv / "bin" / "flowlayout", package=package,
        seconds=time.monotonic() - start, pip_output=done.stdout + done.stderr,
    )
