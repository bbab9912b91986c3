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

    @Option(help: "json (default), text, html or markdown.")
    var format: ReportFormat?

    func run() throws {
        let chosen = format ?? options.output.flatMap(ReportFormat.init(path:)) ?? .json
        try ReportRunner(input: input, options: options, timeline: timeline, format: chosen).run()
    }
}
