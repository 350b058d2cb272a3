"""``flowlayout web``: serves the web client and bridges it to one daemon.

One process, standard library only. An HTTP server on 127.0.0.1 serves the
page (``clients/web``: index.html, app.js, style.css) and the JS client
module it imports (``clients/js``: flowlayout.js), and relays JSON-RPC:

- ``GET /`` and ``GET /<file>``: the page's files, from the web root
  (:func:`find_web_root`: ``--root``, ``$FLOWLAYOUT_WEB_ROOT``, the
  installed package's ``flowlayout/web/``, or the checkout's
  ``clients/web``).
- ``GET /js/<file>``: the JS client module's files, from the JS root
  (:func:`find_js_root`: ``$FLOWLAYOUT_JS_ROOT``, the installed package's
  ``flowlayout/js/``, or the checkout's ``clients/js``); 404 when there is
  none. Both are flat directories: a name with a slash, a backslash, a
  ``%``, a leading dot or an unknown extension is never served.
- ``GET /info``: the daemon's ``serverInfo`` and ``capabilities`` (from the
  ``initialize`` the bridge did itself).
- ``POST /rpc`` with a JSON-RPC message (or batch) as the body
  (``Content-Type: application/json``): the message is written to the
  daemon's stdin as one frame and its answer returned as the response body
  (200), or 204 when the daemon sends none (notifications). Messages go
  through one shared pipe, one at a time.

The bridge owns the daemon's lifecycle: it spawns and initializes it, and
sends ``shutdown`` and ``exit`` when it stops (Ctrl-C, SIGTERM). The page's
``initialize``, ``shutdown`` and ``exit`` are refused (400).

Only 127.0.0.1 is listened on. Requests naming another host (DNS rebinding)
are refused, and ``/rpc`` wants ``application/json`` from the page's own
origin, which a cross-site page cannot send without a CORS preflight that
is never granted.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from types import FrameType
from typing import IO, Any, List, Optional, Tuple

from ._version import __version__
from .client import Client, DaemonError

__all__ = ["find_web_root", "find_js_root", "WebBridge", "serve", "screenshot", "find_chromium"]

#: Methods the bridge keeps for itself: the page would otherwise be able
#: to end (or re-initialize) the daemon every other tab shares.
RESERVED_METHODS = frozenset({"initialize", "shutdown", "exit"})

_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".ts": "text/plain; charset=utf-8",  # the JS client's .d.ts declarations
    ".map": "application/json",
    ".css": "text/css; charset=utf-8",
    ".png": "image/png",
    ".svg": "image/svg+xml",
    ".ico": "image/x-icon",
    ".json": "application/json",
}

#: Largest /rpc body accepted before the daemon says how much it takes.
_DEFAULT_MAX_BODY = 64 * 1024 * 1024


def find_web_root(root: Optional[str] = None) -> Path:
    """The directory holding index.html: ``root`` if given, else
    ``$FLOWLAYOUT_WEB_ROOT``, else ``web/`` beside the package (an
    installation that ships it), else ``../../web`` from the package (the
    repository checkout's ``clients/web``)."""
    here = Path(__file__).resolve().parent
    candidates = [Path(root)] if root else []
    env = os.environ.get("FLOWLAYOUT_WEB_ROOT")
    if env and not root:
        candidates.append(Path(env))
    if not candidates:
        candidates = [here / "web", here.parent.parent / "web"]
    for c in candidates:
        if (c / "index.html").is_file():
            return c.resolve()
    tried = ", ".join(str(c) for c in candidates)
    raise FileNotFoundError(f"the web client (index.html) was not found in {tried}")


def find_js_root(root: Optional[str] = None) -> Optional[Path]:
    """The directory of the JS client module (flowlayout.js), served under
    ``/js/``: ``root`` if given, else ``$FLOWLAYOUT_JS_ROOT``, else ``js/``
    beside the package (an installation that ships it), else ``../../js``
    from the package (the checkout's ``clients/js``). None when there is
    none: the page is served all the same, and ``/js/`` answers 404."""
    here = Path(__file__).resolve().parent
    chosen = root or os.environ.get("FLOWLAYOUT_JS_ROOT")
    candidates = [Path(chosen)] if chosen else [here / "js", here.parent.parent / "js"]
    for c in candidates:
        if c.is_dir():
            return c.resolve()
    return None


def _flat_name(name: str) -> bool:
    """A plain file name of a type the bridge serves: nothing that climbs,
    hides or needs decoding."""
    return bool(
        name
        and "/" not in name
        and "\\" not in name
        and not name.startswith(".")
        and "%" not in name
        and "\0" not in name
        and Path(name).suffix in _TYPES
    )


def _reserved(message: Any) -> Optional[str]:
    """The first reserved method named in a message or batch, if any."""
    for m in message if isinstance(message, list) else [message]:
        if isinstance(m, dict) and m.get("method") in RESERVED_METHODS:
            return str(m["method"])
    return None


def _error_body(code: int, message: str, rid: Any = None) -> bytes:
    return json.dumps(
        {"jsonrpc": "2.0", "id": rid, "error": {"code": code, "message": message}},
        separators=(",", ":"),
    ).encode()


class WebBridge(ThreadingHTTPServer):
    """The HTTP server: static files from ``root``, ``/js/`` from
    ``js_root`` (if any), and ``/rpc`` relayed to ``client`` (an
    initialized :class:`Client`)."""

    daemon_threads = True

    def __init__(self, port: int, root: Path, client: Client, verbose: bool = False,
                 js_root: Optional[Path] = None) -> None:
        self.root = root
        self.js_root = js_root
        self.client = client
        self.verbose = verbose
        limits = client.capabilities.get("limits", {}) if client.capabilities else {}
        max_body = limits.get("maxMessageBytes") if isinstance(limits, dict) else None
        self.max_body = max_body if isinstance(max_body, int) and max_body > 0 else _DEFAULT_MAX_BODY
        super().__init__(("127.0.0.1", port), _Handler)
        self.port = self.server_address[1]
        self.allowed_hosts = {f"127.0.0.1:{self.port}", f"localhost:{self.port}"}
        if self.port == 80:
            self.allowed_hosts |= {"127.0.0.1", "localhost"}
        self.allowed_origins = {f"http://{h}" for h in self.allowed_hosts}

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"

    def relay(self, body: bytes) -> List[bytes]:
        return self.client.exchange(body)


class _Handler(BaseHTTPRequestHandler):
    server: WebBridge
    server_version = f"flowlayout-web/{__version__}"
    protocol_version = "HTTP/1.1"  # keep-alive: a drag sends a request per frame
    # Headers and body go out in separate writes; with Nagle's algorithm
    # and delayed ACKs each answer would wait ~40 ms, more than a frame.
    disable_nagle_algorithm = True

    # MARK: plumbing

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 (the base's name)
        if self.server.verbose:
            super().log_message(format, *args)

    def log_request(self, code: Any = "-", size: Any = "-") -> None:
        # Errors are always worth a line; a request per scroll frame is not.
        status = code.value if isinstance(code, HTTPStatus) else code
        if self.server.verbose or (isinstance(status, int) and status >= 400):
            super().log_message('"%s" %s %s', self.requestline, str(status), str(size))

    def _send(self, status: int, body: bytes = b"", content_type: Optional[str] = None,
              head_only: bool = False) -> None:
        self.send_response(status)
        if content_type:
            self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        self.end_headers()
        if body and not head_only:
            self.wfile.write(body)

    def _text(self, status: int, text: str) -> None:
        """An error answer. The connection is closed after it, as a body
        that was not read would otherwise be taken for the next request."""
        self.close_connection = True
        self._send(status, (text + "\n").encode(), "text/plain; charset=utf-8")

    def _host_ok(self) -> bool:
        host = (self.headers.get("Host") or "").strip().lower()
        if host in self.server.allowed_hosts:
            return True
        self._text(HTTPStatus.FORBIDDEN, f"unexpected Host {host!r}: use {self.server.url}")
        return False

    # MARK: GET: the page

    def do_GET(self) -> None:
        self._get(head_only=False)

    def do_HEAD(self) -> None:
        self._get(head_only=True)

    def _get(self, head_only: bool) -> None:
        if not self._host_ok():
            return
        path = self.path.split("?", 1)[0].split("#", 1)[0]
        if path == "/info":
            info = {
                "serverInfo": dict(self.server.client.server_info),
                "capabilities": dict(self.server.client.capabilities),
            }
            self._send(HTTPStatus.OK, json.dumps(info).encode(), "application/json", head_only)
            return
        if path.startswith("/js/"):
            directory, name = self.server.js_root, path[len("/js/"):]
        else:
            directory, name = self.server.root, "index.html" if path == "/" else path[1:]
        # Flat directories: a plain file name, nothing that climbs or hides.
        file = directory / name if directory is not None and _flat_name(name) else None
        if file is None or not file.is_file():
            self._text(HTTPStatus.NOT_FOUND, f"not found: {path}")
            return
        self._send(HTTPStatus.OK, file.read_bytes(), _TYPES[file.suffix], head_only)

    # MARK: POST /rpc: the daemon

    def do_POST(self) -> None:
        if not self._host_ok():
            return
        if self.path != "/rpc":
            self._text(HTTPStatus.NOT_FOUND, f"not found: {self.path} (POST JSON-RPC to /rpc)")
            return
        origin = self.headers.get("Origin")
        if origin is not None and origin.lower() not in self.server.allowed_origins:
            self._text(HTTPStatus.FORBIDDEN, f"cross-origin requests are refused ({origin})")
            return
        ctype = (self.headers.get("Content-Type") or "").split(";", 1)[0].strip().lower()
        if ctype != "application/json":
            self._text(HTTPStatus.UNSUPPORTED_MEDIA_TYPE, "POST /rpc wants Content-Type: application/json")
            return
        try:
            length = int(self.headers.get("Content-Length", ""))
        except ValueError:
            self._text(HTTPStatus.LENGTH_REQUIRED, "Content-Length is required")
            return
        if length < 0 or length > self.server.max_body:
            self.close_connection = True  # the body is not read
            self._text(HTTPStatus.REQUEST_ENTITY_TOO_LARGE,
                       f"a message is at most {self.server.max_body} bytes")
            return
        body = self.rfile.read(length)
        try:
            message = json.loads(body)
        except ValueError:
            message = None  # relayed anyway: the daemon answers with its parse error
        reserved = _reserved(message)
        if reserved is not None:
            rid = message.get("id") if isinstance(message, dict) else None
            self._send(
                HTTPStatus.BAD_REQUEST,
                _error_body(-32600, f"Invalid request: {reserved} is handled by the bridge", rid),
                "application/json",
            )
            return
        try:
            answers = self.server.relay(body)
        except (DaemonError, OSError) as e:
            self._send(HTTPStatus.BAD_GATEWAY, _error_body(-32603, f"flowlayoutd is gone: {e}"),
                       "application/json")
            return
        if not answers:
            self._send(HTTPStatus.NO_CONTENT)
        elif len(answers) == 1:
            self._send(HTTPStatus.OK, answers[0], "application/json")
        else:  # one message gets one answer at most; anything else is a daemon bug
            self._send(HTTPStatus.BAD_GATEWAY,
                       _error_body(-32603, f"flowlayoutd sent {len(answers)} answers to one message"),
                       "application/json")


class _Stop(Exception):
    """Raised in the main thread by SIGTERM and SIGHUP, as Ctrl-C raises
    KeyboardInterrupt, so that the same cleanup runs."""


def _stop(signum: int, frame: Optional[FrameType]) -> None:
    raise _Stop(signal.Signals(signum).name)


def serve(
    port: int = 8080,
    daemon: Optional[str] = None,
    root: Optional[str] = None,
    verbose: bool = False,
    out: Optional[IO[str]] = None,
    ready: Optional[threading.Event] = None,
    js_root: Optional[str] = None,
) -> int:
    """Runs the bridge until Ctrl-C (or SIGTERM), then shuts the daemon
    down (``shutdown``, ``exit``, wait). ``port`` 0 picks a free port; the
    URL is printed on the first line of ``out``. ``js_root`` is the
    directory served under ``/js/`` (default: :func:`find_js_root`)."""
    out = out or sys.stdout
    web_root = find_web_root(root)
    js_dir = find_js_root(js_root)
    # Its own session: Ctrl-C in the terminal must not kill the daemon
    # before the bridge has shut it down.
    client = Client(daemon, new_session=True)
    httpd: Optional[WebBridge] = None
    previous: List[Tuple[int, Any]] = []
    try:
        if threading.current_thread() is threading.main_thread():
            # Ctrl-C even when started with SIGINT ignored (`cmd &` in a script).
            previous.append((signal.SIGINT, signal.signal(signal.SIGINT, signal.default_int_handler)))
            for sig in (signal.SIGTERM, signal.SIGHUP):
                previous.append((sig, signal.signal(sig, _stop)))
        httpd = WebBridge(port, web_root, client, verbose, js_dir)
        info = client.server_info
        pid = client.process.pid if client.process else "?"
        print(
            f"flowlayout web: serving {httpd.url} "
            f"({info.get('name', 'flowlayoutd')} {info.get('version', '?')}, pid {pid}; "
            f"page from {web_root}, /js/ from {js_dir or 'nowhere: no JS client found'}); "
            f"Ctrl-C stops",
            file=out, flush=True,
        )
        if ready is not None:
            ready.set()
        httpd.serve_forever(poll_interval=0.25)
    except (KeyboardInterrupt, _Stop):
        pass
    finally:
        for sig, handler in previous:
            signal.signal(sig, handler)
        if httpd is not None:
            httpd.server_close()
        code = client.shutdown()
        if httpd is not None:
            print(f"flowlayout web: stopped; flowlayoutd exited with status {code}", file=out, flush=True)
    return 0 if code == 0 else 1


#: Browsers that take a headless screenshot (`--screenshot`), in order.
CHROMIUM_NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")


def find_chromium() -> Optional[str]:
    """$CHROMIUM, else the first of :data:`CHROMIUM_NAMES` on PATH."""
    return os.environ.get("CHROMIUM") or next(filter(None, map(shutil.which, CHROMIUM_NAMES)), None)


def screenshot(
    path: str,
    url_state: str = "",
    daemon: Optional[str] = None,
    root: Optional[str] = None,
    window: Tuple[int, int] = (1280, 1000),
    budget_ms: int = 10000,
    err: Optional[IO[str]] = None,
) -> int:
    """Serves the page on a free port, loads it with ``url_state`` as its
    hash (``pager?transformer=cubic``: a tab and its settings, as the page
    writes them into its URL) in headless Chromium with a window of
    ``window`` CSS pixels, writes a PNG of it to ``path`` and stops. The
    page has ``budget_ms`` of virtual time to open its session and draw
    (Chromium's ``--virtual-time-budget``: the time runs as fast as the
    page lets it). Returns 0, or 1 with the reason on ``err``."""
    err = err or sys.stderr
    browser = find_chromium()
    if browser is None:
        print("flowlayout web --screenshot: no Chromium found (set CHROMIUM, or install chromium: "
              "apt-get install chromium)", file=err)
        return 1
    client = Client(daemon, new_session=True)
    httpd: Optional[WebBridge] = None
    try:
        httpd = WebBridge(0, find_web_root(root), client, False, find_js_root(None))
        thread = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.1}, daemon=True)
        thread.start()
        state = url_state.lstrip("#")
        url = httpd.url + (f"#{state}" if state else "")
        out = os.path.abspath(path)
        with tempfile.TemporaryDirectory(prefix="flowlayout-chromium-") as profile:
            done = subprocess.run(
                [browser, "--headless=new", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                 "--no-first-run", "--disable-extensions", f"--user-data-dir={profile}",
                 "--force-device-scale-factor=1", f"--window-size={window[0]},{window[1]}",
                 f"--virtual-time-budget={budget_ms}", f"--screenshot={out}", url],
                capture_output=True, text=True, timeout=120,
            )
        try:
            with open(out, "rb") as f:
                ok = f.read(8) == b"\x89PNG\r\n\x1a\n"
        except OSError:
            ok = False
        if done.returncode != 0 or not ok:
            tail = "\n".join(done.stderr.strip().splitlines()[-5:])
            print(f"flowlayout web --screenshot: {browser} wrote no picture (exit {done.returncode}): {tail}",
                  file=err)
            return 1
        print(f"flowlayout web: wrote {out} ({url})", file=err)
        return 0
    finally:
        if httpd is not None:
            httpd.shutdown()
            httpd.server_close()
        client.shutdown()


