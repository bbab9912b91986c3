import BLEBase

/// The packet of one btsnoop record, normalised to a record kind, a direction and the HCI
/// packet (or text) bytes.
struct BtsnoopPacket {
    var kind: RecordKind
    var direction: Direction
    /// The packet bytes, in the record (text records rebuilt).
    var payload: ByteReader
    var adapter: UInt16?
    /// Record bytes that are not in `payload` (H4 type byte, text framing), to subtract from the
    /// original length.
    var consumedHeaderBytes = 0

    /// - 1001 (H1): flags bit 0 = direction (1 received), bit 1 = command/event (1) or ACL (0).
    /// - 1002 (H4): the first byte is the H4 packet type (Core v5.4 Vol 4 Part A §2).
    /// - 2001 (Linux monitor): flags = adapter index << 16 | monitor opcode.
    init(parsing reader: inout ByteReader, datalink: BtsnoopDatalink, flags: UInt32) throws(DecodeError) {
        let recordBytes = reader.remaining
        let received = flags & 0x1 != 0
        switch datalink {
        case .h4:
            let (type, packet) = try H4Frame.parse(&reader)
            kind = type.kind
            direction = received ? .received : .sent
            payload = packet
        case .linuxMonitor:
            let opcode = MonitorOpcode(rawValue: UInt16(truncatingIfNeeded: flags))
            (kind, direction) = opcode.record
            payload = try MonitorPayload(parsing: &reader, opcode: opcode).bytes
            adapter = UInt16(truncatingIfNeeded: flags >> 16)
        default:
            kind = Self.h1Kind(flags: flags)
            direction = received ? .received : .sent
            payload = reader.sliceRemaining()
        }
        consumedHeaderBytes = recordBytes - payload.remaining
    }

    /// What a datalink 1001 (H1) record holds, from its flags.
    static func h1Kind(flags: UInt32) -> RecordKind {
        flags & 0x2 != 0 ? (flags & 0x1 != 0 ? .hciEvent : .hciCommand) : .aclData
    }

    /// The capture record of this packet, sharing the record's bytes.
    consuming func record(index: Int, timestampUs: Int64, originalLength: Int, fileOffset: Int) -> CaptureRecord {
        CaptureRecord(index: index, timestampUs: timestampUs, direction: direction, kind: kind, sharing: payload,
                      originalLength: originalLength, fileOffset: fileOffset, adapter: adapter)
    }
}
