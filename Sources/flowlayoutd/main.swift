// flowlayoutd: serves the layout engine over stdio (JSON-RPC 2.0, LSP framing).
#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif
import JSONRPC
import LayoutServer

/// One `--help` line per kind's own limit (the registry's, Kinds/).
let kindFlagLines = Limits.kindFlags.map { f in
  let name = f.flag + " N"
  return "  " + name + String(repeating: " ", count: max(2, 25 - name.count)) + f.help + "\n"
}.joined()

let usage = """
  usage: flowlayoutd [options]

  A headless collection-view layout engine. Speaks JSON-RPC 2.0 with LSP
  base-protocol framing on stdin/stdout; see protocol.md.

  options:
    --log FILE               append diagnostics to FILE (default: stderr)
    --max-message-bytes N    largest accepted message body (default 67108864)
    --max-answer-bytes N     largest answer of elements: a rect's attributes,
                             a viewport's or a change's delta (default 8388608)
    --max-sessions N         sessions open at once (default 1000)
    --max-items N            items per session (default 100000000)
  \(kindFlagLines)  --max-total-items N      items in all sessions together (default 100000000)
    --max-item-values-per-request N
                             item sizes and ids one request may carry
                             (default: no limit but the message size)
    --help                   print this help and exit
    --version                print the version and exit

  """

/// Writes diagnostics to a file descriptor (stderr or the --log file).
final class FDLogger: Logger {
  let fd: Int32
  init(fd: Int32) { self.fd = fd }
  func log(_ message: @autoclosure () -> String) {
    let line = Array("flowlayoutd: \(message())\n".utf8)
    _ = line.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
  }
}

func fail(_ message: String) -> Never {
  let line = Array("flowlayoutd: \(message)\n\(usage)".utf8)
  _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
  exit(2)
}

var limits = Limits()
var logPath: String? = nil
var args = CommandLine.arguments.dropFirst()

func positiveInt(_ flag: String, _ value: String?) -> Int {
  guard let v = value, let n = Int(v), n > 0 else {
    fail("\(flag) needs a positive integer")
  }
  return n
}

while let arg = args.popFirst() {
  switch arg {
  case "--help", "-h":
    print(usage, terminator: "")
    exit(0)
  case "--version":
    print("flowlayoutd \(LayoutServer.version)")
    exit(0)
  case "--log":
    guard let p = args.popFirst() else { fail("--log needs a file path") }
    logPath = p
  case "--max-message-bytes": limits.maxMessageBytes = positiveInt(arg, args.popFirst())
  case "--max-answer-bytes": limits.maxAnswerBytes = positiveInt(arg, args.popFirst())
  case "--max-sessions": limits.maxSessions = positiveInt(arg, args.popFirst())
  case "--max-items": limits.maxItemsPerSession = positiveInt(arg, args.popFirst())
  case "--max-total-items": limits.maxTotalItems = positiveInt(arg, args.popFirst())
  case "--max-item-values-per-request":
    limits.maxItemValuesPerRequest = positiveInt(arg, args.popFirst())
  default:
    guard let kind = Limits.kindFlags.first(where: { $0.flag == arg })?.kind else {
      fail("unknown option \(arg)")
    }
    limits.maxItemsByKind[kind] = positiveInt(arg, args.popFirst())
  }
}

// A client that closes its end must not kill us with SIGPIPE; writes then
// fail with EPIPE and the server exits quietly.
signal(SIGPIPE, SIG_IGN)

// stdout is reserved for protocol frames: keep a private copy of it for the
// server and point fd 1 at stderr, so a stray print cannot corrupt a frame.
let protocolOut = dup(1)
guard protocolOut >= 0 else { fail("cannot duplicate stdout") }
dup2(2, 1)

var logFD: Int32 = 2
if let logPath {
  logFD = open(logPath, O_WRONLY | O_CREAT | O_APPEND, 0o644)
  if logFD < 0 { fail("cannot open log file \(logPath)") }
}

let server = Server(
  handler: LayoutServer(limits: limits), input: 0, output: protocolOut,
  maxMessageBytes: limits.maxMessageBytes, logger: FDLogger(fd: logFD))
exit(server.run())
