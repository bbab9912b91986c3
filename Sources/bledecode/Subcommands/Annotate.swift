import BLEAnalysis
import ArgumentParser
import BLECaptureFormats
import BLEReports
import BLESessions

/// `bledecode annotate CAPTURE -o OUT.pcapng`: the capture for Wireshark, with bledecode's
/// findings as packet comments.
struct Annotate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write the capture as pcapng with bledecode's findings as packet comments (Wireshark's frame.comment).",
        discussion: """
            Every record becomes one packet, unchanged, so frame N in Wireshark is record N here. \
            Comments start with 'bledecode KIND:': a failure kind, vendor-frame (on a frame's last \
            fragment), connection-start or connection-end. See docs/wireshark.md.
            """)

    @OptionGroup var input: InputOptions

    @Option(name: .shortAndLong, help: "The pcapng file to write.")
    var output: String

    @OptionGroup var vendor: ProfileOptions

    func run() throws {
        // The capture is read twice: once to analyse it, once to copy it with the comments.
        guard input.capture != "-" else {
            Diagnostics.error("annotate reads the capture twice: give a file, not standard input")
            throw ExitCode(2)
        }
        let profiles = try vendor.load()
        let analysis = Analysis.run(try input.open(), options: SessionOptions(transactions: .none), profiles: profiles,
                                    frames: vendor.frames, vendorCommands: false)
        var annotations = Annotations(analysis)
        let reader = try input.open()
        let out = try Output.open(output)
        var writer = PcapngWriter(application: "bledecode \(ToolVersion.current)") { out.write(bytes: $0) }
        var held: CaptureRecord?
        var packets = 0
        while let record = reader.next() {
            if let previous = held {
                writer.write(previous, comments: annotations.comments(for: previous, nextTimeUs: record.timestampUs))
            }
            held = record
            packets += 1
        }
        if let last = held { writer.write(last, comments: annotations.comments(for: last, nextTimeUs: nil)) }
        out.flush()
        let kinds = annotations.counts.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        let summary = BufferedOutput()
        summary.line("\(output): \(packets) packets, \(annotations.total) comments" + (kinds.isEmpty ? "" : " (\(kinds))"))
        summary.flush()
        let code = Diagnostics.report(analysis.diagnostics)
        if code != .success { throw code }
    }
}
