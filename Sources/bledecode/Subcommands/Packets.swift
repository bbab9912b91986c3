import BLEAnalysis
import ArgumentParser
import BLEBase
import BLEPacketDecoding
import BLEReports
import BLESessions
import BLEVendorDecoding

/// `bledecode packets CAPTURE`: one line per record, like a packet list.
struct Packets: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List every record with the deepest layer decoded (like a packet list).")

    @OptionGroup var input: InputOptions

    @Flag(name: .long, help: "Show times as UTC (ISO 8601) instead of seconds since the first record.")
    var absolute = false

    @Flag(name: .shortAndLong, help: "Print the full layered decode below each record.")
    var verbose = false

    @Flag(name: .long, help: "Write JSON Lines, one object per record (see docs/packets-json.md).")
    var json = false

    @Flag(name: .long, help: "Print values whole (summaries cut them at 32 bytes, -v at 64).")
    var full = false

    @Option(help: "Only packets of this connection (C2). Repeatable.")
    var connection: [ConnectionID] = []

    @Option(help: "Only packets of connections with this device: id (D3), address, identity or part of a name, as the whole capture shows it (from standard input, as known when each packet goes by). Repeatable.")
    var device: [String] = []

    @Option(help: "Only ATT PDUs about this attribute handle (0x0010 or 16; responses count as their request's). Repeatable.")
    var handle: [AttributeHandle] = []

    @Option(help: "Only ATT PDUs about attributes of this characteristic or service UUID (from the discovery seen so far). Repeatable.")
    var uuid: [BluetoothUUID] = []

    @Option(help: "Only records from this time: seconds from the first record (12.5, 1500ms) or UTC (2024-04-25T08:23:55Z).")
    var since: TimeBound?

    @Option(help: "Only records up to this time (same forms as --since).")
    var until: TimeBound?

    @Option(help: "Only these record numbers: 1200-1300, 1200- or 1200.")
    var records: RecordRange?

    @Option(help: "Only packets of this protocol: att, smp, signalling, hci (commands and events) or ll (air). Repeatable.")
    var only: [PacketProtocol] = []

    @Option(name: .customLong("profile"), help: "A vendor profile whose identity rules tie addresses to devices, as in the report (device ids then match it). Repeatable.")
    var profilePaths: [String] = []

    func validate() throws {
        if let why = TimeBound.emptyWindow(since: since, until: until) { throw ValidationError(why) }
    }

    var filter: PacketFilter {
        var filter = PacketFilter()
        filter.connections = connection
        filter.devices = device
        filter.handles = handle.map(\.value)
        filter.uuids = uuid
        filter.since = since
        filter.until = until
        filter.records = records?.range
        filter.only = only
        return filter
    }

    func run() throws {
        var profiles: [Profile] = []
        for path in profilePaths {
            do {
                profiles.append(try ProfileLoader.load(path: path))
            } catch {
                Diagnostics.error(error.description)
                throw ExitCode(2)
            }
        }
        var filter = self.filter
        // A device's name or identity may be learned after its first connections: a first
        // analysis of the file knows each device whole, as the timeline does.
        if !filter.devices.isEmpty, input.capture != "-" {
            let whole = Analysis.run(try input.open(), options: SessionOptions(transactions: .none), profiles: profiles,
                                     vendorCommands: false)
            filter.resolveDevices(in: whole.report.devices)
            for message in TimelineFilter(devices: filter.devices).unmatchedDevices(whole.report.devices) {
                Diagnostics.warning(message)
            }
        }
        let reader = try input.open()
        let out = BufferedOutput()
        var stream = PacketStream(profiles: profiles)
        var listing = PacketListing(time: absolute ? .absolute : .relative, verbose: verbose, full: full)
        var stoppedEarly = false
        var checkedWindow = false
        while let record = reader.next() {
            // A relative and an absolute bound compare once the first record's time is known.
            if !checkedWindow {
                checkedWindow = true
                if let why = TimeBound.emptyWindow(since: since, until: until, startUs: record.timestampUs) {
                    Diagnostics.error(why)
                    throw ExitCode(2)
                }
            }
            if PacketStream.isPast(filter, record) {
                stoppedEarly = true
                break
            }
            listing.start(at: record)
            let (packet, peer) = stream.decode(record)
            guard stream.matches(filter, packet, peer: peer) else { continue }
            if json {
                out.write(bytes: listing.json(packet, peer: peer))
                out.write("\n")
            } else {
                out.line(listing.text(packet, peer: peer))
            }
        }
        out.flush()
        if !stoppedEarly {
            for issue in stream.finish() {
                Diagnostics.warning("\(reader.info.path): at end of capture: \(issue)")
            }
        }
        let code = Diagnostics.report(reader.diagnostics)
        if code != .success { throw code }
    }
}

extension PacketProtocol: ExpressibleByArgument {}

/// `1200-1300`, `1200-` or `1200`.
struct RecordRange: ExpressibleByArgument {
    var range: ClosedRange<Int>
    init?(argument: String) {
        guard let range = PacketFilter.recordRange(argument) else { return nil }
        self.range = range
    }
}
