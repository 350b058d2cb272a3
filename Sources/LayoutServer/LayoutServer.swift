import JSONRPC
import LayoutEngine

/// Application error codes (JSON-RPC reserves -32768…-32000).
public enum ErrorCode {
  public static let unknownSession = 1001
  public static let sessionExists = 1002
  public static let limitExceeded = 1004
}

/// The documented limits, reported in `initialize`'s capabilities and
/// settable by command-line flags.
public struct Limits: Sendable {
  public var maxSessions = 1_000
  public var maxItemsPerSession = 100_000_000
  public var maxSections = 1_000_000
  public var maxSessionIdBytes = 256
  /// An item's or a section's id, in UTF-8 bytes: ids are quoted in every
  /// answer that names their items.
  public static let maxIdBytes = 1024
  public var maxMessageBytes = 64 << 20
  /// The largest answer of elements (a rect's attributes, or a viewport's
  /// or a change's delta). Writing 8 MiB of attributes (about 42,000) takes
  /// about 25 ms: a small request that asks for more would hold the loop,
  /// and every other session, for longer than issue #28 allows (50 ms).
  /// Larger pictures are read in pages (attributesInRect's `limit`).
  public var maxAnswerBytes = 8 << 20
  /// Copies of a looping carousel's content one query may examine.
  public var maxLapsPerQuery = 100_000
  /// Item sizes and ids one request may carry. Unlimited by default: the
  /// message limit bounds a request. An operator who wants every frame
  /// queued behind a bulk load answered within a 120 Hz frame sets it to
  /// about 2,048 (reading 2,048 {width, height} objects takes about 2.5 ms)
  /// and clients then load in chunks (layout/appendItems).
  public var maxItemValuesPerRequest = Int.max
  /// Items in all sessions together: at most about 36 bytes each (a
  /// waterfall's per-item record; a flow of varied sizes takes about 21),
  /// so the sessions stay under about 4 GiB.
  public var maxTotalItems = 100_000_000
  /// Each kind's own item limit, by kind name, for the kinds that have one
  /// (`KindDecoder.itemLimit`, Kinds/): their defaults, or what a flag set.
  public var maxItemsByKind: [String: Int] = LayoutKinds.defaultItemLimits
  public init() {}

  /// The item limit of a session of `type`, not counting the daemon-wide
  /// budget. O(1).
  public func maxItems(for type: LayoutType) -> Int { maxItems(for: type.name) }

  /// The item limit of a session of the kind named `kind`. O(1).
  func maxItems(for kind: String) -> Int {
    min(maxItemsPerSession, maxItemsByKind[kind] ?? .max)
  }

  /// The command-line flags of the kinds' own limits, each with its kind
  /// and its line of `--help`, in the registry's order.
  public static var kindFlags: [(flag: String, kind: String, help: String)] {
    LayoutKinds.all.compactMap { d in
      d.itemLimit.map {
        ($0.flag, d.name, "items per \(d.name) session (default \($0.defaultValue))")
      }
    }
  }
}

/// The most items one session may hold: its type's limit, or less when
/// that is what the daemon-wide budget leaves.
struct ItemCap {
  var max: Int
  var perSession: Int
  var perSessionReason: String
  var maxTotal: Int
  var others: Int

  /// Why `count` items are too many: the per-session limit when they
  /// exceed it, else the budget.
  func reason(for count: Int) -> String {
    count > perSession || count < 0
      ? perSessionReason
      : "what the daemon-wide limit of \(maxTotal) (maxTotalItems) leaves beside the other sessions' \(others)"
  }
}

/// The `layout/*` methods over a table of live sessions.
public final class LayoutServer: RPCHandler {
  public static let version = "0.1.0"
  public let limits: Limits
  /// Every insertion or removal bumps `sessionsChanged` (the slots that
  /// `lastSlot` remembers move); changing a session in place does not.
  var sessions: [String: LiveLayout] = [:]
  @exclusivity(unchecked) private var sessionsChanged = 0
  @exclusivity(unchecked) private var lastSpec: MethodSpec? = nil
  /// The session last looked up and where it lies: a scroll names the
  /// same session every frame, and a byte comparison of its name costs
  /// less than a String and a hash of it.
  @exclusivity(unchecked) private var lastSlot:
    (id: String, slot: [String: LiveLayout].Index, changed: Int)? = nil
  /// Items in all sessions (`store` and `close` keep it).
  private(set) var totalItems = 0

