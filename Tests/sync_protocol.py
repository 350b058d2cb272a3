#!/usr/bin/env python3
"""Rewrites what protocol.md shows of the daemon from the daemon itself.

    python3 Tests/sync_protocol.py DAEMON

- the method table under "## Methods", from `capabilities.methodTable`,
  and the result shapes after it, from `capabilities.resultShapes`;
- every `<--` line of the ```jsonrpc examples, replayed in document order
  as test_protocol_examples.py replays them; an answer longer than 400
  characters goes to docs/protocol-answers/<id>.json (pretty-printed) and
  its line becomes `<-- <id>.json`.

Run it after changing the method table or an answer, then read the diff:
every changed answer must be one the change meant to change (the tests
replay the examples verbatim, so a stale one fails them)."""

import json
import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
PROTOCOL = REPO / "protocol.md"
#: Answers longer than this many characters are written to ANSWERS/<id>.json
#: and their example line names the file (`<-- 1202.json`).
LONG_ANSWER = 400
ANSWERS = REPO / "docs" / "protocol-answers"


def frame(body: bytes) -> bytes:
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def read(stream) -> bytes:
    length = None
    while True:
        line = stream.readline()
        if not line:
            raise EOFError
        if line in (b"\r\n", b"\n"):
            break
        k, _, v = line.decode().partition(":")
        if k.strip().lower() == "content-length":
            length = int(v)
    return stream.read(length)


def table_rows(table) -> list[str]:
    rows = []
    for m in table:
        params = ", ".join(
            f"{p['name']}{'' if p['required'] else '?'}: {p['type']}" for p in m["params"])
        anchor = m["name"].replace("/", "").lower()
        cells = [f"[`{m['name']}`](#{anchor})", f"`{{{params}}}`", f"`{m['result']}`",
                 m["picture"], m["summary"]]
        rows.append("| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |")
    return rows


def shape_rows(shapes) -> list[str]:
    rows = []
    for s in shapes:
        fields = ", ".join(f"{f['name']}{'' if f['required'] else '?'}: {f['type']}" for f in s["fields"])
        cells = [f"`{s['name']}`", f"`{{{fields}}}`", s["summary"]]
        rows.append("| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |")
    return rows


def replace_table(text: str, head: str, prefix: str, rows: list[str]) -> str:
    """Replaces the rows (lines starting with `prefix`) under `head`."""
    start = text.index(head) + len(head)
    lines = text[start:].split("\n")
    n = 0
    while n < len(lines) and lines[n].startswith(prefix):
        n += 1
    end = start + len("\n".join(lines[:n]))
    return text[:start] + "\n".join(rows) + text[end:]


def main() -> None:
    daemon = sys.argv[1]
    text = PROTOCOL.read_text(encoding="utf-8")
    proc = subprocess.Popen([daemon], stdin=subprocess.PIPE, stdout=subprocess.PIPE)

    def replay(block: re.Match) -> str:
        out = []
        for line in block.group(1).splitlines():
            direction, _, body = line.partition(" ")
            if direction == "-->":
                proc.stdin.write(frame(body.encode()))
                proc.stdin.flush()
                out.append(line)
            elif direction == "<--":
                raw = read(proc.stdout).decode("utf-8")
                got = json.loads(raw)
                if isinstance(got, dict) and "capabilities" in (got.get("result") or {}):
                    replay.table = got["result"]["capabilities"]["methodTable"]
                    replay.shapes = got["result"]["capabilities"]["resultShapes"]
                if len(raw) > LONG_ANSWER:
                    # A long answer lives in a file of its own; the line names it.
                    name = f"{got.get('id')}.json"
                    (ANSWERS / name).write_text(
                        json.dumps(got, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
                    written.add(name)
                    out.append(f"<-- {name}")
                    continue
                # An answer that still holds keeps its line as written.
                try:
                    same = json.loads(body) == got
                except ValueError:
                    same = False
                out.append(line if same else "<-- " + raw)
            else:
                out.append(line)
        return "```jsonrpc\n" + "\n".join(out) + "\n```"

    replay.table = None
    ANSWERS.mkdir(parents=True, exist_ok=True)
    written: set = set()
    text = re.sub(r"```jsonrpc\n(.*?)\n```", replay, text, flags=re.S)
    for stale in ANSWERS.glob("*.json"):
        if stale.name not in written:
            stale.unlink()
    proc.stdin.close()
    proc.wait(timeout=10)
    text = replace_table(text, "| method | params | result | picture | |\n| --- | --- | --- | --- | --- |\n",
                         "| [`", table_rows(replay.table))
    text = replace_table(text, "| shape | fields | |\n| --- | --- | --- |\n", "| `", shape_rows(replay.shapes))
    PROTOCOL.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
