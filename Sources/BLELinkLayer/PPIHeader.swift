import BLEBase

/// The Per-Packet Information header of link type 192 (CACE PPI specification v1.0.10 §3):
///
/// ```
/// +---------+-------+------------+-------------+---------------------------------+
/// | version | flags | length u16 | DLT u32     | fields: type u16, len u16, data |
/// |  u8 (0) |  u8   | (LE, all)  | (LE)        | … up to `length` bytes          |
/// +---------+-------+------------+-------------+---------------------------------+
/// ```
/// Flag bit 0 says fields are padded to 32-bit boundaries. Ubertooth writes field 30006
/// (PPI-BTLE: version u8, channel MHz u16, clkn_high u8, clk100ns u32, RSSI ×4) and inner
/// DLT 147 carrying the raw LL packet.
public struct PPIHeader: Sendable, Equatable {
    public static let fixedSize = 8
    static let btleFieldType: UInt16 = 30006

    public var version: UInt8
    public var flags: UInt8
    public var length: UInt16
    public var innerLinkType: UInt32
    /// Centre frequency from the PPI-BTLE field, when present.
    public var btleChannelMHz: UInt16?

    public init(parsing reader: inout ByteReader) throws(DecodeError) {
        let start = reader.reportedOffset
        version = try reader.readUInt8("PPI version")
        guard version == 0 else {
            throw DecodeError.invalid(layer: .linkLayer, field: "PPI version", at: start,
                                      reason: "only version 0 is defined")
        }
        flags = try reader.readUInt8("PPI flags")
        let lengthAt = reader.reportedOffset
        length = try reader.readUInt16LE("PPI header length")
        innerLinkType = try reader.readUInt32LE("PPI DLT")
        guard Int(length) >= Self.fixedSize else {
            throw DecodeError.invalid(layer: .linkLayer, field: "PPI header length", at: lengthAt,
                                      reason: "\(length) is shorter than the 8-byte fixed header")
        }
        var fields = try reader.slice(byteCount: Int(length) - Self.fixedSize, "PPI fields")
        let aligned = flags & 0x01 != 0
        while !fields.isAtEnd {
            let type = try fields.readUInt16LE("PPI field type")
            let fieldLength = Int(try fields.readUInt16LE("PPI field length"))
            var data = try fields.slice(byteCount: fieldLength, "PPI field data")
            if type == Self.btleFieldType, fieldLength >= 3 {
                _ = try data.readUInt8("PPI-BTLE version")
                btleChannelMHz = try data.readUInt16LE("PPI-BTLE channel")
            }
            let pad = aligned ? (4 - fieldLength % 4) % 4 : 0
            try fields.skip(Swift.min(pad, fields.remaining), "PPI field padding")
        }
    }

    public var metadata: AirPacketMetadata {
        var m = AirPacketMetadata(linkType: 192)
        if let mhz = btleChannelMHz, mhz >= 2402, mhz <= 2480, mhz % 2 == 0 {
            let rf = UInt8((mhz - 2402) / 2)
            m.rfChannel = rf
            m.channelIndex = LEChannel.index(rfChannel: rf)
        }
        return m
    }
}
