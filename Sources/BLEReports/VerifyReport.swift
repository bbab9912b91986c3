import BLEAnalysis
import BLEBase
import Foundation
import BLESessions

/// What `bledecode verify` writes: per connection, direction and characteristic, how the vendor
/// frames fared (`Analysis.vendorTotals`), then each vendor failure with where to look, as a
/// table for a person or as JSON.
public struct VerifyReport {
    public let analysis: Analysis
    /// The table's rows, in the order of their keys.
    public let rows: [(key: VendorTotalsKey, value: VendorTotals)]
    /// The vendor failures (kinds `vendor-…`), in the report's order.
    public let vendorFailures: [Failure]

    public init(_ analysis: Analysis) {
        self.analysis = analysis
        rows = analysis.vendorTotals
        vendorFailures = analysis.report.failures.filter { $0.kind.rawValue.hasPrefix("vendor-") }
    }

    /// True when frames were found and none failed (`verify` exits 0).
    public var verified: Bool { !rows.isEmpty && vendorFailures.isEmpty }

    public func writeJSON(to out: BufferedOutput) {
        var w = JSONWriter()
        w.beginObject()
        w.field("capture", analysis.info.path)
        // As the report's `profiles[]`: what each decoded, or why it decoded nothing.
        ReportJSON.profiles(analysis, into: &w)
        w.key("rows")
        w.beginArray()
        for (key, total) in rows {
            w.beginObject()
            w.field("device", optional: total.device)
            w.field("connection", key.connection.description)
            w.field("direction", key.direction)
            w.field("handle", key.handle)
            w.field("frames", total.frames)
            w.field("checksumGood", total.checksumGood)
            w.field("checksumBad", total.checksumBad)
            w.field("malformed", total.malformed)
            w.field("unanswered", total.unanswered)
            w.field("failed", total.failed)
            w.field("unsolicited", total.unsolicited)
            w.field("firstRecord", total.firstRecord)
            w.field("lastRecord", total.lastRecord)
            w.field("firstTimeUs", total.firstTimeUs)
            w.field("lastTimeUs", total.lastTimeUs)
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
    }

    public func writeTable(to out: BufferedOutput) {
        // Times from the capture's start, as in the failure lines.
        let startUs = analysis.report.stats.firstTimeUs ?? 0
        func time(_ us: Int64) -> String { "+" + String(format: "%.3f s", Double(us - startUs) / 1_000_000) }
        out.line("device  connection  direction       handle  frames  crc ok  crc bad  malformed  unanswered  failed  unsolicited"
                 + "  records    time")
        for (key, total) in rows {
            // Where the row's frames lie: first and last record and time.
            let cells = [total.device?.description ?? "-", key.connection.description, key.direction, Hex.code(key.handle, width: 4),
                         String(total.frames), String(total.checksumGood), String(total.checksumBad),
                         String(total.malformed), String(total.unanswered), String(total.failed), String(total.unsolicited),
                         "\(total.firstRecord)…\(total.lastRecord)", time(total.firstTimeUs) + " … " + time(total.lastTimeUs)]
            let widths = [6, 10, 14, 6, 6, 6, 7, 9, 10, 6, 11, 9, 0]
            out.line(zip(cells, widths).map { $0.0.padding(toLength: max($0.1, $0.0.count), withPad: " ", startingAt: 0) }
                .joined(separator: "  "))
        }
        // Each failure with where to look: connection, record, time from the capture's start.
        for failure in vendorFailures {
            let place = [failure.connectionID?.description ?? "-", failure.record.map { "record \($0)" } ?? "record -", time(failure.timeUs)]
            out.line(failure.kind.rawValue + "  " + place.joined(separator: "  ") + "  " + TerminalText.escape(failure.summary))
        }
        out.line(rows.isEmpty ? "no vendor frames found for the profiles given"
                 : vendorFailures.isEmpty ? "all vendor frames verified" : "\(vendorFailures.count) vendor failure(s)")
    }
}
