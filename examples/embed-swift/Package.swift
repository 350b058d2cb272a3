// swift-tools-version:6.0
// A separate package that embeds flowlayoutd two ways: the engine in
// process (the LayoutEngine library) and the daemon over stdio (the
// FlowLayoutClient library). `make test` builds and runs it.
import Foundation
import PackageDescription

// The repository root, two levels up. SwiftPM names a path dependency
// after its directory, whatever the checkout is called.
let root = URL(fileURLWithPath: Context.packageDirectory)
  .deletingLastPathComponent().deletingLastPathComponent()

let package = Package(
  name: "embed-swift",
  dependencies: [.package(path: root.path)],
  targets: [
    .executableTarget(
      name: "embed-swift",
      dependencies: [
        .product(name: "LayoutEngine", package: root.lastPathComponent),
        .product(name: "FlowLayoutClient", package: root.lastPathComponent),
      ])
  ]
)
