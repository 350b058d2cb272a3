"""The daemon's end-to-end suite: transport/, kinds/, live/, fuzz/,
protocol/ and web/, one folder per area, and the support they share here.

This folder goes on sys.path, so that every test, wherever it sits under it
and whatever pytest's rootdir, imports the support modules by name
(daemon_support, live_support, hardening_util, client_session,
carousel_model, install_support). The fixtures (`spawn`, `daemon`,
`server`, `installed_flowlayout`) and the report hook live in
daemon_support.py and are registered here."""

import sys
from pathlib import Path

_HERE = str(Path(__file__).resolve().parent)
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)

from daemon_support import (  # noqa: E402,F401  (fixtures and a hook, registered by being here)
    daemon,
    installed_flowlayout,
    pytest_runtest_makereport,
    server,
    spawn,
)
