import BLEBase

/// The ACL packet boundary flag (Core v5.4 Vol 4 Part E §5.4.2). A closed enum: 0b11 is reserved
/// on LE (it meant "complete automatically flushable PDU" on BR/EDR AMP links only) and is an error.
public enum ACLPacketBoundary: UInt8, Sendable, Equatable {
    /// First fragment of a non-automatically-flushable L2CAP PDU (host → controller, and LE).
    case firstNonFlushable = 0b00
    /// Continuing fragment.
    case continuing = 0b01
    /// First fragment of an automatically flushable L2CAP PDU (controller → host).
    case firstFlushable = 0b10

    public var isStart: Bool { self != .continuing }

    public var name: String {
        switch self {
        case .firstNonFlushable, .firstFlushable: return "start"
        case .continuing: return "continuation"
        }
    }
}

/// How many payload bytes a capture kept of a data packet when the capturing tool cut it
/// (Android btsnooz keeps 14 bytes of most ACL packets).
public struct DataTruncation: Sendable, Equatable, CustomStringConvertible {
    public var present: Int
    public var declared: Int

    public var description: String { "truncated: \(present) of \(declared) bytes present" }
}

/// An HCI ACL data packet, after the H4 type byte (Core v5.4 Vol 4 Part E §5.4.2).
///
/// ```
///  0                 11  12  13  14  15  16                              31
/// +---------------------+-------+-------+----------------------------------+----------------+
/// | Handle (12 bits)    | PB    | BC    | Data_Total_Length (u16)          | data           |
/// +---------------------+-------+-------+----------------------------------+----------------+
///   u16 little-endian: handle = bits 0–11, PB = bits 12–13, BC = bits 14–15
/// ```
public struct ACLDataPacket: Sendable, Equatable {
    public static let headerLength = 4

    public var connectionHandle: UInt16
    public var packetBoundary: ACLPacketBoundary
    /// 0b00 point-to-point; BR/EDR broadcast values otherwise.
    public var broadcastFlag: UInt8
    public var dataTotalLength: UInt16
    /// Where the payload (the L2CAP bytes) lies in the parsed reader's storage (absolute
    /// indices, as `ByteReader.position` counts). The packet holds no reference to the bytes, so
    /// destroying it costs no reference count per ACL packet (docs/performance.md);
    /// `payload(in:)` reads them back.
    public var payloadRange: Range<Int>
    /// The payload's first byte as errors report it (the parsed reader's `reportedOffset`).
    public var payloadOffset: Int
    /// Set when fewer payload bytes were present than `dataTotalLength` and the caller allowed it.
    public var truncation: DataTruncation?

    /// Reads the header and takes the payload. With `allowTruncated`, a payload shorter than
    /// Data_Total_Length (a record cut by the capturing tool) is kept and flagged in `truncation`
    /// instead of throwing; more bytes than declared is always an error.
    public init(parsing reader: inout ByteReader, allowTruncated: Bool = false) throws(DecodeError) {
        reader.layer = .acl
        let headerAt = reader.reportedOffset
        let handleAndFlags = try reader.readUInt16LE("handle and flags")
        connectionHandle = handleAndFlags & 0x0FFF
        let pb = UInt8(truncatingIfNeeded: handleAndFlags >> 12) & 0x03
        guard let boundary = ACLPacketBoundary(rawValue: pb) else {
            throw DecodeError.invalid(layer: .acl, field: "Packet_Boundary_Flag", at: headerAt,
                                      reason: "0b11 is reserved on LE (Core v5.4 Vol 4 Part E §5.4.2)")
        }
        packetBoundary = boundary
        broadcastFlag = UInt8(truncatingIfNeeded: handleAndFlags >> 14)
        dataTotalLength = try reader.readUInt16LE("Data_Total_Length")
        payloadOffset = reader.reportedOffset
        let declared = Int(dataTotalLength)
        // The usual packet holds exactly what it declares: no reads, two stores.
        if reader.remaining < declared {
            if allowTruncated {
                truncation = DataTruncation(present: reader.remaining, declared: declared)
            } else {
                try reader.skip(declared, "ACL data")  // throws: too few bytes
            }
        } else if reader.remaining > declared {
            try reader.skip(declared, "ACL data")
            try reader.expectEnd("ACL data")  // throws: bytes left over
        }
        payloadRange = reader.position..<reader.endIndex
        reader.skipRemaining()
    }

    /// The payload read from `parsed`, the reader the packet was parsed from (or a copy of it
    /// taken before): offsets reported as that reader's.
    public func payload(in parsed: ByteReader) -> ByteReader {
        ByteReader(parsed.storage, range: payloadRange, layer: .acl, baseOffset: payloadOffset - payloadRange.lowerBound)
    }
}

/// An HCI synchronous (SCO/eSCO) data packet header (Core v5.4 Vol 4 Part E §5.4.3).
///
/// ```
/// +---------------------+--------------+----------+-------------------+-----------+
/// | Handle (12 bits)    | Status (2)   | RFU (2)  | Data_Total_Length | data      |
/// +---------------------+--------------+----------+-------------------+-----------+
///   u16 little-endian                              u8
/// ```
public struct SCODataPacket: Sendable, Equatable {
    public var connectionHandle: UInt16
    /// 0b00 correct, 0b01 possibly invalid, 0b10 no data, 0b11 partially lost.
    public var packetStatusFlag: UInt8
    public var dataTotalLength: UInt8
    public var data: [UInt8]

    public init(parsing reader: inout ByteReader) throws(DecodeError) {
        reader.layer = .hci
        let handleAndFlags = try reader.readUInt16LE("handle and flags")
        connectionHandle = handleAndFlags & 0x0FFF
        packetStatusFlag = UInt8(truncatingIfNeeded: handleAndFlags >> 12) & 0x03
        dataTotalLength = try reader.readUInt8("Data_Total_Length")
        data = try reader.readBytes(Int(dataTotalLength), "SCO data")
        try reader.expectEnd("SCO data")
    }
}

/// An HCI ISO data packet header (Core v5.4 Vol 4 Part E §5.4.5); the ISO data load (time stamp,
/// sequence number, SDU length) stays in `data`.
///
/// ```
/// +---------------------+--------+--------+---------+---------------------------+---------+
/// | Handle (12 bits)    | PB (2) | TS (1) | RFU (1) | Data_Total_Length (14)    | data    |
/// +---------------------+--------+--------+---------+---------------------------+---------+
///   u16 little-endian                                u16 little-endian, bits 0–13
/// ```
public struct ISODataPacket: Sendable, Equatable {
    public var connectionHandle: UInt16
    /// 0b00 first fragment, 0b01 continuation, 0b10 complete SDU, 0b11 last fragment.
    public var packetBoundary: UInt8
    public var hasTimeStamp: Bool
    public var dataTotalLength: UInt16
    public var data: [UInt8]

    public init(parsing reader: inout ByteReader) throws(DecodeError) {
        reader.layer = .hci
        let handleAndFlags = try reader.readUInt16LE("handle and flags")
        connectionHandle = handleAndFlags & 0x0FFF
        packetBoundary = UInt8(truncatingIfNeeded: handleAndFlags >> 12) & 0x03
        hasTimeStamp = handleAndFlags & 0x4000 != 0
        dataTotalLength = try reader.readUInt16LE("ISO_Data_Load_Length") & 0x3FFF
        data = try reader.readBytes(Int(dataTotalLength), "ISO data")
        try reader.expectEnd("ISO data")
    }
}
