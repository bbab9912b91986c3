import CaptureFormats
import PacketDecoding
import Sessions

/// The whole pipeline over one capture: read → decode → sessions. One pass, one record at a
/// time; what is kept is the session model (live state plus finished connections).
public struct Analysis {
    public var info: CaptureInfo
    public var report: SessionReport
    public var diagnostics: [CaptureDiagnostic]
    public var pipelineIssues: [PacketIssue]
    /// Vendor commands decoded with a profile, for timelines (filled when profiles are given).
    public var vendorCommands: [VendorCommandEvent] = []

    /// Runs the analysis; `onPacket` sees each decoded packet and what the sessions made of it
    /// (for callers that render as they go).
    public static func run(_ reader: any RecordReader, options: SessionOptions = SessionOptions(),
                           onPacket: ((DecodedPacket, [SessionEvent]) -> Void)? = nil) -> Analysis {
        var decoder = PacketDecoder()
        var sessions = SessionAnalyzer(options: options)
        while let record = reader.next() {
            let packet = decoder.decode(record)
            let events = sessions.process(packet)
            onPacket?(packet, events)
        }
        let issues = decoder.finish()
        let (report, _) = sessions.finish(diagnostics: reader.diagnostics, pipelineIssues: issues)
        return Analysis(info: reader.info, report: report, diagnostics: reader.diagnostics, pipelineIssues: issues)
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
