/// A Bluetooth UUID, compared and hashed in its canonical 128-bit form so that `180F`,
/// `0000180F` and `0000180F-0000-1000-8000-00805F9B34FB` are equal
/// (Core v5.4 Vol 3 Part B §2.5.1: 16- and 32-bit UUIDs are shorthand on the Base UUID).
public struct BluetoothUUID: Hashable, Sendable, Comparable, CustomStringConvertible, Codable {
    /// The 128 bits as two integers, most significant first: a UUID is a value, not an
    /// allocation, so copying, comparing and hashing one costs no more than two integers.
    public let high: UInt64
    public let low: UInt64

    /// `00000000-0000-1000-8000-00805F9B34FB`: the bits below the 32-bit alias.
    static let baseHigh: UInt64 = 0x0000_1000
    static let baseLow: UInt64 = 0x8000_0080_5F9B_34FB

    public init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    public init(uint16 value: UInt16) { self.init(uint32: UInt32(value)) }

    public init(uint32 value: UInt32) { self.init(high: UInt64(value) << 32 | Self.baseHigh, low: Self.baseLow) }

    /// From 16 bytes most significant first.
    public init(msbFirst: [UInt8]) {
        precondition(msbFirst.count == 16, "BluetoothUUID(msbFirst:) takes exactly 16 bytes")
        self.init(high: Self.bigEndian(msbFirst[0..<8]), low: Self.bigEndian(msbFirst[8..<16]))
    }

    private static func bigEndian(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        bytes.reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// The 128 bits, most significant byte first (as printed).
    public var bytes: [UInt8] {
        (0..<16).map { i in UInt8(truncatingIfNeeded: (i < 8 ? high : low) >> (56 - 8 * UInt64(i % 8))) }
    }

    /// From 2, 4 or 16 bytes in wire order (little-endian, as ATT and AD carry them); nil for
    /// any other length.
    public init?(wire: [UInt8]) {
        switch wire.count {
        case 2: self.init(uint16: UInt16(wire[0]) | UInt16(wire[1]) << 8)
        case 4: self.init(uint32: UInt32(wire[0]) | UInt32(wire[1]) << 8 | UInt32(wire[2]) << 16 | UInt32(wire[3]) << 24)
        case 16: self.init(msbFirst: wire.reversed())
        default: return nil
        }
    }

    /// Parses `180F`, `0x180F`, `0000180F` or the 8-4-4-4-12 form, any case.
    public init?(_ text: String) {
        var t = text
        if t.hasPrefix("0x") || t.hasPrefix("0X") { t.removeFirst(2) }
        guard let raw = Hex.bytes(t) else { return nil }
        switch raw.count {
        case 2: self.init(uint16: UInt16(raw[0]) << 8 | UInt16(raw[1]))
        case 4: self.init(uint32: UInt32(raw[0]) << 24 | UInt32(raw[1]) << 16 | UInt32(raw[2]) << 8 | UInt32(raw[3]))
        case 16: self.init(msbFirst: raw)
        default: return nil
        }
    }

    /// Reads `width` (2, 4 or 16) bytes in wire order, straight into integers: through an array of
    /// the bytes and its reversal, a 16-byte UUID would cost two allocations.
    public init(parsing reader: inout ByteReader, width: Int) throws(DecodeError) {
        switch width {
        case 2: self.init(uint16: try reader.readUInt16LE("UUID"))
        case 4: self.init(uint32: try reader.readUInt32LE("UUID"))
        case 16:
            try reader.check(16, field: "UUID")
            let low = try reader.readUInt64LE("UUID")
            self.init(high: try reader.readUInt64LE("UUID"), low: low)
        default:
            let at = reader.reportedOffset
            _ = try reader.readBytes(width, "UUID")
            throw DecodeError.invalid(layer: reader.layer, field: "UUID", at: at,
                                      reason: "UUID width \(width) is not 2, 4 or 16")
        }
    }

    /// True when the UUID lies on the Bluetooth Base UUID.
    public var isOnBase: Bool { low == Self.baseLow && high & 0xFFFF_FFFF == Self.baseHigh }

    /// The 16-bit alias when the UUID is on the Base UUID and fits 16 bits.
    public var uint16: UInt16? {
        guard isOnBase, high >> 48 == 0 else { return nil }
        return UInt16(truncatingIfNeeded: high >> 32)
    }

    /// The 32-bit alias when the UUID is on the Base UUID.
    public var uint32: UInt32? {
        guard isOnBase else { return nil }
        return UInt32(truncatingIfNeeded: high >> 32)
    }

    /// Upper case; 16-bit aliases as 4 hex digits (`180F`), 32-bit as 8, others 8-4-4-4-12
    /// (the report contract's convention).
    public var description: String {
        if let short = uint16 { return String(Hex.code(short, width: 4).dropFirst(2)) }
        if let short = uint32 { return String(Hex.code(short, width: 8).dropFirst(2)) }
        let hex = Hex.string(bytes).uppercased()
        let c = Array(hex)
        return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(c[$0]) }.joined(separator: "-")
    }

    /// The order of the bytes as printed.
    public static func < (lhs: Self, rhs: Self) -> Bool { (lhs.high, lhs.low) < (rhs.high, rhs.low) }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let uuid = BluetoothUUID(text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not a UUID: \(text)"))
        }
        self = uuid
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
