"""The cookbook (docs/cookbook/<type>.md): every layout type has a page;
every recipe on it is a session script under examples/ that runs without an
error; the layout each page shows is the one its script opens; and each
committed picture is what `flowlayout render` draws now (`make cookbook`
redraws them)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from daemon_support import DAEMON, REPO

EXAMPLES = sorted((REPO / "examples").glob("*/*.jsonl"))
COOKBOOK = REPO / "docs" / "cookbook"


def opened(path: Path) -> dict:
    for line in path.read_text(encoding="utf-8").splitlines():
        m = json.loads(line)
        if m.get("method") == "layout/open":
            return m["params"]
    raise AssertionError(f"{path} opens no session")


def test_every_layout_type_has_a_page_with_its_smallest_open(daemon):
    types = daemon.initialize()["capabilities"]["layoutTypes"]
    assert len(types) == 7
    for t in types:
        page = COOKBOOK / f"{t}.md"
        assert page.is_file(), t
        text = page.read_text(encoding="utf-8")
        smallest = (REPO / "examples" / t / "smallest.jsonl").read_text(encoding="utf-8").splitlines()[0]
        assert f"--> {smallest}" in text, t
        assert opened(REPO / "examples" / t / "smallest.jsonl")["layout"]["type"] == t


@pytest.mark.parametrize("page", sorted(COOKBOOK.glob("*.md")), ids=lambda p: p.stem)
def test_each_recipe_shows_the_layout_its_script_opens(page):
    text = page.read_text(encoding="utf-8")
    recipes = re.findall(r"\[`(examples/[^`]+\.jsonl)`\]\([^)]*\)\n\n```json\n(.*?)\n```", text, re.S)
    assert recipes, page
    for path, shown in recipes:
        assert json.loads(shown) == opened(REPO / path)["layout"], path
    for image in re.findall(r"!\[[^]]*\]\((img/[^)]+)\)", text):
        assert (COOKBOOK / image).is_file(), image


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_each_recipe_runs_and_its_picture_is_current(tmp_path, example):
    from PIL import Image, ImageChops

    out = tmp_path / "view.png"
    env = dict(os.environ, FLOWLAYOUTD=DAEMON)
    env["PYTHONPATH"] = str(REPO / "clients" / "python") + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    done = subprocess.run([sys.executable, "-m", "flowlayout", "render", "--session-script", str(example),
                           "--out", str(out)], capture_output=True, text=True, env=env, timeout=60)
    assert done.returncode == 0 and "failed" not in done.stderr, done.stderr
    committed = COOKBOOK / "img" / f"{example.parent.name}-{example.stem}.png"
    assert committed.is_file(), f"{committed} is missing: run make cookbook"
    now, then = Image.open(out).convert("RGB"), Image.open(committed).convert("RGB")
    assert now.size == then.size and ImageChops.difference(now, then).getbbox() is None, (
        f"{committed} is not what render draws now: run make cookbook")


def test_the_performance_page_is_the_bench_report():
    """docs/performance.md, and protocol.md's measured worst cases, are what
    `bench/run.py --report` writes from the committed bench/results.json
    and bench/notes.md (make bench writes the results and both)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("bench_run", REPO / "bench" / "run.py")
    run = importlib.util.module_from_spec(spec)
    argv = sys.argv
    try:
        sys.argv = ["run.py"]
        spec.loader.exec_module(run)
    finally:
        sys.argv = argv
    results = json.loads((REPO / "bench" / "results.json").read_text(encoding="utf-8"))
    page = (REPO / "docs" / "performance.md").read_text(encoding="utf-8")
    assert page == run.performance_doc(results), "docs/performance.md is stale: python3 bench/run.py --report"
    assert results["table_markdown"].strip() in page
    # And protocol.md's measured worst cases.
    protocol = (REPO / "protocol.md").read_text(encoding="utf-8")
    assert protocol == run.protocol_with_worst_cases(protocol, results), (
        "protocol.md's worst cases are stale: python3 bench/run.py --report")


def test_the_development_page_shows_the_daemons_own_help():
    """docs/development.md quotes `flowlayoutd --help` whole: the flags and
    their defaults as the daemon prints them."""
    page = (REPO / "docs" / "development.md").read_text(encoding="utf-8")
    shown = re.search(r"```\n\$ \.build/debug/flowlayoutd --help\n(.*?)```", page, re.S)
    assert shown, "docs/development.md lost its --help block"
    printed = subprocess.run([DAEMON, "--help"], capture_output=True, text=True, timeout=60).stdout
    assert shown.group(1) == printed
