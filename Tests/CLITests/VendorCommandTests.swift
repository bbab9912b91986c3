import AnalyzerTestSupport
import Foundation
import Testing

/// Vendor decoding end to end: `verify`, `infer-crc`, and `vendorFrames` in the report, on the
/// demo captures with the demo-lock profile written from the vendor's document.
@Suite(.serialized, .enabled(if: SharedCaptures.present, "needs ../shared/captures next to the package (absent here)"))
struct VendorCommandTests {
    static let profile = "Samples/profiles/demo-lock.yaml"
    static let containers = ["btsnoop", "pcap", "pcapng", "pklg", "ll.pcap"]

    @Test(arguments: containers + ["le.pklg", "nordic.pcap"])
    func verifyFailsOnFaults(container: String) throws {
        let run = try CLI.run(["verify", SharedCaptures.path("synthetic/demo-faults.\(container)"), "--profile", Self.profile])
        #expect(run.status == 1)
        #expect(run.stdout.contains("vendor-crc-mismatch  C"))
        #expect(run.stdout.contains(": checksum does not verify (carries 0x"))
        #expect(run.stdout.hasSuffix("3 vendor failure(s)\n"))
    }

    @Test(arguments: containers)
    func verifyPassesOnClean(container: String) throws {
        let run = try CLI.run(["verify", SharedCaptures.path("synthetic/demo-clean.\(container)"), "--profile", Self.profile])
        #expect(run.status == 0)
        #expect(run.stdout.hasSuffix("all vendor frames verified\n"))
    }

    @Test func verifyNeedsAProfile() throws {
        let run = try CLI.run(["verify", SharedCaptures.path("synthetic/demo-clean.btsnoop")])
        #expect(run.status == 2)
    }

