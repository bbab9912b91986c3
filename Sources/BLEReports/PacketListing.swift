import BLEATT
import BLEBase
import BLECaptureFormats
import BLEHCI
import BLEL2CAP
import BLELinkLayer
import BLEPacketDecoding
import BLESessions

/// How `bledecode packets` shows times.
public enum TimeDisplay: String, Sendable, CaseIterable {
    /// Seconds since the first record, like Wireshark's default.
    case relative
    /// UTC, ISO 8601.
    case absolute
}

/// Renders decoded packets as a packet list: one line per record, optionally with the full layered
/// decode below it (`-v`), or as JSON Lines (one object per record).
public struct PacketListing {
    public var time: TimeDisplay
    public var verbose: Bool
    /// Values whole instead of cut (the summary cuts at 32 bytes, the `-v` fields at 64).
    public var full: Bool
    private var firstTimeUs: Int64?

    public init(time: TimeDisplay = .relative, verbose: Bool = false, full: Bool = false) {
        self.time = time
        self.verbose = verbose
        self.full = full
    }

    private var valueLimit: Int { full ? .max : 32 }

    /// Shows relative times from this record's on: the capture's first, also when a filter
    /// leaves it out.
    public mutating func start(at record: CaptureRecord) {
        firstTimeUs = firstTimeUs ?? record.timestampUs
    }

    // MARK: Text

    /// `    12  +0.041250  TX   C1 D2  ATT Write Request handle 0x0010 value aa01…`: the
    /// connection and device (`peer`) on packets of a connection.
    public mutating func text(_ packet: DecodedPacket, peer: LinkPeer? = nil) -> String {
        let record = packet.record
        let first = firstTimeUs ?? record.timestampUs
        firstTimeUs = first
        let when = time == .absolute
            ? Timestamp.iso8601(unixMicroseconds: record.timestampUs)
            : Timestamp.relativeSeconds(record.timestampUs - first)
        var line = pad(String(record.index), 6) + "  " + pad(when, time == .absolute ? 27 : 12) + "  "
            + Self.arrow(record.direction) + "  " + (peer.map { Self.label($0) + "  " } ?? "")
            + PacketSummary.line(packet, valueLimit: valueLimit)
        if verbose {
            for layer in layers(packet) {
                line += "\n        " + layer.title
                line += FieldText.tree(layer.fields, indent: 10, byteLimit: full ? .max : 64)
            }
        }
        return line
    }

    /// `C1 D2`, or `C1` while the peer's device is unknown.
    static func label(_ peer: LinkPeer) -> String {
        peer.connectionID.description + (peer.deviceID.map { " \($0)" } ?? "")
    }

    static func arrow(_ direction: Direction) -> String {
        switch direction {
        case .sent: return "TX "
        case .received: return "RX "
        case .centralToPeripheral: return "C→P"
        case .peripheralToCentral: return "P→C"
        case .unknown: return " ? "
        }
    }

