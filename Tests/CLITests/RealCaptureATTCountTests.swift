import AnalyzerTestSupport
import Foundation
import Testing

/// ATT PDUs per opcode from `bledecode packets --json` against tshark's counts on every real
/// capture (../shared/captures/real/README.md, tshark 4.0).
@Suite(.serialized, .enabled(if: SharedCaptures.present, "needs ../shared/captures next to the package (absent here)"))
struct RealCaptureATTCountTests {
    /// Where tshark is wrong from the bytes and the specification (docs/packets-json.md):
    /// whad_ble_discovery.pcap frame 158 repeats frame 157's Find Information Request with the
    /// same sequence number, unacknowledged: a link-layer retransmission of one PDU (Core v5.4
    /// Vol 6 Part B §4.5.9), which tshark itself flags as one and still counts twice; so is
    /// crackle_lesc.pcapng frame 60, the same bytes as frame 59's Exchange MTU Request (SN 0,
    /// NESN 1) with no acknowledgement between them.
    static let tsharkCorrections: [String: [String: Int]] = [
        "whad_ble_discovery.pcap": ["0x04": 6], "crackle_lesc.pcapng": ["0x02": 1],
    ]

    @Test(arguments: SharedCaptures.realCaptures().filter { $0.file != "sardark_btsnooz_hci.log" })
    func attCountsEqualTshark(capture: SharedCaptures.RealCapture) throws {
        let run = try CLI.run(["packets", "--json", SharedCaptures.path("real/\(capture.file)")])
        var counts: [String: Int] = [:]
        for line in run.stdout.split(separator: "\n") {
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            if let att = object?["att"] as? [String: Any], let opcode = att["opcode"] as? Int {
                counts[String(format: "0x%02X", opcode), default: 0] += 1
            }
        }
        let expected = capture.attPDUsByOpcode.merging(Self.tsharkCorrections[capture.file] ?? [:]) { $1 }
        #expect(counts == expected)
    }
}