    @Test func aBrokenProfileNamesFileLineAndKey() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("bad-\(getpid()).yaml").path
        try "profile: x\nmatch:\n  companyId: 0x1FFFF\n".write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let run = try CLI.run(["verify", SharedCaptures.path("synthetic/demo-clean.btsnoop"), "--profile", path])
        #expect(run.status == 2)
        #expect(run.stderr == "bledecode: error: \((path as NSString).lastPathComponent):3: match.companyId: must be in 0...65535, not 131071\n")
    }

    /// Listed alone (`--frames failed`), failed frames come as in the full listing, plaintext
    /// included (the sessions then leave it out and the layer asks for it again).
    @Test func failedFramesListedAloneAreWhole() throws {
        func frames(_ listing: String) throws -> [[String: Any]] {
            let run = try CLI.run(["report", SharedCaptures.path("synthetic/demo-faults.btsnoop"), "--profile", Self.profile,
                                   "--frames", listing])
            let report = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any] ?? [:]
            return report["vendorFrames"] as? [[String: Any]] ?? []
        }
        let failed = try frames("failed")
        let all = try frames("all").filter { $0["outcome"] as? String != "ok" }
        let text = { (frame: [String: Any]) in
            String(decoding: (try? JSONSerialization.data(withJSONObject: frame, options: .sortedKeys)) ?? Data(), as: UTF8.self)
        }
        #expect(failed.map(text) == all.map(text))
        #expect(failed.map { "\($0["connection"] ?? "")#\($0["id"] ?? "") \($0["plaintext"] ?? "")" } == [
            "C1#4 ", "C1#5 00010402025551825636", "C1#6 662a131a", "C3#8 6d28170702f5", "C5#4 ", "C5#5 03",
        ])
    }

    /// Every frame of the truth, with its bytes, plaintext, fragments, checksum verdict,
    /// command, sequence, status and the frame it answers; the rotating lock is one device.
    @Test(arguments: ["demo-faults.btsnoop", "demo-clean.btsnoop", "demo-faults.pcapng", "demo-faults.ll.pcap"])
    func vendorFramesEqualTruth(name: String) throws {
        let run = try CLI.run(["report", SharedCaptures.path("synthetic/\(name)"), "--profile", Self.profile])
        let report = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any] ?? [:]
        let truthData = try Data(contentsOf: SharedCaptures.root.appendingPathComponent("synthetic/\(name).truth.json"))
        let truth = try JSONSerialization.jsonObject(with: truthData) as? [String: Any] ?? [:]
        let expected = (truth["vendor_frames"] as? [[String: Any]] ?? [])
        let actual = report["vendorFrames"] as? [[String: Any]] ?? []
        #expect(actual.count == expected.count)
        let rawByTruthID = Dictionary(expected.map { ($0["id"] as? Int ?? -1, $0["raw_hex"] as? String ?? "") },
                                      uniquingKeysWith: { a, _ in a })
        let rawByOurID = Dictionary(actual.map { ("\($0["connection"] ?? "")#\($0["id"] ?? "")", $0["raw"] as? String ?? "") },
                                    uniquingKeysWith: { a, _ in a })
        func key(_ f: [String: Any], truth: Bool) -> String {
            if truth {
                let cmd = Int((f["cmd"] as? String ?? "0x0").dropFirst(2), radix: 16) ?? -1
                let status = (f["status"] as? String).flatMap { Int($0.dropFirst(2), radix: 16) }
                let partner = (f["response_id"] as? Int ?? f["matched_request_id"] as? Int).flatMap { rawByTruthID[$0] }
                return "\(f["raw_hex"] ?? "") \(f["payload_hex"] ?? "") \(f["fragments"] ?? "") \(f["crc_ok"] ?? "") \(cmd) "
                    + "\(f["seq"] ?? "") \(status.map(String.init) ?? "-") \(f["first_record_ts_us"] ?? "") \(partner ?? "-")"
            }
            let partner = (f["matchedFrame"] as? Int).flatMap { rawByOurID["\(f["connection"] ?? "")#\($0)"] }
            return "\(f["raw"] ?? "") \(f["plaintext"] as? String ?? "") \(f["fragments"] ?? "") \(f["crcOk"] ?? "") "
                + "\(f["command"] ?? "") \(f["sequence"] ?? "") \((f["status"] as? Int).map(String.init) ?? "-") "
                + "\(f["firstFragmentTimeUs"] ?? "") \(partner ?? "-")"
        }
        #expect(actual.map { key($0, truth: false) }.sorted() == expected.map { key($0, truth: true) }.sorted())

        let failures = (report["failures"] as? [[String: Any]] ?? []).compactMap { $0["kind"] as? String }
            .filter { $0.hasPrefix("vendor-") }.sorted()
        let kinds = ["vendor_bad_crc": "vendor-crc-mismatch", "vendor_status_fail": "vendor-status-failure",
                     "vendor_no_response": "vendor-no-response"]
        let expectedFailures = (truth["failures"] as? [[String: Any]] ?? []).compactMap { kinds[$0["kind"] as? String ?? ""] }
        #expect(failures == expectedFailures.sorted())

        // Devices: one per embedded MAC; the rotating one keeps both addresses.
        let devices = report["devices"] as? [[String: Any]] ?? []
        let groups = (truth["address_groups"] as? [[String: Any]] ?? []).map {
            [$0["embedded_mac"] as? String ?? "", ($0["addresses"] as? [String] ?? []).sorted().joined(separator: ",")]
        }
        let ours = devices.map { device in
            [(device["identity"] as? [String: Any])?["value"] as? String ?? "",
             (device["addresses"] as? [[String: Any]] ?? []).compactMap { $0["address"] as? String }.sorted().joined(separator: ",")]
        }
        #expect(ours.map { $0.joined(separator: " ") }.sorted() == groups.map { $0.joined(separator: " ") }.sorted())
    }

    @Test func inferCRCFindsTheDemoLockChecksum() throws {
        let run = try CLI.run(["infer-crc", SharedCaptures.path("synthetic/demo-faults.btsnoop"), "--handle", "0x0010", "--limit", "1"])
        #expect(run.status == 0)
        #expect(run.stdout == """
            1. CRC-8/MAXIM-DOW: check value at end-2 over bytes 0 to end-2: verifies 27 of 27
               checksum:
                 algorithm: CRC-8/MAXIM-DOW
                 at: -2
                 range: {from: 0, to: -2}

            """)
    }

    @Test func inferCRCFromHexOnStandardInput() throws {
        let frames = ["aa01590000f455", "aa025a0004662a13193d55", "aa105a00061122334455661f55", "aa115b00008355"]
        let run = try CLI.run(["infer-crc", "-", "--hex", "--limit", "1"], stdin: Data((frames.joined(separator: "\n") + "\n").utf8))
        #expect(run.status == 0)
        #expect(run.stdout.hasPrefix("1. CRC-8/MAXIM-DOW"))
    }

    /// A profile's command code is written as wide as its command field (two bytes for the
    /// treadmill) in the timeline and in annotate's comments, and once per command.
    @Test func commandCodesOneWidthEverywhere() throws {
        let capture = SharedCaptures.path("real/horizon74_btsnoop_hci.log")
        let timeline = try CLI.run([capture, "--profile", "Samples/profiles/horizon-treadmill.yaml"])
        #expect(timeline.status == 0)
        #expect(timeline.stdout.contains("C1    vendor command 0x0116 seq 0x02 ok\n"))
        #expect(!timeline.stdout.contains("0x116"))
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("bledecode-\(UUID().uuidString).pcapng")
        defer { try? FileManager.default.removeItem(at: out) }
        let annotate = try CLI.run(["annotate", capture, "--profile", "Samples/profiles/horizon-treadmill.yaml", "-o", out.path])
        #expect(annotate.status == 0)
        let comments = String(decoding: try Data(contentsOf: out), as: UTF8.self)
        #expect(comments.contains(" 0x0116 "))
        #expect(!comments.contains("0x116"))
    }
}
