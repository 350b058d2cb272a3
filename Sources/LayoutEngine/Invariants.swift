// Internal checks, as swift-collections runs `_invariantCheck()` under
// COLLECTIONS_INTERNAL_CHECKS: with them on, a debug build checks the
// whole layout after every commit (every relayout, and a row's scroll),
// and stops at the first broken invariant with what broke. They cost
// O(n) a commit, so they are off unless asked for: the fuzzers and the
// unit tests turn them on (FLOWLAYOUT_INTERNAL_CHECKS=1); release builds
// compile them out.

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Whether debug builds check every commit's invariants.
public enum InternalChecks {
  #if DEBUG
    /// On when FLOWLAYOUT_INTERNAL_CHECKS is set to 1, or by a test.
    nonisolated(unsafe) public static var enabled: Bool =
      getenv("FLOWLAYOUT_INTERNAL_CHECKS").map { String(cString: $0) == "1" } ?? false
  #else
    /// Compiled out of release builds.
    public static var enabled: Bool { false }
  #endif
}

extension Layout {
  /// The first broken invariant of the layout, or nil: the data's ropes,
  /// the placement's counts against the data's, the global starts, and the
  /// placement's own structure. O(n).
  public func invariantViolation() -> String? {
    if placement.sectionCount != sections.count {
      return "the placement has \(placement.sectionCount) sections for \(sections.count)"
    }
    if sectionStarts.count != sections.count + 1 || sectionStarts[0] != 0 {
      return "\(sectionStarts.count) section starts for \(sections.count) sections"
    }
    for (s, section) in sections.enumerated() {
      let n = section.count
      if placement.itemCount(inSection: s) != n {
        return
          "the placement has \(placement.itemCount(inSection: s)) items in section \(s) of \(n)"
      }
      if sectionStarts[s + 1] != sectionStarts[s] + n {
        return "section \(s + 1) starts off its items"
      }
      if case .sizes(let list) = section.items, let v = list.invariantViolation() {
        return "section \(s)'s sizes: \(v)"
      }
      if let ids = section.ids {
        if ids.count != n { return "section \(s) has \(ids.count) ids for \(n) items" }
        if let v = ids.invariantViolation() { return "section \(s)'s ids: \(v)" }
      }
      if let v = section.outline?.invariantViolation() { return "section \(s)'s outline: \(v)" }
    }
    let size = contentSize
    if !(size.width >= 0 && size.height >= 0 && size.width.isFinite && size.height.isFinite) {
      return "content size \(size)"
    }
    let span = placement.elementSpan
    if !(span.lo <= span.hi) { return "element span \(span)" }
    return placement.invariantViolation()
  }

  /// Stops a debug build with internal checks on at a broken invariant.
  /// O(n) then; O(1) otherwise.
  @inline(__always)
  func invariantCheck() {
    #if DEBUG
      if InternalChecks.enabled, let v = invariantViolation() {
        preconditionFailure("layout invariant: \(v)")
      }
    #endif
  }
}

extension LiveLayout {
  /// The first broken invariant of the session's picture, or nil: its
  /// elements in document order with distinct keys, an id for each when it
  /// has ids; and each outline section's rows its visible nodes. O(k), and
  /// O(rows) of the outline sections.
  public func invariantViolation() -> String? {
    if !picture.isSorted { return "the picture is not in document order" }
    if !pictureIDs.isEmpty && pictureIDs.count != picture.count {
      return "the picture has \(pictureIDs.count) ids for \(picture.count) elements"
    }
    // The data's outline sections: their items are their visible nodes, in
    // pre-order. (A movement's preview shows them in another order, with
    // a dragged node's rows left out: a picture, not data.)
    for (s, section) in layout.sections.enumerated() {
      guard let o = section.outline else { continue }
      let rows = o.visibleNodes()
      guard rows.count == section.count, let ids = section.ids else {
        return "section \(s) has \(section.count) items for \(rows.count) visible outline nodes"
      }
      for (r, j) in rows.enumerated() where ids[r] != o.ids[j] {
        return "section \(s)'s row \(r) is not outline node \(j)"
      }
    }
    return nil
  }

  /// Stops a debug build with internal checks on at a broken invariant.
  @inline(__always)
  func invariantCheck() {
    #if DEBUG
      if InternalChecks.enabled, let v = invariantViolation() {
        preconditionFailure("live layout invariant: \(v)")
      }
    #endif
  }
}
