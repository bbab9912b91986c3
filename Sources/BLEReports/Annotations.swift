import BLEAnalysis
import BLEBase
import BLECaptureFormats
import BLESessions
import BLEVendorDecoding

/// What the analysis found, as comments on the packets they are about, for `bledecode
/// annotate` (Wireshark shows them as `frame.comment`). Each comment is one finding and starts
/// with `bledecode KIND:`, KIND being a finding's kind (docs/failures.md: failures and notices), `vendor-frame` (on a
/// frame's last fragment), `connection-start` or `connection-end`.
public struct Annotations {
    private var byRecord: [Int: [String]] = [:]
    /// Findings tied to no record (an ATT request left unanswered when its link dropped, a
    /// connection still up at the end), by time: each goes on the last packet at or before the
    /// moment it became visible, and what is left on the last packet.
    private var byTime: [(timeUs: Int64, comment: String)] = []
    private var nextByTime = 0
    /// Findings by kind, for the closing line.
    public private(set) var counts: [String: Int] = [:]

    public init(_ analysis: Analysis) {
        let report = analysis.report
        let devices = Dictionary(report.devices.map { ($0.id, TimelineFormat.title($0)) }, uniquingKeysWith: { a, _ in a })
        for connection in report.connections {
            let who = connection.deviceID.map { devices[$0] ?? $0.description } ?? connection.peerAddress?.description ?? "unknown device"
            add("connection-start", "\(connection.id) with \(who), \(connection.role.rawValue) role", record: connection.startRecord)
            // Over the air a link can end with no packet of its own (a supervision timeout seen
            // as silence): the comment then goes by the end's time.
            if connection.endRecord != nil || connection.endUs != nil {
                let reason = connection.disconnectReason.map { ": \($0.name) (\(Hex.code($0.rawValue)))" } ?? ""
                add("connection-end", "\(connection.id) with \(who) ended\(reason)", record: connection.endRecord,
                    timeUs: connection.endUs ?? 0)
            }
        }
        for frame in analysis.vendorFrames {
            add("vendor-frame", Self.describe(frame), record: frame.lastRecord)
        }
        // A vendor failure names its frame (its id in its connection's session): it goes on
        // the frame's last fragment.
        var frameRecords: [ConnectionID: [Int: Int]] = [:]
        for frame in analysis.vendorFrames { frameRecords[frame.connection, default: [:]][frame.id] = frame.lastRecord }
        // Notices too (warnings and info): each is a finding the report names; a run of one
        // notice on one link goes on its first occurrence with its count.
        for failure in report.findings {
            var place = [failure.connectionID?.description, failure.deviceID?.description].compactMap { $0 }.joined(separator: " ")
            if failure.count > 1 { place += (place.isEmpty ? "" : ", ") + "×\(failure.count)" }
            var record = failure.record
            if record == nil, let connection = failure.connectionID,
               let frame = failure.details.first(where: { $0.name == "frame" }), case .int(let id) = frame.value {
                record = frameRecords[connection]?[Int(id)]
            }
            add(failure.kind.rawValue, failure.summary + (place.isEmpty ? "" : " [\(place)]"), record: record,
                timeUs: failure.timeUs)
        }
        byTime.sort { $0.timeUs < $1.timeUs }
    }

    /// The comments of `record`, in the order connections, vendor frames, failures, then those
    /// tied to a time up to the next record's (`nextTimeUs`; nil for the last record: all left).
    /// Call once per record, in order.
    public mutating func comments(for record: CaptureRecord, nextTimeUs: Int64?) -> [String] {
        var comments = byRecord[record.index] ?? []
        if nextTimeUs == nil {
            // Records the copy does not have (a last record the file cut short): on the last one.
            for index in byRecord.keys.sorted() where index > record.index { comments += byRecord[index] ?? [] }
        }
        while nextByTime < byTime.count, nextTimeUs.map({ byTime[nextByTime].timeUs < $0 }) ?? true {
            comments.append(byTime[nextByTime].comment)
            nextByTime += 1
        }
        return comments
    }

    public var total: Int { counts.values.reduce(0, +) }

    private mutating func add(_ kind: String, _ text: String, record: Int?, timeUs: Int64 = 0) {
        // Names come from the capture and the profile: control characters are shown, not kept.
        let comment = "bledecode \(kind): " + TerminalText.escape(text)
        counts[kind, default: 0] += 1
        if let record {
            byRecord[record, default: []].append(comment)
        } else {
            byTime.append((timeUs, comment))
        }
    }

    /// `C1 UNLOCK (0x10) seq 0x5A → ok in 40 ms; checksum ok; 2 fragments from frame 101`.
    static func describe(_ frame: VendorFrame) -> String {
        var text = "\(frame.connection) \(frame.direction.rawValue) handle \(Hex.code(frame.handle, width: 4)): \(frame.summary)"
        switch frame.checksumOK {
        case true?: text += "; checksum ok"
        case false?: text += "; checksum mismatch"
        case nil: break
        }
        if let status = frame.status { text += "; status \(Hex.code(status))" }
        if let plaintext = frame.plaintext { text += "; plaintext " + (plaintext.isEmpty ? "(empty)" : Hex.string(plaintext, limit: 64)) }
        text += frame.fragments > 1 ? "; \(frame.fragments) fragments from frame \(frame.firstFragmentRecord)" : ""
        return text
    }
}
