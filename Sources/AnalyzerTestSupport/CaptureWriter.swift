import BLEBase
import BLECaptureFormats

/// Writes records into capture containers, for tests and sample captures. Each record's kind
/// and direction map back to the container's own codes (H4 type byte, btsnoop flags, monitor
/// opcode, 201 pseudo-header, PacketLogger type); `originalLength` becomes the container's
/// original length. A record the container cannot express is a programming error in the test.
public enum CaptureWriter {
    /// btsnoop v1 with datalink 1001 (H1), 1002 (H4) or 2001 (Linux monitor).
    public static func btsnoop(_ records: [CaptureRecord], datalink: UInt32 = 1002) -> [UInt8] {
        var out = ByteWriter(capacity: 16 + records.count * 64)
        out.writeBytes(Array("btsnoop".utf8) + [0])
        out.writeUInt32BE(1)
        out.writeUInt32BE(datalink)
        for record in records {
            let (flags, prefix, body) = btsnoopPacket(record, datalink: BtsnoopDatalink(rawValue: datalink))
            let included = prefix.count + body.count
            let original = record.originalLength - record.payload.count + included
            out.writeUInt32BE(UInt32(original))
            out.writeUInt32BE(UInt32(included))
            out.writeUInt32BE(flags)
            out.writeUInt32BE(0)
            out.writeUInt64BE(UInt64(bitPattern: record.timestampUs &+ 0x00dc_ddb3_0f2f_8000))
            out.writeBytes(prefix)
            out.writeBytes(body)
        }
        return out.bytes
    }

    /// Classic pcap, little-endian, microsecond timestamps.
    public static func pcap(_ records: [CaptureRecord], linkType: UInt32 = 201) -> [UInt8] {
        var out = ByteWriter(capacity: 24 + records.count * 64)
        out.writeUInt32LE(0xA1B2_C3D4)
        out.writeUInt16LE(2)
        out.writeUInt16LE(4)
        out.writeUInt32LE(0)
        out.writeUInt32LE(0)
        out.writeUInt32LE(262_144)
        out.writeUInt32LE(linkType)
        for record in records {
            let data = pcapPacket(record, linkType: LinkType(rawValue: linkType))
            let (seconds, micros) = split(record.timestampUs)
            out.writeUInt32LE(UInt32(truncatingIfNeeded: seconds))
            out.writeUInt32LE(UInt32(micros))
            out.writeUInt32LE(UInt32(data.count))
            out.writeUInt32LE(UInt32(record.originalLength - record.payload.count + data.count))
            out.writeBytes(data)
        }
        return out.bytes
    }

    /// pcapng, little-endian: a section header, one interface of `linkType` (microsecond
    /// resolution), and one Enhanced Packet Block per record whose `epb_flags` carry the
    /// direction (sent: outbound, received: inbound; none for other directions).
    public static func pcapng(_ records: [CaptureRecord], linkType: UInt32 = 201) -> [UInt8] {
        var out = ByteWriter(capacity: 48 + records.count * 80)
        block(&out, type: 0x0A0D_0D0A) { body in
            body.writeUInt32LE(0x1A2B_3C4D)
            body.writeUInt16LE(1)
            body.writeUInt16LE(0)
            body.writeUInt64LE(UInt64.max)
        }
        block(&out, type: 1) { body in
            body.writeUInt16LE(UInt16(truncatingIfNeeded: linkType))
            body.writeUInt16LE(0)
            body.writeUInt32LE(0)
        }
        for record in records {
            let data = pcapPacket(record, linkType: LinkType(rawValue: linkType))
            let timestamp = UInt64(bitPattern: record.timestampUs)
            block(&out, type: 6) { body in
                body.writeUInt32LE(0)
                body.writeUInt32LE(UInt32(truncatingIfNeeded: timestamp >> 32))
                body.writeUInt32LE(UInt32(truncatingIfNeeded: timestamp))
                body.writeUInt32LE(UInt32(data.count))
                body.writeUInt32LE(UInt32(record.originalLength - record.payload.count + data.count))
                body.writeBytes(data)
                body.writeBytes([UInt8](repeating: 0, count: (4 - data.count % 4) % 4))
                let flags: UInt32? = record.direction == .received ? 1 : (record.direction == .sent ? 2 : nil)
                if let flags {
                    body.writeUInt16LE(2)
                    body.writeUInt16LE(4)
                    body.writeUInt32LE(flags)
                    body.writeUInt32LE(0)
                }
            }
        }
        return out.bytes
    }