  public init(limits: Limits = Limits()) {
    self.limits = limits
  }

  public var sessionCount: Int { sessions.count }

  // MARK: RPCHandler

  public func initialize(params: JSONValue?, result w: inout JSONWriter) throws(RPCError) {
    _ = try Fields.params(params)
    w.beginObject()
    w.key("serverInfo")
    w.beginObject()
    w.key("name")
    w.string("flowlayoutd")
    w.key("version")
    w.string(Self.version)
    w.endObject()
    w.key("capabilities")
    w.beginObject()
    w.key("layoutTypes")
    strings(LayoutKinds.names, &w)
    // The snapping layer's and the queries' vocabularies, shared by kinds;
    // then each kind's own, in the registry's order.
    w.key("snapPolicies")
    strings(SnapPolicy.allCases.map(\.rawValue), &w)
    w.key("snapEdges")
    strings(SnapEdges.allCases.map(\.rawValue), &w)
    w.key("decelerationRates")
    strings(["normal", "fast"], &w)
    w.key("itemPositions")
    strings(ItemPosition.allCases.map(\.rawValue), &w)
    for kind in LayoutKinds.all {
      for (name, value) in kind.capabilities {
        w.key(escaping: name)
        switch value {
        case .names(let list): strings(list, &w)
        case .flag(let on): w.bool(on)
        }
      }
    }
    w.key("methods")
    strings(Self.methodTable.map(\.name), &w)
    w.key("methodTable")
    writeMethodTable(&w)
    w.key("resultShapes")
    writeResultShapes(&w)
    w.key("limits")
    w.beginObject()
    w.key("maxSessions")
    w.int(limits.maxSessions)
    w.key("maxItemsPerSession")
    w.int(limits.maxItemsPerSession)
    w.key("maxSections")
    w.int(limits.maxSections)
    w.key("maxSessionIdBytes")
    w.int(limits.maxSessionIdBytes)
    w.key("maxIdBytes")
    w.int(Limits.maxIdBytes)
    w.key("maxMessageBytes")
    w.int(limits.maxMessageBytes)
    w.key("maxAnswerBytes")
    w.int(limits.maxAnswerBytes)
    w.key("maxLapsPerQuery")
    w.int(limits.maxLapsPerQuery)
    w.key("maxItemValuesPerRequest")
    // Unlimited (the default) is null.
    if limits.maxItemValuesPerRequest == .max {
      w.null()
    } else {
      w.int(limits.maxItemValuesPerRequest)
    }
    for kind in LayoutKinds.all {
      if let limit = kind.itemLimit {
        w.key(escaping: limit.key)
        w.int(limits.maxItems(for: kind.name))
      }
    }
    w.key("maxTotalItems")
    w.int(limits.maxTotalItems)
    w.endObject()
    w.endObject()
    w.endObject()
  }

  private func strings(_ list: [String], _ w: inout JSONWriter) {
    w.beginArray()
    for s in list { w.string(s) }
    w.endArray()
  }

  public func handleRequest(method: String, params: JSONValue?, result w: inout JSONWriter)
    throws(RPCError)
  {
    guard let spec = spec(named: method) else {
      throw .methodNotFound(method, among: ["initialize", "shutdown"] + methodNames)
    }
    let fields = try Fields.params(params)
    try fields.rejectUnknown(spec.knownNames)
    try spec.handler(self)(fields, &w)
  }

  /// The table's entry for `method`: the last one found again when the
  /// name is the same (the server hands the table's own String back, so
  /// the comparison is of two pointers), else a lookup. O(1).
  private func spec(named method: String) -> MethodSpec? {
    if let last = lastSpec, last.name == method { return last }
    lastSpec = Self.methodsByName[method]
    return lastSpec
  }

  /// A `layout/*` method sent as a notification is carried out, as
  /// JSON-RPC requires, and its result or error is dropped.
  public func handleNotification(method: String, params: JSONValue?) {
    guard let spec = Self.methodsByName[method], let fields = try? Fields.params(params),
      (try? fields.rejectUnknown(spec.knownNames)) != nil
    else { return }
    var discard = JSONWriter()
    try? spec.handler(self)(fields, &discard)
  }

