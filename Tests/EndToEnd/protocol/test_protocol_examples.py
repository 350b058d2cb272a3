"""Replays every example exchange in protocol.md, verbatim.

All ```jsonrpc blocks in protocol.md form one conversation with one daemon,
in document order: each `-->` line is sent as written (framed), and each
`<--` line must equal the daemon's next response. The conversation ends with
shutdown and exit, so the daemon must then exit with code 0."""

import json
import re

from daemon_support import REPO, frame

PROTOCOL = REPO / "protocol.md"
ANSWERS = REPO / "docs" / "protocol-answers"


def exchanges() -> list[tuple[str, str]]:
    text = PROTOCOL.read_text(encoding="utf-8")
    blocks = re.findall(r"```jsonrpc\n(.*?)```", text, flags=re.S)
    assert len(blocks) >= 10, "protocol.md lost its examples"
    lines = []
    for block in blocks:
        for line in block.splitlines():
            if not line.strip():
                continue
            direction, _, body = line.partition(" ")
            assert direction in ("-->", "<--"), f"bad example line: {line!r}"
            lines.append((direction, body))
    return lines


def test_every_documented_method_has_an_example():
    sent = {json.loads(b).get("method") for d, b in exchanges() if d == "-->" and b.startswith("{")}
    for method in [
        "initialize", "initialized", "shutdown", "exit", "$/cancelRequest", "layout/open",
        "layout/setBounds", "layout/scrollEnded", "layout/scrollToItem", "layout/attributesInRect",
        "layout/attributesForItem", "layout/attributesForSupplementary", "layout/itemAtPoint",
        "layout/contentSize", "layout/close", "layout/performBatchUpdates", "layout/reloadData",
        "layout/configure", "layout/setItemSizes", "layout/appendItems", "layout/scrollSection",
    ]:
        assert method in sent, f"protocol.md has no example of {method}"


def expected(body: str):
    """An answer line's JSON, or the file of docs/protocol-answers it names
    (`<-- 1202.json`: a long answer, pretty-printed there)."""
    if re.fullmatch(r"[^{}\s]+\.json", body):
        return json.loads((ANSWERS / body).read_text(encoding="utf-8"))
    return json.loads(body)


def test_long_answers_live_in_files():
    """No answer line is longer than 400 characters: the long ones are in
    docs/protocol-answers, which protocol.md links to, and every file there
    is named by a line."""
    named = set()
    for direction, body in exchanges():
        if direction == "<--":
            assert len(body) <= 400, body[:80]
            if body.endswith(".json"):
                named.add(body)
    assert named == {p.name for p in ANSWERS.glob("*.json")}
    assert "](docs/protocol-answers/)" in PROTOCOL.read_text(encoding="utf-8")


def test_protocol_examples_replay_verbatim(daemon):
    for direction, body in exchanges():
        if direction == "-->":
            daemon.write(frame(body.encode("utf-8")))
        else:
            got = daemon.read()
            assert got == expected(body), f"after the example line before {body!r}"
    daemon.expect_eof()
    assert daemon.wait() == 0


def test_no_line_outside_the_examples_is_over_400_characters():
    """protocol.md reads as text: long requests and answers stay in fenced
    blocks (or their files), and long table cells in docs/bad-input. The
    result shapes' table is the daemon's own (Tests/sync_protocol.py writes
    it): a shape's row is as long as its fields."""
    fenced = False
    shapes = False
    for n, line in enumerate(PROTOCOL.read_text(encoding="utf-8").split("\n"), 1):
        if line.startswith("```"):
            fenced = not fenced
            continue
        if line.startswith("| shape | fields |"):
            shapes = True
        elif not line.startswith("|"):
            shapes = False
        assert fenced or shapes or len(line) <= 400, f"protocol.md:{n} has {len(line)} characters"
