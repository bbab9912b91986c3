/// Checked reads from a frame's bytes: every read checks its range first (no unchecked
/// indexing of input elsewhere in vendor decoding).
enum FrameBytes {
    /// The bytes of `range`, without copying; nil when it lies outside `bytes`.
    static func slice(_ bytes: [UInt8], _ range: Range<Int>) -> ArraySlice<UInt8>? {
        guard range.lowerBound >= 0, range.upperBound <= bytes.count else { return nil }
        return bytes[range]
    }

    /// A copy of the bytes of `range`; nil when it lies outside `bytes`.
    static func read(_ bytes: [UInt8], _ range: Range<Int>) -> [UInt8]? {
        slice(bytes, range).map(Array.init)
    }

    /// An unsigned integer of `size` (1...8) bytes at `offset`; nil when it lies outside `bytes`.
    static func unsigned(_ bytes: [UInt8], at offset: Int, size: Int, bigEndian: Bool) -> UInt64? {
        guard size >= 1, size <= 8, offset >= 0, offset <= bytes.count - size else { return nil }
        return bytes.withUnsafeBufferPointer { bytes in
            var value: UInt64 = 0
            for i in 0..<size {
                value = value << 8 | UInt64(bytes[bigEndian ? offset + i : offset + size - 1 - i])
            }
            return value
        }
    }
}
