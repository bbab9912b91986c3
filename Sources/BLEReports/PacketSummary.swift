import BLEATT
import BLEBase
import BLECaptureFormats
import BLEHCI
import BLEL2CAP
import BLELinkLayer
import BLEPacketDecoding

/// The one-line description of a decoded packet: its deepest decoded layer, like Wireshark's
/// Info column. Text from the capture (names, notes) is escaped for the terminal here.
public enum PacketSummary {
    public static func line(_ packet: DecodedPacket, valueLimit: Int = 32) -> String {
        var text = deepest(packet, valueLimit: valueLimit)
        if !packet.issues.isEmpty {
            text += " [" + packet.issues.map(\.description).joined(separator: "; ") + "]"
        }
        return TerminalText.escape(text)
    }

    static func deepest(_ packet: DecodedPacket, valueLimit: Int = 32) -> String {
        if let pdu = packet.l2cap.last {
            let more = packet.l2cap.count > 1 ? " (+\(packet.l2cap.count - 1) more PDU)" : ""
            return content(pdu, valueLimit: valueLimit) + more + (packet.air.map(airFlags) ?? "")
        }
        if let air = packet.air {
            let text = air.packet?.summary ?? "Air packet (link type \(air.metadata?.linkType ?? 0))"
            let name = packet.airAdvertisingData?.localName.map { " name " + TerminalText.quoted($0) } ?? ""
            let started = air.fragment.flatMap { $0.isStart ? announcement(ofStart: $0.bytes) : nil } ?? ""
            return text + name + started + airFlags(air)
        }
        switch packet.hci {
        case .command(let command): return command.summary
        case .event(let event): return event.summary + joined(packet)
        case .acl(let acl): return acl.summary
        case .sco(let sco): return sco.summary
        case .iso(let iso): return iso.summary
        case .absent: break
        }
        switch packet.record.kind {
        case .note(let source):
            return "\(source.rawValue): " + String(decoding: packet.record.payload.prefix(512), as: UTF8.self)
        case .control(let name, _): return name.description
        case .unknown(let code): return "Unknown record type \(Hex.code(code))"
        case .linkLayer(let linkType): return "Air packet (link type \(linkType))"
        default: return "\(packet.record.payloadCount) bytes"
        }
    }

    /// A start fragment too short for its PDU: what its L2CAP basic header announces (Core v5.4
    /// Vol 3 Part A §3.1) and, on the ATT and SMP channels, the PDU its first byte names (Vol 3
    /// Part F §3.3, Part H §3.3), so that a PDU whose continuation the sniffer lost still shows what
    /// it was: `: starts a 46-byte L2CAP PDU on ATT: Read By Group Type Response`.
    static func announcement(ofStart bytes: [UInt8]) -> String? {
        guard let (header, first) = L2CAPBasicHeader.announced(byStart: bytes) else { return nil }
        let names: String?
        switch header.channelID {
        case .attribute: names = first.map { ATTOpcode(rawValue: $0).name }
        case .securityManager: names = first.map { SMPCode(rawValue: $0).name }
        default: names = nil
        }
        return ": starts a \(header.pduByteCount)-byte L2CAP PDU on \(header.channelID.name)" + (names.map { ": " + $0 } ?? "")
    }

    /// What the link layer noticed: `(bad CRC)`, `(retransmission)`, `(encrypted)`, `(… not decrypted …)`.
    static func airFlags(_ air: LinkLayerResult) -> String {
        var notes: [String] = []
        if air.flags.contains(.badCRC) { notes.append("bad CRC") }
        if air.flags.contains(.retransmission) { notes.append("retransmission") }
        if air.flags.contains(.encrypted) { notes.append("encrypted") }
        if air.flags.contains(.notDecrypted) { notes.append("not decrypted: the sniffer's MIC check failed") }
        if air.flags.contains(.noise) { notes.append("radio noise: no advertiser or link") }
        return notes.isEmpty ? "" : " (" + notes.joined(separator: ", ") + ")"
    }

    static func content(_ pdu: L2CAPPDU, valueLimit: Int = 32) -> String {
        switch pdu.content {
        case .att(let att): return "ATT " + att.summary(valueLimit: valueLimit) + printable(att.value, limit: valueLimit)
        case .malformedATT(let opcode, _): return "ATT " + (opcode?.name ?? "empty PDU") + " (malformed)"
        case .smp(let smp): return smp.summary
        case .signalling(let signalling): return signalling.summary
        case .other:
            // A dynamic channel whose opening was captured is named by what it was opened for.
            let channel = pdu.channel.psm == 0 ? pdu.frame.channelID.name
                : "\(PSM(rawValue: pdu.channel.psm).name) (CID \(Hex.code(pdu.frame.channelID.rawValue, width: 4)))"
            return "L2CAP \(channel) \(pdu.frame.payload.count) bytes"
        }
    }

    /// A value that is text (devices that speak `AT+…`) also as text: ` "AT+VER\r\n"`, quoted
    /// and escaped, cut like the hex. Empty unless every byte is printable ASCII or a tab, CR
    /// or LF and at least two bytes are there.
    static func printable(_ value: ByteView?, limit: Int) -> String {
        guard let value, value.count >= 2,
              value.allSatisfy({ (0x20...0x7E).contains($0) || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) else { return "" }
        var text = ""
        for byte in value.prefix(limit) {
            switch byte {
            case 0x09: text += "\\t"
            case 0x0A: text += "\\n"
            case 0x0D: text += "\\r"
            case 0x22: text += "\\\""
            case 0x5C: text += "\\\\"
            default: text.unicodeScalars.append(Unicode.Scalar(byte))
            }
        }
        return " \"" + text + (value.count > limit ? "\"…" : "\"")
    }

    /// Notes that fragments of extended advertising were joined on this record.
    static func joined(_ packet: DecodedPacket) -> String {
        for output in packet.joinedAdvertising {
            if case .complete(let report, let fragments) = output, fragments > 1 {
                let name = report.advertisingData.localName.map { " name " + TerminalText.quoted($0) } ?? ""
                return " (joined \(fragments) fragments: \(report.data.count) bytes\(name))"
            }
        }
        return ""
    }
}
