import CaptureFormats
import PacketDecoding
import Sessions
import VendorDecoding

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
    /// Per connection, direction and characteristic: what `verify` tabulates.
    public var vendorTotals: [VendorTotalsKey: VendorTotals] = [:]
    /// Per listed frame (`connection#id`): the record and time of its first L2CAP fragment.
    public var vendorFirstFragments: [String: (record: Int, timeUs: Int64)] = [:]
    /// The names of the profiles that were applied.
    public var profiles: [String] = []

    /// Runs the analysis; `onPacket` sees each decoded packet and what the sessions made of it
    /// (for callers that render as they go). `vendorCommands: false` leaves `vendorCommands`
    /// empty, for renderings that do not show them (the JSON report), so memory stays flat.
    /// `pipelined` reads and decodes on a second thread, a few hundred packets ahead of the
    /// session analysis (the result is the same; `batch` runs captures side by side instead).
    public static func run(_ reader: any RecordReader, options: SessionOptions = SessionOptions(),
                           profiles: [Profile] = [], frames: VendorLayer.Listing = .all, vendorCommands: Bool = true,
                           pipelined: Bool = true, onPacket: ((DecodedPacket, [SessionEvent]) -> Void)? = nil) -> Analysis {
        var options = options
        if options.classifier == nil { options.classifier = VendorLayer.classifier(for: profiles) }
        var stages = AnalysisStages(sessions: SessionAnalyzer(options: options),
                                    vendor: VendorLayer(profiles: profiles, listing: frames, keepsCommands: vendorCommands),
                                    onPacket: onPacket)
        let issues = pipelined ? DecodingThread.decode(reader, into: &stages) : decodeInline(reader, into: &stages)
        // Finished in place: a copy of the stages would duplicate the whole session model.
        var (report, endEvents) = stages.sessions.finish(diagnostics: reader.diagnostics, pipelineIssues: issues)
        for event in endEvents { stages.vendor.handle(event, sessionsAnalyzer: &stages.sessions) }
        stages.vendor.finish(endUs: report.stats.lastTimeUs ?? 0)
        let vendor = stages.vendor
        report.merge(failures: vendor.failures)
        for (kind, count) in vendor.suppressedFailures { report.stats.failuresByKind[kind, default: 0] += count }
        var analysis = Analysis(info: reader.info, report: report, diagnostics: reader.diagnostics, pipelineIssues: issues)
        // In the order they started (sessions of concurrent links emit them interleaved).
        analysis.vendorFrames = vendor.frames.enumerated()
            .sorted { ($0.element.firstTimeUs, $0.offset) < ($1.element.firstTimeUs, $1.offset) }.map(\.element)
        analysis.vendorTotals = vendor.totals
        let listed = Set(analysis.vendorFrames.map { "\($0.connection)#\($0.id)" })
        analysis.vendorFirstFragments = vendor.firstFragments.filter { listed.contains($0.key) }
        analysis.vendorCommands = vendor.commands
        analysis.profiles = profiles.map(\.name)
        if vendor.listingCapped {
            analysis.diagnostics.append(CaptureDiagnostic(
                severity: .warning, kind: .other, file: reader.info.path, recordNumber: nil, byteOffset: nil,
                message: "more than \(VendorLayer.listingCap) vendor frames: past that, only failed frames are listed, at most \(SessionAnalyzer.failuresListedPerKind) of them (totals stay complete)"))
        }
        return analysis
    }

    /// Reads and decodes on the calling thread.
    private static func decodeInline(_ reader: any RecordReader, into stages: inout AnalysisStages) -> [PacketIssue] {
        var decoder = PacketDecoder()
        while let record = reader.next() { stages.take(decoder.decode(record)) }
        return decoder.finish()
    }
}

/// The analysis above packet decoding, one packet at a time: sessions, then vendor decoding.
struct AnalysisStages {
    var sessions: SessionAnalyzer
    var vendor: VendorLayer
    let onPacket: ((DecodedPacket, [SessionEvent]) -> Void)?
    /// Reused from packet to packet (no array per packet).
    private var events: [SessionEvent] = []

    init(sessions: SessionAnalyzer, vendor: VendorLayer, onPacket: ((DecodedPacket, [SessionEvent]) -> Void)?) {
        self.sessions = sessions
        self.vendor = vendor
        self.onPacket = onPacket
    }

    mutating func take(_ packet: DecodedPacket) {
        events.removeAll(keepingCapacity: true)
        sessions.process(packet, into: &events)
        for event in events { vendor.handle(event, sessionsAnalyzer: &sessions) }
        onPacket?(packet, events)
    }
}

/// A vendor command and what became of it, as timelines show it.
public struct VendorCommandEvent: Sendable {
    public enum Outcome: String, Sendable { case ok, failed, noResponse = "no-response", crcMismatch = "crc-mismatch",
                                            malformed, unsolicited }
    public var timeUs: Int64
    public var record: Int
    public var connectionID: String
    public var deviceID: String?
    /// `UNLOCK (0x10)`.
    public var name: String
    public var outcome: Outcome
    public var latencyUs: Int64?
    /// One line for a person: `UNLOCK seq 0x5A ok in 40 ms`, `LOCK seq 0x5B failed: status 0x03`.
    public var summary: String

    public init(timeUs: Int64, record: Int, connectionID: String, deviceID: String?, name: String, outcome: Outcome,
                latencyUs: Int64?, summary: String) {
        self.timeUs = timeUs
        self.record = record
        self.connectionID = connectionID
        self.deviceID = deviceID
        self.name = name
        self.outcome = outcome
        self.latencyUs = latencyUs
        self.summary = summary
    }
}
