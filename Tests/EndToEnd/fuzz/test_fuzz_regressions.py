"""Every input the fuzzer has found is a regression test: replayed through
the fuzz entry point (which checks that every frame the server writes is
well-formed), and sent to the real daemon, which must answer what follows."""

import pathlib
import subprocess

import pytest

from daemon_support import DAEMON, REPO, req

INPUTS = sorted((REPO / "clients" / "fuzz" / "regressions").iterdir())
REPLAY = pathlib.Path(DAEMON).parent / "flowlayout-fuzz"


def test_there_are_regression_inputs():
    assert len(INPUTS) >= 2


@pytest.mark.skipif(not REPLAY.exists(), reason=f"{REPLAY} is not built")
def test_fuzz_entry_point_replays_every_input():
    r = subprocess.run([str(REPLAY), *map(str, INPUTS)], capture_output=True, text=True, timeout=60,
                       env={"SWIFT_BACKTRACE": "enable=no", "PATH": "/usr/bin:/bin"})
    assert r.returncode == 0, r.stderr[-2000:]
    assert f"replayed {len(INPUTS)} inputs" in r.stdout


@pytest.mark.parametrize("path", INPUTS, ids=[p.name[:16] for p in INPUTS])
def test_daemon_survives_the_input(server, path):
    server.write(path.read_bytes())
    # Whatever the input did to the framing, a complete frame after a blank
    # line is read and answered (a partial header could swallow one frame,
    # so send two).
    server.write(b"\r\n\r\n")
    server.send(req("after-1", "layout/contentSize", {"session": "none"}), req("after-2", "layout/contentSize", {"session": "none"}))
    ids = set()
    for _ in range(10):
        r = server.read()
        for m in r if isinstance(r, list) else [r]:
            ids.add(m.get("id"))
        if "after-2" in ids:
            break
    assert "after-2" in ids
