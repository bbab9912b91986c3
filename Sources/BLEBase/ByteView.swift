/// Bytes of a buffer shared without copying: an ATT value read where its record's payload lies
/// (`ByteReader.readRemainingView()`). Indexed from 0 like an array.
///
/// A view keeps its whole buffer alive (a batch of records' payloads), so whatever is kept past
/// the packet (a listed transaction's value) is copied out with `array`. An array of its own for
/// every ATT value would cost an allocation on the decoding thread and a free on the vendor
/// thread (docs/performance.md).
public struct ByteView: Sendable, RandomAccessCollection, Hashable, ExpressibleByArrayLiteral, CustomStringConvertible {
    @usableFromInline let storage: [UInt8]
    @usableFromInline let start: Int
    public let count: Int

    /// The whole of `bytes`.
    @inlinable
    public init(_ bytes: [UInt8]) {
        self.init(storage: bytes, start: 0, count: bytes.count)
    }

    public init(arrayLiteral elements: UInt8...) {
        self.init(elements)
    }

    /// `count` bytes of `storage` from `start`, which the caller has checked lie inside it.
    @usableFromInline
    init(storage: [UInt8], start: Int, count: Int) {
        self.storage = storage
        self.start = start
        self.count = count
    }

    @inlinable public var startIndex: Int { 0 }
    @inlinable public var endIndex: Int { count }

    @inlinable
    public subscript(position: Int) -> UInt8 {
        precondition(position >= 0 && position < count, "ByteView index out of range")
        return storage[start + position]
    }

    /// The bytes copied into an array of their own.
    @inlinable
    public var array: [UInt8] {
        withUnsafeBufferPointer { Array($0) }
    }

    @inlinable
    public func withUnsafeBufferPointer<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        try storage.withUnsafeBufferPointer { all in
            try body(UnsafeBufferPointer(rebasing: all[start..<start + count]))
        }
    }

    /// The bytes of `range` (indexed from 0, as the view is) viewed in the same buffer; nil when
    /// `range` is not inside the view.
    @inlinable
    public func view(_ range: Range<Int>) -> ByteView? {
        guard range.lowerBound >= 0, range.upperBound <= count else { return nil }
        return ByteView(storage: storage, start: start + range.lowerBound, count: range.count)
    }

    /// The same bytes in a buffer of their own unless the view is already all of its buffer: for
    /// what is kept past its packet (a listed vendor frame), so that it keeps no batch alive.
    public var compacted: ByteView {
        isWholeBuffer ? self : ByteView(array)
    }

    /// True when the view is all of its buffer (`compacted` is then the view itself).
    public var isWholeBuffer: Bool { storage.count == count }

    /// As an array prints: `[1, 2]`.
    public var description: String { array.description }

    @inlinable
    public static func == (a: ByteView, b: ByteView) -> Bool {
        a.count == b.count && a.withUnsafeBufferPointer { x in b.withUnsafeBufferPointer { y in x.elementsEqual(y) } }
    }

    public func hash(into hasher: inout Hasher) {
        withUnsafeBufferPointer { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }
}
