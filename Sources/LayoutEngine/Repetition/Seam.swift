// The cards of the endless sequence, in the left-to-right space: laps
// carried across the seam, rest offsets, the centred card and the snap
// policies' targets, which never clamp (a loop has no ends).

extension Layout {
  // MARK: Cards of the endless sequence (left-to-right space)

  /// Copy `lap`'s card `index`, with an index outside 0..<n carried into
  /// the neighbouring laps. O(1).
  func loopCard(lap: Int, index: Int) -> LoopCard {
    let n = itemCount
    var l = lap + index / n
    var i = index % n
    if i < 0 {
      i += n
      l -= 1
    }
    return LoopCard(lap: l, index: i)
  }

  /// A card's rest offset: its centre at the viewport's centre. O(log lines).
  func loopRest(_ c: LoopCard) -> Double { restOffset(c.index) + Double(c.lap) * period }

  /// The last card whose rest offset is at most `u`. O(log n).
  func loopBracket(_ u: Double) -> LoopCard {
    let q = ((u - restOffset(0)) / period).rounded(.down)
    let j = Int(min(max(q, -4e18), 4e18))
    // bracket gives −1 when rounding left u just before card 0: that is
    // the previous copy's last card.
    return loopCard(lap: j, index: bracket(u - Double(j) * period))
  }

  /// The fractional index of offset `u` along the endless sequence
  /// (n·lap + index, interpolated between rest offsets). O(log n).
  func loopFractionalIndex(_ u: Double) -> Double {
    let a = loopBracket(u)
    let b = loopCard(lap: a.lap, index: a.index + 1)
    let t0 = loopRest(a)
    let t1 = loopRest(b)
    let base = Double(a.lap) * Double(itemCount) + Double(a.index)
    return t1 > t0 ? base + (u - t0) / (t1 - t0) : base
  }

  /// The card of fractional index `f` rounded to the nearest, ties to the
  /// earlier card. O(1).
  func loopCard(rounding f: Double) -> LoopCard {
    let n = Double(itemCount)
    let g = (f - 0.5).rounded(.up)
    let lap = (g / n).rounded(.down)
    let index = min(max(g - lap * n, 0), n - 1)
    return LoopCard(lap: Int(min(max(lap, -4e18), 4e18)), index: Int(index))
  }

  /// The card whose rest offset is nearest `u`, ties to the earlier one.
  /// O(log n).
  func loopNearestCard(_ u: Double) -> LoopCard {
    let a = loopBracket(u)
    let b = loopCard(lap: a.lap, index: a.index + 1)
    return abs(loopRest(b) - u) < abs(loopRest(a) - u) ? b : a
  }

  /// The centred card: the copy whose centre is nearest the viewport's
  /// centre along the scroll axis, ties to the earlier (lap, item); for
  /// layouts that do not loop, `centeredItem` without a lap. O(log n).
  public func centeredCard(in bounds: Rect) -> Card? {
    guard loops else { return centeredItem(in: bounds).map { Card(path: $0) } }
    guard itemCount > 0, period > 0 else { return nil }
    let (K, shift) = loopBase(axes.main(bounds.origin))
    let c = loopNearestCard(ltrMain(axes.main(bounds.origin) - shift))
    return Card(path: indexPath(global: c.index), lap: K + c.lap)
  }

  /// The snap policy's card and rest offset on the endless sequence, for a
  /// release at `o` projected to `p` (reduced left-to-right offsets).
  /// No ends: `edges` does not apply, and nothing is clamped. O(log n).
  func loopSnapTarget(
    _ snap: SnapConfiguration, offset o: Double, projected p: Double, velocity v: Double
  ) -> (card: LoopCard, offset: Double) {
    let fast = abs(v) >= snap.velocityThreshold && v != 0
    let card: LoopCard
    switch snap.policy {
    case .nearest:
      card = loopNearestCard(p)
    case .free:
      return (loopNearestCard(p), p)
    case .directional:
      let bias = fast ? (v > 0 ? snap.bias : -snap.bias) : 0
      card = loopCard(rounding: loopFractionalIndex(p) + bias)
    case .paging:
      let f = loopFractionalIndex(o)
      let m = Double(snap.maxItems)
      if !fast {
        card = loopCard(rounding: f)
      } else if v > 0 {
        let base = f.rounded(.down)
        card = loopCard(rounding: min(max(loopFractionalIndex(p), base + 1), base + m))
      } else {
        let base = f.rounded(.up)
        card = loopCard(rounding: min(max(loopFractionalIndex(p), base - m), base - 1))
      }
    }
    return (card, loopRest(card))
  }
}
