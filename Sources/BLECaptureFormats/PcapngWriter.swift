import BLEBase

/// Writes records as a pcapng file (draft-ietf-opsawg-pcapng: Section Header Block §4.1,
/// Interface Description Block §4.2, Enhanced Packet Block §4.3), each packet with optional
/// comments (`opt_comment`, §3.5), so that Wireshark shows them as `frame.comment`.
///
/// Packets keep their bytes and times: HCI records of btsnoop, PacketLogger and pcap captures
/// as link type 201 (H4 with the 4-byte direction pseudo-header); records of a Linux monitor
/// capture (they carry an adapter index) as link type 254, so every adapter stays apart; air
/// records in their own link type, pseudo-header included. A record that is no packet (a note,
/// a PacketLogger control record) becomes a monitor System Note (254) with its text, so that
/// frame N of the output is record N of the capture. Little-endian, microsecond times.
public struct PcapngWriter {
    private var interfaces: [UInt32: UInt32] = [:]
    private let emit: ([UInt8]) -> Void

    /// Starts the file: the section header, naming the writing application (`shb_userappl`).
    public init(application: String, emit: @escaping ([UInt8]) -> Void) {
        self.emit = emit
        var body = ByteWriter()
        body.writeUInt32LE(0x1A2B_3C4D)
        body.writeUInt16LE(1)
        body.writeUInt16LE(0)
        body.writeUInt64LE(UInt64.max)
        Self.option(&body, code: 4, Array(application.utf8))
        Self.endOfOptions(&body)
        emit(Self.block(type: 0x0A0D_0D0A, body: body))
    }

    /// Adds one packet; each comment becomes one `opt_comment`.
    public mutating func write(_ record: CaptureRecord, comments: [String]) {
        let (linkType, data) = Self.packet(record)
        let interface = interfaceID(linkType)
        var body = ByteWriter(capacity: data.count + 64)
        let timestamp = UInt64(bitPattern: record.timestampUs)
        body.writeUInt32LE(interface)
        body.writeUInt32LE(UInt32(truncatingIfNeeded: timestamp >> 32))
        body.writeUInt32LE(UInt32(truncatingIfNeeded: timestamp))
        body.writeUInt32LE(UInt32(data.count))
        body.writeUInt32LE(UInt32(clamping: max(data.count, record.originalLength - record.payloadCount + data.count)))
        body.writeBytes(data)
        Self.pad(&body)
        // epb_flags bits 0–1: 01 inbound, 10 outbound (§4.3.1).
        switch record.direction {
        case .received: Self.option(&body, code: 2, Self.littleEndian(1))
        case .sent: Self.option(&body, code: 2, Self.littleEndian(2))
        default: break
        }
        for comment in comments { Self.option(&body, code: 1, Self.utf8(comment, limit: Self.commentLimit)) }
        if record.direction == .received || record.direction == .sent || !comments.isEmpty { Self.endOfOptions(&body) }
        emit(Self.block(type: 6, body: body))
    }

    /// A comment's bytes at most (an option's length is 16 bits; Wireshark shows a line).
    public static let commentLimit = 4096

    private mutating func interfaceID(_ linkType: UInt32) -> UInt32 {
        if let id = interfaces[linkType] { return id }
        let id = UInt32(interfaces.count)
        interfaces[linkType] = id
        var body = ByteWriter()
        body.writeUInt16LE(UInt16(truncatingIfNeeded: linkType))
        body.writeUInt16LE(0)
        body.writeUInt32LE(0)
        emit(Self.block(type: 1, body: body))
        return id
    }

    /// The link type and the bytes a record is written as.
    static func packet(_ record: CaptureRecord) -> (UInt32, [UInt8]) {
        var out = ByteWriter(capacity: record.payloadCount + 8)
        var payload = record.payloadReader(layer: .capture)
        let bytes = payload.readRemainingBytes()
        if case .linkLayer(let linkType) = record.kind {
            return (linkType, bytes)
        }
        if let adapter = record.adapter, let opcode = MonitorOpcode(kind: record.kind, direction: record.direction) {
            out.writeUInt16BE(adapter)
            out.writeUInt16BE(opcode.rawValue)
            switch opcode {
            case .systemNote: out.writeBytes(bytes + [0])
            case .userLogging: out.writeBytes([6, 0] + bytes + [0])
            default: out.writeBytes(bytes)
            }
            return (LinkType.bluetoothLinuxMonitor.rawValue, out.bytes)
        }
        if let type = H4PacketType(kind: record.kind) {
            out.writeUInt32BE(record.direction == .received ? 1 : 0)
            out.writeUInt8(type.rawValue)
            out.writeBytes(bytes)
            return (LinkType.bluetoothHCIH4WithPHDR.rawValue, out.bytes)
        }
        // A note or a record that is no packet: its text, or what it was, as a System Note.
        let text: [UInt8]
        switch record.kind {
        case .note: text = bytes.filter { $0 != 0 }
        case .control(let name, let code): text = Array("\(name) record (type \(Hex.code(code)))".utf8)
        default: text = Array("record of unknown type (\(bytes.count) bytes)".utf8)
        }
        out.writeUInt16BE(record.adapter ?? 0)
        out.writeUInt16BE(MonitorOpcode.systemNote.rawValue)
        out.writeBytes(text + [0])
        return (LinkType.bluetoothLinuxMonitor.rawValue, out.bytes)
    }

    /// The UTF-8 of `text`, cut at a character boundary to at most `limit` bytes (opt_comment is UTF-8).
    static func utf8(_ text: String, limit: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        for scalar in text.unicodeScalars {
            let encoded = Array(String(scalar).utf8)
            guard bytes.count + encoded.count <= limit else { break }
            bytes += encoded
        }
        return bytes
    }

    private static func littleEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 24)]
    }

    private static func option(_ body: inout ByteWriter, code: UInt16, _ value: [UInt8]) {
        body.writeUInt16LE(code)
        body.writeUInt16LE(UInt16(value.count))
        body.writeBytes(value)
        pad(&body)
    }

    private static func endOfOptions(_ body: inout ByteWriter) {
        body.writeUInt16LE(0)
        body.writeUInt16LE(0)
    }

    private static func pad(_ body: inout ByteWriter) {
        body.writeBytes([UInt8](repeating: 0, count: (4 - body.count % 4) % 4))
    }

    /// Block type, total length, body (padded to 32 bits), total length again (§3.1).
    private static func block(type: UInt32, body: ByteWriter) -> [UInt8] {
        var out = ByteWriter(capacity: body.count + 12)
        let total = UInt32(body.count + 12)
        out.writeUInt32LE(type)
        out.writeUInt32LE(total)
        out.writeBytes(body.bytes)
        out.writeUInt32LE(total)
        return out.bytes
    }
}
