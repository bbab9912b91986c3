import AnalyzerTestSupport
import BLECaptureFormats
import BLEPacketDecoding

/// Decodes records in order, as the CLI does; returns the packets and the end-of-capture issues.
func decodeAll(_ records: [CaptureRecord]) -> (packets: [DecodedPacket], atEnd: [PacketIssue]) {
    var decoder = PacketDecoder()
    var packets: [DecodedPacket] = []
    // Each into a packet of its own, in its place in the list.
    for var record in records {
        packets.append(DecodedPacket(record: record))
        decoder.decode(swapping: &record, into: &packets[packets.count - 1])
    }
    return (packets, decoder.finish())
}

/// Decodes a capture file, failing the test when it cannot be opened.
func decodeFile(_ path: String) throws -> (packets: [DecodedPacket], atEnd: [PacketIssue], diagnostics: [CaptureDiagnostic]) {
    let reader = try CaptureFile.open(path)
    var records: [CaptureRecord] = []
    while let record = reader.next() { records.append(record) }
    let (packets, atEnd) = decodeAll(records)
    return (packets, atEnd, reader.diagnostics)
}

/// ATT PDUs by opcode, keys as the truth files write them (`0x1B`).
func attCounts(_ packets: [DecodedPacket]) -> [String: Int] {
    var counts: [String: Int] = [:]
    for packet in packets {
        for pdu in packet.l2cap {
            let opcode: UInt8?
            switch pdu.content {
            case .att(let att): opcode = att.opcode.rawValue
            case .malformedATT(let op, _): opcode = op?.rawValue
            default: opcode = nil
            }
            if let opcode {
                let hex = String(opcode, radix: 16, uppercase: true)
                counts["0x" + (hex.count < 2 ? "0" : "") + hex, default: 0] += 1
            }
        }
    }
    return counts
}
