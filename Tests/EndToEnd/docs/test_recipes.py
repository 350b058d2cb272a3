"""docs/recipes.md (issue #45): every recipe's script is the file under
examples/recipes/ as it stands, runs against the daemon from outside the
checkout, and prints exactly what the page shows under it. The values the
page shows are the protocol's (see each recipe's text): this test keeps
the page, the scripts and the daemon together."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from daemon_support import DAEMON, REPO

PAGE = (REPO / "docs" / "recipes.md").read_text(encoding="utf-8")
RECIPES = re.findall(
    r"\[`(examples/recipes/[\w]+\.py)`\]\([^)]*\)\n\n```python\n(.*?)\n```\n\nprints\n\n```text\n(.*?)\n```",
    PAGE, re.S,
)
#: The issue's tasks, each a recipe.
TASKS = ["snap", "diff", "reorder", "chat", "self_sizing", "pager", "render"]


def test_every_task_has_a_recipe_and_every_script_is_on_the_page():
    assert [Path(p).stem for p, _, _ in RECIPES] == TASKS
    assert sorted(p.name for p in (REPO / "examples" / "recipes").glob("*.py")) == sorted(f"{t}.py" for t in TASKS)


def test_the_readme_links_the_page():
    assert "(docs/recipes.md)" in (REPO / "README.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("path, source, printed", RECIPES, ids=[Path(p).stem for p, _, _ in RECIPES])
def test_the_recipe_runs_and_prints_what_the_page_shows(tmp_path, path, source, printed):
    script = REPO / path
    assert script.read_text(encoding="utf-8").rstrip("\n") == source, f"{path} differs from docs/recipes.md"
    env = dict(os.environ, PYTHONPATH=str(REPO / "clients" / "python"), FLOWLAYOUTD=os.path.abspath(DAEMON))
    done = subprocess.run([sys.executable, str(script)], cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.rstrip("\n") == printed
    if Path(path).stem == "render":
        svg = (tmp_path / "view.svg").read_text(encoding="utf-8")
        # scale=2: twice the view box (the viewport, what the cards draw
        # around it and a 20-point margin) in the document's size.
        w, h, box = re.search(r'<svg[^>]* width="([\d.]+)" height="([\d.]+)" viewBox="([^"]+)"', svg).groups()
        _, _, bw, bh = map(float, box.split())
        assert (float(w), float(h)) == (2 * bw, 2 * bh) and bh == 340