    /// Apple PacketLogger records, big-endian (v1) or little-endian (v2). Syslog notes are
    /// written with pid 0 and empty process, sender, subsystem and category, so the reader gives
    /// back the text as it was.
    public static func packetLogger(_ records: [CaptureRecord], bigEndian: Bool) -> [UInt8] {
        var out = ByteWriter(capacity: records.count * 64)
        for record in records {
            guard let type = PacketLoggerType(kind: record.kind, direction: record.direction) else {
                preconditionFailure("PacketLogger cannot carry \(record.kind) \(record.direction)")
            }
            let body = type == .syslog ? [0, 0, 0, 0, 0, 0, 0, 0, 0] + record.payload + [0] : record.payload
            let (seconds, micros) = split(record.timestampUs)
            out.writeUnsigned(UInt64(9 + body.count), width: 4, bigEndian: bigEndian)
            out.writeUnsigned(UInt64(UInt32(truncatingIfNeeded: seconds)), width: 4, bigEndian: bigEndian)
            out.writeUnsigned(UInt64(micros), width: 4, bigEndian: bigEndian)
            out.writeUInt8(type.rawValue)
            out.writeBytes(body)
        }
        return out.bytes
    }

    // MARK: - Per-container packet bytes

    /// The btsnoop flags, the bytes before the payload, and the payload as written.
    private static func btsnoopPacket(_ record: CaptureRecord, datalink: BtsnoopDatalink) -> (UInt32, [UInt8], [UInt8]) {
        let received: UInt32 = record.direction == .received ? 1 : 0
        switch datalink {
        case .h4:
            return (received | (isCommandOrEvent(record.kind) ? 2 : 0), [h4Type(record).rawValue], record.payload)
        case .h1:
            guard record.kind == .hciCommand || record.kind == .hciEvent || record.kind == .aclData else {
                preconditionFailure("btsnoop H1 cannot carry \(record.kind)")
            }
            return (received | (isCommandOrEvent(record.kind) ? 2 : 0), [], record.payload)
        case .linuxMonitor:
            let opcode = monitorOpcode(record)
            return (UInt32(record.adapter ?? 0) << 16 | UInt32(opcode.rawValue), [], monitorBody(record, opcode: opcode))
        default:
            preconditionFailure("the btsnoop writer does not write datalink \(datalink.rawValue)")
        }
    }

    /// The packet bytes of a pcap/pcapng record for `linkType`.
    private static func pcapPacket(_ record: CaptureRecord, linkType: LinkType) -> [UInt8] {
        var out = ByteWriter(capacity: record.payload.count + 5)
        switch linkType {
        case .bluetoothHCIH4WithPHDR:
            out.writeUInt32BE(record.direction == .received ? 1 : 0)
            out.writeUInt8(h4Type(record).rawValue)
            out.writeBytes(record.payload)
        case .bluetoothHCIH4:
            out.writeUInt8(h4Type(record).rawValue)
            out.writeBytes(record.payload)
        case .bluetoothLinuxMonitor:
            let opcode = monitorOpcode(record)
            out.writeUInt16BE(record.adapter ?? 0)
            out.writeUInt16BE(opcode.rawValue)
            out.writeBytes(monitorBody(record, opcode: opcode))
        default:
            guard record.kind == .linkLayer(linkType: linkType.rawValue) else {
                preconditionFailure("pcap link type \(linkType.rawValue) cannot carry \(record.kind)")
            }
            out.writeBytes(record.payload)
        }
        return out.bytes
    }

    private static func h4Type(_ record: CaptureRecord) -> H4PacketType {
        guard let type = H4PacketType(kind: record.kind) else {
            preconditionFailure("H4 cannot carry \(record.kind)")
        }
        return type
    }

    private static func monitorOpcode(_ record: CaptureRecord) -> MonitorOpcode {
        guard let opcode = MonitorOpcode(kind: record.kind, direction: record.direction) else {
            preconditionFailure("the Linux monitor cannot carry \(record.kind) \(record.direction)")
        }
        return opcode
    }

    /// Notes as BlueZ writes them: System Note NUL-terminated; User Logging with priority 6
    /// (info), an empty ident and a NUL-terminated message.
    private static func monitorBody(_ record: CaptureRecord, opcode: MonitorOpcode) -> [UInt8] {
        switch opcode {
        case .systemNote: return record.payload + [0]
        case .userLogging: return [6, 0] + record.payload + [0]
        default: return record.payload
        }
    }

    private static func isCommandOrEvent(_ kind: RecordKind) -> Bool {
        kind == .hciCommand || kind == .hciEvent
    }

    /// Whole seconds and microseconds, rounding down for times before 1970.
    private static func split(_ us: Int64) -> (Int64, Int64) {
        let seconds = us >= 0 ? us / 1_000_000 : (us - 999_999) / 1_000_000
        return (seconds, us - seconds * 1_000_000)
    }

    /// A pcapng block: type, total length, body padded to 32 bits, total length again.
    private static func block(_ out: inout ByteWriter, type: UInt32, body build: (inout ByteWriter) -> Void) {
        var body = ByteWriter()
        build(&body)
        body.writeBytes([UInt8](repeating: 0, count: (4 - body.count % 4) % 4))
        let total = UInt32(body.count + 12)
        out.writeUInt32LE(type)
        out.writeUInt32LE(total)
        out.writeBytes(body.bytes)
        out.writeUInt32LE(total)
    }
}
