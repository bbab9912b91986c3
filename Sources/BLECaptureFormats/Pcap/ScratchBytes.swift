/// A growable block of bytes a reader copies into and reuses from its start.
final class ScratchBytes {
    private(set) var base: UnsafeMutablePointer<UInt8>
    private(set) var capacity: Int

    init(capacity: Int) {
        self.capacity = max(capacity, 1)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    /// Room for `count` bytes, keeping the first `used`.
    func reserve(_ count: Int, keeping used: Int) {
        guard count > capacity else { return }
        let larger = max(count, capacity * 2)
        let moved = UnsafeMutablePointer<UInt8>.allocate(capacity: larger)
        moved.initialize(from: base, count: min(used, capacity))
        base.deallocate()
        base = moved
        capacity = larger
    }
}
