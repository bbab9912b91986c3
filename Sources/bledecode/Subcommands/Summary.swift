import ArgumentParser
import Foundation
import Reports
import Sessions
import VendorDecoding

/// Options that choose and shape a report.
struct ReportOptions: ParsableArguments {
    @Option(help: "Which ATT transactions the report lists: all, failed (default) or none. Totals per characteristic are always there.")
    var transactions: SessionOptions.TransactionListing = .failed

    @Option(help: "Colour: auto (only on a terminal, off when NO_COLOR is set), always or never.")
    var color: ColorChoice = .auto

    @Option(name: .shortAndLong, help: "Write the report to this file instead of standard output.")
    var output: String?

    @OptionGroup var vendor: ProfileOptions

    var sessionOptions: SessionOptions { SessionOptions(transactions: transactions) }
}

/// Vendor profiles (docs/profiles.md) to decode vendor frames with.
struct ProfileOptions: ParsableArguments {
    @Option(name: .customLong("profile"), help: "A vendor profile (YAML or JSON); repeatable.")
    var profilePaths: [String] = []

    @Option(name: .customLong("profiles"), help: "A folder of vendor profiles (*.yaml, *.yml, *.json).")
    var profileFolder: String?

    @Option(help: "Which vendor frames the report lists: all (default; past 10,000 only failed ones), failed or none.")
    var frames: VendorLayer.Listing = .all

    /// Loads every profile or exits with 2 and the loader's message (file, line, key).
    func load() throws -> [Profile] {
        var paths = profilePaths
        if let folder = profileFolder {
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else {
                Diagnostics.error("\(folder): cannot read the profiles folder")
                throw ExitCode(2)
            }
            paths += names.filter { $0.hasSuffix(".yaml") || $0.hasSuffix(".yml") || $0.hasSuffix(".json") }
                .sorted().map { folder + "/" + $0 }
        }
        var profiles: [Profile] = []
        for path in paths {
            do {
                profiles.append(try ProfileLoader.load(path: path))
            } catch {
                Diagnostics.error(error.description)
                throw ExitCode(2)
            }
        }
        return profiles
    }
}

extension VendorLayer.Listing: ExpressibleByArgument {}

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
        let profiles = try options.vendor.load()
        let reader = try input.open()
        let analysis = Analysis.run(reader, options: options.sessionOptions, profiles: profiles, frames: options.vendor.frames)
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
