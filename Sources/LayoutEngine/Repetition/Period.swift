// Repetition: content that repeats without end along the scroll axis.
// Each kind has one repetition model (`Repetition`): none; copies of its
// placement one period apart, which every query walks (Copies.swift; the
// cover flow's loop, the pager's wrap); or a window the kind draws itself
// from the reduced offset (iCarousel's wrap). Either way the period, the
// reduction of an offset into one period and the laps are this file's, and
// the cards of the endless sequence and snapping across the seam are
// Seam.swift's: written once.
//
// Copy k (its *lap*) is the original content shifted by k·P along the
// scroll axis in the left-to-right space, where P, the *period*, is one
// copy's extent: the content's main-axis extent with the loop's section
// insets (none before a section's cards, its line spacing after them), so
// that the spacing joining the last card to the next copy's first card is
// the line spacing. Lap k spans [k·P, (k + 1)·P); in rtl horizontal
// scrolling the mirror image puts it at −k·P in client coordinates.
//
// Offsets far from zero stay exact: every query first reduces its offset
// into one period, K = ⌊offset / P⌋ (left to right), works with the
// reduced offset and small lap numbers, and adds K·P back at the end. So
// an offset of 1e12 gives the same relative frames as its reduced offset,
// up to the rounding of K·P + local.

/// How a kind repeats its content (one model per kind, as `RestModel` is).
enum Repetition: Equatable, Sendable {
  /// The content has ends.
  case none
  /// Copies of the placement one period apart: every query walks the
  /// copies its rect meets (Copies.swift).
  case copies
  /// The kind draws its own window of the endless sequence from the
  /// reduced offset (iCarousel's wrap), with the laps and reduction here.
  case window
}

/// A card of a carousel: its index path, and its lap when the layout loops.
public struct Card: Equatable, Hashable, Sendable {
  public var path: IndexPath
  public var lap: Int?
  public init(path: IndexPath, lap: Int? = nil) {
    self.path = path
    self.lap = lap
  }
}

/// Why a looping configuration cannot be laid out.
public enum LoopProblem: Equatable, Sendable {
  /// The period is shorter than 1 point while there are items to repeat.
  case period(Double)
  /// A copy's last card comes after the next copy's first (negative
  /// explicit insets along the scroll axis).
  case overlappingCopies
  /// The scale curve is unbounded, so cards arbitrarily far away could be
  /// drawn over the viewport.
  case unboundedScale
}

/// A card of the endless sequence in the left-to-right space: global index
/// `index` (0..<n) of copy `lap`.
struct LoopCard: Equatable {
  var lap: Int
  var index: Int
}

extension Layout {
  /// The period P of a looping carousel: one copy's extent along the scroll
  /// axis, which is also `contentSize` along it. O(1).
  public var period: Double { axes.main(contentSize) }

  /// Why the loop cannot be laid out, or nil (always nil without loop).
  /// O(log lines).
  public var loopProblem: LoopProblem? {
    guard repetition == .copies else { return nil }
    let P = period
    guard itemCount > 0 || P != 0 else { return nil }
    if !(P >= 1) { return .period(P) }
    if itemCount > 0 && restOffset(itemCount - 1) > restOffset(0) + P { return .overlappingCopies }
    return nil
  }

  /// The client-space direction of a lap's shift along the scroll axis.
  var lapDirection: Double { isRTL && scrollDirection == .horizontal ? -1 : 1 }

  /// The reduction of a client offset along the scroll axis:
  /// K = ⌊left-to-right offset / P⌋ and the client-space shift K·P (−K·P
  /// in rtl horizontal). O(1).
  func loopBase(_ clientMain: Double) -> (lap: Int, shift: Double) {
    let P = period
    guard P > 0 else { return (0, 0) }
    let q = (ltrMain(clientMain) / P).rounded(.down)
    let K = q.isFinite ? Int(min(max(q, -4e18), 4e18)) : 0
    return (K, lapDirection * Double(K) * P)
  }

  /// `r` moved by `d` along the scroll axis. O(1).
  func shiftedMain(_ r: Rect, _ d: Double) -> Rect {
    var r = r
    if scrollDirection == .horizontal { r.x += d } else { r.y += d }
    return r
  }

  /// Moves an element by `d` along the scroll axis (its transform, about
  /// its centre, is unchanged). O(1).
  func shiftMain(_ a: inout LayoutAttributes, _ d: Double) {
    if scrollDirection == .horizontal {
      a.center.x += d
      a.frame.x += d
    } else {
      a.center.y += d
      a.frame.y += d
    }
  }

  /// The laps, relative to the reduction, whose elements can lie in the
  /// main-axis span [lo, hi] of the reduced left-to-right space. O(1).
  func lapRange(_ lo: Double, _ hi: Double) -> (lo: Int, hi: Int) {
    let P = period
    let span = placement.elementSpan
    func int(_ v: Double) -> Int { Int(min(max(v, -4e18), 4e18)) }
    return (int(((lo - span.hi) / P).rounded(.down)), int(((hi - span.lo) / P).rounded(.up)))
  }

  /// How many copies `attributes(in: rect, bounds:)` examines: 0 without
  /// loop. Callers bound it, since a loop has no end. O(1).
  public func lapsExamined(in rect: Rect, bounds: Rect) -> Double {
    placement.lapsExamined(in: rect, bounds: bounds, of: self)
  }
}
