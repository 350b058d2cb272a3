"""docs/editors.md's snippets, run as written (issue #45): Neovim's vim.lsp
(0.7+) and vim.system (0.10+; on an older Neovim through a stand-in
vim.system made of jobstart, so that the snippet's own framing is what
runs), Emacs's jsonrpc.el, the VS Code task and the VS Code extension (its
activate() and command under a stub `vscode` module in Node). Each must
print the page's line, which is what the Python client gets for the same
requests.

`make deps-editors` (part of `make test`) installs neovim and emacs-nox; a
missing editor fails, FLOWLAYOUT_SKIP_EDITORS=1 skips those tests."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from daemon_support import DAEMON, REPO

PAGE = (REPO / "docs" / "editors.md").read_text(encoding="utf-8")
README = (REPO / "README.md").read_text(encoding="utf-8")
#: Seconds a snippet may take (each of its waits is 5 s at most).
TIMEOUT = 60


def snippet(language: str, first_line: str) -> str:
    for lang, body in re.findall(r"```(\w*)\n(.*?)```", PAGE, flags=re.S):
        if lang == language and body.startswith(first_line):
            return body
    raise AssertionError(f"docs/editors.md has no {language} block starting {first_line!r}")


def expected_line() -> str:
    m = re.search(r"prints where it comes to rest:\n\n```\n(.*?)\n```", PAGE)
    assert m, "docs/editors.md lost the line its snippets print"
    return m.group(1)


def test_the_printed_line_is_the_daemons_answer():
    """The page's line, from the Python client for the same requests."""
    sys.path.insert(0, str(REPO / "clients" / "python"))
    from flowlayout import Client, Rect

    with Client(os.path.abspath(DAEMON)) as c:
        c.open("s", {"type": "coverFlow"}, Rect(0, 0, 375, 300), [{"itemCount": 10}])
        plan = c.scroll_ended("s", (120, 0), (1, 0))
    assert expected_line() == f"rests at {plan.target_content_offset.x:g} on item {plan.target_item.item}"


def test_the_readme_links_the_page():
    assert "(docs/editors.md)" in README


def editor(program: str) -> str:
    if os.environ.get("FLOWLAYOUT_SKIP_EDITORS") == "1":
        pytest.skip("FLOWLAYOUT_SKIP_EDITORS=1")
    path = shutil.which(program)
    if path is None:
        pytest.fail(f"{program} not found: `make deps-editors` installs it (or set FLOWLAYOUT_SKIP_EDITORS=1)")
    return path


def env_for(tmp_path: Path) -> dict:
    home = tmp_path / "home"
    env = dict(os.environ, FLOWLAYOUTD=os.path.abspath(DAEMON), HOME=str(home),
               XDG_CONFIG_HOME=str(home / "config"), XDG_CACHE_HOME=str(home / "cache"),
               XDG_STATE_HOME=str(home / "state"), XDG_DATA_HOME=str(home / "data"))
    return env


def run(argv: list[str], cwd: Path, env: dict) -> subprocess.CompletedProcess:
    return subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=TIMEOUT)


def nvim_has_vim_system(nvim: str) -> bool:
    done = subprocess.run([nvim, "--headless", "-u", "NONE", "-i", "NONE", "-n", "-c",
                           "lua io.stderr:write(vim.system and 'yes' or 'no')", "-c", "qa!"],
                          capture_output=True, text=True, timeout=TIMEOUT)
    return "yes" in done.stderr


#: For a Neovim before 0.10: vim.system's calls the snippet makes, over
#: jobstart (whose on_stdout splits the bytes at newlines: joined back).
VIM_SYSTEM_STAND_IN = """
if not vim.system then
  vim.system = function(cmd, opts)
    local on_stdout = opts.stdout
    local job = vim.fn.jobstart(cmd, {
      on_stdout = function(_, lines) on_stdout(nil, table.concat(lines, "\\n")) end,
    })
    assert(job > 0, "jobstart failed")
    return {
      write = function(_, data) vim.fn.chansend(job, data) end,
      wait = function(_, ms) return { code = vim.fn.jobwait({ job }, ms or -1)[1] } end,
      kill = function() vim.fn.jobstop(job) end,
    }
  end
end
"""


