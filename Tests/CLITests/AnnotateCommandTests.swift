import AnalyzerTestSupport
import BLECaptureFormats
import Foundation
import Testing

/// `bledecode annotate`: the capture as pcapng with the findings as packet comments, read back
/// with libpcap (bledecode's own pcapng reader) and with tshark.
@Suite(.serialized)
struct AnnotateCommandTests {
    static let profile = "Samples/profiles/demo-lock.yaml"
    /// Every format of the shared synthetic captures: btsnoop, pcap, pcapng, PacketLogger (both
    /// byte orders), btsnooz, an Android bug report, and air captures (LE LL with pseudo-header, Nordic).
    static let synthetic = ["demo-faults.btsnoop", "demo-faults.pcap", "demo-faults.pcapng", "demo-faults.pklg",
                            "demo-faults.le.pklg", "demo-faults.btsnooz_hci.log", "demo-faults.bugreport.txt",
                            "demo-faults.ll.pcap", "demo-faults.nordic.pcap", "demo-clean.ll.pcap", "demo-clean.pcapng"]

    /// Writes `capture` annotated into a temporary file; its path and the command's run.
    static func annotate(_ capture: String) throws -> (path: String, run: CLIRun) {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("bledecode-annotate-\(UUID().uuidString).pcapng").path
        let run = try CLI.run(["annotate", capture, "-o", out, "--profile", profile])
        return (out, run)
    }

    static func records(_ path: String) throws -> [CaptureRecord] {
        let reader = try CaptureFile.open(path)
        var records: [CaptureRecord] = []
        while let record = reader.next() { records.append(record) }
        return records
    }