  /// The method table's names, for the server to intern.
  public var methodNames: [String] { Self.methodTable.map(\.name) }

  public func shutdown() {
    sessions.removeAll()
    sessionsChanged &+= 1
    totalItems = 0
  }

  /// Counts a change of a stored session's items. O(1).
  func recount(_ change: Int) { totalItems += change }

  /// Stores a session that passed every check, keeping the item count.
  /// O(1).
  func store(_ id: String, _ session: LiveLayout) {
    totalItems += session.layout.itemCount - (sessions[id]?.layout.itemCount ?? 0)
    sessions[id] = session
    sessionsChanged &+= 1
  }

  /// The most items a session may hold as `type` while it now holds `own`
  /// (0 for a new one): its type's limit, or what the daemon-wide budget
  /// leaves when that is less. O(1).
  func itemCap(for type: LayoutType, holding own: Int) -> ItemCap {
    let perSession = limits.maxItems(for: type)
    let others = totalItems - own
    return ItemCap(
      max: Swift.max(0, Swift.min(perSession, limits.maxTotalItems - others)),
      perSession: perSession,
      perSessionReason: perSession < limits.maxItemsPerSession
        ? "the per-session limit of a \(type.name)" : "the per-session limit",
      maxTotal: limits.maxTotalItems, others: others)
  }

  // MARK: Session lookup

  private func sessionID(_ p: Fields) throws(RPCError) -> String {
    let id = try p.string("session")
    guard !id.isEmpty else { throw .invalidParams(p.path("session"), "must not be empty") }
    guard id.utf8.count <= limits.maxSessionIdBytes else {
      throw RPCError(
        code: ErrorCode.limitExceeded,
        message:
          "\(p.path("session")) is \(id.utf8.count) bytes long; the limit (maxSessionIdBytes) is \(limits.maxSessionIdBytes)",
        field: p.path("session"))
    }
    return id
  }

  func existing(_ p: Fields) throws(RPCError) -> (String, LiveLayout) {
    let slot = try existingSlot(p)
    return (sessions.keys[slot], sessions.values[slot])
  }

  /// Calls `body` with the session at `slot`, in place: one access to
  /// `sessions`, no copy. `body` must leave the session as it was when it
  /// throws. O(1) around `body`.
  func modify<R>(
    _ slot: [String: LiveLayout].Index, _ body: (inout LiveLayout) throws(RPCError) -> R
  ) throws(RPCError) -> R {
    try body(&sessions.values[slot])
  }

  /// Where the session named by `session` lies in `sessions`: one hash of
  /// its name, and a handler that changes the session in place copies
  /// nothing. O(1).
  func existingSlot(_ p: Fields) throws(RPCError) -> [String: LiveLayout].Index {
    if let last = lastSlot, last.changed == sessionsChanged,
      p.optional("session")?.isString(last.id) == true
    {
      return last.slot
    }
    let id = try sessionID(p)
    guard let slot = sessions.index(forKey: id) else {
      throw RPCError(
        code: ErrorCode.unknownSession, message: "unknown session \"\(bounded(id))\"",
        field: p.path("session"))
    }
    lastSlot = (id, slot, sessionsChanged)
    return slot
  }

  // MARK: Methods

