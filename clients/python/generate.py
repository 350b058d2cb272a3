#!/usr/bin/env python3
"""Writes clients/python/flowlayout/shapes.py: the answers' shapes, as the
daemon's ``initialize`` reports them (``capabilities.resultShapes``, the
one table the JavaScript and Swift clients are generated from too).
test_result_shapes.py checks that the checked-in file is what this script
writes, and that the typed results of flowlayout.model carry every field.

    python3 clients/python/generate.py [DAEMON]   (default: $FLOWLAYOUTD)
"""

from __future__ import annotations

import json
import os
import pprint
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
OUT = HERE / "flowlayout" / "shapes.py"


def result_shapes(daemon: str) -> list:
    body = b'{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}'
    frame = b"Content-Length: %d\r\n\r\n" % len(body) + body
    out = subprocess.run([daemon], input=frame, capture_output=True, timeout=60, check=False).stdout
    answer = json.loads(out[out.index(b"\r\n\r\n") + 4 :])
    return answer["result"]["capabilities"]["resultShapes"]


def render(shapes: list) -> str:
    table = {
        s["name"]: {
            "summary": s["summary"],
            "fields": {f["name"]: {"type": f["type"], "required": f["required"]} for f in s["fields"]},
        }
        for s in shapes
    }
    return "\n".join([
        "# GENERATED FILE: do not edit. Written by clients/python/generate.py from",
        "# the daemon's initialize result (capabilities.resultShapes); regenerate",
        "# with `python3 clients/python/generate.py .build/debug/flowlayoutd`.",
        '"""The answers\' shapes: each object a method answers with, its fields',
        "(in the daemon's order), each field's TypeScript type over protocol.md's",
        'names and whether it is always present."""',
        "",
        "from typing import Any, Dict",
        "",
        "RESULT_SHAPES: Dict[str, Dict[str, Any]] = " + pprint.pformat(table, width=100, sort_dicts=False),
        "",
    ])


def main() -> int:
    daemon = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("FLOWLAYOUTD", "")
    if not daemon:
        print("usage: generate.py DAEMON (or set $FLOWLAYOUTD)", file=sys.stderr)
        return 2
    OUT.write_text(render(result_shapes(daemon)), encoding="utf-8")
    print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
