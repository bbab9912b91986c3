/// Somewhere bytes of text are appended: an array, or a writer's own buffer (`JSONWriter`), so
/// that digits, hex and times are written in place whatever holds them.
public protocol ByteAppending {
    mutating func append(_ byte: UInt8)
    mutating func append(contentsOf bytes: UnsafeBufferPointer<UInt8>)
}

extension Array: ByteAppending where Element == UInt8 {}
