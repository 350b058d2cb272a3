import Foundation
import XCTest

/// A kind is its folder (issue #41), checked on the sources themselves:
/// every type a kind's folder declares is named only in that folder, in the
/// registry's one case for it, and in the kind's decoder. Generic code
/// (placement, effects, snapping, repetition, diffing, reordering, live
/// sessions, the model) and the server outside its decoders name none, so
/// adding a kind touches its folder, its decoder and the two registries.
final class ArchitectureTests: XCTestCase {
  let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  func swiftFiles(under path: String) -> [String] {
    let dir = root.appendingPathComponent(path)
    let all = FileManager.default.enumerator(atPath: dir.path)?.compactMap { $0 as? String } ?? []
    return all.filter { $0.hasSuffix(".swift") }.map { path + "/" + $0 }.sorted()
  }

  func text(_ path: String) -> String {
    (try? String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)) ?? ""
  }

  /// The code of a file: comments and string literals blanked.
  func code(_ path: String) -> String {
    var s = text(path)
    for pattern in [#"//[^\n]*"#, #""(?:[^"\\\n]|\\.)*""#] {
      s = s.replacingOccurrences(of: pattern, with: " ", options: .regularExpression)
    }
    return s
  }

  /// The top-level types each kind's folder declares, by kind folder.
  func kindTypes() -> [String: Set<String>] {
    let kinds = try! FileManager.default.contentsOfDirectory(
      atPath: root.appendingPathComponent("Sources/LayoutEngine/Kinds").path
    ).filter { !$0.hasSuffix(".swift") }
    var out: [String: Set<String>] = [:]
    let decl = try! NSRegularExpression(
      pattern:
        #"^(?:public |internal |fileprivate |private )?(?:final )?(?:indirect )?(?:struct|enum|class|protocol|typealias) ([A-Z]\w*)"#,
      options: .anchorsMatchLines)
    for kind in kinds {
      out[kind] = []
      for file in swiftFiles(under: "Sources/LayoutEngine/Kinds/\(kind)") {
        let s = code(file)
        for m in decl.matches(in: s, range: NSRange(s.startIndex..., in: s)) {
          out[kind, default: []].insert(String(s[Range(m.range(at: 1), in: s)!]))
        }
      }
    }
    return out
  }

  func names(_ type: String, in code: String) -> Bool {
    code.range(of: #"\b\#(type)\b"#, options: .regularExpression) != nil
  }

  func testTheScanSeesEachKindsTypes() {
    let types = kindTypes()
    XCTAssertEqual(
      Set(types.keys),
      ["Flow", "CoverFlow", "Waterfall", "Carousel", "Compositional", "Pager", "List"])
    XCTAssertTrue(types["List"]!.contains("ListGeometry"))
    XCTAssertTrue(
      types["Waterfall"]!.isSuperset(of: ["WaterfallConfiguration", "ColumnOverrides"]))
    XCTAssertTrue(types["Compositional"]!.contains("SectionLayout"))
    // The scan would see a kind's type named outside its folder: the
    // registry names each kind's configuration.
    let registry = code("Sources/LayoutEngine/Kinds/Registry.swift")
    for (kind, declared) in types {
      XCTAssertTrue(names("\(kind)Configuration", in: registry), kind)
      // Flow lines and list rows are shared placements (Placement/): their
      // configurations live there.
      XCTAssertTrue(
        declared.contains("\(kind)Configuration") || kind == "Flow" || kind == "List", kind)
    }
  }

  func testNoCodeOutsideAKindsFolderNamesItsTypes() {
    let types = kindTypes()
    var files =
      swiftFiles(under: "Sources/LayoutEngine") + swiftFiles(under: "Sources/LayoutServer")
    files += swiftFiles(under: "Sources/flowlayoutd")
    var found: [String] = []
    for file in files where !file.hasSuffix("Kinds/Registry.swift") {
      let s = code(file)
      for (kind, declared) in types {
        if file.hasPrefix("Sources/LayoutEngine/Kinds/\(kind)/")
          || file == "Sources/LayoutServer/Kinds/\(kind)Decoding.swift"
        {
          continue
        }
        for type in declared.sorted() where names(type, in: s) {
          found.append("\(file) names \(kind)'s \(type)")
        }
      }
    }
    XCTAssertEqual(found, [])
  }

  func testEveryKindHasOneDecoderAndOneRegistryLine() {
    let server = code("Sources/LayoutServer/Kinds/LayoutKinds.swift")
    for kind in kindTypes().keys {
      XCTAssertFalse(
        text("Sources/LayoutServer/Kinds/\(kind)Decoding.swift").isEmpty, "\(kind)'s decoder")
      XCTAssertTrue(names("\(kind)Decoder", in: server), "\(kind) in LayoutKinds.all")
    }
  }
}
