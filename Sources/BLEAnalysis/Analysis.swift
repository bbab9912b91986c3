import BLEBase
import BLECaptureFormats
import BLEPacketDecoding
import BLESessions
import BLEVendorDecoding

/// The whole pipeline over one capture: read → decode → sessions. One pass, one record at a
/// time; what is kept is the session model (live state plus finished connections).
public struct Analysis {
    public var info: CaptureInfo
    public var report: SessionReport
    public var diagnostics: [CaptureDiagnostic]
    public var pipelineIssues: [PacketIssue]
    /// Vendor commands decoded with a profile, for timelines (filled when profiles are given).
    public var vendorCommands: [VendorCommandEvent] = []
    /// Vendor frames as listed in the report (all, failed or none, see `VendorLayer.Listing`).
    public var vendorFrames: [VendorFrame] = []
    /// Per connection, direction and characteristic, in key order: what `verify` tabulates.
    public var vendorTotals: [(key: VendorTotalsKey, value: VendorTotals)] = []
    /// The names of the profiles that were applied.
    public var profiles: [String] = []
    /// What each profile decoded, or why it decoded nothing (the report's `profiles[]`).
    public var profileUses: [ProfileUse] = []
    /// Runs of vendor failures that timelines and Markdown show as one line each.
    public var vendorFailureRuns: [VendorFailureRun] = []

    /// Runs the analysis. `vendorCommands: false` leaves `vendorCommands` empty, for renderings
    /// that do not show them (the JSON report), so memory stays flat. `pipelined` runs reading,
    /// decoding and the sessions on a second thread, a few hundred packets ahead of vendor
    /// decoding (the result is the same; `batch` runs captures side by side instead).
    /// `progress` gets the file offset reached, every few hundred records.
    public static func run(_ reader: any RecordReader, options: SessionOptions = SessionOptions(),
                           profiles: [Profile] = [], frames: VendorLayer.Listing = .all, vendorCommands: Bool = true,
                           pipelined: Bool = true, assignments: [(profile: String, target: ProfileTarget)] = [],
                           progress: ((Int) -> Void)? = nil) -> Analysis {
        var options = options
        let conflicts = ProfileConflicts()
        if options.classifier == nil { options.classifier = VendorLayer.classifier(for: profiles, conflicts: conflicts) }
        var vendor = VendorLayer(profiles: profiles, listing: frames, keepsCommands: vendorCommands, conflicts: conflicts,
                                 assignments: assignments)
        // On threads, reading runs ahead on a third one (the machine's scheduler shares the cores).
        let sessionStage = SessionStage(reader: pipelined ? PrefetchingReader(reader, pacedByUse: true) : reader, options: options)
        var end = pipelined ? SessionThread.run(sessionStage, vendor: &vendor, progress: progress)
            : sessionStage.runInline(vendor: &vendor, progress: progress)
        for event in end.events { vendor.handle(event) }
        // Only for the connections still waiting for a profile: a long capture has thousands of
        // connections, and a device per connection made the report's largest map at its end.
        let unmatched = Set(vendor.unmatchedConnections)
        let devicesByID = unmatched.isEmpty ? [:]
            : Dictionary(end.report.devices.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        let deviceOfConnection = Dictionary(end.report.connections.lazy.filter { unmatched.contains($0.id) }
            .compactMap { c in c.deviceID.flatMap { devicesByID[$0] }.map { (c.id, $0) } }, uniquingKeysWith: { a, _ in a })
        vendor.finish(endUs: end.report.stats.lastTimeUs ?? 0, devices: deviceOfConnection)
        // A vendor command left unanswered on a link still up at the end: the capture stopped
        // first, a warning (as an ATT request's is), not a failure.
        let dangling = Set(end.report.connections.lazy.filter(\.dangling).map(\.id))
        end.report.merge(failures: vendor.failures.map { failure in
            var failure = failure
            if failure.kind == .vendorNoResponse, failure.connectionID.map(dangling.contains) ?? false,
               failure.summary.hasSuffix("before the capture ended") {
                failure.severity = .warning
            }
            return failure
        })
        for (kind, count) in vendor.suppressedFailures { end.report.stats.failuresByKind[kind, default: 0] += count }
        var analysis = Analysis(info: reader.info, report: end.report, diagnostics: reader.diagnostics,
                                pipelineIssues: end.issues)
        analysis.vendorFrames = inStartOrder(vendor.takeFrames())
        analysis.vendorTotals = vendor.takeTotals()
        analysis.vendorCommands = vendor.commands
        analysis.vendorFailureRuns = vendor.failureRuns
        analysis.profiles = profiles.map(\.name)
        // Where a listing stopped: a warning of the whole file.
        func warn(_ message: String) {
            analysis.diagnostics.append(CaptureDiagnostic(severity: .warning, kind: .other, file: reader.info.path,
                                                          recordNumber: nil, byteOffset: nil, message: message))
        }
        for message in conflicts.messages { warn(message) }
        for note in vendor.notes { warn(note) }
        analysis.profileUses = profiles.indices.map { i in
            ProfileUse.make(profiles[i], devices: vendor.profileDevices[i].count, connections: vendor.profileConnections[i],
                            frames: vendor.profileFrames[i], report: analysis.report)
        }
        for use in analysis.profileUses {
            if let why = use.why { warn("profile '\(use.name)' decoded nothing: \(why)") }
        }
        let past = "at most \(SessionAnalyzer.failuresListedPerKind) of them (totals stay complete)"
        if analysis.report.transactionListingCapped {
            warn("more than \(options.transactionsListedPerCapture) ATT transactions: past that, only failed ones are listed, " + past)
        }
        if vendor.listingCapped {
            warn("more than \(VendorLayer.listingCap) vendor frames: past that, only failed frames are listed, " + past)
        }
        return analysis
    }
}

extension Analysis {
    /// The frames in the order they started, those that started together in the order they came
    /// (sessions of concurrent links emit them interleaved). Their order is sorted as indices and
    /// applied in place, by swaps along each cycle of the permutation: the listing is the largest
    /// list the report holds at its end, and sorted as values it would lie in memory three times.
    static func inStartOrder(_ frames: consuming [VendorFrame]) -> [VendorFrame] {
        var frames = frames
        // order[i]: where the frame that goes to position i is now.
        var order = frames.indices.sorted { (frames[$0].firstTimeUs, $0) < (frames[$1].firstTimeUs, $1) }
        for start in order.indices where order[start] != start {
            var position = start
            while order[position] != start {
                let next = order[position]
                frames.swapAt(position, next)
                order[position] = position
                position = next
            }
            order[position] = position
        }
        return frames
    }
}

/// A vendor command and what became of it, as timelines show it; or, with `run`, one line for
/// the middle of a long run of commands that went well (`VendorCommandRun`).
public struct VendorCommandEvent: Sendable {
    public enum Outcome: String, Sendable {
        case ok, failed, noResponse = "no-response", crcMismatch = "crc-mismatch", malformed, unsolicited

