import ArgumentParser
import Reports
import Sessions

/// Options that choose and shape a report.
struct ReportOptions: ParsableArguments {
    @Option(help: "Which ATT transactions the report lists: all, failed (default) or none. Totals per characteristic are always there.")
    var transactions: SessionOptions.TransactionListing = .failed

    @Option(help: "Colour: auto (only on a terminal, off when NO_COLOR is set), always or never.")
    var color: ColorChoice = .auto

    @Option(name: .shortAndLong, help: "Write the report to this file instead of standard output.")
    var output: String?

    var sessionOptions: SessionOptions { SessionOptions(transactions: transactions) }
}

enum ColorChoice: String, ExpressibleByArgument, CaseIterable { case auto, always, never }
extension SessionOptions.TransactionListing: ExpressibleByArgument {}

/// The formats `report` writes.
enum ReportFormat: String, ExpressibleByArgument, CaseIterable { case text, json }

/// `bledecode CAPTURE`: per-device summary and the failure list; `--json` for the report.
struct Summary: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "summary",
        abstract: "Devices, connections and failures of a capture (the default command).")

    @OptionGroup var input: InputOptions
    @OptionGroup var options: ReportOptions

    @Flag(name: .long, help: "Write the JSON report (docs/report.md) instead of text.")
    var json = false

    func run() throws {
        try ReportRunner(input: input, options: options, format: json ? .json : .text).run()
    }
}

/// `bledecode report CAPTURE --format json|text`.
struct Report: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Write the analysis report in a chosen format.")

    @OptionGroup var input: InputOptions
    @OptionGroup var options: ReportOptions

    @Option(help: "text or json.")
    var format: ReportFormat = .json

    func run() throws {
        try ReportRunner(input: input, options: options, format: format).run()
    }
}

/// Shared by `summary` and `report`: runs the analysis and writes the chosen rendering.
struct ReportRunner {
    var input: InputOptions
    var options: ReportOptions
    var format: ReportFormat

    func run() throws {
        let reader = try input.open()
        let analysis = Analysis.run(reader, options: options.sessionOptions)
        let out = try Output.open(options.output)
        switch format {
        case .json:
            out.write(bytes: ReportJSON.render(analysis, commandLine: CommandLine.arguments.joined(separator: " ")))
            out.write("\n")
        case .text:
            let colour = options.output == nil && Output.colorAllowed(options.color.rawValue)
            out.write(TextSummary(style: Style(enabled: colour)).render(analysis))
        }
        out.flush()
        let code = Diagnostics.report(reader.diagnostics)
        if code != .success { throw code }
    }
}