    private func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : String(repeating: " ", count: width - text.count) + text
    }

    /// The decoded layers of a packet, outermost first, each as a title and its fields.
    func layers(_ packet: DecodedPacket) -> [(title: String, fields: [Field])] {
        var result: [(String, [Field])] = []
        let record = packet.record
        var recordFields: [Field] = [.int("length", record.payloadCount), .int("originalLength", record.originalLength),
                                     .int("fileOffset", record.fileOffset)]
        if let adapter = record.adapter { recordFields.append(.int("adapter", adapter)) }
        result.append(("Record \(record.index) (\(Self.kindName(record.kind)))", recordFields))
        switch packet.hci {
        case .command(let c): result.append(("HCI Command", c.fields))
        case .event(let e): result.append(("HCI Event", e.fields))
        case .acl(let a): result.append(("HCI ACL", a.fields))
        case .sco(let s): result.append(("HCI SCO", s.fields))
        case .iso(let i): result.append(("HCI ISO", i.fields))
        case .absent: break
        }
        if let air = packet.air {
            if let metadata = air.metadata { result.append(("Radio", metadata.fields)) }
            result.append(("Link layer", Self.airFields(air)))
            if let ad = packet.airAdvertisingData { result.append(("Advertising data", ad.fields)) }
        }
        for pdu in packet.l2cap {
            result.append(("L2CAP", Self.l2capFields(pdu)))
            switch pdu.content {
            case .att(let att): result.append(("ATT", att.fields))
            case .smp(let smp): result.append(("SMP", smp.fields))
            case .signalling(let signalling): result.append(("L2CAP Signalling", signalling.commands.flatMap(\.fields)))
            case .malformedATT, .other: break
            }
        }
        if !packet.issues.isEmpty {
            result.append(("Issues", packet.issues.map { Field($0.kind.rawValue, .string($0.description)) }))
        }
        return result
    }

    static func airFields(_ air: LinkLayerResult) -> [Field] {
        var fields: [Field] = [.string("crcStatus", air.crcStatus.rawValue)]
        var flags: [FieldValue] = []
        if air.flags.contains(.badCRC) { flags.append(.string("bad-crc")) }
        if air.flags.contains(.retransmission) { flags.append(.string("retransmission")) }
        if air.flags.contains(.empty) { flags.append(.string("empty")) }
        if air.flags.contains(.encrypted) { flags.append(.string("encrypted")) }
        if air.flags.contains(.directionInferred) { flags.append(.string("direction-inferred")) }
        if air.flags.contains(.notDecrypted) { flags.append(.string("not-decrypted")) }
        if air.flags.contains(.noise) { flags.append(.string("noise")) }
        fields.append(Field("flags", .list(flags)))
        if let packet = air.packet { fields += packet.fields }
        return fields
    }

    static func l2capFields(_ pdu: L2CAPPDU) -> [Field] {
        var fields: [Field] = [.code("cid", pdu.frame.channelID.rawValue, width: 4, label: pdu.frame.channelID.name),
                               .int("length", pdu.frame.payload.count),
                               .int("fragments", pdu.frame.fragmentCount),
                               .int("firstRecord", pdu.frame.firstRecordIndex)]
        // A dynamic channel whose opening the capture showed: what it was opened for.
        if pdu.channel.psm != 0 {
            fields.append(.code("psm", pdu.channel.psm, width: 4, label: PSM(rawValue: pdu.channel.psm).name))
        }
        return fields
    }

    public static func kindName(_ kind: RecordKind) -> String {
        switch kind {
        case .hciCommand: return "command"
        case .hciEvent: return "event"
        case .aclData: return "acl"
        case .scoData: return "sco"
        case .isoData: return "iso"
        case .note: return "note"
        case .control: return "control"
        case .linkLayer: return "air"
        case .unknown: return "unknown"
        }
    }

    // MARK: JSON Lines

    /// One JSON object for a record; fields documented in docs/packets-json.md.
    public func json(_ packet: DecodedPacket, peer: LinkPeer? = nil) -> [UInt8] {
        let record = packet.record
        var w = JSONWriter(capacity: 256)
        w.beginObject()
        w.field("index", record.index)
        w.field("timeUs", record.timestampUs)
        w.field("direction", record.direction.rawValue)
        w.field("kind", Self.kindName(record.kind))
        switch record.kind {
        case .note(let source): w.field("noteSource", source.rawValue)
        case .control(let name, let code): w.field("control", name.description); w.field("controlCode", code)
        case .linkLayer(let linkType), .unknown(let linkType): w.field("code", linkType)
        default: break
        }
        w.field("length", record.payloadCount)
        w.field("originalLength", record.originalLength)
        if let adapter = record.adapter { w.field("adapter", adapter) }
        if let peer {
            w.field("connection", peer.connectionID)
            if let device = peer.deviceID { w.field("device", device) }
        }
        w.field("summary", PacketSummary.deepest(packet, valueLimit: valueLimit))
        switch packet.hci {
        case .command(let c): w.key("hci"); w.value(.object(c.fields))
        case .event(let e): w.key("hci"); w.value(.object(e.fields))
        case .acl(let a): w.key("hci"); w.value(.object(a.fields))
        case .sco(let s): w.key("hci"); w.value(.object(s.fields))
        case .iso(let i): w.key("hci"); w.value(.object(i.fields))
        case .absent: break
        }
        if let air = packet.air {
            if let metadata = air.metadata { w.key("radio"); w.value(.object(metadata.fields)) }
            w.key("ll"); w.value(.object(Self.airFields(air)))
            if let ad = packet.airAdvertisingData { w.key("advertisingData"); w.value(.object(ad.fields)) }
        }
        if !packet.l2cap.isEmpty {
            w.key("l2cap")
            w.beginArray()
            for pdu in packet.l2cap { w.value(.object(Self.l2capFields(pdu))) }
            w.endArray()
        }
        for pdu in packet.l2cap {
            switch pdu.content {
            case .att(let att): w.key("att"); w.value(.object(att.fields))
            case .malformedATT(let opcode, let error):
                w.key("att")
                w.beginObject()
                if let opcode { w.field("opcode", opcode.rawValue); w.field("opcodeName", opcode.name) }
                w.field("malformed", error.description)
                w.endObject()
            case .smp(let smp): w.key("smp"); w.value(.object(smp.fields))
            case .signalling(let s): w.key("signalling"); w.value(.list(s.commands.map { .object($0.fields) }))
            case .other: break
            }
        }
        if !packet.issues.isEmpty {
            w.key("issues")
            w.beginArray()
            for issue in packet.issues {
                w.beginObject()
                w.field("kind", issue.kind.rawValue)
                w.field("layer", issue.layer.rawValue)
                w.field("message", issue.message)
                w.endObject()
            }
            w.endArray()
        }
        w.endObject()
        return w.bytes
    }
}