@pytest.mark.parametrize("first_line", ["-- flowlayout.lua", "-- flowlayout-system.lua"])
def test_neovim_snippets(tmp_path, first_line):
    nvim = editor("nvim")
    name = first_line[3:].split(":")[0]
    (tmp_path / name).write_text(snippet("lua", first_line), encoding="utf-8")
    argv = [nvim, "--headless", "-u", "NONE", "-i", "NONE", "-n"]
    if name == "flowlayout-system.lua" and not nvim_has_vim_system(nvim):
        (tmp_path / "stand-in.lua").write_text(VIM_SYSTEM_STAND_IN, encoding="utf-8")
        argv += ["-c", "luafile stand-in.lua"]
    done = run(argv + ["-c", f"luafile {name}", "-c", "qa!"], tmp_path, env_for(tmp_path))
    # Neovim headless prints to stderr, and an error in a -c command does
    # not change its exit status: the output must be the line alone.
    assert done.returncode == 0, done.stderr
    assert done.stderr.strip() == expected_line(), done.stderr
    assert done.stdout == ""


def test_emacs_snippet(tmp_path):
    emacs = editor("emacs")
    (tmp_path / "flowlayout.el").write_text(snippet("elisp", ";;; flowlayout.el"), encoding="utf-8")
    done = run([emacs, "--batch", "-Q", "-l", "flowlayout.el"], tmp_path, env_for(tmp_path))
    assert done.returncode == 0, done.stderr
    assert done.stderr.strip().splitlines()[-1] == expected_line(), done.stderr


def test_vscode_task(tmp_path):
    """The task's command, with VS Code's variables for an open script, and
    `flowlayout` on PATH (here, this checkout's package)."""
    task = json.loads(snippet("json", "{"))["tasks"][0]
    assert task["label"] == "flowlayout: render" and task["type"] == "shell"
    script = tmp_path / "view.jsonl"
    script.write_text(json.dumps({"id": 1, "method": "layout/open", "params": {
        "session": "s", "layout": {"type": "coverFlow"}, "bounds": {"x": 0, "y": 0, "width": 375, "height": 300},
        "sections": [{"itemCount": 10}]}}) + "\n", encoding="utf-8")
    command = (task["command"].replace("${file}", str(script)).replace("${fileDirname}", str(tmp_path))
               .replace("${fileBasenameNoExtension}", "view"))
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    wrapper = bin_dir / "flowlayout"
    wrapper.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m flowlayout "$@"\n')
    wrapper.chmod(0o755)
    env = dict(env_for(tmp_path), PATH=f"{bin_dir}{os.pathsep}{os.environ['PATH']}",
               PYTHONPATH=str(REPO / "clients" / "python"))
    done = subprocess.run(command, shell=True, cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=TIMEOUT)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "view.svg").read_text(encoding="utf-8").lstrip().startswith("<?xml")


#: The vscode module as an extension sees it, reduced to what the snippet
#: calls: registerCommand and showInformationMessage, recorded.
VSCODE_STUB = """
const commands = {};
const messages = [];
module.exports = {
  commands: { registerCommand(name, fn) { commands[name] = fn; return { dispose() {} }; } },
  window: { showInformationMessage(text) { messages.push(text); return Promise.resolve(undefined); } },
  _commands: commands,
  _messages: messages,
};
"""

HOST = """
const vscode = require('vscode');
const extension = require('./extension.js');
const context = { subscriptions: [] };
extension.activate(context);
if (context.subscriptions.length !== 1) throw new Error('activate registered no command');
vscode._commands['flowlayout.rest']().then((text) => {
  console.log(JSON.stringify({ returned: text, shown: vscode._messages }));
}, (e) => { console.error(e); process.exit(1); });
"""


def test_vscode_extension(tmp_path):
    node = shutil.which("node")
    assert node, "node is needed (the JS client's tests need it too)"
    (tmp_path / "extension.js").write_text(snippet("js", "// extension.js"), encoding="utf-8")
    client = tmp_path / "flowlayout"
    client.mkdir()
    for f in ("flowlayout.js", "methods.js"):
        shutil.copy(REPO / "clients" / "js" / f, client / f)
    (client / "package.json").write_text('{"type": "module"}\n')
    stub = tmp_path / "node_modules" / "vscode"
    stub.mkdir(parents=True)
    (stub / "index.js").write_text(VSCODE_STUB)
    (tmp_path / "package.json").write_text(json.dumps({"name": "flowlayout-rest", "main": "extension.js",
                                                       "contributes": {"commands": [{"command": "flowlayout.rest",
                                                                                     "title": "Where does it rest?"}]}}))
    (tmp_path / "host.js").write_text(HOST)
    done = run([node, "host.js"], tmp_path, env_for(tmp_path))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {"returned": expected_line(), "shown": [expected_line()]}
