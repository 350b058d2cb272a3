// swift-tools-version:6.0
import PackageDescription

let package = Package(
  name: "flowlayoutd",
  products: [
    .executable(name: "flowlayoutd", targets: ["flowlayoutd"]),
    // The engine itself, for Swift programs that lay out in process.
    .library(name: "LayoutEngine", targets: ["LayoutEngine"]),
    // A client that spawns flowlayoutd and talks to it (toolchain only).
    .library(name: "FlowLayoutClient", targets: ["FlowLayoutClient"]),
  ],
  targets: [
    // Debian's libjansson-dev; the shim header wraps jansson's function-like macros.
    .systemLibrary(
      name: "CJansson",
      pkgConfig: "jansson",
      providers: [.apt(["libjansson-dev"])]
    ),
    // Pure geometry and state: no I/O, no JSON, no jansson.
    .target(name: "LayoutEngine"),
    // LSP base-protocol framing and JSON-RPC 2.0; knows nothing about layouts.
    .target(name: "JSONRPC", dependencies: ["CJansson"]),
    // Sessions and method handlers: JSON <-> engine.
    .target(name: "LayoutServer", dependencies: ["LayoutEngine", "JSONRPC"]),
    .executableTarget(name: "flowlayoutd", dependencies: ["LayoutServer", "JSONRPC"]),
    // Spawns the daemon and speaks the protocol; its typed methods are
    // generated from the daemon's method table (clients/swift/generate.py).
    .target(name: "FlowLayoutClient"),
    // The libFuzzer target (`make fuzz`); built normally it replays inputs.
    .executableTarget(name: "flowlayout-fuzz", dependencies: ["LayoutServer", "JSONRPC"]),
    // In-process benchmarks of the engine and the handlers (`make bench`).
    .executableTarget(
      name: "flowlayout-bench", dependencies: ["LayoutEngine", "LayoutServer", "JSONRPC"]),
    .testTarget(name: "LayoutEngineTests", dependencies: ["LayoutEngine"]),
    .testTarget(name: "JSONRPCTests", dependencies: ["JSONRPC", "CJansson"]),
    .testTarget(
      name: "LayoutServerTests", dependencies: ["LayoutServer", "JSONRPC", "LayoutEngine"]),
    .testTarget(name: "FlowLayoutClientTests", dependencies: ["FlowLayoutClient"]),
  ]
)
