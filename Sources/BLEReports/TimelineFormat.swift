import BLEAnalysis
import BLEAssignedNumbers
import BLEBase
import BLESessions

/// Small text pieces the timeline renderers share: names of attributes, counts, titles (durations
/// are in Analysis, whose vendor command runs show them too).
extension TimelineFormat {
    /// Every failure counted, also those past the listing cap (`6` or `1506, 6 listed (…)`).
    static func failureCount(_ report: SessionReport) -> String {
        let failures = report.stats.failures
        return report.failures.count < failures
            ? "\(failures), \(report.failures.count) listed (at most \(SessionAnalyzer.failuresListedPerKind) of a kind)"
            : "\(failures)"
    }

    /// What part of the capture was only counted, and why, one phrase each (`16 L2CAP PDUs on
    /// channels bledecode does not decode (SDP (PSM 0x0001) 8, …)`): the closing line of the
    /// timeline and the Markdown and HTML reports' facts say it.
    static func notAnalysed(_ stats: CaptureStatistics) -> [String] {
        var parts: [String] = []
        let channels = stats.channelsNotAnalysed
        if !channels.isEmpty {
            let total = channels.reduce(0) { $0 + $1.packets }
            parts.append(TimelineFormat.counted(total, "L2CAP PDU") + " on channels bledecode does not decode ("
                         + channels.map { "\(Timeline.channelText($0)) \($0.packets)" }.joined(separator: ", ") + ")")
        }
        parts += packetsNotAnalysed(stats.packetsNotAnalysed)
        if stats.l2capWithoutConnection > 0 { parts.append("\(stats.l2capWithoutConnection) L2CAP PDU(s) on links with no connection") }
        if stats.scoPackets + stats.isoPackets > 0 { parts.append("\(stats.scoPackets + stats.isoPackets) audio (SCO/ISO) packet(s)") }
        if stats.undecodableRecords > 0 { parts.append("\(stats.undecodableRecords) record(s) that did not decode") }
        if stats.undecodableRadioPackets > 0 {
            parts.append("\(stats.undecodableRadioPackets) radio packet(s) credited to no advertiser or link (bad CRC, noise)")
        }
        if stats.otherRecords > 0 {
            parts.append("\(stats.otherRecords) record(s) that carry no packet (notes, capture control, unknown types)")
        }
        return parts
    }

    /// One phrase per kind of packets counted but not decoded: `15 HCI vendor-specific events
    /// (0xFF) bledecode does not decode (sub-event 0x58 9, 0x0E 6)`.
    static func packetsNotAnalysed(_ uses: [PacketsNotAnalysed]) -> [String] {
        var parts: [String] = []
        for kind in Set(uses.map(\.kind)).sorted() {
            let of = uses.filter { $0.kind == kind }.sorted { ($0.code ?? -1) < ($1.code ?? -1) }
            let total = of.reduce(0) { $0 + $1.packets }
            let codes = of.map { ($0.code.map { Hex.code($0, width: kind == .btstackDaemonCommand ? 4 : 2) } ?? "none")
                + " \($0.packets)" }
            let what = switch kind {
            case .hciVendorEvent: TimelineFormat.counted(total, "HCI vendor-specific event") + " (0xFF) bledecode does not decode (sub-event "
            // The table ends at Core v5.3's opcodes and cannot tell a reserved one from a newer: both named.
            case .llControlUnknown: TimelineFormat.counted(total, "LL Control PDU")
                + " of opcodes bledecode has no layout for (reserved, or assigned after Core v5.3) (opcode "
            case .btstackDaemonCommand: TimelineFormat.counted(total, "BTstack daemon command")
                + " (OGF 0x3D, between BTstack and its clients, never sent to a controller) ("
            case .btstackDaemonEvent: TimelineFormat.counted(total, "BTstack daemon event")
                + " (between BTstack and its clients, not from a controller) ("
            default: TimelineFormat.counted(total, "packet") + " (\(kind.rawValue)) ("
            }
            parts.append(what + list(codes, limit: 8) + ")")
        }
        return parts
    }

    /// `malformed 3`: the decoding problems by kind (`stats.decodeIssues`), said in the closing
    /// line so they are not only in the JSON; `bledecode packets` marks each record.
    static func decodeIssues(_ stats: CaptureStatistics) -> String? {
        guard !stats.issues.isEmpty else { return nil }
        return stats.issues.sorted { $0.key.rawValue < $1.key.rawValue }.map { "\($0.key.rawValue) \($0.value)" }
            .joined(separator: ", ")
    }

    /// `"LOCK-A101"`: a name from a capture in quotes, cut so a hostile 248-byte name cannot
    /// flood a line. Escaping for the medium is the renderer's job.
    static func quoted(_ name: String, limit: Int = 40) -> String {
        let cut = name.count > limit ? String(name.prefix(limit)) + "…" : name
        return "\"" + cut.replacing("\"", with: "\\\"") + "\""
    }

    /// `D2 "DEMO-0B0D"`.
    static func title(_ device: Device) -> String {
        ([device.id.description] + device.names.prefix(1).map { quoted($0) }).joined(separator: " ")
    }

    /// `Battery (180F)`, `FFE0`.
    static func name(_ uuid: BluetoothUUID) -> String {
        AssignedNumbers.name(for: uuid).map { "\($0) (\(uuid))" } ?? uuid.description
    }

    /// What a handle is in a device's GATT database: `Battery Level (2A19)`, `CCCD of FFE2`,
    /// `handle 0x0010` when discovery did not cover it.
    static func attribute(_ handle: UInt16, in gatt: [GATTAttribute]) -> String {
        guard let attribute = gatt.first(where: { $0.handle == handle }) else { return "handle \(Hex.code(handle, width: 4))" }
        if attribute.kind == .descriptor, let owner = characteristic(containing: handle, in: gatt) {
            let descriptor = attribute.uuid == BluetoothUUID(uint16: 0x2902) ? "CCCD" : name(attribute.uuid)
            return "\(descriptor) of \(name(owner.uuid))"
        }
        return name(attribute.uuid)
    }

    /// The characteristic whose value or descriptors hold `handle`.
    static func characteristic(containing handle: UInt16, in gatt: [GATTAttribute]) -> GATTAttribute? {
        gatt.filter { $0.kind == .characteristic && $0.handle <= handle }.max { $0.handle < $1.handle }
    }

    /// Up to `limit` items, then `+N more`.
    static func list(_ items: [String], limit: Int = 6) -> String {
        let shown = items.prefix(limit).joined(separator: ", ")
        return items.count > limit ? shown + ", +\(items.count - limit) more" : shown
    }
}
