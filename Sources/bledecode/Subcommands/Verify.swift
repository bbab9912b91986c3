import Analysis
import ArgumentParser
import BLEBase
import Reports
import Sessions
import VendorDecoding

/// `bledecode verify CAPTURE --profile P`: checks every vendor frame of recorded traffic.
/// Exit 0 when everything verifies, 1 when anything fails, 2 for usage or input errors.
struct Verify: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Verify the vendor frames of a capture against profiles (checksums, framing, responses).",
        discussion: "Exit codes: 0 every frame verified and every command succeeded; 1 something failed; 2 usage or input error.")

    @OptionGroup var input: InputOptions
    @OptionGroup var vendor: ProfileOptions

    @Flag(help: "Write the table as JSON.")
    var json = false

    func validate() throws {
        if vendor.profilePaths.isEmpty && vendor.profileFolder == nil {
            throw ValidationError("verify needs at least one --profile or --profiles folder")
        }
    }

    func run() throws {
        let profiles = try vendor.load()
        let reader = try input.open()
        let analysis = Analysis.run(reader, options: SessionOptions(transactions: .none), profiles: profiles, frames: .failed,
                                    assignments: try vendor.assignments(profiles))
        let out = BufferedOutput()
        let rows = analysis.vendorTotals.sorted { $0.key < $1.key }
        let vendorFailures = analysis.report.failures.filter { $0.kind.rawValue.hasPrefix("vendor-") }
        if json {
            var w = JSONWriter()
            w.beginObject()
            w.field("capture", analysis.info.path)
            w.key("profiles")
            w.value(.list(analysis.profiles.map { .string($0) }))
            w.key("rows")
            w.beginArray()
            for (key, total) in rows {
                w.beginObject()
                w.field("device", optional: total.device)
                w.field("connection", key.connection)
                w.field("direction", key.direction)
                w.field("handle", key.handle)
                w.field("frames", total.frames)
                w.field("checksumGood", total.checksumGood)
                w.field("checksumBad", total.checksumBad)
                w.field("malformed", total.malformed)
                w.field("unanswered", total.unanswered)
                w.field("failed", total.failed)
                w.field("unsolicited", total.unsolicited)
                w.field("ok", total.allGood)
                w.endObject()
            }
            w.endArray()
            w.key("failures")
            w.beginArray()
            for failure in vendorFailures {
                w.beginObject()
                w.field("kind", failure.kind.rawValue)
                w.field("timeUs", failure.timeUs)
                w.field("connection", optional: failure.connectionID)
                w.field("record", optional: failure.record)
                w.field("summary", failure.summary)
                w.endObject()
            }
            w.endArray()
            w.field("verified", !rows.isEmpty && vendorFailures.isEmpty)
            w.endObject()
            out.write(bytes: w.bytes)
            out.write("\n")
        } else {
            out.line("device  connection  direction       handle  frames  crc ok  crc bad  malformed  unanswered  failed  unsolicited")
            for (key, total) in rows {
                let cells = [total.device ?? "-", key.connection, key.direction, Hex.code(key.handle, width: 4),
                             String(total.frames), String(total.checksumGood), String(total.checksumBad),
                             String(total.malformed), String(total.unanswered), String(total.failed), String(total.unsolicited)]
                let widths = [6, 10, 14, 6, 6, 6, 7, 9, 10, 6, 11]
                out.line(zip(cells, widths).map { $0.0.padding(toLength: max($0.1, $0.0.count), withPad: " ", startingAt: 0) }
                    .joined(separator: "  "))
            }
            // Each failure with where to look: connection, record, time from the capture's start.
            let startUs = analysis.report.stats.firstTimeUs ?? 0
            for failure in vendorFailures {
                let place = [failure.connectionID ?? "-", failure.record.map { "record \($0)" } ?? "record -",
                             "+" + String(format: "%.3f s", Double(failure.timeUs - startUs) / 1_000_000)]
                out.line(failure.kind.rawValue + "  " + place.joined(separator: "  ") + "  " + TerminalText.escape(failure.summary))
            }
            out.line(rows.isEmpty ? "no vendor frames found for the profiles given"
                     : vendorFailures.isEmpty ? "all vendor frames verified" : "\(vendorFailures.count) vendor failure(s)")
        }
        out.flush()
        // The reader's diagnostics and the analysis' warnings (profiles that overlap).
        _ = Diagnostics.report(analysis.diagnostics)
        if rows.isEmpty || !vendorFailures.isEmpty { throw ExitCode(1) }
    }
}