/// Field trees as indented text for `-v`.
enum FieldText {
    static func tree(_ fields: [Field], indent: Int, byteLimit: Int = 64) -> String {
        var out = ""
        let pad = String(repeating: " ", count: indent)
        for field in fields {
            switch field.value {
            case .object(let inner):
                out += "\n" + pad + field.name + ":" + tree(inner, indent: indent + 2, byteLimit: byteLimit)
            case .list(let items) where items.contains(where: { if case .object = $0 { true } else { false } }):
                out += "\n" + pad + field.name + ": \(items.count) item(s)"
                for (i, item) in items.enumerated() {
                    if case .object(let inner) = item {
                        out += "\n" + pad + "  [\(i)]" + tree(inner, indent: indent + 4, byteLimit: byteLimit)
                    } else {
                        out += "\n" + pad + "  [\(i)] " + scalar(item, byteLimit: byteLimit)
                    }
                }
            default:
                out += "\n" + pad + field.name + ": "
                    + TerminalText.escape(field.display ?? scalar(field.value, byteLimit: byteLimit))
            }
        }
        return out
    }

    static func scalar(_ value: FieldValue, byteLimit: Int = 64) -> String {
        switch value {
        case .int(let v): return String(v)
        case .uint(let v): return String(v)
        case .bool(let v): return v ? "true" : "false"
        case .string(let v): return TerminalText.quoted(v, limit: 248)
        case .bytes(let v): return v.isEmpty ? "(empty)" : Hex.string(v, limit: byteLimit)
        case .address(let v): return v.description
        case .uuid(let v): return v.description
        case .null: return "null"
        case .list(let items): return "[" + items.map { scalar($0, byteLimit: byteLimit) }.joined(separator: ", ") + "]"
        case .object(let fields):
            return "{" + fields.map { "\($0.name): \(scalar($0.value, byteLimit: byteLimit))" }.joined(separator: ", ") + "}"
        }
    }
}