  /// layout/open {session, layout, bounds, sections, contentInset?, overscan?}
  /// → {contentSize, bounds, attributes, centeredItem}. O(n) for the layout.
  func open(_ p: Fields, _ w: inout JSONWriter) throws(RPCError) {
    let id = try sessionID(p)
    // Validate everything before touching the session table: an error
    // leaves every session as it was.
    guard sessions[id] == nil else {
      throw RPCError(
        code: ErrorCode.sessionExists, message: "session \"\(bounded(id))\" is already open",
        field: p.path("session"))
    }
    guard sessions.count < limits.maxSessions else {
      throw RPCError(
        code: ErrorCode.limitExceeded,
        message: "\(limits.maxSessions) sessions are open, the limit; close one first",
        field: p.path("session"))
    }
    let layoutFields = try p.object("layout")
    let type = try LayoutKinds.read(layoutFields)
    let bounds = try p.rect("bounds")
    let sections = try readSections(
      p, limits: limits, cap: itemCap(for: type, holding: 0), format: SectionFormat(type))
    let itemIndex = try uniqueIDs(sections, p)
    try uniqueOutlineIDs(sections, p)
    let inset = try p.optionalInsets("contentInset") ?? .zero
    let overscan = try p.optionalNumber("overscan", min: 0, maxMagnitude: maxCoordinate) ?? 0
    let layout = Layout(
      type: type, sections: sections, contentInset: inset, viewportSize: bounds.size)
    let followsEnd = try p.optionalBool("followsEnd") ?? false
    let reordering = try readReorderOptions(layoutFields, base: ReorderOptions())
    let (session, delta): (LiveLayout, LiveDelta)
    do {
      (session, delta) = try LiveLayout.open(
        layout, bounds: bounds, overscan: overscan, followsEnd: followsEnd,
        reordering: reordering, itemIndex: itemIndex
      ) { (layout, rect, bounds) throws(RPCError) in
        try checkViewport(layout, rect, bounds, field: "params.bounds")
      }
    } catch {
      throw rpcError(error, source: .open, p)
    }
    store(id, session)
    w.beginObject()
    w.key("contentSize")
    w.size(session.layout.contentSize)
    w.key("bounds")
    w.rect(session.bounds)
    w.key("attributes")
    w.attributesArray(
      session.picture, at: delta.invalidated, ids: session.pictureIDs, in: session.layout)
    w.key("centeredItem")
    w.card(delta.centered, id: session.layout.itemID(of: delta.centered))
    w.endObject()
  }

  /// The index of the sections' item ids, which must not repeat (keyed
  /// requests would act on the first match): a repeated id is -32602
  /// naming its second place. nil without ids. O(n) expected.
  func uniqueIDs(_ sections: [Section], _ p: Fields) throws(RPCError) -> ItemIndex? {
    guard sections.contains(where: { $0.ids != nil }) else { return nil }
    switch ItemIndex.unique(sections) {
    case .success(let index): return index
    case .failure(let d):
      var w = JSONWriter()
      w.itemID(d.id)
      let quoted = bounded(w.withBytes { String(decoding: $0, as: UTF8.self) })
      throw .invalidParams(
        "\(p.path("sections"))[\(d.path.section)].ids[\(d.path.item)]",
        "repeats the id \(quoted) of sections[\(d.earlier.section)].ids[\(d.earlier.item)]: item ids must be unique"
      )
    }
  }

  /// layout/setBounds {session, bounds}
  /// → {contentSize, bounds, invalidated, removed, centeredItem}.
  /// A scroll (same size) costs O(log n + k) for k visible elements and
  /// answers with the bounds as sent. A size change (a rotation) relayouts
  /// and moves the origin so the anchor element stays where it was.
  func setBounds(_ p: Fields, _ w: inout JSONWriter) throws(RPCError) {
    let slot = try existingSlot(p)
    let requested = try p.rect("bounds")
    try commit(slot, .setBounds(requested), source: .change("params.bounds"), p, &w)
  }

  /// What a viewport `bounds` (whose visible rect is `rect`) meets must be
  /// answerable: no more copies of looping content than `maxLapsPerQuery`,
  /// no answer over `maxAnswerBytes`. O(log n) per section met.
  func checkViewport(_ layout: Layout, _ rect: Rect, _ bounds: Rect, field: String)
    throws(RPCError)
  {
    try checkLaps(layout, rect, bounds, field: field)
    try checkAnswer(layout, rect, bounds, field: field)
  }

  /// A loop query over more copies than `maxLapsPerQuery` is error 1004.
  func checkLaps(_ layout: Layout, _ rect: Rect, _ bounds: Rect, field: String) throws(RPCError) {
    let laps = layout.lapsExamined(in: rect, bounds: bounds)
    guard laps > Double(limits.maxLapsPerQuery) else { return }
    throw RPCError(
      code: ErrorCode.limitExceeded,
      message:
        "\(field) makes one query span more than \(limits.maxLapsPerQuery) copies of the "
        + "looping content, the limit",
      field: field)
  }

