import JSONRPC
import LayoutEngine

// The protocol's side of a layout kind: how its `layout` object and its
// sections are read, the vocabularies it adds to `initialize`, and how its
// problems are reported. Every kind has one decoder in a file of its own in
// this folder; `LayoutKinds.all` is the one registry. Nothing else in the
// server names a layout type.

/// A value `initialize` reports among the capabilities.
enum Capability: Sendable {
  /// The names a field accepts.
  case names([String])
  /// A feature that is there.
  case flag(Bool)
}

/// Which request made a change, for naming the field an error blames.
enum ChangeSource: Sendable {
  /// layout/open: the layout as opened, seen through `params.bounds`.
  case open
  /// layout/configure: the layout's new fields.
  case configure
  /// Any other change, made by the field named.
  case change(String)

  /// The field blamed when the change meets too much: too many copies of
  /// looping content, or an answer too large to send.
  var viewportField: String {
    switch self {
    case .open: return "params.bounds"
    case .configure: return "params.layout"
    case .change(let field): return field
    }
  }

  /// The field to blame: a change's own field, or `field` of the layout
  /// opened or configured.
  func blames(_ field: String) -> String {
    if case .change(let f) = self { return f }
    return field
  }
}

/// A kind's own limit of items per session: a kind that keeps a record per
/// item caps them lower than the daemon does.
struct KindItemLimit: Sendable {
  /// Its key in `capabilities.limits`.
  var key: String
  /// Its command-line flag.
  var flag: String
  var defaultValue: Int
}

/// One layout kind's decoder.
protocol KindDecoder: Sendable {
  /// `params.layout.type`.
  var name: String { get }
  /// Reads `params.layout` (`f`). `base` is the session's current type when
  /// it is of this kind (layout/configure): absent fields keep its values.
  func read(_ f: Fields, base: LayoutType?) throws(RPCError) -> LayoutType
  /// What its section objects carry.
  var sectionFormat: SectionFormat { get }
  /// Its own entries of `initialize`'s capabilities, in order.
  var capabilities: [(key: String, value: Capability)] { get }
  /// Its own item limit, if it has one (reported in `capabilities.limits`
  /// and settable by its flag).
  var itemLimit: KindItemLimit? { get }
  /// The error for `problem` of a layout of this kind, caused by `source`.
  func error(for problem: LayoutProblem, source: ChangeSource) -> RPCError
}

extension KindDecoder {
  var capabilities: [(key: String, value: Capability)] { [] }
  var itemLimit: KindItemLimit? { nil }

  /// A kind whose layouts never have problems reports one plainly.
  func error(for problem: LayoutProblem, source: ChangeSource) -> RPCError {
    .invalidParams(source.viewportField, "makes the \(name) layout impossible to draw")
  }
}

/// The registry of kinds.
enum LayoutKinds {
  /// Every kind, in `capabilities.layoutTypes`' order.
  static let all: [any KindDecoder] = [
    FlowDecoder(), CoverFlowDecoder(), WaterfallDecoder(), CarouselDecoder(),
    CompositionalDecoder(), PagerDecoder(), ListDecoder(),
  ]

  static let names = all.map(\.name)

  /// Each kind's own item limit as it ships, by kind name.
  static let defaultItemLimits: [String: Int] = Dictionary(
    uniqueKeysWithValues: all.compactMap { d in d.itemLimit.map { (d.name, $0.defaultValue) } })

  /// The decoder of kind `name`, or nil. O(kinds).
  static func decoder(named name: String) -> (any KindDecoder)? {
    all.first { $0.name == name }
  }

  /// The decoder of `type`'s kind. O(kinds).
  static func decoder(for type: LayoutType) -> any KindDecoder {
    guard let d = decoder(named: type.name) else {
      preconditionFailure("kind \(type.name) has no decoder in LayoutKinds.all")
    }
    return d
  }

  /// Reads `params.layout`: its `type` (which layout/configure may omit to
  /// keep the session's), then the kind's own fields. A different `type`
  /// starts from that kind's defaults.
  static func read(_ f: Fields, base: LayoutType? = nil) throws(RPCError) -> LayoutType {
    let name = base != nil && f.optional("type") == nil ? base!.name : try f.string("type")
    guard let kind = decoder(named: name) else {
      throw .invalidParams(
        f.path("type"), "must be one of " + names.map { "\"\($0)\"" }.joined(separator: ", "))
    }
    return try kind.read(f, base: base?.name == name ? base : nil)
  }
}
