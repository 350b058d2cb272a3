"""The one method table (protocol.md, "Methods"): the daemon's
``capabilities.methodTable`` is the only list of methods. protocol.md shows
it, dispatch and the unknown-field check follow it, and the Python client
has a typed method for each entry taking each of its parameters."""

from __future__ import annotations

import inspect
import re

from daemon_support import REPO

from flowlayout.client import Client


def _snake(name: str) -> str:
    return re.sub(r"(?<!^)([A-Z])", lambda m: "_" + m.group(1).lower(), name)


def _documented_table() -> list[dict]:
    """protocol.md's method table, read back into methodTable's shape."""
    text = (REPO / "protocol.md").read_text(encoding="utf-8")
    start = text.index("| method | params | result | picture | |")
    rows = []
    for line in text[start:].split("\n")[2:]:
        if not line.startswith("| [`"):
            break
        cells = [c.strip().replace("\\|", "|") for c in re.split(r"(?<!\\)\|", line)[1:-1]]
        name = re.match(r"\[`([^`]+)`\]", cells[0]).group(1)
        params = []
        inner = cells[1].strip("`")[1:-1]
        # Split on the commas between parameters (types hold no commas).
        for part in inner.split(", "):
            key, _, type_ = part.partition(": ")
            params.append({"name": key.rstrip("?"), "type": type_, "required": not key.endswith("?")})
        rows.append({
            "name": name, "summary": cells[4], "params": params,
            "result": cells[2].strip("`"), "picture": cells[3],
        })
    return rows


def test_protocol_md_shows_the_daemons_method_table(daemon):
    table = daemon.initialize()["capabilities"]["methodTable"]
    assert _documented_table() == table
    assert len(table) == 33


def test_dispatch_follows_the_table(daemon):
    """Every method rejects a field its table entry does not list, naming
    it, and accepts every field it lists (the error, if any, is about the
    value, not an unknown field)."""
    caps = daemon.initialize()["capabilities"]
    for m in caps["methodTable"]:
        e = daemon.error(m["name"], {"session": "none", "bogus": 1}, code=-32602)
        assert e["message"] == "params.bogus is not a known field", m["name"]
        for p in m["params"]:
            r = daemon.request(m["name"], {p["name"]: "?"} if p["name"] != "session" else {"session": "none"})
            assert "error" in r, (m["name"], p["name"])
            assert "is not a known field" not in r["error"]["message"], (m["name"], p["name"])
    assert daemon.error("layout/nope", {}, code=-32601)["message"] == "Method not found: layout/nope"


def test_python_client_has_a_typed_method_for_every_entry(daemon):
    for m in daemon.initialize()["capabilities"]["methodTable"]:
        attr = _snake(m["name"].split("/", 1)[1])
        method = getattr(Client, attr, None)
        assert callable(method), f"Client.{attr} is missing for {m['name']}"
        accepted = set(inspect.signature(method).parameters)
        for p in m["params"]:
            assert _snake(p["name"]) in accepted, f"Client.{attr} does not take {p['name']}"


def test_swift_client_methods_are_generated_from_the_table():
    """Sources/FlowLayoutClient/Methods.generated.swift is exactly what
    clients/swift/generate.py writes from this daemon's table."""
    import importlib.util

    from daemon_support import DAEMON

    spec = importlib.util.spec_from_file_location("swift_generate", REPO / "clients" / "swift" / "generate.py")
    generate = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    spec.loader.exec_module(generate)
    caps = generate.capabilities(DAEMON)
    checked_in = (REPO / "Sources" / "FlowLayoutClient" / "Methods.generated.swift").read_text(encoding="utf-8")
    assert checked_in == generate.render(caps["methodTable"], caps["resultShapes"]), \
        "regenerate: python3 clients/swift/generate.py"
    for m in caps["methodTable"]:
        assert f"public func {m['name'].split('/', 1)[1]}(" in checked_in
