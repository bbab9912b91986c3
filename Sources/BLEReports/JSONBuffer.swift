import BLEBase

/// The bytes a `JSONWriter` has written, in memory of its own: each write checks the room once
/// and stores, where an array checks its uniqueness and capacity per byte appended.
final class JSONBuffer {
    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    private(set) var count = 0

    init(capacity: Int) {
        self.capacity = max(capacity, 64)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    /// A buffer of its own with the same bytes (a copied writer writes on).
    func copy() -> JSONBuffer {
        let copy = JSONBuffer(capacity: capacity)
        copy.append(contentsOf: UnsafeBufferPointer(start: base, count: count))
        return copy
    }

    /// The bytes written, as an array.
    var bytes: [UInt8] { Array(UnsafeBufferPointer(start: base, count: count)) }

    func removeAll() { count = 0 }

    /// Lends the bytes written to `body`, then empties the buffer.
    func lend(to body: (UnsafeBufferPointer<UInt8>) -> Void) {
        body(UnsafeBufferPointer(start: base, count: count))
        count = 0
    }

    @inline(__always)
    func append(_ byte: UInt8) {
        if count == capacity { grow(to: count + 1) }
        base[count] = byte
        count += 1
    }

    @inline(__always)
    func append(contentsOf bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        if count + bytes.count > capacity { grow(to: count + bytes.count) }
        (base + count).initialize(from: source, count: bytes.count)
        count += bytes.count
    }

    @inline(__always)
    func append(atMost count: Int, writing body: (UnsafeMutablePointer<UInt8>) -> Int) {
        if self.count + count > capacity { grow(to: self.count + count) }
        self.count += body(base + self.count)
    }

    /// `append(contentsOf:)` for a static string's bytes.
    @inline(__always)
    func append(_ text: StaticString) {
        text.withUTF8Buffer { append(contentsOf: $0) }
    }

    private func grow(to needed: Int) {
        let larger = max(needed, capacity * 2)
        let moved = UnsafeMutablePointer<UInt8>.allocate(capacity: larger)
        moved.moveInitialize(from: base, count: count)
        base.deallocate()
        base = moved
        capacity = larger
    }
}
