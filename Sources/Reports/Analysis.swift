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
