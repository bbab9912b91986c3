import BLEBase

/// The btsnooz preamble: the first 9 decoded bytes of a `BTSNOOP_LOG_SUMMARY`, not compressed;
/// a zlib stream of records follows (ble-facts §3; AOSP `btif_debug_btsnoop.h` `btsnooz_header_t`).
///
/// ```
/// +---------+-------------------------------------+
/// | version | last_timestamp                      |
/// | u8      | u64 LE, µs since the Unix epoch     |
/// +---------+-------------------------------------+
/// ```
struct BtsnoozPreamble: Equatable {
    static let size = 9
    static let supportedVersions: ClosedRange<UInt8> = 1...2

    var version: UInt8
    /// Time of the last record; every other record's time counts back from it.
    var lastTimestamp: UInt64

    init(parsing reader: inout ByteReader) throws(DecodeError) {
        let at = reader.reportedOffset
        version = try reader.readUInt8("version")
        guard Self.supportedVersions.contains(version) else {
            throw DecodeError.invalid(layer: .capture, field: "version", at: at,
                                      reason: "btsnooz version \(version) is not 1 or 2")
        }
        lastTimestamp = try reader.readUInt64LE("last_timestamp")
    }
}

/// A btsnooz record header (ble-facts §3; AOSP `btsnooz_preamble_t` / `btsnooz.py`). The HCI
/// packet, without an H4 byte, follows: `length − 1` bytes.
///
/// ```
/// v2 (9 bytes):
/// +------------+---------------+------------+------+
/// | length     | packet_length | delta_time | type |
/// | u16 LE     | u16 LE        | u32 LE, µs | u8   |
/// +------------+---------------+------------+------+
/// v1 (7 bytes):
/// +------------+------------+------+
/// | length     | delta_time | type |
/// | u16 LE     | u32 LE, µs | u8   |
/// +------------+------------+------+
///   length and packet_length count the type byte: kept and original packet length + 1
/// ```
struct BtsnoozRecordHeader: Equatable {
    var length: UInt16
    /// Original length + 1; nil in v1, which does not record it.
    var packetLength: UInt16?
    /// Microseconds since the previous record.
    var deltaTime: UInt32
    var type: BtsnoozType

    static func size(version: UInt8) -> Int { version == 1 ? 7 : 9 }

    init(parsing reader: inout ByteReader, version: UInt8) throws(DecodeError) {
        length = try reader.readUInt16LE("length")
        if version == 1 {
            packetLength = nil
        } else {
            packetLength = try reader.readUInt16LE("packet_length")
        }
        deltaTime = try reader.readUInt32LE("delta_time")
        type = BtsnoozType(rawValue: try reader.readUInt8("type"))
    }

    /// Bytes of packet after the header; nil for length 0, which cannot count the type byte.
    var dataLength: Int? { length >= 1 ? Int(length) - 1 : nil }

    /// The packet's length on the wire (v2), never less than what was kept.
    var originalLength: Int? {
        guard let packetLength, let kept = dataLength else { return nil }
        return max(Int(packetLength) - 1, kept)
    }
}
