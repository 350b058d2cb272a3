"""The one table of result shapes (issue #45): `capabilities.resultShapes`
is the only description of what the daemon answers. protocol.md shows it,
every answer of protocol.md's examples (a conversation over every method
and layout type) has exactly a shape's fields, and each client's shapes are
generated from it: the JavaScript typedefs and RESULT_SHAPES (methods.js,
checked by clients/js/test/generate.test.mjs), Python's flowlayout.shapes
(checked here) and the Swift client's (Methods.generated.swift)."""

from __future__ import annotations

import dataclasses
import importlib.util
import json
import re

import pytest
from daemon_support import DAEMON, REPO

from flowlayout import model
from flowlayout.shapes import RESULT_SHAPES

PROTOCOL = (REPO / "protocol.md").read_text(encoding="utf-8")
ANSWERS = REPO / "docs" / "protocol-answers"


@pytest.fixture(scope="module")
def caps():
    import subprocess

    body = b'{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}'
    out = subprocess.run([DAEMON], input=b"Content-Length: %d\r\n\r\n" % len(body) + body,
                         capture_output=True, timeout=60).stdout
    return json.loads(out[out.index(b"\r\n\r\n") + 4:])["result"]["capabilities"]


def documented_shapes() -> list[dict]:
    start = PROTOCOL.index("| shape | fields | |\n| --- | --- | --- |\n")
    rows = []
    for line in PROTOCOL[start:].split("\n")[2:]:
        if not line.startswith("| `"):
            break
        cells = [c.strip().replace("\\|", "|") for c in re.split(r"(?<!\\)\|", line)[1:-1]]
        fields = []
        for part in cells[1].strip("`")[1:-1].split(", "):
            key, _, type_ = part.partition(": ")
            fields.append({"name": key.rstrip("?"), "type": type_, "required": not key.endswith("?")})
        rows.append({"name": cells[0].strip("`"), "summary": cells[2], "fields": fields})
    return rows


def test_protocol_md_shows_the_daemons_shapes(caps):
    assert documented_shapes() == caps["resultShapes"]


def test_every_methods_result_is_a_shape_or_null(caps):
    names = {s["name"] for s in caps["resultShapes"]}
    for m in caps["methodTable"]:
        for part in m["result"].split(" | "):
            assert part == "null" or part in names, (m["name"], m["result"])


# -- every answer of protocol.md against its method's shape ------------------------

LEAVES = {
    "Point": {"x", "y"}, "Size": {"width", "height"}, "Rect": {"x", "y", "width", "height"},
    "IndexPath": {"section", "item"},
}


def conforms(value, type_: str, shapes: dict, path: str, seen: set) -> None:
    alternatives = type_.split(" | ")
    errors = []
    for t in alternatives:
        try:
            check(value, t, shapes, path, seen)
            return
        except AssertionError as e:
            errors.append(str(e))
    raise AssertionError(f"{path}: {value!r:.200} is not {type_}: {errors}")


def check(value, t: str, shapes: dict, path: str, seen: set) -> None:
    if t.endswith("[]"):
        assert isinstance(value, list), f"{path} is not a list"
        for i, v in enumerate(value):
            conforms(v, t[:-2], shapes, f"{path}[{i}]", seen)
    elif t == "null":
        assert value is None
    elif t == "true":
        assert value is True
    elif t == "boolean":
        assert isinstance(value, bool)
    elif t == "integer":
        assert isinstance(value, int) and not isinstance(value, bool)
    elif t == "number":
        assert isinstance(value, (int, float)) and not isinstance(value, bool)
    elif t in ("string", "ElementKind"):
        assert isinstance(value, str)
    elif t == "ItemID":
        assert isinstance(value, (str, int)) and not isinstance(value, bool)
    elif t == "BatchUpdates":
        assert isinstance(value, dict)
    elif t in LEAVES:
        assert isinstance(value, dict) and LEAVES[t] <= set(value), f"{path} is not a {t}"
    else:
        assert t in shapes, f"{path}: unknown type {t}"
        shape = shapes[t]
        assert isinstance(value, dict), f"{path} is not a {t}"
        fields = {f["name"]: f for f in shape["fields"]}
        missing = {n for n, f in fields.items() if f["required"]} - set(value)
        extra = set(value) - set(fields)
        assert not missing and not extra, f"{path} ({t}): missing {sorted(missing)}, not in the table {sorted(extra)}"
        seen.add(t)
        for k, v in value.items():
            conforms(v, fields[k]["type"], shapes, f"{path}.{k}", seen)


