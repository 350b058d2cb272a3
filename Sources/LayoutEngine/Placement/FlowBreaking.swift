// Breaking a flow section's items into lines, and re-breaking only around
// an edit (rules 2 and 6).

extension SectionGeometry {
  /// Breaks `sizes` into lines from item `first` on, greedily (rule 2),
  /// calling `emit` with each line, or with `repeats` equal lines in a row,
  /// until it returns false. A line takes its first item whatever its
  /// width, then each next item that fits. A run of equal sizes is broken
  /// once: its first fresh line is simulated and every full line after it
  /// is the same, so they are emitted together (the same lines, bit for
  /// bit, as breaking item by item). O(log n + items read + runs ×
  /// items per line): it walks the leaves, not a cursor per item.
  func breakLines(
    _ sizes: SizeList, from first: Int,
    _ emit: (_ firstItem: Int, LineRecord, _ repeats: Int) -> Bool
  ) {
    guard first < sizes.count else { return }
    var lineFirst = first
    var i = first
    var used = 0.0
    var thick = 0.0
    var stopped = false
    sizes.forEachLeaf(from: first) { _, elements, leafFirst in
      if let raw = elements.run {
        let n = neutral(raw)
        let runEnd = leafFirst + elements.count
        // The line left open before the run takes what fits.
        while i < runEnd && i > lineFirst && used + interitem + n.width <= avail {
          let next = used + (interitem + n.width)
          thick = max(thick, n.height)
          // Nothing added (zero-width items): every item of the run fits.
          i = next == used ? runEnd : i + 1
          used = next
        }
        guard i < runEnd else { return true }
        if i > lineFirst && !emit(lineFirst, LineRecord(items: i - lineFirst, thickness: thick), 1)
        {
          stopped = true
          return false
        }
        // Item i starts a line of run items: every full line from here is
        // the same, so one is simulated.
        lineFirst = i
        let remaining = runEnd - i
        var perLine = 1
        used = n.width
        thick = n.height
        while perLine < remaining && used + interitem + n.width <= avail {
          let next = used + (interitem + n.width)
          if next == used {
            perLine = remaining
            break
          }
          used = next
          perLine += 1
        }
        guard perLine < remaining else {
          i = runEnd
          return true
        }
        // `full` lines close; the rest (1...perLine items) stay open.
        let full = (remaining - 1) / perLine
        let rest = remaining - full * perLine
        if !emit(lineFirst, LineRecord(items: perLine, thickness: n.height), full) {
          stopped = true
          return false
        }
        lineFirst += full * perLine
        used = n.width
        for _ in 1..<rest { used = used + (interitem + n.width) }
        i = runEnd
        return true
      }
      let stored = elements.stored
      for k in max(first - leafFirst, 0)..<stored.count {
        let n = neutral(stored[k])
        if i > lineFirst && used + interitem + n.width <= avail {
          used += interitem + n.width
          thick = max(thick, n.height)
        } else {
          if i > lineFirst
            && !emit(lineFirst, LineRecord(items: i - lineFirst, thickness: thick), 1)
          {
            stopped = true
            return false
          }
          lineFirst = i
          used = n.width
          thick = n.height
        }
        i += 1
      }
      return true
    }
    if !stopped { _ = emit(lineFirst, LineRecord(items: i - lineFirst, thickness: thick), 1) }
  }

  /// The lines of `items` (rules 2 and 6), reusing `previous` lines where
  /// its items did not change. O(1) for uniform sizes; O(n) for a fresh
  /// break; O(log n + items re-broken) for a reflow.
  func makeLines(
    _ items: Section.Items, policy: FlowPolicy, previous: (SectionGeometry, ItemEdit?)?
  ) -> Lines {
    switch items {
    case .uniform(let n):
      return uniformLines(neutral(itemSize), count: n, policy: policy)
    case .sizes(let sizes):
      // A section whose items all share one size follows the uniform
      // rules (rule 6), and needs no per-line storage.
      let summary = sizes.summary
      if summary.allEqual(uniform: itemSize) {
        let size =
          summary.unset == summary.count
          ? itemSize : Size(width: summary.minWidth, height: summary.minHeight)
        return uniformLines(neutral(size), count: sizes.count, policy: policy)
      }
      if policy.singleItemLines { return .single(sizes: sizes) }
      if let (old, edit) = previous, case .variable(_, let oldLines) = old.lines,
        old.avail == avail, old.interitem == interitem, old.itemSize == itemSize,
        old.axes.direction == axes.direction
      {
        guard let edit else {
          // The items are the old ones: keep the lines.
          return .variable(sizes: sizes, lines: oldLines)
        }
        return .variable(
          sizes: sizes,
          lines: reflow(old, oldLines, sizes: sizes, edit: edit))
      }
      // Leaves are made as lines are broken: no array of every line.
      var lines = RopeBuilder<LineSummary>()
      breakLines(sizes, from: 0) { _, r, repeats in
        lines.append(repeating: r, count: repeats)
        return true
      }
      return .variable(sizes: sizes, lines: lines.rope)
    }
  }

