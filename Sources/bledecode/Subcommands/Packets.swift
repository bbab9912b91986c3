import ArgumentParser
import PacketDecoding
import Reports

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

    func run() throws {
        let reader = try input.open()
        let out = BufferedOutput()
        var decoder = PacketDecoder()
        var listing = PacketListing(time: absolute ? .absolute : .relative, verbose: verbose)
        while let record = reader.next() {
            let packet = decoder.decode(record)
            if json {
                out.write(bytes: listing.json(packet))
                out.write("\n")
            } else {
                out.line(listing.text(packet))
            }
        }
        out.flush()
        for issue in decoder.finish() {
            Diagnostics.warning("\(reader.info.path): at end of capture: \(issue)")
        }
        let code = Diagnostics.report(reader.diagnostics)
        if code != .success { throw code }
    }
}
