public import Foundation
internal import BLEAnalysis
internal import BLECaptureFormats
internal import BLEReports
internal import BLESessions

/// What a capture held, per device: the report model of docs/report.md as Swift values, and its
/// JSON. Made by `CaptureAnalysis.analyze`.
///
/// Text that comes from the capture (device names, identities, failure summaries that quote them,
/// warnings) is unescaped: it may contain control characters such as ESC, which a terminal obeys,
/// or markup; escape it before printing it to a terminal or putting it in HTML (docs/library.md).
public struct CaptureReport: Sendable {
    /// Every device seen, in the order the capture first showed them (`D1`, `D2`, …).
    public let devices: [Device]
    /// Every connection, in the order they started (`C1`, `C2`, …).
    public let connections: [Connection]
    /// The failures: `count` and `isEmpty` cover them all, `listed` (and iterating) those the
    /// report lists.
    public let failures: Failures
    /// What is worth a look but failed nothing (`warning`) and stack housekeeping (`info`), in
    /// time order; each entry's `count` covers a run of it on one link.
    public let notices: [Failure]
    /// The vendor frames decoded with the profiles, in the order they started.
    public let vendorFrames: [VendorFrame]
    /// The names of the profiles given that decoded at least one vendor frame, in the order
    /// given. A profile that decoded nothing is left out, and `warnings` has a line saying why
    /// (`profile 'demo-lock' decoded nothing: …`).
    public let profiles: [String]
    /// The lines `bledecode` prints on standard error for the capture (there after
    /// `bledecode: warning: ` or `bledecode: error: `, escaped), each starting with the file's
    /// path, unescaped: what the reader found wrong with the file (naming the record and
    /// byte offset); two profiles that match one connection; a connection whose vendor frames
    /// were decoded late or in part while its profile match was pending; why each profile that
    /// decoded nothing did; and where the listing of ATT transactions or vendor frames switched
    /// to failed ones only (`CaptureAnalysis.Options.Listing.all`). Failures cut short at 1,000
    /// of a kind add no line: `failures.count` against `failures.listed.count` shows it.
    public let warnings: [String]
    /// False when the capture is damaged and was read only in part (`bledecode` exits with 1).
    public let readToEnd: Bool

    /// Kept for `jsonData`, which writes the report from the analysis itself.
    private let source: AnalysisBox

    init(_ analysis: Analysis) {
        let report = analysis.report
        devices = report.devices.map(Device.init)
        connections = report.connections.map { Connection($0, devices: report.devices) }
        failures = Failures(report)
        notices = report.notices.map(Failure.init)
        vendorFrames = analysis.vendorFrames.map(VendorFrame.init(captured:))
        profiles = analysis.profileUses.filter { $0.frames > 0 }.map(\.name)
        warnings = analysis.diagnostics.map(\.description)
        readToEnd = !analysis.diagnostics.contains { $0.severity == .error }
        source = AnalysisBox(analysis)
    }

    /// The JSON report (docs/report.md, docs/report.schema.json), byte for byte what
    /// `bledecode report CAPTURE` writes without its final newline when `commandLine` is that
    /// command's line (the report records it as `tool.commandLine`).
    public func jsonData(commandLine: String = "bledecode report") -> Data {
        var data = Data()
        ReportJSON.write(source.analysis, commandLine: commandLine) { data.append(contentsOf: $0) }
        return data
    }
}

/// Holds the analysis a report was made from, which is never changed after it is made.
private final class AnalysisBox: @unchecked Sendable {
    let analysis: Analysis
    init(_ analysis: Analysis) { self.analysis = analysis }
}