  /// The fewest bytes an element takes in an answer: every field at its
  /// shortest (`{"kind":"cell","section":0,…,"zIndex":0},`).
  static let minElementBytes = 154

  /// An answer that would exceed `maxAnswerBytes` is refused before it is
  /// built: `rect` (with the viewport `bounds`) meets up to
  /// `elementCountBound` elements, counted from the placement's index, and
  /// that many at their shortest would not fit. O(log n) per section met.
  func checkAnswer(
    _ layout: Layout, _ rect: Rect, _ bounds: Rect, field: String, limit: Int? = nil
  ) throws(RPCError) {
    let n = min(layout.elementCountBound(in: rect, bounds: bounds), limit ?? .max)
    let (bytes, overflow) = n.multipliedReportingOverflow(by: Self.minElementBytes)
    guard overflow || bytes > limits.maxAnswerBytes else { return }
    throw RPCError(
      code: ErrorCode.limitExceeded,
      message:
        "\(field) meets up to \(n) elements: an answer of at least \(overflow ? "9e18" : String(bytes)) bytes, more than maxAnswerBytes (\(limits.maxAnswerBytes)); ask for a smaller rect",
      field: field)
  }

  /// layout/scrollEnded {session, contentOffset, velocity, proposedContentOffset?, frameInterval?}
  /// → {targetContentOffset, targetItem, projectedContentOffset, policy, durationMs,
  /// trajectory}. O(log n + samples).
  func scrollEnded(_ p: Fields, _ w: inout JSONWriter) throws(RPCError) {
    let (_, session) = try existing(p)
    let offset = try p.point("contentOffset")
    let velocity = try p.point("velocity")
    let proposed = try p.optionalPoint("proposedContentOffset")
    let frame = try p.optionalNumber("frameInterval", min: 1, maxMagnitude: 1000) ?? 1000.0 / 60
    if p.optional("section") != nil {
      // A row's release: its own offset and velocity, its behaviour's rests.
      let s = try rowSection(p, session.layout)
      w.plan(
        session.layout.rowScrollPlan(
          section: s, contentOffset: offset, velocity: velocity, proposed: proposed,
          frameInterval: frame)!)
      return
    }
    w.plan(
      session.layout.scrollPlan(
        contentOffset: offset, velocity: velocity, proposed: proposed, frameInterval: frame))
  }

  /// layout/scrollToItem {session, section, item, position?} → {contentOffset,
  /// lap?}: in a loop, the shortest way round from the session's bounds.
  /// O(log lines).
  func scrollToItem(_ p: Fields, _ w: inout JSONWriter) throws(RPCError) {
    let (_, session) = try existing(p)
    let path = try indexPath(p, session)
    let position = try p.optionalChoice("position", ItemPosition.allCases.map(\.rawValue))
    let target = session.layout.scrollTarget(
      for: path, position: ItemPosition(rawValue: position ?? "center")!,
      from: session.bounds.origin)!
    w.beginObject()
    w.key("contentOffset")
    w.point(target.offset)
    if let lap = target.lap {
      w.key("lap")
      w.int(lap)
    }
    if let row = session.layout.rowTarget(
      for: path, position: ItemPosition(rawValue: position ?? "center")!)
    {
      // The item's row scrolls on its own: the row's offset that shows it.
      w.key("rowOffset")
      w.number(row)
    }
    w.endObject()
  }