def example_answers():
    """(method, result) of every successful answer in protocol.md's examples."""
    methods = {}
    out = []
    for block in re.findall(r"```jsonrpc\n(.*?)```", PROTOCOL, flags=re.S):
        for line in block.splitlines():
            direction, _, body = line.partition(" ")
            if direction == "-->":
                for m in (lambda x: x if isinstance(x, list) else [x])(json.loads(body)):
                    if isinstance(m, dict) and "id" in m and "method" in m:
                        methods[json.dumps(m["id"])] = m["method"]
            elif direction == "<--":
                got = json.loads((ANSWERS / body).read_text()) if body.endswith(".json") else json.loads(body)
                for a in got if isinstance(got, list) else [got]:
                    if "result" in a and json.dumps(a["id"]) in methods:
                        out.append((methods[json.dumps(a["id"])], a["result"]))
    return out


def test_every_example_answer_has_its_shapes_fields(caps):
    shapes = {s["name"]: s for s in caps["resultShapes"]}
    table = {m["name"]: m["result"] for m in caps["methodTable"]}
    answers = [(m, r) for m, r in example_answers() if m in table]
    assert len(answers) > 100, len(answers)
    seen: set = set()
    for method, result in answers:
        conforms(result, table[method], shapes, method, seen)
    # Every method's answer was seen, and every shape (but the rare ones) in it.
    assert {m for m, _ in answers} == set(table)
    assert set(shapes) - seen <= {"MovedElement"}, sorted(set(shapes) - seen)


# -- the clients' shapes are generated from it ---------------------------------------


def test_python_shapes_are_generated_from_the_table(caps):
    spec = importlib.util.spec_from_file_location("py_generate", REPO / "clients" / "python" / "generate.py")
    generate = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(generate)
    checked_in = (REPO / "clients" / "python" / "flowlayout" / "shapes.py").read_text(encoding="utf-8")
    assert checked_in == generate.render(caps["resultShapes"]), "regenerate: python3 clients/python/generate.py"
    assert list(RESULT_SHAPES) == [s["name"] for s in caps["resultShapes"]]


def _snake(name: str) -> str:
    return re.sub(r"(?<!^)([A-Z])", lambda m: "_" + m.group(1).lower(), name)


#: Python's typed result for each shape, and its field names where the
#: snake_case of the protocol's would be a keyword (`from`).
PYTHON_RENAMES = {"from": "from_path"}


@pytest.mark.parametrize("shape, cls", sorted(model.SHAPE_CLASSES.items()), ids=lambda x: getattr(x, "__name__", x))
def test_pythons_typed_results_have_every_field_of_their_shape(shape, cls):
    fields = {f.name for f in dataclasses.fields(cls)}
    for f in RESULT_SHAPES[shape]["fields"]:
        name = PYTHON_RENAMES.get(f, _snake(f))
        assert name in fields, f"{cls.__name__} has no {name} for {shape}.{f}"


def test_every_result_shape_has_a_python_class():
    assert set(model.SHAPE_CLASSES) == set(RESULT_SHAPES) - {"ElementKey", "ElementAttributes",
                                                          "OptionalElementAttributes", "AttributesPage",
                                                          "ContentSizeResult", "ScrollTarget"}


def test_swift_shapes_are_generated_from_the_table(caps):
    text = (REPO / "Sources" / "FlowLayoutClient" / "Methods.generated.swift").read_text(encoding="utf-8")
    for s in caps["resultShapes"]:
        fields = ", ".join(f'"{f["name"]}{"" if f["required"] else "?"}"' for f in s["fields"])
        assert f'"{s["name"]}": [{fields}],' in text, f"Methods.generated.swift lacks {s['name']}'s fields"
