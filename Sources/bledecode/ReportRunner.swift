import BLEAnalysis
import ArgumentParser
import BLEBase
import Foundation
import BLEReports
import BLESessions
import BLEVendorDecoding

/// Shared by `summary` and `report`: runs the analysis and writes the chosen rendering.
struct ReportRunner {
    var input: InputOptions
    var options: ReportOptions
    var timeline: TimelineOptions
    var format: ReportFormat

    func run() throws {
        let profiles = try options.vendor.load()
        let reader = try input.open()
        let listing = options.transactions ?? (format == .html || timeline.verbose ? .all : .failed)
        var progress = ProgressReporter(path: reader.info.path, compressed: reader.info.compressed)
        // Vendor command events feed the timelines only (text and HTML); only the JSON report
        // reads the frames.
        var analysis = Analysis.run(reader, options: SessionOptions(transactions: listing), profiles: profiles,
                                    frames: format == .json ? options.vendor.frames : .none,
                                    vendorCommands: format == .text || format == .html,
                                    assignments: try options.vendor.assignments(profiles)) { offset in
            progress?.advance(to: offset)
        }
        progress?.finish()
        if let why = TimeBound.emptyWindow(since: timeline.since, until: timeline.until,
                                           startUs: analysis.report.stats.firstTimeUs) {
            Diagnostics.error(why)
            throw ExitCode(2)
        }
        for message in timeline.filter.unmatchedDevices(analysis.report.devices) { Diagnostics.warning(message) }
        var commandLine = (["bledecode"] + CommandLine.arguments.dropFirst()).joined(separator: " ")
        if options.anonymize {
            let anonymizer = Anonymizer(analysis)
            analysis = anonymizer.apply(to: analysis)
            commandLine = anonymizer.scrub(commandLine)
            if let path = options.anonymizeMap {
                let map = try Output.open(path)
                map.write(bytes: anonymizer.mappingJSON())
                map.write("\n")
                map.flush()
            }
        }
        let out = try Output.open(options.output)
        switch format {
        case .json:
            ReportJSON.write(analysis, commandLine: commandLine, to: { out.write(bytes: $0) })
            out.write("\n")
        case .text:
            let colour = options.output == nil && Output.colorAllowed(options.color.rawValue)
            TimelineText(style: Style(enabled: colour), time: timeline.time, verbose: timeline.verbose)
                .render(analysis, building: TimelineBuilder(analysis), filter: timeline.filter) { out.write($0) }
        case .html:
            HTMLReport.render(analysis, building: TimelineBuilder(analysis), filter: timeline.filter,
                              commandLine: commandLine) { out.write($0) }
        case .markdown:
            out.write(MarkdownReport.render(analysis, commandLine: commandLine))
        }
        out.flush()
        // The process ends next and its memory goes back at once: freeing the analysis piece by
        // piece (every connection, frame and failure of a long capture) would be a tail on one core.
        Self.keptUntilExit = AnalysisBox(analysis)
        // The reader's findings, and the listings the analysis cut short (transactions, vendor frames).
        let code = Diagnostics.report(analysis.diagnostics)
        if code != .success { throw code }
    }

    private final class AnalysisBox {
        let analysis: Analysis
        init(_ analysis: Analysis) { self.analysis = analysis }
    }

    /// Set once, by the one report a process writes, and read by nobody.
    nonisolated(unsafe) private static var keptUntilExit: AnalysisBox?
}
