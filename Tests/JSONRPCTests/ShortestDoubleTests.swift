import JSONRPC
import XCTest

/// The number formatting (Schubfach, ShortestDouble.swift) against Swift's
/// own: every double written must read back as itself, with Swift's
/// digits, and never be longer than `Double.description`.
/// FLOWLAYOUT_DOUBLES sets how many random doubles (`make bench` runs 10⁷
/// in release; `make test` the default).
final class ShortestDoubleTests: XCTestCase {
  func written(_ d: Double) -> String {
    var w = JSONWriter()
    w.number(d)
    return String(decoding: w.bytes, as: UTF8.self)
  }

  /// The digits of a decimal numeral without sign, point, leading or
  /// trailing zeros, and its value's decimal exponent, for comparing two
  /// notations of one number.
  func digits(_ text: String) -> (String, Int) {
    var mantissa = Substring(text)
    var exponent = 0
    if let e = mantissa.firstIndex(where: { $0 == "e" || $0 == "E" }) {
      exponent = Int(mantissa[mantissa.index(after: e)...])!
      mantissa = mantissa[..<e]
    }
    if mantissa.hasPrefix("-") { mantissa = mantissa.dropFirst() }
    var whole = mantissa
    var fraction: Substring = ""
    if let dot = mantissa.firstIndex(of: ".") {
      whole = mantissa[..<dot]
      fraction = mantissa[mantissa.index(after: dot)...]
    }
    var all = String(whole + fraction)
    var point = whole.count + exponent
    while all.hasPrefix("0") && all.count > 1 {
      all.removeFirst()
      point -= 1
    }
    while all.hasSuffix("0") && all.count > 1 { all.removeLast() }
    return (all, point)
  }

  func check(_ d: Double, file: StaticString = #filePath, line: UInt = #line) -> Bool {
    let text = written(d)
    guard let back = Double(text) else {
      XCTFail("\(d.bitPattern): \(text) does not parse", file: file, line: line)
      return false
    }
    // JSON's integer path writes -0 as 0.
    let same = d == 0 ? back == 0 : back.bitPattern == d.bitPattern
    let reference = d.description
    if !same || text.utf8.count > reference.utf8.count
      || (d != 0 && digits(text) != digits(reference))
    {
      XCTFail(
        "\(d.bitPattern): wrote \(text), Swift writes \(reference), read back \(back)",
        file: file, line: line)
      return false
    }
    return true
  }

  func testNotationAndEdges() {
    let expected: [(Double, String)] = [
      (0.1, "0.1"), (100013.7, "100013.7"), (0.0001, "0.0001"), (0.00012, "0.00012"),
      (0.00001, "1e-5"), (2.5e-5, "2.5e-5"), (1e-7, "1e-7"), (123.456, "123.456"),
      (-0.5, "-0.5"), (.leastNonzeroMagnitude, "5e-324"),
      (2.2250738585072014e-308, "2.2250738585072014e-308"),
      (1.7976931348623157e308, "1.7976931348623157e308"),
      (9007199254740994, "9.007199254740994e15"),
      (1e16, "1e16"), (1e22, "1e22"), (4503599627370495.5, "4503599627370495.5"),
      (0.30000000000000004, "0.30000000000000004"), (1.0 / 3, "0.3333333333333333"),
      (2.0 / 3, "0.6666666666666666"), (123456789012345.6, "123456789012345.6"),
      (7, "7"), (-0.0, "0"), (9007199254740991, "9007199254740991"),
      (.infinity, "null"), (.nan, "null"),
    ]
    for (d, text) in expected { XCTAssertEqual(written(d), text, "\(d)") }
    // Every power of two (the interval is lopsided there) and its neighbours.
    for e in -1074...1023 {
      let p = Double(sign: .plus, exponent: e, significand: 1)
      for d in [p, p.nextUp, p.nextDown, -p] where d.isFinite && d != 0 {
        guard check(d) else { return }
      }
    }
    // Every power of ten and its neighbours.
    for e in -323...308 {
      guard let p = Double("1e\(e)") else { continue }
      for d in [p, p.nextUp, p.nextDown] where d.isFinite && d != 0 {
        guard check(d) else { return }
      }
    }
  }

  func testRandomDoubles() {
    let count = Int(ProcessInfo.processInfo.environment["FLOWLAYOUT_DOUBLES"] ?? "") ?? 200_000
    var rng = SplitMix(seed: 0x5EED_D0B1E)
    var failures = 0
    for i in 0..<count {
      let r = rng.next()
      let d: Double
      switch i % 6 {
      case 0, 1:
        // Any bit pattern: every exponent, subnormals included.
        d = Double(bitPattern: r)
        guard d.isFinite else { continue }
      case 2:
        // Subnormals and the smallest normals.
        d = Double(bitPattern: r & 0x801F_FFFF_FFFF_FFFF)
      case 3:
        // Integers of every size.
        d = Double(Int64(bitPattern: r) >> (r & 63))
      case 4:
        // Halves and quarters, as layouts produce.
        d = Double(Int64(bitPattern: r) >> (11 + r % 40)) / Double(1 << (1 + r % 2))
      default:
        // Short decimals (UI values), as a parser produces them.
        let scale = [1.0, 10, 100, 1000, 1e4, 1e6][Int(r >> 60) % 6]
        d = Double(Int64(bitPattern: r) >> (24 + r % 30)) / scale
      }
      if !check(d) {
        failures += 1
        if failures > 10 { return }
      }
    }
  }
}

/// A small seeded generator (SplitMix64), so that a failure repeats.
struct SplitMix {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

extension ShortestDoubleTests {
  func testDigitsOfEveryLength() {
    // 1, 9, 10, 99, 100, … around every power of ten a UInt64 holds, as
    // the fixed and exponent notations write them.
    var p: Double = 1
    for _ in 0..<22 {
      for d in [p, p * 9, p * 1.5, p * 9.5, p / 3] { _ = check(d) }
      p *= 10
    }
  }
}

extension ShortestDoubleTests {
  func testIntegersOfEveryLength() {
    var values: [Int] = [0, -1, Int.min, Int.max, Int.min + 1]
    var p = 1
    for _ in 0..<18 {
      values += [p - 1, p, p + 1, -p, -(p - 1)]
      p *= 10
    }
    for v in values {
      var w = JSONWriter()
      w.int(v)
      XCTAssertEqual(String(decoding: w.bytes, as: UTF8.self), String(v))
    }
  }
}
