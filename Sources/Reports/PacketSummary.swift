import ATT
import BLEBase
import CaptureFormats
import HCI
import L2CAP
import LinkLayer
import PacketDecoding

/// The one-line description of a decoded packet: its deepest decoded layer, like Wireshark's
/// Info column. Text from the capture (names, notes) is escaped for the terminal here.
public enum PacketSummary {
    public static func line(_ packet: DecodedPacket) -> String {
        var text = deepest(packet)
        if !packet.issues.isEmpty {
            text += " [" + packet.issues.map(\.description).joined(separator: "; ") + "]"
        }
        return TerminalText.escape(text)
    }

    static func deepest(_ packet: DecodedPacket) -> String {
        if let pdu = packet.l2cap.last {
            let more = packet.l2cap.count > 1 ? " (+\(packet.l2cap.count - 1) more PDU)" : ""
            return content(pdu) + more + (packet.air.map(airFlags) ?? "")
        }
        if let air = packet.air {
            let text = air.packet?.summary ?? "Air packet (link type \(air.metadata?.linkType ?? 0))"
            let name = packet.airAdvertisingData?.localName.map { " name " + TerminalText.quoted($0) } ?? ""
            return text + name + airFlags(air)
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

    /// What the link layer noticed: `(bad CRC)`, `(retransmission)`, `(encrypted)`.
    static func airFlags(_ air: LinkLayerResult) -> String {
        var notes: [String] = []
        if air.flags.contains(.badCRC) { notes.append("bad CRC") }
        if air.flags.contains(.retransmission) { notes.append("retransmission") }
        if air.flags.contains(.encrypted) { notes.append("encrypted") }
        return notes.isEmpty ? "" : " (" + notes.joined(separator: ", ") + ")"
    }

    static func content(_ pdu: L2CAPPDU) -> String {
        switch pdu.content {
        case .att(let att): return "ATT " + att.summary
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
