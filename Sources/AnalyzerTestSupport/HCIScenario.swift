import BLEBase
import BLECaptureFormats

/// Builds an HCI-level capture as a host's snoop log would record it, from a described scenario:
/// commands, events, and ACL data fragmented like a controller does. Every byte layout follows
/// Core v5.4 Vol 4 Part E (§5.4 packet formats, §7.7 events, §7.8 LE commands); the encoders here are
/// written independently of the decoders so that tests built on them check the decoders.
public struct HCIScenario: Sendable {
    public private(set) var records: [CaptureRecord] = []
    /// Current time in µs since the Unix epoch; every appended record advances it by `step`.
    public var clockUs: Int64
    public var stepUs: Int64

    public init(startUs: Int64 = 1_714_033_432_000_000, stepUs: Int64 = 1_250) {
        clockUs = startUs
        self.stepUs = stepUs
    }

    /// Moves the clock forward.
    public mutating func wait(ms: Double) { clockUs += Int64(ms * 1000) }

    public mutating func append(_ kind: RecordKind, _ direction: Direction, _ payload: [UInt8], originalLength: Int? = nil) {
        records.append(CaptureRecord(index: records.count + 1, timestampUs: clockUs, direction: direction,
                                     kind: kind, payload: payload, originalLength: originalLength))
        clockUs += stepUs
    }

    // MARK: Commands and events

    /// An HCI command packet: opcode u16, parameter length u8, parameters (§5.4.1).
    public mutating func command(_ opcode: UInt16, _ parameters: [UInt8] = []) {
        var w = ByteWriter()
        w.writeUInt16LE(opcode)
        w.writeUInt8(UInt8(parameters.count))
        w.writeBytes(parameters)
        append(.hciCommand, .sent, w.bytes)
    }

    /// An HCI event packet: event code u8, parameter length u8, parameters (§5.4.4).
    public mutating func event(_ code: UInt8, _ parameters: [UInt8]) {
        append(.hciEvent, .received, [code, UInt8(parameters.count)] + parameters)
    }

    /// Command Complete (§7.7.14): credits, opcode, return parameters (status first).
    public mutating func commandComplete(_ opcode: UInt16, status: UInt8 = 0, returning extra: [UInt8] = []) {
        var w = ByteWriter()
        w.writeUInt8(1)
        w.writeUInt16LE(opcode)
        w.writeUInt8(status)
        w.writeBytes(extra)
        event(0x0E, w.bytes)
    }

    /// Command Status (§7.7.15): status, credits, opcode.
    public mutating func commandStatus(_ opcode: UInt16, status: UInt8 = 0) {
        var w = ByteWriter()
        w.writeUInt8(status)
        w.writeUInt8(1)
        w.writeUInt16LE(opcode)
        event(0x0F, w.bytes)
    }

    /// LE Meta event (§7.7.65) with a subevent code.
    public mutating func leMeta(_ subevent: UInt8, _ parameters: [UInt8]) {
        event(0x3E, [subevent] + parameters)
    }

    /// Number Of Completed Packets (§7.7.19) for one handle.
    public mutating func completedPackets(handle: UInt16, count: UInt16 = 1) {
        var w = ByteWriter()
        w.writeUInt8(1)
        w.writeUInt16LE(handle)
        w.writeUInt16LE(count)
        event(0x13, w.bytes)
    }

    // MARK: ACL data

    /// Sends an L2CAP basic frame on `cid` over ACL (§5.4.2 and Vol 3 Part A §3.1), cut into HCI ACL
    /// fragments of at most `fragmentSize` bytes: PB 0b00 (host) or 0b10 (controller) first, 0b01 after.
    /// `keep` cuts every fragment's stored bytes to that many (the capturing tool's truncation).
    public mutating func l2cap(handle: UInt16, _ direction: Direction, cid: UInt16, _ payload: [UInt8],
                               fragmentSize: Int = 251, keep: Int? = nil) {
        var frame = ByteWriter()
        frame.writeUInt16LE(UInt16(payload.count))
        frame.writeUInt16LE(cid)
        frame.writeBytes(payload)
        let bytes = frame.bytes
        var offset = 0
        var first = true
        while offset < bytes.count {
            let chunk = Array(bytes[offset..<min(bytes.count, offset + fragmentSize)])
            offset += chunk.count
            let pb: UInt16 = first ? (direction == .sent ? 0b00 : 0b10) : 0b01
            var w = ByteWriter()
            w.writeUInt16LE(handle & 0x0FFF | pb << 12)
            w.writeUInt16LE(UInt16(chunk.count))
            w.writeBytes(chunk)
            let full = w.bytes
            if let keep, keep < full.count {
                append(.aclData, direction, Array(full.prefix(keep)), originalLength: full.count)
            } else {
                append(.aclData, direction, full)
            }
            if direction == .sent {
                completedPackets(handle: handle)
            }
            first = false
        }
    }

    /// An ATT PDU on CID 0x0004.
    public mutating func att(handle: UInt16, _ direction: Direction, _ pdu: [UInt8], fragmentSize: Int = 251) {
        l2cap(handle: handle, direction, cid: 0x0004, pdu, fragmentSize: fragmentSize)
    }
}
