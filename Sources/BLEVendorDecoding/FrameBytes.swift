/// Checked reads from a frame's bytes: every read checks its range first (no unchecked
/// indexing of input elsewhere in vendor decoding). Integers: `ByteReader.unsigned(in:at:size:bigEndian:)`.
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
}
