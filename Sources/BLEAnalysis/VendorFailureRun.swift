import BLEBase
import BLESessions
import BLEVendorDecoding

/// A run of vendor failures of one kind on one connection, with no frame that went well between
/// them (a device polled every second that never answers): timelines and Markdown show it as one
/// line, with the true count (failures past the listing cap included) and its span.
public struct VendorFailureRun: Sendable, Equatable {
    public var connection: ConnectionID
    public var device: DeviceID?
    public var kind: FailureKind
    public var firstUs: Int64
    public var lastUs: Int64
    public var firstRecord: Int
    public var count: Int
    /// The commands the failures are about (`READ_STATUS (0x04)`), by count, the first few.
    public var names: [String]
    public var nameCounts: [Int]
    /// The first failure's one-line reason.
    public var firstSummary: String

    /// Runs shorter than this are listed failure by failure.
    public static let fewestSummarized = 4
    /// Distinct commands a run's line spells out.
    static let namesShown = 4

    /// `vendor-no-response: 2674 in a row over 386.8 s (READ_STATUS (0x04) ×2674); the first: …`
    public var text: String { "\(kind.rawValue): " + summary }

    /// `text` without the kind.
    public var summary: String {
        let span = lastUs > firstUs ? " over " + TimelineFormat.duration(lastUs - firstUs) : ""
        let shown = zip(names, nameCounts).prefix(Self.namesShown).map { "\($0) ×\($1)" }
            + (names.count > Self.namesShown ? ["\(names.count - Self.namesShown) other commands"] : [])
        let commands = shown.isEmpty ? "" : " (" + shown.joined(separator: ", ") + ")"
        return "\(count) in a row\(span)\(commands); the first: \(firstSummary)"
    }

    mutating func add(name: String?) {
        guard let name else { return }
        if let i = names.firstIndex(of: name) {
            nameCounts[i] += 1
        } else if names.count < 64 {
            names.append(name)
            nameCounts.append(1)
        }
    }
}

/// The open runs of the links being decoded and the runs long enough to summarise, bounded:
/// at most `maxRuns` kept (past that, failures are listed one by one, as without runs).
struct VendorFailureRuns {
    static let maxRuns = 1000
    private var open: [VendorFailureRun] = []
    private(set) var closed: [VendorFailureRun] = []
    private(set) var dropped = 0

    var hasOpenRuns: Bool { !open.isEmpty }

    /// Counts a failure into its connection's run of its kind.
    mutating func take(_ failure: VendorFailure, kind: FailureKind, device: DeviceID?, name: String?) {
        if let i = open.firstIndex(where: { $0.connection == failure.connection && $0.kind == kind }) {
            open[i].count += 1
            open[i].lastUs = max(open[i].lastUs, failure.timeUs)
            open[i].add(name: name)
            return
        }
        var run = VendorFailureRun(connection: failure.connection, device: device, kind: kind, firstUs: failure.timeUs,
                                   lastUs: failure.timeUs, firstRecord: failure.record, count: 1, names: [], nameCounts: [],
                                   firstSummary: failure.summary)
        run.add(name: name)
        open.append(run)
    }

    /// A frame of `connection` went well: its runs end.
    mutating func close(connection: ConnectionID) {
        guard open.contains(where: { $0.connection == connection }) else { return }
        for run in open where run.connection == connection && run.count >= VendorFailureRun.fewestSummarized {
            if closed.count < Self.maxRuns { closed.append(run) } else { dropped += 1 }
        }
        open.removeAll { $0.connection == connection }
    }

    /// Every connection's runs end (the capture did).
    mutating func closeAll() {
        for connection in Set(open.map(\.connection)) { close(connection: connection) }
    }
}
