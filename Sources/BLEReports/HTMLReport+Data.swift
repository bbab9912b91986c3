import BLEAnalysis
import BLEBase
import BLESessions

extension HTMLReport {
    /// Mark kinds in the page's data.
    enum MarkKind: Int { case event = 0, command, failure }

    /// The lanes as the page's script reads them, times in µs from the first record:
    /// `{"end", "lanes": [{"id", "device", "title", "sub", "spans", "marks"}]}` with spans
    /// `[start, end or null (still open), severity, kind (0 advertising, 1 connection), text]`
    /// and marks `[time, severity, kind (0 event, 1 command, 2 failure), text]`, sorted by time.
    /// Text has control characters made visible, as on the terminal.
    /// Handed to `emit` a lane at a time.
    static func data(startUs start: Int64, endUs: Int64, lanes: some Sequence<TimelineLane>, host: [TimelineEvent],
                     emit: ([UInt8]) -> Void) {
        emit(Array("{\"end\":\(endUs - start),\"lanes\":[".utf8))
        var separator: [UInt8] = []
        func lane(_ events: [TimelineEvent], id: String, title: String, sub: String, device: Bool) {
            var json = JSONWriter(capacity: 1 << 12)
            write(events, id: id, title: title, sub: sub, device: device, start: start, into: &json)
            emit(separator + json.bytes)
            separator = Array(",".utf8)
        }
        for device in lanes {
            let sub = device.device.addresses.map { "\($0.address) (\($0.type.rawValue))" }.joined(separator: ", ")
            lane(device.events, id: device.device.id.description, title: device.title, sub: sub, device: true)
        }
        if !host.isEmpty {
            lane(host, id: "host", title: "Host and capture", sub: "not tied to a device", device: false)
        }
        emit(Array("]}".utf8))
    }

    static func write(_ events: [TimelineEvent], id: String, title: String, sub: String, device: Bool, start: Int64,
                      into json: inout JSONWriter) {
        json.beginObject()
        json.field("id", id)
        json.field("device", device)
        json.field("title", TerminalText.escape(title))
        json.field("sub", TerminalText.escape(sub))
        json.key("spans")
        json.beginArray()
        for event in events where event.kind == .advertising || event.kind == .connected {
            let connection = event.kind == .connected
            let ending = connection ? events.first { other in
                other.connectionID == event.connectionID
                    && (other.kind == .disconnected || other.failureKind == .linkLost || other.failureKind == .danglingConnection)
            } : nil
            let severity = ending?.severity ?? .normal
            json.beginArray()
            json.int(event.timeUs - start)
            if let endUs = event.endUs { json.int(endUs - start) } else { json.null() }
            json.int(severity.rawValue)
            json.int(connection ? 1 : 0)
            let prefix = event.connectionID.map { "\($0) " } ?? ""
            json.string(TerminalText.escape(prefix + event.text + (ending.map { "\n" + $0.text } ?? "")))
            json.endArray()
        }
        json.endArray()
        var marks: [(Int64, Int, MarkKind, String)] = []
        for event in events {
            let prefix = event.connectionID.map { "\($0) " } ?? ""
            let records = event.records.isEmpty ? "" : "  " + event.records.map { "#\($0)" }.joined(separator: " ")
            switch event.kind {
            case .advertising, .connected:
                continue
            case .traffic:
                for detail in event.details {
                    marks.append((detail.timeUs - start, detail.severity.rawValue, .command,
                                  prefix + detail.text + "  " + detail.records.map { "#\($0)" }.joined(separator: " ")))
                }
            case .vendorCommand:
                marks.append((event.timeUs - start, event.severity.rawValue, .command, prefix + event.text + records))
            case .failure:
                marks.append((event.timeUs - start, event.severity.rawValue, .failure, prefix + event.text + records))
                // A run of failures (`VendorFailureRun`) is red at its last failure too, past any listing cap.
                if let endUs = event.endUs, endUs > event.timeUs {
                    marks.append((endUs - start, event.severity.rawValue, .failure, prefix + "last of the run: " + event.text))
                }
            // A warning is marked as a failure is, in yellow.
            case .notice where event.severity == .warning:
                marks.append((event.timeUs - start, event.severity.rawValue, .failure, prefix + event.text + records))
            default:
                marks.append((event.timeUs - start, event.severity.rawValue, .event, prefix + event.text + records))
            }
        }
        json.key("marks")
        json.beginArray()
        for mark in marks.enumerated().sorted(by: { ($0.element.0, $0.offset) < ($1.element.0, $1.offset) }).map(\.element) {
            json.beginArray()
            json.int(mark.0)
            json.int(mark.1)
            json.int(mark.2.rawValue)
            json.string(TerminalText.escape(mark.3))
            json.endArray()
        }
        json.endArray()
        json.endObject()
    }
}