def _window(text: str) -> Tuple[int, int]:
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise ValueError(f"--window must be WIDTHxHEIGHT, got {text!r}") from None
    if not (100 <= w <= 8000 and 100 <= h <= 8000):
        raise ValueError(f"--window must be 100 to 8000 pixels each way, got {text!r}")
    return w, h


def add_arguments(parser: Any) -> None:
    """The ``flowlayout web`` options (``--daemon`` is shared with the
    other commands)."""
    parser.add_argument(
        "--port", type=int, default=8080, help="port on 127.0.0.1 (default 8080; 0 picks a free one)"
    )
    parser.add_argument(
        "--root", metavar="DIR",
        help="serve the page from DIR (default: $FLOWLAYOUT_WEB_ROOT, the page installed with "
        "the package, or the checkout's clients/web)",
    )
    parser.add_argument("--verbose", action="store_true", help="log every HTTP request to stderr")
    parser.add_argument(
        "--screenshot", metavar="PATH",
        help="write a PNG of the page to PATH through headless Chromium, and exit (docs/web-client.md)",
    )
    parser.add_argument(
        "--url-state", metavar="STATE", default="",
        help="with --screenshot: the page's URL state, a tab and its settings as the page writes "
        "them after # (e.g. 'pager?transformer=cubic' or 'coverFlow?device=ipad')",
    )
    parser.add_argument(
        "--window", metavar="WxH", default="1280x1000",
        help="with --screenshot: the browser window in CSS pixels (default 1280x1000)",
    )

