import BLEAnalysis
import ArgumentParser
import BLEBase
import Foundation
import BLEReports
import BLESessions
import BLEVendorDecoding

/// `bledecode report CAPTURE --format json|text|html|markdown`.
struct Report: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Write the analysis report in a chosen format.")

    @OptionGroup var input: InputOptions
    @OptionGroup var options: ReportOptions
    @OptionGroup var timeline: TimelineOptions

    @Flag(name: .long, help: "Write the JSON report (the default format; as the default command takes it).")
    var json = false

    @Option(help: "json (default), text, html or markdown.")
    var format: ReportFormat?

    func validate() throws {
        if json, let format, format != .json { throw ValidationError("--json and --format \(format.rawValue) ask for two formats") }
    }

    func run() throws {
        let chosen = json ? .json : format ?? options.output.flatMap(ReportFormat.init(path:)) ?? .json
        try ReportRunner(input: input, options: options, timeline: timeline, format: chosen).run()
    }
}
