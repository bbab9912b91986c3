/// Appends integers in a stated byte order; used by encoders (`append(to:)`) that build test
/// fixtures and sample captures.
public struct ByteWriter: Sendable {
    public private(set) var bytes: [UInt8]

    public init(capacity: Int = 64) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    public var count: Int { bytes.count }

    public mutating func writeUInt8(_ value: UInt8) { bytes.append(value) }
    public mutating func writeInt8(_ value: Int8) { bytes.append(UInt8(bitPattern: value)) }
    public mutating func writeUInt16LE(_ value: UInt16) { writeUnsigned(UInt64(value), width: 2, bigEndian: false) }
    public mutating func writeUInt16BE(_ value: UInt16) { writeUnsigned(UInt64(value), width: 2, bigEndian: true) }
    public mutating func writeUInt24LE(_ value: UInt32) { writeUnsigned(UInt64(value), width: 3, bigEndian: false) }
    public mutating func writeUInt32LE(_ value: UInt32) { writeUnsigned(UInt64(value), width: 4, bigEndian: false) }
    public mutating func writeUInt32BE(_ value: UInt32) { writeUnsigned(UInt64(value), width: 4, bigEndian: true) }
    public mutating func writeUInt64LE(_ value: UInt64) { writeUnsigned(value, width: 8, bigEndian: false) }
    public mutating func writeUInt64BE(_ value: UInt64) { writeUnsigned(value, width: 8, bigEndian: true) }

    public mutating func writeUnsigned(_ value: UInt64, width: Int, bigEndian: Bool) {
        for i in 0..<width {
            let shift = bigEndian ? (width - 1 - i) * 8 : i * 8
            bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
        }
    }

    public mutating func writeBytes<S: Sequence>(_ other: S) where S.Element == UInt8 {
        bytes.append(contentsOf: other)
    }

    /// Overwrites a little-endian u16 at `offset` (for back-filled length fields).
    public mutating func patchUInt16LE(_ value: UInt16, at offset: Int) {
        bytes[offset] = UInt8(truncatingIfNeeded: value)
        bytes[offset + 1] = UInt8(truncatingIfNeeded: value >> 8)
    }
}
