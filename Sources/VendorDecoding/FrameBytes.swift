import BLEBase

/// Checked reads from a frame's bytes, all through `ByteReader` (no indexing of input elsewhere).
enum FrameBytes {
    /// The bytes of `range`; nil when it lies outside `bytes`.
    static func read(_ bytes: [UInt8], _ range: Range<Int>) -> [UInt8]? {
        var reader = ByteReader(bytes, layer: .vendor)
        guard (try? reader.skip(range.lowerBound)) != nil else { return nil }
        return try? reader.readBytes(range.count, "frame bytes")
    }

    /// An unsigned integer of `size` bytes at `offset`; nil when it lies outside `bytes`.
    static func unsigned(_ bytes: [UInt8], at offset: Int, size: Int, bigEndian: Bool) -> UInt64? {
        var reader = ByteReader(bytes, layer: .vendor)
        guard offset >= 0, (try? reader.skip(offset)) != nil else { return nil }
        return try? reader.readUnsigned(size, bigEndian: bigEndian, field: "frame field")
    }
}