        /// The failure a command with this outcome is (docs/report.md), nil when it went well.
        public var failureKind: FailureKind? {
            switch self {
            case .ok, .unsolicited: nil
            case .failed: .vendorStatusFailure
            case .noResponse: .vendorNoResponse
            case .crcMismatch: .vendorCRCMismatch
            case .malformed: .vendorMalformedFrame
            }
        }
    }

    /// The commands a summary line stands for, and that line's text. A class, so that the few
    /// summary lines' fields take no room in every other command's.
    public final class Run: Sendable {
        public let endUs: Int64
        public let count: Int
        /// Failed commands among them, not listed because their kind passed the listing cap.
        public let failed: Int
        /// `89 more commands over 158 s: 89 ok in 53–71 ms (UNLOCK (0x10) ×22, …)`.
        public let summary: String

        public init(endUs: Int64, count: Int, failed: Int, summary: String) {
            self.endUs = endUs
            self.count = count
            self.failed = failed
            self.summary = summary
        }
    }

    public var timeUs: Int64
    public var record: Int
    public var connectionID: ConnectionID
    public var deviceID: DeviceID?
    /// Declared here, its one byte fits after `deviceID`'s (an optional's tag leaves 7 bytes free).
    public var outcome: Outcome
    /// `UNLOCK (0x10)`.
    public var name: String
    public var sequence: Int?
    public var latencyUs: Int64?
    /// What went wrong, in the vendor layer's words (`status 0x03 says the command failed`).
    public var problem: String?
    /// Set when this line stands for several commands; `timeUs`, `record` and `name` are the first one's.
    public var run: Run?

    public init(timeUs: Int64, record: Int, connectionID: ConnectionID, deviceID: DeviceID?, name: String, outcome: Outcome,
                sequence: Int? = nil, latencyUs: Int64?, problem: String? = nil, run: Run? = nil) {
        self.timeUs = timeUs
        self.record = record
        self.connectionID = connectionID
        self.deviceID = deviceID
        self.outcome = outcome
        self.name = name
        self.sequence = sequence
        self.latencyUs = latencyUs
        self.problem = problem
        self.run = run
    }

    /// One line for a person: `UNLOCK (0x10) seq 0x5A ok in 40 ms`, `LOCK (0x11) seq 0x5B failed:
    /// status 0x03`, or the run's. Made when read: a timeline keeps tens of thousands of commands,
    /// and each one's text held with it would be most of the timeline's memory.
    public var summary: String {
        if let run { return run.summary }
        var summary = name + (sequence.map { " seq \(Hex.code($0))" } ?? "")
        switch outcome {
        case .ok: summary += latencyUs.map { " ok in \($0 / 1000) ms" } ?? " ok"
        case .failed: summary += " failed" + (problem.map { ": \($0)" } ?? "")
        case .noResponse: summary += " got no response"
        case .crcMismatch: summary += ": checksum mismatch"
        case .malformed: summary += ": malformed" + (problem.map { " (\($0))" } ?? "")
        case .unsolicited: summary += ": unsolicited"
        }
        return summary
    }
}
