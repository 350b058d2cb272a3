"""Writes a libFuzzer seed corpus from protocol.md: each example request,
framed, one file each, plus the whole conversation as one file."""
import pathlib
import re
import sys

root = pathlib.Path(__file__).resolve().parents[2]
out = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else root / ".build" / "fuzz-corpus"
out.mkdir(parents=True, exist_ok=True)
text = (root / "protocol.md").read_text(encoding="utf-8")
bodies = [line[4:] for block in re.findall(r"```jsonrpc\n(.*?)```", text, flags=re.S)
          for line in block.splitlines() if line.startswith("--> ")]


def frame(body: str) -> bytes:
    b = body.encode("utf-8")
    return b"Content-Length: %d\r\n\r\n" % len(b) + b


for i, body in enumerate(bodies):
    (out / f"example-{i:03d}").write_bytes(frame(body))
(out / "conversation").write_bytes(b"".join(frame(b) for b in bodies if '"exit"' not in b))
print(f"{len(bodies) + 1} seeds in {out}")
