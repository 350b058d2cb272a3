"""README.md stays short and true: under 12,000 characters, its Python and
JavaScript examples run against the daemon as written, and every relative
link in it and in docs/ leads to a file that exists."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from daemon_support import DAEMON, REPO

README = (REPO / "README.md").read_text(encoding="utf-8")


def block(language: str) -> str:
    m = re.search(rf"```{language}\n(.*?)\n```", README, re.S)
    assert m, f"README.md has no {language} example"
    return m.group(1)


def test_the_readme_is_short():
    assert len(README) < 12_000, len(README)


def test_the_python_example_runs(tmp_path):
    env = dict(os.environ, FLOWLAYOUTD=DAEMON, PYTHONPATH=str(REPO / "clients" / "python"))
    done = subprocess.run([sys.executable, "-c", block("python")], capture_output=True, text=True, env=env,
                          cwd=tmp_path, timeout=60)
    assert done.returncode == 0, done.stderr
    assert re.fullmatch(r"Point\(x=[-\d.e]+, y=0(\.0)?\)\n", done.stdout), done.stdout


def test_the_javascript_example_runs(tmp_path):
    code = block("js").replace("'./clients/js/flowlayout.js'", repr((REPO / "clients/js/flowlayout.js").as_uri()))
    script = tmp_path / "example.mjs"
    script.write_text(code, encoding="utf-8")
    done = subprocess.run(["node", str(script)], capture_output=True, text=True,
                          env=dict(os.environ, FLOWLAYOUTD=DAEMON), timeout=60)
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize("page", [REPO / "README.md", *sorted((REPO / "docs").rglob("*.md"))],
                         ids=lambda p: str(p.relative_to(REPO)))
def test_relative_links_lead_somewhere(page):
    text = page.read_text(encoding="utf-8")
    for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", text):
        if re.match(r"[a-z]+:", target):
            continue
        assert (page.parent / target).exists(), f"{page.relative_to(REPO)} links to a missing {target}"