  /// layout/attributesInRect {session, rect, limit?, after?} → {attributes,
  /// next?}: every element meeting the rect, or a page of them in document
  /// order after `after`, with `next` when more remain. O(log n + k).
  func attributesInRect(_ p: Fields, _ w: inout JSONWriter) throws(RPCError) {
    let (_, session) = try existing(p)
    let rect = try p.rect("rect")
    let limit = p.optional("limit") == nil ? nil : try p.integer("limit", in: 1...Int.max)
    let after = try pageStart(p, session.layout)
    try checkLaps(session.layout, rect, session.bounds, field: p.path("rect"))
    try checkAnswer(session.layout, rect, session.bounds, field: p.path("rect"), limit: limit)
    let start = w.byteCount
    let cap = limit ?? .max
    // Room for the answer at once (about 200 bytes an element), so that it
    // is not copied as it grows.
    let bound = min(session.elementCountBound(in: rect), cap)
    w.reserve(min(bound, limits.maxAnswerBytes / Self.minElementBytes) * 200)
    w.beginObject()
    w.key("attributes")
    w.beginArray()
    // Written as they are computed: no array of every element. One more
    // than the limit says whether more remain; it is not written.
    var count = 0
    var last: LayoutAttributes? = nil
    var more = false
    var over = false
    session.forEachAttribute(in: rect, after: after) { a in
      if count == cap {
        more = true
        return false
      }
      let id = session.layout.itemID(of: a)
      w.attributes(a, id: id, parent: JSONWriter.parent(of: a, id, in: session.layout))
      count += 1
      last = a
      // The count is a lower bound of the size: elements longer than their
      // shortest can still take the answer over, which is refused too.
      over = w.byteCount - start > limits.maxAnswerBytes
      return !over
    }
    w.endArray()
    if more, let last {
      w.key("next")
      w.elementKey(last.key)
    }
    w.endObject()
    if over {
      throw RPCError(
        code: ErrorCode.limitExceeded,
        message:
          "\(p.path("rect")) meets at least \(count) elements: an answer of more than \(limits.maxAnswerBytes) bytes (maxAnswerBytes); ask for a smaller rect",
        field: p.path("rect"))
    }
  }

  /// The `section` of a row method: in range, and a section that scrolls
  /// on its own.
  func rowSection(_ p: Fields, _ layout: Layout) throws(RPCError) -> Int {
    let s = try p.integer("section", in: 0...Int.max)
    guard s < layout.sections.count else {
      throw .invalidParams(
        p.path("section"), "is out of range: the session has \(layout.sections.count) sections")
    }
    guard layout.scrollsOrthogonally(section: s) else {
      throw .invalidParams(
        p.path("section"),
        layout.hasOrthogonalRows
          ? "does not scroll on its own (its orthogonalScrollingBehavior is \"none\")"
          : "names a row, which a \(layout.type.name) layout does not have")
    }
    return s
  }

  /// The item a request names: `{section, item}`, or `{id}` instead.
  func indexPath(_ p: Fields, _ session: LiveLayout) throws(RPCError) -> IndexPath {
    guard let id = p.optional("id") else { return try indexPath(p, session.layout) }
    for key in ["section", "item"] where p.optional(key) != nil {
      throw .invalidParams(p.path(key), "cannot be given with id")
    }
    return try itemPath(of: try readItemID(id, path: p.path("id")), session, field: p.path("id"))
  }

  /// Where the item `id` lies in the session; an unknown id is -32602
  /// naming `field`. O(1) expected after the index is built (O(n) once
  /// per change of the ids).
  func itemPath(of id: ItemID, _ session: LiveLayout, field: String) throws(RPCError) -> IndexPath {
    guard let path = session.path(of: id) else {
      throw .invalidParams(field, "names no item of the session")
    }
    return path
  }

  private func indexPath(_ p: Fields, _ layout: Layout) throws(RPCError) -> IndexPath {
    let section = try p.integer("section", in: 0...Int.max)
    guard section < layout.sections.count else {
      throw .invalidParams(
        p.path("section"), "is out of range: the session has \(layout.sections.count) sections")
    }
    let item = try p.integer("item", in: 0...Int.max)
    let count = layout.sections[section].count
    guard item < count else {
      throw .invalidParams(
        p.path("item"), "is out of range: section \(section) has \(count) items")
    }
    return IndexPath(section: section, item: item)
  }