  /// Re-breaks the lines of `old` after `edit`: from the line holding the
  /// item before the first change (it may now take more items) until a
  /// new line starts where an old line started, past the change. Greedy
  /// breaking depends only on the items from a line's first item on, so
  /// every later line is unchanged. O(log n + items re-broken).
  func reflow(
    _ old: SectionGeometry, _ oldLines: LineList, sizes: SizeList, edit: ItemEdit
  ) -> LineList {
    var lines = oldLines
    let oldCount = old.count
    var jStart = 0
    var firstItem = 0
    if edit.lo > 0 && oldLines.count > 0 {
      jStart = old.lineIndex(ofItem: min(edit.lo - 1, oldCount - 1))
      firstItem = old.itemRange(ofLine: jStart).lowerBound
    }
    let delta = edit.newHi - edit.oldHi
    var records: [(LineRecord, repeats: Int)] = []
    var cursor = RopeCursor(oldLines, at: jStart)
    var oldStart = firstItem  // the first item of old line k
    var k = jStart
    var resync = oldLines.count
    breakLines(sizes, from: firstItem) { lineFirst, record, repeats in
      records.append((record, repeats))
      let next = lineFirst + record.items * repeats
      guard next >= edit.newHi else { return true }
      let target = next - delta
      while oldStart < target, let r = cursor.peek {
        // A run of old lines is crossed at once, up to the target.
        let take = max(1, min(cursor.runRemaining, (target - oldStart) / max(r.items, 1)))
        oldStart += r.items * take
        k += take
        cursor.skip(take)
      }
      if oldStart == target && target < oldCount {
        resync = k
        return false
      }
      return true
    }
    lines.removeSubrange(jStart..<resync)
    var at = jStart
    var plain: [LineRecord] = []
    for (record, repeats) in records {
      if repeats == 1 {
        plain.append(record)
        continue
      }
      lines.insert(contentsOf: plain, at: at)
      at += plain.count
      plain.removeAll()
      lines.insert(repeating: record, count: repeats, at: at)
      at += repeats
    }
    lines.insert(contentsOf: plain, at: at)
    return lines
  }

  /// Lines of `count` items of one (cross, main) size. O(1).
  func uniformLines(_ size: Size, count: Int, policy: FlowPolicy) -> Lines {
    var perLine = 1
    if !policy.singleItemLines && size.width + interitem > 0 {
      let estimate = ((avail + interitem) / (size.width + interitem)).rounded(.down)
      perLine = estimate.isFinite ? Int(min(max(estimate, 1), Double(Int32.max))) : 1
      // Settle the estimate against the exact greedy test.
      while perLine > 1 && Double(perLine) * size.width + Double(perLine - 1) * interitem > avail {
        perLine -= 1
      }
      while Double(perLine + 1) * size.width + Double(perLine) * interitem <= avail
        && perLine < Int(Int32.max)
      {
        perLine += 1
      }
    } else if !policy.singleItemLines {
      // Zero-extent items with no spacing: everything fits on one line.
      perLine = max(count, 1)
    }
    let gap = perLine > 1 ? (avail - Double(perLine) * size.width) / Double(perLine - 1) : 0
    let lineCount = count == 0 ? 0 : (count + perLine - 1) / perLine
    return .uniform(size: size, perLine: perLine, gap: gap, lineCount: lineCount)
  }
}
