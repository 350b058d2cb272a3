"""Editors' own JSON-RPC clients drive a whole flowlayoutd session,
unmodified: Neovim's built-in LSP client (vim.lsp) and Emacs's jsonrpc.el
(Eglot's transport), each from a script under Tests/EndToEnd/editors/ run headless. Each
sends the session of client_session.py (the steps are handed over as a JSON
file), writes what it got back as JSON, shuts the daemon down the way the
editor does, and records the daemon's exit status, which must be 0.

`make deps-editors` (part of `make test`) installs Debian's neovim and
emacs-nox. A missing editor fails these tests; FLOWLAYOUT_SKIP_EDITORS=1
skips them instead.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from client_session import STEPS, check_initialize, check_outcomes
from daemon_support import DAEMON

EDITORS = Path(__file__).resolve().parents[1] / "editors"  # Tests/EndToEnd/editors

#: Seconds an editor may take for the whole session (each request and wait
#: inside the scripts is bounded by 5 s of its own).
EDITOR_TIMEOUT = 30


def editor(program: str) -> str:
    if os.environ.get("FLOWLAYOUT_SKIP_EDITORS") == "1":
        pytest.skip("FLOWLAYOUT_SKIP_EDITORS=1")
    path = shutil.which(program)
    if path is None:
        pytest.fail(f"{program} not found: `make deps-editors` installs it (or set FLOWLAYOUT_SKIP_EDITORS=1)")
    if not os.access(DAEMON, os.X_OK):
        pytest.fail(f"daemon not found or not executable: {DAEMON} (set FLOWLAYOUTD)")
    return path


def run_session(argv: list[str], tmp_path: Path) -> dict:
    """Runs an editor script over client_session.STEPS and returns its
    report. HOME and the XDG directories point into tmp_path, so neither
    editor reads a user's configuration or leaves logs behind."""
    steps = tmp_path / "steps.json"
    steps.write_text(json.dumps([{"method": m, "params": p} for m, p in STEPS]), encoding="utf-8")
    out = tmp_path / "report.json"
    home = tmp_path / "home"
    env = dict(os.environ)
    env.update(
        FLOWLAYOUTD=DAEMON,
        FLOWLAYOUT_STEPS=str(steps),
        FLOWLAYOUT_OUT=str(out),
        HOME=str(home),
        XDG_CONFIG_HOME=str(home / "config"),
        XDG_CACHE_HOME=str(home / "cache"),
        XDG_STATE_HOME=str(home / "state"),
        XDG_DATA_HOME=str(home / "data"),
    )
    home.mkdir()
    try:
        proc = subprocess.run(argv, stdin=subprocess.DEVNULL, capture_output=True, env=env,
                              timeout=EDITOR_TIMEOUT, cwd=tmp_path)
    except subprocess.TimeoutExpired as e:
        raise AssertionError(f"{argv[0]} did not finish within {EDITOR_TIMEOUT}s: {e.stderr!r}") from None
    assert out.exists(), f"{argv[0]} wrote no report (exit {proc.returncode}): {proc.stderr!r} {proc.stdout!r}"
    report = json.loads(out.read_text(encoding="utf-8"))
    assert "failure" not in report, f"the script failed: {report['failure']}; stderr: {proc.stderr!r}"
    assert proc.returncode == 0, (proc.returncode, proc.stderr)
    return report


def test_full_session_with_neovim_lsp_client(tmp_path):
    nvim = editor("nvim")
    script = EDITORS / "nvim_session.lua"
    report = run_session([nvim, "--headless", "-u", "NONE", "-i", "NONE", "-n", "-c", f"luafile {script}"], tmp_path)

    # vim.lsp.start_client sent initialize (and `initialized`) itself.
    check_initialize(report["initialize"])
    check_outcomes(report["outcomes"])
    # client.stop() sends shutdown and, only when it succeeded, exit; had
    # shutdown failed Neovim would have sent SIGTERM (signal 15).
    assert report["exit"] == {"code": 0, "signal": 0}
    # vim.lsp logs (at its default level, WARN) any message it could not
    # handle and every line the daemon writes to stderr: there must be none.
    log = tmp_path / "home" / "cache" / "nvim" / "lsp.log"
    text = log.read_text(encoding="utf-8") if log.exists() else ""
    assert "[ERROR]" not in text and "[WARN]" not in text, text


def test_full_session_with_emacs_jsonrpc(tmp_path):
    emacs = editor("emacs")
    script = EDITORS / "emacs_session.el"
    report = run_session([emacs, "--batch", "-Q", "-l", str(script)], tmp_path)

    check_initialize(report["initialize"])
    check_outcomes(report["outcomes"])
    assert report["shutdown"] is None
    assert report["exit"] == {"status": 0, "event": "exit"}
    # Nothing on the daemon's stderr but Emacs's own note that the pipe closed.
    lines = [ln for ln in report["stderr"].splitlines() if ln and not ln.startswith("Process flowlayoutd stderr")]
    assert lines == [], report["stderr"]
