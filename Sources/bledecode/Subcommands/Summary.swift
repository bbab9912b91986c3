import BLEAnalysis
import ArgumentParser
import BLEBase
import Foundation
import BLEReports
import BLESessions
import BLEVendorDecoding

/// `bledecode CAPTURE`: the per-device timeline; `--format`/`--json` for other renderings.
struct Summary: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "summary",
        abstract: "Per-device timeline of a capture with its failures (the default command).")

    @OptionGroup var input: InputOptions
    @OptionGroup var options: ReportOptions
    @OptionGroup var timeline: TimelineOptions

    @Flag(name: .long, help: "Write the JSON report (docs/report.md) instead of text.")
    var json = false

    @Option(help: "text (default), json, html or markdown.")
    var format: ReportFormat?

    func run() throws {
        let chosen = json ? .json : format ?? options.output.flatMap(ReportFormat.init(path:)) ?? .text
        try ReportRunner(input: input, options: options, timeline: timeline, format: chosen).run()
    }
}
