/// Advertising bursts of one address, in bounded memory: past `cap` bursts, the two closest
/// neighbours merge (the first such pair on a tie), so a week-long capture keeps the shape of
/// its advertising.
///
/// Bursts sit in a linked list of reusable slots, and the gaps between neighbours in a min-heap
/// whose outdated entries are skipped when they come up: a merge costs a few heap steps, not a
/// scan of every gap and two arrays closed up.
struct AdvertisingBursts {
    /// A gap longer than this starts a new burst.
    static let gapUs: Int64 = 2_000_000
    static let cap = 256

    private struct Node {
        var burst: AdvertisingBurst
        /// Creation order (the list's order, so the smaller of two tied pairs is the first); -1
        /// once merged away.
        var order: Int
        var next: Int?
    }

    /// The gap from a burst to the next one, as it was when the entry was pushed.
    private struct GapEntry: Comparable {
        var gap: Int64
        var order: Int
        var slot: Int
        static func < (a: Self, b: Self) -> Bool { (a.gap, a.order) < (b.gap, b.order) }
    }

    private var nodes: [Node] = []
    private var freeSlots: [Int] = []
    private var first: Int?
    private var last: Int?
    private var count = 0
    private var created = 0
    private var gaps = MinHeap<GapEntry>()

    /// The bursts in time order of their starts as seen.
    var bursts: [AdvertisingBurst] {
        var list: [AdvertisingBurst] = []
        list.reserveCapacity(count)
        var slot = first
        while let current = slot {
            list.append(nodes[current].burst)
            slot = nodes[current].next
        }
        return list
    }

    mutating func add(timeUs: Int64, rssi: Int?) {
        if let last, Self.gap(from: nodes[last].burst.endUs, to: timeUs) <= Self.gapUs, timeUs >= nodes[last].burst.endUs {
            nodes[last].burst.endUs = timeUs
            nodes[last].burst.count += 1
            if let rssi {
                nodes[last].burst.rssiMin = min(nodes[last].burst.rssiMin ?? rssi, rssi)
                nodes[last].burst.rssiMax = max(nodes[last].burst.rssiMax ?? rssi, rssi)
            }
            return
        }
        let node = Node(burst: AdvertisingBurst(startUs: timeUs, endUs: timeUs, count: 1, rssiMin: rssi, rssiMax: rssi),
                        order: created, next: nil)
        created += 1
        let slot: Int
        if let free = freeSlots.popLast() {
            slot = free
            nodes[free] = node
        } else {
            slot = nodes.count
            nodes.append(node)
        }
        if let last {
            nodes[last].next = slot
            pushGap(after: last)
        } else {
            first = slot
        }
        last = slot
        count += 1
        if count > Self.cap { mergeClosest() }
    }

    /// Merges the first pair with the smallest gap.
    private mutating func mergeClosest() {
        while let entry = gaps.popMin() {
            guard isCurrent(entry), let nextSlot = nodes[entry.slot].next else { continue }
            let best = entry.slot
            let next = nodes[nextSlot]
            nodes[best].burst.endUs = max(nodes[best].burst.endUs, next.burst.endUs)
            nodes[best].burst.count += next.burst.count
            nodes[best].burst.rssiMin = Self.extreme(nodes[best].burst.rssiMin, next.burst.rssiMin, by: min)
            nodes[best].burst.rssiMax = Self.extreme(nodes[best].burst.rssiMax, next.burst.rssiMax, by: max)
            nodes[best].next = next.next
            if next.next == nil { last = best }
            nodes[nextSlot].order = -1
            freeSlots.append(nextSlot)
            count -= 1
            if nodes[best].next != nil { pushGap(after: best) }
            break
        }
        // Outdated entries of bursts long merged away: rebuilt from the list when they pile up.
        if gaps.count > 4 * Self.cap { rebuildGaps() }
    }

    /// True when `entry` is the gap after a burst still in the list. Each such burst has one
    /// entry, pushed when it got its next burst or absorbed it; merged ones leave theirs behind.
    private func isCurrent(_ entry: GapEntry) -> Bool {
        nodes[entry.slot].order == entry.order && nodes[entry.slot].next != nil
    }

    private mutating func pushGap(after slot: Int) {
        guard let next = nodes[slot].next else { return }
        gaps.push(GapEntry(gap: Self.gap(from: nodes[slot].burst.endUs, to: nodes[next].burst.startUs),
                           order: nodes[slot].order, slot: slot))
    }

    private mutating func rebuildGaps() {
        gaps = MinHeap()
        var slot = first
        while let current = slot {
            pushGap(after: current)
            slot = nodes[current].next
        }
    }

    /// `to − from`, saturated: timestamps come from the capture and may be anything.
    private static func gap(from: Int64, to: Int64) -> Int64 {
        let (difference, overflow) = to.subtractingReportingOverflow(from)
        return overflow ? (to > from ? .max : .min) : difference
    }

    /// The smaller (or larger) of two optional values; nil only when both are.
    private static func extreme(_ a: Int?, _ b: Int?, by pick: (Int, Int) -> Int) -> Int? {
        guard let a else { return b }
        guard let b else { return a }
        return pick(a, b)
    }
}

/// A binary min-heap. Sifting moves a hole through the array's buffer and writes the element
/// once, where swapping through the array would check its uniqueness and bounds per step.
struct MinHeap<Element: Comparable> {
    private var elements: [Element] = []

    var count: Int { elements.count }

    mutating func push(_ element: Element) {
        elements.append(element)
        elements.withUnsafeMutableBufferPointer { heap in
            var child = heap.count - 1
            while child > 0 {
                let parent = (child - 1) / 2
                guard element < heap[parent] else { break }
                heap[child] = heap[parent]
                child = parent
            }
            heap[child] = element
        }
    }

    mutating func popMin() -> Element? {
        guard let last = elements.popLast() else { return nil }
        guard !elements.isEmpty else { return last }
        return elements.withUnsafeMutableBufferPointer { heap in
            let minimum = heap[0]
            var parent = 0
            while true {
                let left = 2 * parent + 1
                guard left < heap.count else { break }
                let right = left + 1
                let child = right < heap.count && heap[right] < heap[left] ? right : left
                guard heap[child] < last else { break }
                heap[parent] = heap[child]
                parent = child
            }
            heap[parent] = last
            return minimum
        }
    }
}
