/// Somewhere bytes of text are appended: an array, or a writer's own buffer (`JSONWriter`), so
/// that digits, hex and times are written in place whatever holds them.
public protocol ByteAppending {
    mutating func append(_ byte: UInt8)
    mutating func append(contentsOf bytes: UnsafeBufferPointer<UInt8>)
    /// Lets `body` write up to `atMost` bytes at the end and keeps as many as it returns: a buffer
    /// with room writes them in place, with one check of its room for the lot.
    mutating func append(atMost count: Int, writing body: (UnsafeMutablePointer<UInt8>) -> Int)
}

extension ByteAppending {
    /// Through scratch memory, for a buffer that cannot lend its free room.
    @inlinable
    public mutating func append(atMost count: Int, writing body: (UnsafeMutablePointer<UInt8>) -> Int) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: count) { scratch in
            let written = body(scratch.baseAddress!)
            append(contentsOf: UnsafeBufferPointer(rebasing: scratch[..<written]))
        }
    }
}

extension Array: ByteAppending where Element == UInt8 {}
