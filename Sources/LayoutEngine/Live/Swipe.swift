// Swipe actions on a row (UIKit's UISwipeActionsConfiguration), headless:
// the buttons' frames as the row's content slides, and where a release
// leaves it. UIKit's thresholds are unpublished; these are flowlayoutd's
// own, after SwipeCellKit's published ones. A swipe is the session's state
// beside its picture: the row's own attributes never change (a client
// slides the cell's content), and a data change that deletes, moves or
// reloads the row closes it.

/// UIContextualAction.Style.
public enum SwipeActionStyle: String, Sendable, CaseIterable {
  case normal
  case destructive
}

/// The row's edge the actions come from (UIKit's leading and trailing
/// swipe actions); rtl mirrors them.
public enum SwipeEdge: String, Sendable, CaseIterable {
  case leading
  case trailing
}

/// One button: its preferred width and its style.
public struct SwipeAction: Equatable, Sendable {
  public var width: Double
  public var style: SwipeActionStyle
  public init(width: Double, style: SwipeActionStyle = .normal) {
    self.width = width
    self.style = style
  }
}

/// How a release left the row.
public enum SwipeState: String, Sendable {
  /// Past the full-swipe threshold: the first action runs, the row's
  /// content is slid out (translation ±w).
  case performed
  /// Resting open on its buttons (translation ±P).
  case open
  case closed
}

/// The widths of a swipe on a row `w` wide with `actions` (n ≥ 1): each
/// button's resting width B, the open width P and the full-swipe threshold
/// T. O(n).
public struct SwipeWidths: Equatable, Sendable {
  public let buttonWidth: Double
  public let openWidth: Double
  public let fullSwipeThreshold: Double

  public init(rowWidth w: Double, actions: [SwipeAction]) {
    let n = Double(actions.count)
    let m = max(0, (w - 30) / n)
    let widest = actions.reduce(0) { max($0, min($1.width, m)) }
    buttonWidth = max(min(74, m), widest)
    openWidth = n * buttonWidth
    fullSwipeThreshold =
      actions.first?.style == .destructive
      ? max(openWidth + 20, w - 30) : max(openWidth + 20, w / 2)
  }
}

/// A row's swipe in progress.
public struct Swipe: Equatable, Sendable {
  public var path: IndexPath
  public var edge: SwipeEdge
  public var actions: [SwipeAction]
  public var performsFirstActionWithFullSwipe: Bool
  /// The row's total translation, signed like a pan's x.
  public var translation: Double

  /// +1 when the content slides right (a leading swipe in ltr), −1 left.
  func sign(rtl: Bool) -> Double { (edge == .leading) != rtl ? 1 : -1 }

  /// The buttons' frames for the row `row` (content coordinates) at
  /// magnitude `tau`, in the order of `actions`, the first at the row's
  /// edge. O(n).
  func buttons(row: Rect, tau: Double, rtl: Bool) -> [Rect] {
    let widths = SwipeWidths(rowWidth: row.width, actions: actions)
    let n = actions.count
    var sizes: [Double]
    if performsFirstActionWithFullSwipe && tau > widths.fullSwipeThreshold {
      sizes = [tau]
    } else if tau < widths.openWidth {
      sizes = Array(repeating: widths.buttonWidth, count: n)
    } else {
      sizes = Array(repeating: tau / Double(n), count: n)
    }
    // The content slides toward `sign`: the buttons are uncovered at the
    // other side, the first at the row's edge.
    let fromRight = sign(rtl: rtl) < 0
    var out: [Rect] = []
    out.reserveCapacity(sizes.count)
    var offset = 0.0
    for width in sizes {
      let x = fromRight ? row.x + row.width - offset - width : row.x + offset
      out.append(Rect(x: x, y: row.y, width: width, height: row.height))
      offset += width
    }
    return out
  }
}

extension LiveLayout {
  /// The row a swipe is on, as it is drawn now, or nil. O(log n).
  private func swipeRow(_ path: IndexPath) -> Rect? {
    guard path.section < layout.sections.count, path.item < layout.sections[path.section].count
    else { return nil }
    return layout.attributesForItem(path, bounds: bounds)?.frame
  }

  /// Starts a swipe on the item at `path` (a valid path), closing any
  /// other row's: answers that row. A row already open on the same edge
  /// starts from its translation. O(log n).
  public mutating func beginSwipe(
    at path: IndexPath, edge: SwipeEdge, actions: [SwipeAction],
    performsFirstActionWithFullSwipe: Bool
  ) -> IndexPath? {
    var translation = 0.0
    var closed: IndexPath? = nil
    if let s = swipe {
      if s.path == path && s.edge == edge {
        translation = s.translation
      } else if s.path != path {
        closed = s.path
      }
    }
    swipe = Swipe(
      path: path, edge: edge, actions: actions,
      performsFirstActionWithFullSwipe: performsFirstActionWithFullSwipe,
      translation: translation)
    return closed
  }

  /// Moves the swipe in progress to `translation` (its magnitude clamped
  /// to the row's width, a sign against the swipe's edge to 0): the
  /// translation kept and the buttons' frames; nil without a swipe. O(n +
  /// log items).
  public mutating func updateSwipe(translation requested: Double) -> (
    translation: Double, buttons: [Rect]
  )? {
    guard var s = swipe, let row = swipeRow(s.path) else { return nil }
    let rtl = layout.isRTL
    let sign = s.sign(rtl: rtl)
    let tau = min(max(0, sign * requested), row.width)
    s.translation = tau == 0 ? 0.0 : sign * tau
    swipe = s
    return (s.translation, s.buttons(row: row, tau: tau, rtl: rtl))
  }

  /// Releases the swipe with `velocity` (points per ms along x): where it
  /// rests. Without a swipe, closed. O(n + log items).
  public mutating func endSwipe(velocity v: Double) -> (state: SwipeState, translation: Double) {
    guard var s = swipe, let row = swipeRow(s.path) else {
      swipe = nil
      return (.closed, 0)
    }
    let sign = s.sign(rtl: layout.isRTL)
    let tau = min(max(0, sign * s.translation), row.width)
    let widths = SwipeWidths(rowWidth: row.width, actions: s.actions)
    let pointsBack = v != 0 && (v > 0) != (sign > 0)
    let state: SwipeState
    if !pointsBack && s.performsFirstActionWithFullSwipe && tau > widths.fullSwipeThreshold {
      state = .performed
      s.translation = sign * row.width
    } else if !pointsBack && tau >= widths.openWidth / 2 {
      state = .open
      s.translation = sign * widths.openWidth
    } else {
      swipe = nil
      return (.closed, 0)
    }
    swipe = s
    return (state, s.translation)
  }

  /// Closes the swipe in progress, if any. O(1).
  public mutating func closeSwipe() { swipe = nil }

  /// After a batch: the open row's new path, or closed when the batch
  /// deleted, moved or reloaded it (answered as `closedSwipe`). O(ops).
  mutating func followSwipe(_ update: BatchUpdate, _ result: BatchResult, deleted: IndexPathSet)
    -> IndexPath?
  {
    guard let s = swipe else { return nil }
    let touched =
      update.moveItems.contains { $0.from == s.path }
      || update.reloadItems.contains { $0.path == s.path }
    guard !touched, let to = result.newPath(of: s.path, deleted: deleted) else {
      swipe = nil
      return s.path
    }
    swipe!.path = to
    return nil
  }
}
