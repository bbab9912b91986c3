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
    static func unsigned<C: RandomAccessCollection>(_ bytes: C, at offset: Int, size: Int, bigEndian: Bool) -> UInt64?
    where C.Element == UInt8, C.Index == Int {
        guard size >= 1, size <= 8, offset >= 0, offset <= bytes.count - size else { return nil }
        let start = bytes.startIndex + offset
        var value: UInt64 = 0
        for i in 0..<size {
            value = value << 8 | UInt64(bytes[bigEndian ? start + i : start + size - 1 - i])
        }
        return value
    }
}
