extension ByteReader {
    /// The unsigned integer of `size` (1...8) bytes at `offset` of `bytes`, in the given byte
    /// order; nil when those bytes are not all there. For fields read in place at known offsets
    /// (block headers, frame fields), where a reader per field would cost a reference count.
    /// (A method on `[UInt8]` itself would be called unspecialized from other modules.)
    @inlinable
    public static func unsigned(in bytes: [UInt8], at offset: Int, size: Int, bigEndian: Bool) -> UInt64? {
        bytes.withUnsafeBufferPointer { unsigned(in: $0, at: offset, size: size, bigEndian: bigEndian) }
    }

    /// `unsigned(in:at:size:bigEndian:)` over a view's bytes.
    @inlinable
    public static func unsigned(in bytes: ByteView, at offset: Int, size: Int, bigEndian: Bool) -> UInt64? {
        bytes.withUnsafeBufferPointer { unsigned(in: $0, at: offset, size: size, bigEndian: bigEndian) }
    }

    /// `unsigned(in:at:size:bigEndian:)` over bytes lent in place.
    @inlinable
    public static func unsigned(in bytes: UnsafeBufferPointer<UInt8>, at offset: Int, size: Int, bigEndian: Bool) -> UInt64? {
        guard size >= 1, size <= 8, offset >= 0, offset <= bytes.count - size else { return nil }
        var value: UInt64 = 0
        for i in 0..<size {
            value = value << 8 | UInt64(bytes[bigEndian ? offset + i : offset + size - 1 - i])
        }
        return value
    }
}
