import AnalyzerTestSupport
import Foundation
import Testing

/// `bledecode packets` end to end on the project's own samples.
@Suite(.serialized)
struct PacketsCommandTests {
    static let containers = ["demo-lock.btsnoop", "demo-lock.pcap", "demo-lock.pcapng", "demo-lock.pklg",
                             "demo-lock.le.pklg", "demo-lock.btsnoop.gz"]

    /// Every container of the same scenario lists the same packets.
    @Test(arguments: containers)
    func listingEqualsGolden(sample: String) throws {
        let run = try CLI.run(["packets", CLI.sample(sample)])
        #expect(run.status == 0)
        #expect(run.stderr == "")
        try Golden.check(run.stdout, against: "packets-demo-lock.txt")
    }

    @Test func verboseListingEqualsGolden() throws {
        let run = try CLI.run(["packets", "-v", CLI.sample("demo-lock.btsnoop")])
        #expect(run.status == 0)
        try Golden.check(run.stdout, against: "packets-demo-lock-verbose.txt")
    }

    @Test func jsonLinesEqualGolden() throws {
        let run = try CLI.run(["packets", "--json", CLI.sample("demo-lock.pcapng")])
        #expect(run.status == 0)
        try Golden.check(run.stdout, against: "packets-demo-lock.jsonl")
        let lines = run.stdout.split(separator: "\n")
        #expect(lines.count == 164)
        var attOpcodes: [Int: Int] = [:]
        for line in lines {
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            if let att = object?["att"] as? [String: Any], let opcode = att["opcode"] as? Int {
                attOpcodes[opcode, default: 0] += 1
            }
        }
        // The same counts as `tshark -r Samples/demo-lock.pcapng -T fields -e btatt.opcode`.
        #expect(attOpcodes == [0x01: 8, 0x02: 1, 0x03: 1, 0x04: 6, 0x05: 6, 0x08: 12, 0x09: 8, 0x0A: 2, 0x0B: 1,
                               0x10: 4, 0x11: 2, 0x12: 10, 0x13: 8, 0x1B: 8, 0x52: 1])
    }

    @Test func absoluteTimesAreUTC() throws {
        let run = try CLI.run(["packets", "--absolute", CLI.sample("demo-lock.btsnoop")])
        #expect(run.stdout.split(separator: "\n").first
                == "     1  2024-04-25T08:23:52.000000Z  TX   LE Set Scan Parameters active interval 10.00 ms window 20.00 ms")
    }

    @Test func standardInputIsACapture() throws {
        let bytes = try Data(contentsOf: SharedCaptures.packageRoot.appendingPathComponent("Samples/demo-lock.pcap"))
        let run = try CLI.run(["packets", "-"], stdin: bytes)
        #expect(run.status == 0)
        try Golden.check(run.stdout, against: "packets-demo-lock.txt")
    }

    /// A device name carrying an escape sequence is shown, never executed by the terminal.
    @Test func hostileNamesAreEscaped() throws {
        let run = try CLI.run(["packets", CLI.sample("demo-lock.btsnoop")])
        #expect(!run.stdout.contains("\u{1B}"))
        #expect(run.stdout.contains(#"name "Scale\x1B[31m""#))
    }

    @Test func notACaptureExitsWithTwo() throws {
        let run = try CLI.run(["packets", "Package.swift"])
        #expect(run.status == 2)
        #expect(run.stdout == "")
        #expect(run.stderr == """
            bledecode: error: Package.swift at byte 0: not a capture file (starts with 2f2f207377696674 "// swift"; \
            no btsnoop, pcap, pcapng, gzip or PacketLogger signature)

            """)
    }

    @Test func missingFileExitsWithTwo() throws {
        let run = try CLI.run(["packets", "no-such.btsnoop"])
        #expect(run.status == 2)
        #expect(run.stderr.hasPrefix("bledecode: error: no-such.btsnoop: "))
    }

    @Test func usageErrorExitsWithTwo() throws {
        let run = try CLI.run(["packets", "--no-such-flag", CLI.sample("demo-lock.btsnoop")])
        #expect(run.status == 2)
    }

    @Test(.enabled(if: SharedCaptures.present, "needs ../shared/captures next to the package (absent here)"))
    func truncatedLastRecordIsAWarningAndExitsZero() throws {
        let run = try CLI.run(["packets", SharedCaptures.path("synthetic/demo-faults.btsnoop")])
        #expect(run.status == 0)
        #expect(run.stdout.split(separator: "\n").count == 546)
        #expect(run.stderr == "bledecode: warning: \(SharedCaptures.path("synthetic/demo-faults.btsnoop")): record 547 at byte 23650: file ends inside the record: 30 of 60 bytes\n")
    }

    @Test(.enabled(if: SharedCaptures.present, "needs ../shared/captures next to the package (absent here)"))
    func corruptCaptureExitsWithOne() throws {
        let path = SharedCaptures.path("real/sardark_btsnooz_hci.log")
        let run = try CLI.run(["packets", path])
        #expect(run.status == 1)
        #expect(run.stderr == "bledecode: error: \(path): record 1 at byte 16: impossible included length 3269633792\n")
    }
}
