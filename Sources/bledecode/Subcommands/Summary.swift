import Analysis
import ArgumentParser
import BLEBase
import Foundation
import Reports
import Sessions
import VendorDecoding

/// Options that choose and shape a report.
struct ReportOptions: ParsableArguments {
    @Option(help: "Which ATT transactions the report lists: all, failed or none (default: failed; all with --verbose or HTML). Totals per characteristic are always there.")
    var transactions: SessionOptions.TransactionListing?

    @Option(help: "Colour: auto (only on a terminal, off when NO_COLOR is set), always or never.")
    var color: ColorChoice = .auto

    @Option(name: .shortAndLong, help: "Write the report to this file instead of standard output (.html, .md and .json choose the format).")
    var output: String?

    @Flag(help: "Replace addresses, identities and names by pseudonyms in every format.")
    var anonymize = false

    @Option(name: .customLong("anonymize-map"), help: "With --anonymize: write the pseudonym → original mapping (JSON) to this file.")
    var anonymizeMap: String?

    @OptionGroup var vendor: ProfileOptions
}

/// Vendor profiles (docs/profiles.md) to decode vendor frames with.
struct ProfileOptions: ParsableArguments {
    @Option(name: .customLong("profile"), help: "A vendor profile (YAML or JSON); repeatable.")
    var profilePaths: [String] = []

    @Option(name: .customLong("profiles"), help: "A folder of vendor profiles (*.yaml, *.yml, *.json).")
    var profileFolder: String?

    @Option(help: "Which vendor frames the report lists: all (default; past 10,000 only failed ones), failed or none.")
    var frames: VendorLayer.Listing = .all

    @Option(name: .customLong("apply"),
            help: "Decode a connection or device with a profile whatever its match rule says: PROFILE=C3 or PROFILE=D2; repeatable.")
    var applied: [String] = []

    /// `--apply`'s pairs, checked against the profiles loaded (exits with 2 on a bad one).
    func assignments(_ profiles: [Profile]) throws -> [(profile: String, target: String)] {
        try applied.map { text in
            let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, let target = parts.last, let first = target.first, first == "C" || first == "D",
                  target.count > 1, target.dropFirst().allSatisfy(\.isNumber) else {
                Diagnostics.error("--apply \(text): expected PROFILE=Cn (a connection) or PROFILE=Dn (a device)")
                throw ExitCode(2)
            }
            guard profiles.contains(where: { $0.name == parts[0] }) else {
                Diagnostics.error("--apply \(text): no profile named '\(parts[0])' was given "
                                  + "(\(profiles.map(\.name).joined(separator: ", ")))")
                throw ExitCode(2)
            }
            return (parts[0], target)
        }
    }

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

/// Options of the timeline: what to show and how.
struct TimelineOptions: ParsableArguments {
    @Option(help: "Only this device: id (D2), address, identity or part of a name. Repeatable.")
    var device: [String] = []

    @Option(help: "Only events from this time: seconds from the first record (12.5, 1500ms) or UTC (2024-04-25T08:23:55Z).")
    var since: TimeBound?

    @Option(help: "Only events up to this time (same forms as --since).")
    var until: TimeBound?

    @Flag(help: "Only failures (the red lines): no warnings, no info.")
    var onlyFailures = false

    @Option(help: "Only events about this attribute handle (0x0010 or 16). Repeatable.")
    var handle: [AttributeHandle] = []

    @Option(help: "Only events about this characteristic or service UUID (2A19, FFE1, or 128-bit). Repeatable.")
    var uuid: [BluetoothUUID] = []

    @Option(help: "Times: relative (seconds from the first record), absolute (UTC) or delta (since the previous line).")
    var time: TimelineTimeFormat = .relative

    @Flag(name: .shortAndLong, help: "Expand summaries down to the transactions, with record numbers (as in Wireshark).")
    var verbose = false

    var filter: TimelineFilter {
        TimelineFilter(devices: device, since: since, until: until, onlyFailures: onlyFailures,
                       handles: handle.map(\.value), uuids: uuid)
    }
}

enum ColorChoice: String, ExpressibleByArgument, CaseIterable { case auto, always, never }
extension SessionOptions.TransactionListing: ExpressibleByArgument {}
extension TimelineTimeFormat: ExpressibleByArgument {}

extension TimeBound: ExpressibleByArgument {
    public init?(argument: String) { self.init(argument) }
}

extension BluetoothUUID: ExpressibleByArgument {
    public init?(argument: String) { self.init(argument) }
}

/// `0x0010` or `16`.
struct AttributeHandle: ExpressibleByArgument {
    var value: UInt16
    init?(argument: String) {
        let lower = argument.lowercased()
        guard let value = lower.hasPrefix("0x") ? UInt16(lower.dropFirst(2), radix: 16) : UInt16(lower) else { return nil }
        self.value = value
    }
}

/// The formats reports are written in.
enum ReportFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json, html, markdown

    /// From `-o`'s extension: `.html`/`.htm`, `.md`/`.markdown`, `.json`.
    init?(path: String) {
        switch (path as NSString).pathExtension.lowercased() {
        case "html", "htm": self = .html
        case "md", "markdown": self = .markdown
        case "json": self = .json
        default: return nil
        }
    }
}

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
            ReportJSON.write(analysis, commandLine: commandLine) { out.write(bytes: $0) }
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
        // piece (every connection, frame and failure of a long capture) was a tail on one core.
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

/// A progress bar on standard error while a long capture is read, only on a terminal and only
/// for files whose size tells how far along the reader is.
struct ProgressReporter {
    private var bar: TimelineProgress
    private let stderr = BufferedOutput(fileDescriptor: 2, capacity: 1 << 10)

    init?(path: String, compressed: Bool) {
        guard isatty(2) == 1, !compressed, path != "-",
              let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size]) as? Int,
              size >= TimelineProgress.minimumBytes else { return nil }
        bar = TimelineProgress(totalBytes: size)
    }

    mutating func advance(to offset: Int) {
        guard let line = bar.update(offset: offset, nowUs: Self.now()) else { return }
        stderr.write("\r" + line)
        stderr.flush()
    }

    func finish() {
        guard bar.drawn else { return }
        stderr.write("\r\u{1B}[K")
        stderr.flush()
    }

    static func now() -> Int64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Int64(spec.tv_sec) * 1_000_000 + Int64(spec.tv_nsec) / 1_000
    }
}