    /// Frame N of the output is record N of the capture, with its time, direction and bytes.
    static func checkRoundTrip(_ capture: String) throws {
        let (out, run) = try annotate(capture)
        defer { try? FileManager.default.removeItem(atPath: out) }
        #expect(run.status == 0 || run.status == 1, "\(run.stderr)")
        let original = try records(capture)
        let copy = try records(out)
        #expect(copy.count == original.count)
        #expect(run.stdout.hasPrefix("\(out): \(original.count) packets, "))
        for (a, b) in zip(original, copy) {
            #expect(a.index == b.index && a.timestampUs == b.timestampUs)
            switch a.kind {
            case .hciCommand, .hciEvent, .aclData, .scoData, .isoData, .linkLayer:
                #expect(a.kind == b.kind && a.direction == b.direction && a.payload == b.payload,
                        "record \(a.index) of \(capture)")
                #expect(a.originalLength == b.originalLength)
            default:
                // Notes and control records are kept as monitor System Notes (docs/wireshark.md).
                #expect(b.kind == .note(.systemNote), "record \(a.index) of \(capture)")
            }
        }
    }

    /// Each comment is one finding, `bledecode KIND: …`; the kinds counted against the JSON report.
    static func checkComments(_ capture: String) throws {
        let (out, _) = try annotate(capture)
        defer { try? FileManager.default.removeItem(atPath: out) }
        let comments = try Tshark.comments(out)
        #expect(comments.count == (try records(capture)).count)
        var kinds: [String: Int] = [:]
        for comment in comments.joined() {
            #expect(comment.hasPrefix("bledecode "), "\(comment)")
            let kind = comment.dropFirst("bledecode ".count).prefix { $0 != ":" }
            kinds[String(kind), default: 0] += 1
        }
        let report = try CLI.run(["report", "--format", "json", "--frames", "all", capture, "--profile", profile])
        let json = try #require(try JSONSerialization.jsonObject(with: Data(report.stdout.utf8)) as? [String: Any])
        var expected: [String: Int] = [:]
        // Failures and notices alike: each entry is one comment.
        for finding in (json["failures"] as? [[String: Any]] ?? []) + (json["notices"] as? [[String: Any]] ?? []) {
            expected[finding["kind"] as? String ?? "?", default: 0] += 1
        }
        let connections = json["connections"] as? [[String: Any]] ?? []
        expected["connection-start"] = connections.count
        expected["connection-end"] = connections.filter { !($0["endUs"] is NSNull) && $0["endUs"] != nil }.count
        expected["vendor-frame"] = (json["vendorFrames"] as? [Any])?.count ?? 0
        #expect(kinds == expected.filter { $0.value > 0 }, "\(capture)")
    }

    @Test(arguments: PacketsCommandTests.containers)
    func everyRecordIsKept(sample: String) throws {
        try Self.checkRoundTrip(CLI.sample(sample))
    }

    @Test(.enabled(if: SharedCaptures.present, "needs ../shared/captures next to the package (absent here)"),
          arguments: synthetic)
    func everyRecordOfEveryFormatIsKept(capture: String) throws {
        try Self.checkRoundTrip(SharedCaptures.path("synthetic/" + capture))
    }

    @Test(.enabled(if: Tshark.present, "needs tshark (Debian package tshark; .ci/run installs it), not installed here"), arguments: PacketsCommandTests.containers)
    func tsharkShowsOneCommentPerFinding(sample: String) throws {
        try Self.checkComments(CLI.sample(sample))
    }

    @Test(.enabled(if: Tshark.present && SharedCaptures.present, "needs tshark and ../shared/captures (one is absent here)"),
          arguments: synthetic)
    func tsharkShowsTheFindingsOfEveryFormat(capture: String) throws {
        try Self.checkComments(SharedCaptures.path("synthetic/" + capture))
    }

    /// The findings sit on the packets they are about, as Wireshark numbers them.
    @Test(.enabled(if: Tshark.present, "needs tshark (Debian package tshark; .ci/run installs it), not installed here"))
    func commentsSitOnTheirFrames() throws {
        let (out, run) = try Self.annotate(CLI.sample("demo-lock.btsnoop"))
        defer { try? FileManager.default.removeItem(atPath: out) }
        #expect(run.status == 0)
        let comments = try Tshark.comments(out)
        #expect(comments[1] == ["bledecode hci-command-failed: LE Set Scan Parameters failed: Invalid HCI Command Parameters (0x12), answered by Command Complete"])
        #expect(comments[30] == [#"bledecode connection-start: C1 with D1 "LOCK-A101", central role"#])
        #expect(comments[129] == ["bledecode att-error: Write Request to Battery Level (2A19) failed: Write Not Permitted (0x03) [C2 D2]"])
        #expect(comments[86].contains { $0.hasPrefix("bledecode vendor-frame: C1 device-to-host handle 0x0012: LOCK response (0x91) seq 0x5B: status 0x03 failed; checksum ok") })
        #expect(comments[86].contains { $0.hasPrefix("bledecode vendor-status-failure: ") })
        // A READ_LOG response in 4 notifications: on its last fragment, naming its first.
        #expect(comments[139].contains { $0.contains("READ_LOG response (0xA0) seq 0xC3") && $0.hasSuffix("; 4 fragments from frame 137") })
        #expect(comments[144] == ["bledecode connection-end: C2 with D2 \"LOCK-B7B2\" ended: Connection Timeout (0x08)",
                                  "bledecode link-lost: Link to LOCK-B7B2 (C8:2B:96:41:07:B2) lost: Connection Timeout (0x08) [C2 D2]"])
        // The unanswered request's finding sits on the request.
        #expect(comments[142].last == "bledecode att-no-response: Write Request to FFE1 never answered: the link went down first (Connection Timeout) [C2 D2]")
        #expect(comments[163].last?.hasPrefix("bledecode dangling-connection: ") == true)
        // tshark reads the link types: H4 with pseudo-header, with the direction flags.
        let fields = try Tshark.run(["-r", out, "-T", "fields", "-e", "frame.encap_type", "-e", "hci_h4.direction", "-c", "2"])
        #expect(fields.stdout.split(separator: "\n").map { $0.split(separator: "\t").count } == [2, 2])
    }

    @Test func standardInputIsRefused() throws {
        let run = try CLI.run(["annotate", "-", "-o", "/dev/null"])
        #expect(run.status == 2)
        #expect(run.stderr == "bledecode: error: annotate reads the capture twice: give a file, not standard input\n")
    }
}
