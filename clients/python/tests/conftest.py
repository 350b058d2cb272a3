"""The Python client's own tests run against the real daemon with the
end-to-end suite's support (Tests/EndToEnd/daemon_support.py and
install_support.py): that folder goes on sys.path, and its fixtures and
report hook are registered here."""

import sys
from pathlib import Path

_END_TO_END = str(Path(__file__).resolve().parents[3] / "Tests" / "EndToEnd")
if _END_TO_END not in sys.path:
    sys.path.insert(0, _END_TO_END)

from daemon_support import (  # noqa: E402,F401  (fixtures and a hook, registered by being here)
    daemon,
    installed_flowlayout,
    pytest_runtest_makereport,
    server,
    spawn,
)