  /// attributesInRect's optional `after`: the element key a page follows.
  private func pageStart(_ p: Fields, _ layout: Layout) throws(RPCError) -> PageStart? {
    guard let f = try p.optionalObject("after") else { return nil }
    try f.rejectUnknown(["kind", "edge", "section", "item", "lap"])
    let name = try f.optionalChoice("kind", ElementKind.wireNames)
    guard let name else { throw .invalidParams(f.path("kind"), "is required") }
    // A separator names its edge; no other kind takes one.
    let kind = try ElementKind(wireName: name) { () throws(RPCError) in
      guard let e = try f.optionalChoice("edge", ["top", "bottom"]) else {
        throw .invalidParams(f.path("edge"), "is required for a separator")
      }
      return e
    }!
    if !kind.isSeparator, f.optional("edge") != nil {
      throw .invalidParams(f.path("edge"), "is only accepted for a separator")
    }
    let position = ElementPosition(
      kind: kind, section: try f.integer("section", in: 0...Int.max),
      item: try f.integer("item", in: 0...Int.max))
    guard f.optional("lap") != nil else { return PageStart(position: position) }
    guard layout.loops else {
      throw .invalidParams(f.path("lap"), "is only accepted when the layout loops")
    }
    return PageStart(position: position, lap: try f.integer("lap", in: -(1 << 53)...(1 << 53)))
  }

  /// The optional `lap` of a looping carousel's element queries.
  private func lap(_ p: Fields, _ layout: Layout) throws(RPCError) -> Int? {
    guard p.optional("lap") != nil else { return nil }
    let lap = try p.integer("lap", in: -(1 << 53)...(1 << 53))
    guard layout.loops else {
      throw .invalidParams(p.path("lap"), "is only accepted when the layout loops")
    }
    return lap
  }

  /// layout/attributesForItem {session, section, item, lap?} → {attributes}.
  func attributesForItem(_ p: Fields, _ w: inout JSONWriter) throws(RPCError) {
    let (_, session) = try existing(p)
    let path = try indexPath(p, session)
    let lap = try lap(p, session.layout)
    w.beginObject()
    w.key("attributes")
    // nil for a row a drag hides with its dragged parent.
    if let a = session.attributesForItem(path, lap: lap) {
      let id = session.layout.itemID(section: path.section, item: path.item)
      w.attributes(a, id: id, parent: JSONWriter.parent(of: a, id, in: session.layout))
    } else {
      w.null()
    }
    w.endObject()
  }

  /// layout/attributesForSupplementary {session, kind, section, lap?} →
  /// {attributes|null}: a header, a footer, or a compositional section's
  /// background (UIKit's layoutAttributesForDecorationView).
  func attributesForSupplementary(_ p: Fields, _ w: inout JSONWriter) throws(RPCError) {
    let (_, session) = try existing(p)
    let kind = try p.optionalChoice("kind", ["header", "footer", "decoration"])
    guard let kind else { throw .invalidParams(p.path("kind"), "is required") }
    let section = try p.integer("section", in: 0...Int.max)
    guard section < session.layout.sections.count else {
      throw .invalidParams(
        p.path("section"),
        "is out of range: the session has \(session.layout.sections.count) sections")
    }
    let lap = try lap(p, session.layout)
    w.beginObject()
    w.key("attributes")
    if let a = session.layout.attributesForSupplementary(
      ElementKind(rawValue: kind)!, section: section, lap: lap, bounds: session.bounds)
    {
      w.attributes(a)
    } else {
      w.null()
    }
    w.endObject()
  }

  /// layout/itemAtPoint {session, point} → {section, item, lap?} | null: the
  /// topmost cell whose frame contains the point. O(log n + k).
  func itemAtPoint(_ p: Fields, _ w: inout JSONWriter) throws(RPCError) {
    let (_, session) = try existing(p)
    let point = try p.point("point")
    let probe = Rect(x: point.x - 0.5, y: point.y - 0.5, width: 1, height: 1)
    try checkLaps(session.layout, probe, session.bounds, field: p.path("point"))
    let card = session.cardAtPoint(point)
    w.card(card, id: session.layout.itemID(of: card))
  }

  /// layout/contentSize {session} → {contentSize}. O(1).
  func contentSize(_ p: Fields, _ w: inout JSONWriter) throws(RPCError) {
    let (_, session) = try existing(p)
    w.beginObject()
    w.key("contentSize")
    w.size(session.layout.contentSize)
    w.endObject()
  }

  /// layout/close {session} → null.
  func close(_ p: Fields, _ w: inout JSONWriter) throws(RPCError) {
    let (id, session) = try existing(p)
    totalItems -= session.layout.itemCount
    sessions[id] = nil
    sessionsChanged &+= 1
    w.null()
  }
}
