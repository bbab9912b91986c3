import BLEAnalysis
import ArgumentParser
import BLEBase
import Foundation
import BLEReports
import BLESessions
import BLEVendorDecoding

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

    func validate() throws {
        if let why = TimeBound.emptyWindow(since: since, until: until) { throw ValidationError(why) }
    }

    var filter: TimelineFilter {
        TimelineFilter(devices: device, since: since, until: until, onlyFailures: onlyFailures,
                       handles: handle.map(\.value), uuids: uuid)
    }
}
