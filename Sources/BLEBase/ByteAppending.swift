/// Somewhere bytes of text are appended: an array, or a writer's own buffer (`JSONWriter`), so
/// that digits, hex and times are written without a `String` whatever holds them.
public protocol ByteAppending {
    mutating func append(_ byte: UInt8)
    mutating func append(contentsOf bytes: UnsafeBufferPointer<UInt8>)
}

extension Array: ByteAppending where Element == UInt8 {}

/// Text of at most `count` bytes that `body` writes into scratch memory (returning how many it
/// wrote), appended to `out` at once: one append, not one per byte. Not a member of
/// `ByteAppending`, which would add a public method to `Array` (docs/library.md).
@inlinable
func appendWritten<Out: ByteAppending>(atMost count: Int, to out: inout Out,
                                       _ body: (UnsafeMutablePointer<UInt8>) -> Int) {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: count) { scratch in
        let written = body(scratch.baseAddress!)
        out.append(contentsOf: UnsafeBufferPointer(rebasing: scratch[..<written]))
    }
}
