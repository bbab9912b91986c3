import BLEBase

/// The btsnoop file header (ble-facts §1; the FTE "BT Snoop File Format" page).
///
/// ```
/// +----------------------------------+-------------+-------------+
/// | magic "btsnoop\0"                | version     | datalink    |
/// | 8 bytes                          | u32 BE (=1) | u32 BE      |
/// +----------------------------------+-------------+-------------+
/// ```
struct BtsnoopFileHeader: Equatable {
    static let size = 16
    static let magic: [UInt8] = Array("btsnoop".utf8) + [0]

    var version: UInt32
    var datalink: BtsnoopDatalink

    init(parsing reader: inout ByteReader) throws(DecodeError) {
        let at = reader.reportedOffset
        guard try reader.readBytes(8, "magic") == Self.magic else {
            throw DecodeError.invalid(layer: .capture, field: "magic", at: at, reason: "not \"btsnoop\\0\"")
        }
        version = try reader.readUInt32BE("version")
        datalink = BtsnoopDatalink(rawValue: try reader.readUInt32BE("datalink"))
    }
}

/// A btsnoop record header; the packet follows (ble-facts §1).
///
/// ```
/// +-----------+-----------+-----------+-----------+-----------------------+
/// | orig_len  | incl_len  | flags     | cum_drops | timestamp             |
/// | u32 BE    | u32 BE    | u32 BE    | u32 BE    | i64 BE, µs since 0 AD |
/// +-----------+-----------+-----------+-----------+-----------------------+
/// ```
struct BtsnoopRecordHeader: Equatable {
    static let size = 24
    /// Microseconds from 0000-01-01 (proleptic Gregorian) to the Unix epoch (Wireshark
    /// `KUnixTimeBase`).
    static let unixEpochOffset: Int64 = 0x00dc_ddb3_0f2f_8000
    /// The largest record Wireshark accepts; anything bigger is damage, not a packet.
    static let maximumIncludedLength: UInt32 = 262_144

    var originalLength: UInt32
    var includedLength: UInt32
    var flags: UInt32
    var cumulativeDrops: UInt32
    var timestamp: Int64

    /// Read as one block: one check a record rather than one a field.
    @inline(__always)
    init(parsing reader: inout ByteReader) throws(DecodeError) {
        (originalLength, includedLength, flags, cumulativeDrops, timestamp) = try reader.readBlock(Self.size, "record header") {
            (UInt32(bigEndian: $0.loadUnaligned(fromByteOffset: 0, as: UInt32.self)),
             UInt32(bigEndian: $0.loadUnaligned(fromByteOffset: 4, as: UInt32.self)),
             UInt32(bigEndian: $0.loadUnaligned(fromByteOffset: 8, as: UInt32.self)),
             UInt32(bigEndian: $0.loadUnaligned(fromByteOffset: 12, as: UInt32.self)),
             Int64(bigEndian: $0.loadUnaligned(fromByteOffset: 16, as: Int64.self)))
        }
    }

    /// False for a length no record has: incl_len > orig_len, above Wireshark's cap, or an H4
    /// record without its type byte.
    func hasPossibleLength(datalink: BtsnoopDatalink) -> Bool {
        includedLength <= originalLength && includedLength <= Self.maximumIncludedLength
            && !(datalink == .h4 && includedLength == 0)
    }

    /// Microseconds since the Unix epoch (wrapping, so damaged values cannot trap).
    var unixMicroseconds: Int64 { timestamp &- Self.unixEpochOffset }
}
